"""Celery tasks of the card room. Thin: they take ids and a token, and call a service; a task
whose token is stale (the state moved on) does nothing, so duplicates and late timers are safe."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(name="games.ping")
def ping() -> str:
    """Return "pong": lets an operator check that a worker consumes the queues."""
    return "pong"


@shared_task(name="games.bot_turn")
def bot_turn(match_id: int, number: int, seq: int, seat: int) -> bool:
    """A bot's turn at a table with people: one action."""
    return services.bot_act(match_id=match_id, number=number, seq=seq, seat=seat)


@shared_task(name="games.bot_deal")
def bot_deal(match_id: int, number: int) -> bool:
    """A whole deal of an all-bot table, its actions written in bulk."""
    return services.bot_deal_play(match_id=match_id, number=number)


@shared_task(name="games.turn_timeout")
def turn_timeout(match_id: int, number: int, seq: int, seat: int) -> bool:
    """A seat's time ran out: the system acts for it (unless it acted already)."""
    return services.seat_timeout(match_id=match_id, number=number, seq=seq, seat=seat)


@shared_task(name="games.deal_start")
def deal_start(match_id: int, number: int) -> bool:
    """Deal the next deal of a match once the previous one has ended."""
    return services.deal_start(match_id=match_id, number=number)


@shared_task(name="games.watchdog")
def watchdog() -> int:
    """Queue again the work of stalled matches (run every few seconds by Celery beat)."""
    return services.matches_kick()
