"""Reachability checks for /healthz: the database and the Celery broker, each with a short
timeout."""

from __future__ import annotations

import os
from dataclasses import dataclass

from django.conf import settings
from django.db import connections
from kombu import Connection


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
