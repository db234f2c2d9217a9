"""Django's HTTP side under ASGI with its middleware run synchronously, one thread hop per request.

Django's own ASGI handler runs the middleware in async mode wherever a middleware allows it, and
adapts between modes wherever one does not: WhiteNoise is synchronous only, so a request went
from the event loop to a thread (SecurityMiddleware, WhiteNoise), back to the event loop
(sessions, locale, CSRF, authentication, messages, axes, each of whose hooks then hopped to a
thread and back), and to a thread again for the view, which is synchronous like every view
here. Each hop to the event loop waits behind whatever the loop is doing; at a busy table server
the loop is pushing states to WebSockets, so the hops were the slow tail of a player's action
(bench/bench_play_http.py). Here the whole chain and the view run in the request's own thread
(the ``ThreadSensitiveContext`` that the handler opens per request), as under WSGI: one hop.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class SyncMiddlewareASGIHandler(ASGIHandler):
    """An :class:`~django.core.handlers.asgi.ASGIHandler` whose middleware chain is synchronous."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # thread_sensitive: the request's own thread, the one whose database connection the
        # request_finished signal closes
        response: Any = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        return response


def get_asgi_application() -> SyncMiddlewareASGIHandler:
    """Like :func:`django.core.asgi.get_asgi_application`, with the synchronous chain."""
    import django

    django.setup(set_prefix=False)
    return SyncMiddlewareASGIHandler()
