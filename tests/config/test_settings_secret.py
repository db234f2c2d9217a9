"""The built-in development SECRET_KEY never serves requests with DEBUG off (issue 11): a web server
refuses to start with a message; with DEBUG on, or with a key of its own, it starts. Commands and
workers, which serve no requests, keep working without configuration."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from config.checks import (
    DEVELOPMENT_KEY_REFUSED,
    check_secret_key_is_set,
    refuse_development_secret_key,
)

BASE_DIR = Path(settings.BASE_DIR)
REFUSED = "SECRET_KEY is not set and DEBUG is off"


def environ(tmp_path: Path, **values: str) -> dict[str, str]:
    """A fresh clone's environment (nothing configured), outside pytest, on files of its own."""
    env = dict(os.environ)
    for name in (
        "PYTEST_VERSION",  # set by pytest: the refusal leaves test runs alone
        "SECRET_KEY",
        "DEBUG",
        "CELERY_BROKER_URL",
        "CACHE_URL",
        "CHANNEL_LAYER_URL",
    ):
        env.pop(name, None)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    env["LUZI_BROKER_DIR"] = str(tmp_path)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return env | values


def python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_the_web_entry_points_refuse_the_development_key_with_debug_off(
    tmp_path: Path, module: str
) -> None:
    result = python(f"import {module}", environ(tmp_path, DEBUG="false"))
    assert result.returncode != 0
    assert REFUSED in result.stderr and "Set SECRET_KEY" in result.stderr


@pytest.mark.parametrize(
    "values",
    [{"DEBUG": "true"}, {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)}],
    ids=["debug", "own-key"],
)
def test_the_web_entry_points_start_with_debug_or_a_key(
    tmp_path: Path, values: dict[str, str]
) -> None:
    result = python("import config.wsgi, config.asgi; print('ready')", environ(tmp_path, **values))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ready")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1"]
        + ["--port", str(port), "--log-level", "warning"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return server, port


def test_a_server_started_without_a_key_and_debug_off_exits_with_the_message(
    tmp_path: Path,
) -> None:
    server, _ = _serve(environ(tmp_path, DEBUG="false"))
    try:
        _, stderr = server.communicate(timeout=120)
    finally:
        server.kill()
    assert server.returncode != 0
    assert REFUSED in stderr


def test_a_server_with_its_own_key_serves(tmp_path: Path) -> None:
    env = environ(
        tmp_path, DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1"
    )
    server, port = _serve(env)
    try:
        deadline = time.monotonic() + 60
        status = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    status = r.status
            except urllib.error.HTTPError as answer:  # it serves (the database is not migrated)
                status = answer.code
            except OSError:
                time.sleep(0.3)
                continue
            break
        assert status is not None, server.stderr.read() if server.poll() is not None else "silent"
    finally:
        server.terminate()
        server.wait(30)


def test_commands_need_no_key(tmp_path: Path) -> None:
    # migrate, load_demo, the Celery worker: no requests, so no refusal (a fresh clone, CI).
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=environ(tmp_path, DEBUG="false"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_the_refusal_in_process(settings: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.delenv("PYTEST_VERSION", raising=False)
    settings.DEBUG = False  # type: ignore[attr-defined]
    settings.SECRET_KEY = settings.LUZI_DEV_SECRET_KEY  # type: ignore[attr-defined]
    with pytest.raises(ImproperlyConfigured, match=REFUSED):
        refuse_development_secret_key()
    assert DEVELOPMENT_KEY_REFUSED.startswith(REFUSED)
    settings.DEBUG = True  # type: ignore[attr-defined]
    refuse_development_secret_key()
    settings.DEBUG = False  # type: ignore[attr-defined]
    settings.SECRET_KEY = secrets.token_urlsafe(50)  # type: ignore[attr-defined]
    refuse_development_secret_key()
    # Under pytest (PYTEST_VERSION set) the development key is allowed: the tests' own servers.
    monkeypatch.setenv("PYTEST_VERSION", "9")
    settings.SECRET_KEY = settings.LUZI_DEV_SECRET_KEY  # type: ignore[attr-defined]
    refuse_development_secret_key()


WEAK = "SECRET_KEY is too weak and DEBUG is off"


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_the_web_entry_points_refuse_a_weak_key_with_debug_off(tmp_path: Path, module: str) -> None:
    # issue 25: SECRET_KEY=x was accepted
    result = python(f"import {module}", environ(tmp_path, DEBUG="false", SECRET_KEY="x"))
    assert result.returncode != 0
    assert WEAK in result.stderr and "at least 50 characters" in result.stderr
    assert "ImproperlyConfigured" in result.stderr


@pytest.mark.parametrize(
    "key",
    [
        "x",
        "short-but-varied-0123456789",  # 27 characters
        "ab" * 40,  # long, two characters
        "django-insecure-" + secrets.token_urlsafe(50),  # Django's generated development key
    ],
    # fixed ids: a random key in the id differs between pytest-xdist's processes
    ids=["one-character", "27-characters", "two-distinct", "django-insecure"],
)
def test_a_weak_key_is_refused_in_process_and_by_check_deploy(
    settings: object, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.delenv("PYTEST_VERSION", raising=False)
    settings.DEBUG = False  # type: ignore[attr-defined]
    settings.SECRET_KEY = key  # type: ignore[attr-defined]
    with pytest.raises(ImproperlyConfigured, match=WEAK):
        refuse_development_secret_key()
    assert [error.id for error in check_secret_key_is_set()] == ["luzi.E003"]
    settings.DEBUG = True  # type: ignore[attr-defined]
    refuse_development_secret_key()  # a laptop may use any key


def test_a_strong_key_passes_check_deploy(settings: object) -> None:
    settings.SECRET_KEY = secrets.token_urlsafe(50)  # type: ignore[attr-defined]
    assert check_secret_key_is_set() == []
