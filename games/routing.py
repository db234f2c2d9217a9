"""WebSocket routes (config/asgi.py mounts them)."""

from django.urls import path

from games.realtime import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
