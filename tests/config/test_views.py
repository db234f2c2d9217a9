"""/healthz: 200 when the database and the broker answer, 503 naming what failed."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client

from config import health

pytestmark = pytest.mark.django_db


def test_healthz_ok_with_the_configured_database_and_broker(client: Client) -> None:
    # Locally: SQLite and the filesystem broker. In CI: PostgreSQL and Redis.
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "status": "ok",
        "failed": [],
        "checks": {"database": {"ok": True}, "broker": {"ok": True}},
    }
    assert "no-cache" in response["Cache-Control"]


def test_healthz_503_when_the_broker_is_unreachable(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    started = time.monotonic()
    response = client.get("/healthz")
    assert time.monotonic() - started < 5
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail" and body["failed"] == ["broker"]
    assert body["checks"]["database"] == {"ok": True}
    assert body["checks"]["broker"]["ok"] is False
    assert "127.0.0.1:1" in body["checks"]["broker"]["error"]


def test_healthz_503_when_the_filesystem_broker_folder_is_missing(
    client: Client, settings: Any, tmp_path: Any
) -> None:
    settings.CELERY_BROKER_URL = "filesystem://"
    missing = str(tmp_path / "gone")
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": missing,
        "data_folder_out": missing,
        "control_folder": missing,
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["broker"]


class _BrokenConnection:
    def cursor(self) -> Any:
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")


def test_healthz_503_when_the_database_is_unreachable(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "connections", {"default": _BrokenConnection()})
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["database"]
    assert "port 5432 failed" in body["checks"]["database"]["error"]


def test_healthz_refuses_other_methods(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
