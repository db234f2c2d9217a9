"""ASGI entry point: Django for HTTP, Channels for the live tables' WebSockets."""

import os

from config.asgi_http import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()  # set up Django before importing the consumers

from config.checks import refuse_development_secret_key  # noqa: E402

refuse_development_secret_key()  # never serve with the public development key and DEBUG off

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        # AllowedHostsOriginValidator refuses pages of other sites (cross-site WebSocket hijacking);
        # AuthMiddlewareStack reads the session cookie, so a socket knows its user and seat.
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
