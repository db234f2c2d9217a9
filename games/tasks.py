"""Celery tasks of the card room. Thin: they take ids and a token, and call a service; a task
whose token is stale (the state moved on) does nothing, so duplicates and late timers are safe."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from celery import shared_task

from games.play import locking as play_locking
from games.play import services as play_services

logger = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])


def _quiet_if_gone(task: F) -> F:
    """A task for a match that no longer exists does nothing (and says so in the log)."""

    @functools.wraps(task)
    def run(*args: Any) -> Any:
        try:
            return task(*args)
        except play_locking.MatchGone as exc:
            logger.info("%s: %s", task.__name__, exc.message)
            return False

    return run  # type: ignore[return-value]


@shared_task(name="games.ping")
def ping() -> str:
    """Return "pong": lets an operator check that a worker consumes the queues."""
    return "pong"


@shared_task(name="games.bot_turn")
@_quiet_if_gone
def bot_turn(match_id: int, number: int, seq: int, seat: int) -> bool:
    """A bot's turn at a table with people: one action."""
    return play_services.bot_act(match_id=match_id, number=number, seq=seq, seat=seat)


@shared_task(name="games.bot_deal")
@_quiet_if_gone
def bot_deal(match_id: int, number: int) -> bool:
    """A whole deal of an all-bot table, its actions written in bulk."""
    return play_services.bot_deal_play(match_id=match_id, number=number)


@shared_task(name="games.turn_timeout")
@_quiet_if_gone
def turn_timeout(match_id: int, number: int, seq: int, seat: int) -> bool:
    """A seat's time ran out: the system acts for it (unless it acted already)."""
    return play_services.seat_timeout(match_id=match_id, number=number, seq=seq, seat=seat)


@shared_task(name="games.deal_start")
@_quiet_if_gone
def deal_start(match_id: int, number: int) -> bool:
    """Deal the next deal of a match once the previous one has ended."""
    return play_services.deal_start(match_id=match_id, number=number)


@shared_task(name="games.watchdog")
def watchdog() -> int:
    """Queue again the work of stalled matches (run every few seconds by Celery beat)."""
    return play_services.matches_kick()
