"""WebSocket routes (config/asgi.py mounts them).

A table's id is a positive 64-bit integer (config.converters); any other path (``/ws/tables/0/``,
``/ws/tables/abc/``, a 20-digit id, an unknown path) is refused with 4404 at the handshake, never
a 500 with a traceback in the log."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from config import converters  # noqa: F401  (registers <id:...>)
from games.live.consumers import CLOSE_NOT_FOUND, TableConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Every path that names no table: the handshake is refused."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)


websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
