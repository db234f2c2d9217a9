"""Proxy headers are believed only as TRUSTED_PROXY_COUNT says (issue 25): by default (0) the
client's address is the connection's peer, so rotating X-Forwarded-For escapes neither the
password lockout nor the login-code guess limit, in the test client and in the image's own
uvicorn command; behind one proxy the address is the one that proxy appended."""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.cache import caches
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts import services
from config.auth import client_address
from config.env import Env
from tests import workers
from tests.games.factories import UserFactory

BASE_DIR = Path(settings.BASE_DIR)
LOGIN = reverse("accounts:login")
CODE_LOGIN = reverse("accounts:code_login")
RIGHT = "correct horse battery"
LIMIT = settings.AXES_FAILURE_LIMIT


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    caches["strict"].clear()


def _login(client: Client, username: str, password: str, forwarded: str) -> int:
    data = {"username": username, "password": password}
    response = client.post(LOGIN, data, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    return response.status_code


def _code(client: Client, code: str, forwarded: str) -> int:
    response = client.post(
        CODE_LOGIN, {"code": code}, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded
    )
    return response.status_code


def test_the_count_comes_from_the_environment() -> None:
    assert Env.from_environ({}).trusted_proxy_count == 0
    assert Env.from_environ({"TRUSTED_PROXY_COUNT": "2"}).trusted_proxy_count == 2
    with pytest.raises(Exception, match="TRUSTED_PROXY_COUNT"):
        Env.from_environ({"TRUSTED_PROXY_COUNT": "-1"})


@pytest.mark.parametrize(
    ("count", "forwarded", "address"),
    [
        (0, "203.0.113.9", "127.0.0.1"),
        (1, "203.0.113.9", "203.0.113.9"),
        (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # the client's own entry is ignored
        (2, "6.6.6.6, 203.0.113.9, 10.0.0.2", "203.0.113.9"),
        (1, "", "127.0.0.1"),
        (1, "not-an-address", "127.0.0.1"),
        (1, "2001:DB8::1", "2001:db8::1"),
    ],
)
def test_the_address_taken(settings: object, count: int, forwarded: str, address: str) -> None:
    settings.TRUSTED_PROXY_COUNT = count  # type: ignore[attr-defined]
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == address


@pytest.mark.django_db
def test_with_no_proxy_rotating_x_forwarded_for_does_not_escape_the_lockout(
    settings: object,
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0  # type: ignore[attr-defined]
    UserFactory(username="li", password=RIGHT)
    client = Client()
    for n in range(LIMIT):  # another account and another "address" each time
        _login(client, f"nobody{n}", "wrong", f"198.51.100.{n}")
    assert _login(client, "li", RIGHT, "192.0.2.200") == 429


@pytest.mark.django_db
def test_with_no_proxy_rotating_x_forwarded_for_does_not_escape_the_code_limit(
    settings: object,
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0  # type: ignore[attr-defined]
    code = services.login_code_issue(user=UserFactory())
    client = Client()
    for n in range(services.CODE_ATTEMPTS):
        assert _code(client, "ZZZZ-ZZZZ", f"198.51.100.{n}") == 400
    assert _code(client, code, "192.0.2.200") == 400  # the right code, refused: wait
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_behind_one_proxy_the_address_is_the_one_the_proxy_gave(settings: object) -> None:
    settings.TRUSTED_PROXY_COUNT = 1  # type: ignore[attr-defined]
    UserFactory(username="li", password=RIGHT)
    UserFactory(username="wang", password=RIGHT)
    guesser = Client()
    for n in range(LIMIT):  # the guesser rotates what it sends; the proxy appends its address
        _login(guesser, f"nobody{n}", "wrong", f"198.51.100.{n}, 203.0.113.5")
    assert _login(guesser, "li", RIGHT, "192.0.2.1, 203.0.113.5") == 429
    # another visitor behind the same proxy is another address: not locked out
    assert _login(Client(), "wang", RIGHT, "203.0.113.6") == 302


@pytest.mark.django_db
def test_behind_one_proxy_the_code_limit_counts_the_proxy_given_address(
    settings: object,
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1  # type: ignore[attr-defined]
    code = services.login_code_issue(user=UserFactory())
    guesser = Client()
    for n in range(services.CODE_ATTEMPTS):
        _code(guesser, "ZZZZ-ZZZZ", f"198.51.100.{n}, 203.0.113.5")
    assert _code(guesser, code, "192.0.2.1, 203.0.113.5") == 400
    assert _code(Client(), code, "203.0.113.6") == 302


# --- the image's uvicorn command -------------------------------------------------------------


def image_commands() -> list[str]:
    """The uvicorn command of the Dockerfile's CMD and of docker-compose.yml's web service."""
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    cmd = re.search(r'^CMD .*exec (uvicorn [^"]+)"', dockerfile, re.M)
    assert cmd, "the Dockerfile's CMD runs uvicorn"
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    web = re.search(r"exec (uvicorn [^\"]+)", compose["services"]["web"]["command"])
    assert web, "the web service runs uvicorn"
    return [cmd.group(1).strip(), web.group(1).strip().replace("$${", "${")]


def test_the_dockerfile_and_compose_run_the_same_uvicorn_command() -> None:
    dockerfile, compose = image_commands()
    assert dockerfile == compose
    assert "--no-proxy-headers" in dockerfile.split()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.django_db(transaction=True)
def test_the_image_command_ignores_x_forwarded_for_from_the_same_host(tmp_path: Path) -> None:
    UserFactory(username="li", password=RIGHT)
    port = _free_port()
    args = image_commands()[0].replace("${WEB_CONCURRENCY:-2}", "1").split()
    args[args.index("--host") + 1] = "127.0.0.1"
    args[args.index("--port") + 1] = str(port)
    env = dict(os.environ)
    env.pop("TRUSTED_PROXY_COUNT", None)  # the default
    env |= {
        "DATABASE_URL": workers.test_database_url(),
        "DEBUG": "true",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LUZI_BROKER_DIR": str(tmp_path),
    }
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", *args, "--log-level", "warning"],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect())
        deadline = time.monotonic() + 60
        while True:
            try:
                page = opener.open(base + LOGIN, timeout=10).read().decode()
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "server.log").read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.3)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token

        def login(username: str, password: str, forwarded: str) -> int:
            body = urllib.parse.urlencode(
                {"username": username, "password": password, "csrfmiddlewaretoken": token[1]}
            ).encode()
            request = urllib.request.Request(
                base + LOGIN, data=body, headers={"X-Forwarded-For": forwarded}
            )
            try:
                return int(opener.open(request, timeout=30).status)
            except urllib.error.HTTPError as answer:
                return answer.code

        statuses = [login(f"nobody{n}", "wrong", f"198.51.100.{n}") for n in range(LIMIT)]
        assert statuses[: LIMIT - 1] == [200] * (LIMIT - 1), statuses  # the form, its error
        assert login("li", RIGHT, "192.0.2.200") == 429
    finally:
        server.terminate()
        server.wait(30)
        log.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None
