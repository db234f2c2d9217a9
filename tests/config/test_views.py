"""/healthz: 200 when the database and the broker answer and live matches make progress, 503
naming what failed."""

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
        "checks": {"database": {"ok": True}, "broker": {"ok": True}, "worker": {"ok": True}},
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


def _live_match(*, idle: float, deadline_in: float | None = None):
    """An online table's match being played whose last progress was ``idle`` seconds ago."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Deal, Match
    from tests.games.factories import TableFactory

    then = timezone.now() - timedelta(seconds=idle)
    match = Match.objects.create(
        table=TableFactory(), status=Match.Status.PLAYING, current_deal=1, started_at=then
    )
    deadline = None if deadline_in is None else timezone.now() + timedelta(seconds=deadline_in)
    deal = Deal.objects.create(
        match=match, number=1, dealer_seat=0, level_rank=2, seed=0, turn_deadline=deadline
    )
    Deal.objects.filter(pk=deal.pk).update(started_at=then)
    Match.objects.filter(pk=match.pk).update(created_at=then)
    return match


def test_healthz_503_when_live_matches_make_no_progress(client: Client, settings: Any) -> None:
    # Issue 15: a dead or stalled worker leaves live matches where they are.
    settings.LUZI_WORKER_STALL_SECONDS = 60
    _live_match(idle=5)  # just dealt: fine
    _live_match(idle=600, deadline_in=20)  # a person is thinking within their time: fine
    assert client.get("/healthz").status_code == 200
    stalled = _live_match(idle=600)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["worker"]
    assert f"tables {stalled.table_id}" in body["checks"]["worker"]["error"]
    assert "60 s" in body["checks"]["worker"]["error"]
    settings.LUZI_WORKER_STALL_SECONDS = 3600
    assert client.get("/healthz").status_code == 200


def test_a_match_just_created_is_not_stalled() -> None:
    from games.models import Match
    from tests.games.factories import TableFactory

    Match.objects.create(table=TableFactory(), status=Match.Status.PLAYING)  # no deal yet
    assert health.stalled_tables(seconds=60) == []


def test_a_finished_or_offline_match_never_counts_as_stalled() -> None:
    from games.models import Match, Table

    finished = _live_match(idle=600)
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED, end_reason="deals")
    offline = _live_match(idle=600)
    Table.objects.filter(pk=offline.table_id).update(mode=Table.Mode.OFFLINE)
    assert health.stalled_tables(seconds=60) == []
    assert health.check_worker(seconds=60).ok
