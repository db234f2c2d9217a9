"""WebSocket routes (config/asgi.py mounts them)."""

from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from games.realtime import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
]
