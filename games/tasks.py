"""Celery tasks of the card room (issue 5 adds the game play). Thin: they take ids and call a
service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="games.ping")
def ping() -> str:
    """Return "pong": lets an operator check that a worker consumes the queues."""
    return "pong"
