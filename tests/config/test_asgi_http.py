"""The site's HTTP side under ASGI (config.asgi_http): pages, sessions, CSRF and errors answer as
under WSGI, with the whole middleware chain and the view in the request's own thread."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from asgiref.sync import iscoroutinefunction
from channels.testing import HttpCommunicator
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from django.utils.deprecation import MiddlewareMixin

from config.asgi import django_application
from config.asgi_http import SyncMiddlewareASGIHandler
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _plain_http(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = False


_seen: dict[str, Any] = {}


def _where(request: HttpRequest) -> HttpResponse:
    _seen["view"] = threading.get_ident()
    return HttpResponse("ok")


urlpatterns = [path("where/", _where)]


async def _request(
    method: str, url: str, body: bytes = b"", headers: list[tuple[bytes, bytes]] | None = None
) -> dict[str, Any]:
    headers = [(b"host", b"localhost"), *(headers or [])]
    # a handler built now: the middleware reads the (test's) settings when it is built
    handler = SyncMiddlewareASGIHandler()
    communicator = HttpCommunicator(handler, method, url, body=body, headers=headers)
    return await communicator.get_response(timeout=10)


def test_the_http_handler_is_the_synchronous_chain() -> None:
    assert isinstance(django_application, SyncMiddlewareASGIHandler)


def test_a_page_and_the_health_check_answer_over_asgi() -> None:
    from asgiref.sync import async_to_sync

    health = async_to_sync(_request)("GET", "/healthz")
    assert health["status"] == 200
    page = async_to_sync(_request)("GET", "/")
    assert page["status"] == 200 and "text/html" in dict(page["headers"])[b"Content-Type"].decode()


def test_an_api_post_without_csrf_is_refused_with_a_message() -> None:
    from asgiref.sync import async_to_sync

    user = UserFactory()
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    answer = async_to_sync(_request)(
        "POST",
        "/api/v1/tables/999999/actions/",
        body=json.dumps({"action": "pass", "cards": "", "seq": 0}).encode(),
        headers=[(b"cookie", cookie), (b"content-type", b"application/json")],
    )
    assert answer["status"] == 403
    assert "detail" in json.loads(answer["body"])


@pytest.mark.parametrize(
    ("handler_class", "async_middleware"),
    [(SyncMiddlewareASGIHandler, False), (ASGIHandler, True)],
)
def test_the_middleware_runs_synchronously_in_the_views_thread(
    settings: Any, handler_class: type[ASGIHandler], async_middleware: bool
) -> None:
    """With the site's handler a middleware that could run either way runs synchronously, in the
    view's thread (Django's own handler, for contrast, runs it on the event loop's side)."""
    from asgiref.sync import async_to_sync

    settings.ROOT_URLCONF = __name__
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.ModeNoting"]
    _seen.clear()
    communicator = HttpCommunicator(
        handler_class(), "GET", "/where/", headers=[(b"host", b"localhost")]
    )
    answer = async_to_sync(communicator.get_response)(timeout=10)
    assert answer["status"] == 200 and answer["body"] == b"ok"
    assert _seen["async_mode"] is async_middleware
    if not async_middleware:
        assert _seen["view"] == _seen["middleware_thread"] != threading.get_ident()


class ModeNoting(MiddlewareMixin):
    """A middleware that runs either way (as Django's own do); it notes how it was run."""

    def process_request(self, request: HttpRequest) -> None:
        _seen["async_mode"] = iscoroutinefunction(self.get_response)
        _seen["middleware_thread"] = threading.get_ident()
