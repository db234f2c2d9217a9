"""A live ASGI server (uvicorn, in a thread of the test process, on the test database) and
Debian's Chromium driven by Playwright.

Without /usr/bin/chromium the browser tests skip with the reason, except in CI (CI=true), where
they fail: .ci/run installs chromium.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live_asgi(transactional_db: Any, settings: Any) -> Iterator[str]:
    """The site (HTTP, static files, WebSockets) at http://127.0.0.1:PORT, on the test database."""
    import uvicorn
    from channels.routing import ProtocolTypeRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application
    from config.asgi_http import get_asgi_application

    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    # the site's own HTTP handler, built now: its middleware reads the test's settings when built
    app = ProtocolTypeRouter(
        {
            "http": ASGIStaticFilesHandler(get_asgi_application()),  # no collectstatic needed
            "websocket": application.application_mapping["websocket"],
        }
    )
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=2,  # open WebSockets must not keep the server alive
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        if thread.is_alive():  # a loaded machine: stop now rather than leak a running server
            server.force_exit = True
            thread.join(10)
        # The server's event loop used the process's channel layer; later tests get a fresh one
        # (a Redis layer refuses to receive from two event loops at once).
        from channels.layers import channel_layers

        channel_layers.backends.clear()


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Debian's headless Chromium under Playwright."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing in CI: .ci/run must install chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium to run browser tests)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # plain blocking calls between browser steps, which is safe here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        watched = CspWatchedBrowser(chromium)
        try:
            yield watched
        finally:
            chromium.close()
        # every page of the test worked under the site's Content-Security-Policy
        assert not watched.violations, "\n".join(watched.violations)


class CspWatchedBrowser:
    """The browser, whose pages' console messages about the Content-Security-Policy (an inline
    script or style, a handler, a connection the policy refuses) are kept in ``violations``."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.violations: list[str] = []

    def _record(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(message.text)

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = self._browser.new_context(*args, **kwargs)
        context.on("console", self._record)
        return context

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self._browser.new_page(*args, **kwargs)
        page.on("console", self._record)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)
