"""Checks for /healthz: the database and the Celery broker are reachable (each with a short
timeout), and the worker makes progress on live matches (no match stalled for longer than
``LUZI_WORKER_STALL_SECONDS``)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connections
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone
from kombu.connection import Connection


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One dependency's state: ``ok``, and the error text when it is not."""

    name: str
    ok: bool
    error: str = ""

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, **({"error": self.error} if self.error else {})}


def check_database(alias: str = "default") -> CheckResult:
    """Return whether ``SELECT 1`` runs on the database ``alias``."""
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "unreachable" here, reported, never raised
        return CheckResult("database", False, f"{type(exc).__name__}: {exc}")
    return CheckResult("database", True)


def check_broker(url: str | None = None, *, timeout: float | None = None) -> CheckResult:
    """Return whether the Celery broker at ``url`` (default: settings) accepts a connection."""
    url = url or settings.CELERY_BROKER_URL
    timeout = settings.HEALTHZ_BROKER_TIMEOUT if timeout is None else timeout
    options = (
        dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS) if url == settings.CELERY_BROKER_URL else {}
    )
    if url.startswith("filesystem://"):
        folders = [
            str(options.get(key, ""))
            for key in ("data_folder_in", "data_folder_out", "control_folder")
        ]
        missing = [f for f in folders if not f or not os.access(f, os.W_OK)]
        if missing:
            return CheckResult(
                "broker", False, f"broker folders not writable: {', '.join(missing)}"
            )
        return CheckResult("broker", True)
    options.setdefault("socket_connect_timeout", timeout)
    options.setdefault("socket_timeout", timeout)
    options.setdefault("max_retries", 0)
    try:
        with Connection(url, connect_timeout=timeout, transport_options=options) as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=timeout
            )
            conn.default_channel  # noqa: B018  (opens a channel: the broker really answers)
    except Exception as exc:  # reported, never raised
        return CheckResult("broker", False, f"{type(exc).__name__}: {exc}")
    return CheckResult("broker", True)


#: How long live matches may go without progress before the worker counts as stalled (seconds);
#: settings.LUZI_WORKER_STALL_SECONDS overrides it.
WORKER_STALL_SECONDS = 120.0


def stall_seconds() -> float:
    """The configured time without progress after which a live match counts as stalled."""
    return float(getattr(settings, "LUZI_WORKER_STALL_SECONDS", WORKER_STALL_SECONDS))


def stalled_tables(
    *, seconds: float | None = None, table_ids: Iterable[int] | None = None
) -> list[int]:
    """The online tables whose match is being played but has made no progress for ``seconds``:
    no action, no new deal, and no turn whose timer still runs (the worker plays a seat whose time
    is up, so a turn long past its deadline means no worker is playing)."""
    from games.models import Action, Deal, Match, Table

    cutoff = timezone.now() - timedelta(seconds=stall_seconds() if seconds is None else seconds)
    last_action = (
        Action.objects.filter(deal__match=OuterRef("pk"))
        .order_by("-created_at")
        .values("created_at")[:1]
    )
    last_deal = Deal.objects.filter(match=OuterRef("pk")).order_by("-number")
    current = Deal.objects.filter(match=OuterRef("pk"), number=OuterRef("current_deal"))
    matches = Match.objects.filter(status=Match.Status.PLAYING, table__mode=Table.Mode.ONLINE)
    if table_ids is not None:
        matches = matches.filter(table_id__in=list(table_ids))
    stalled = matches.annotate(
        acted=Subquery(last_action),
        dealt=Subquery(last_deal.values("started_at")[:1]),
        ended=Subquery(last_deal.values("finished_at")[:1]),
        deadline=Subquery(current.values("turn_deadline")[:1]),
    ).filter(
        *(
            Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__lt": cutoff})
            for field in ("created_at", "started_at", "acted", "dealt", "ended", "deadline")
        )
    )
    return sorted(stalled.values_list("table_id", flat=True))


def check_worker(*, seconds: float | None = None) -> CheckResult:
    """Return whether the live matches make progress (a stalled or dead worker does not)."""
    seconds = stall_seconds() if seconds is None else seconds
    try:
        stalled = stalled_tables(seconds=seconds)
    except Exception as exc:  # reported, never raised (the database check names the cause)
        return CheckResult("worker", False, f"{type(exc).__name__}: {exc}")
    if stalled:
        shown = ", ".join(str(t) for t in stalled[:10]) + (" ..." if len(stalled) > 10 else "")
        return CheckResult(
            "worker",
            False,
            f"{len(stalled)} live match(es) made no progress for {seconds:g} s (tables {shown})",
        )
    return CheckResult("worker", True)
