"""Reads of a table's furniture: its seats, who sits where, a user's seat, its current match."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.models import Match, Table, TableSeat
from games.state_cache import SEATS, cache, version_of


def table_seats(*, table: Table) -> QuerySet[TableSeat]:
    """Return the table's seats in play order with their players."""
    return table.seats.select_related("player").order_by("seat")


def table_seat_of_user(*, table: Table, user: Any) -> int | None:
    """The seat ``user`` holds at ``table`` (through their player), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return (
        TableSeat.objects.filter(table=table, player__user=user)
        .values_list("seat", flat=True)
        .first()
    )


def table_and_seat_of_user(*, table_id: int, user: Any) -> tuple[Table, int] | None:
    """The table ``table_id`` and the seat ``user`` holds there (one query), or None when they hold
    none (or there is no such table)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    row = (
        TableSeat.objects.filter(table_id=table_id, player__user=user)
        .select_related("table")
        .first()
    )
    return None if row is None else (row.table, row.seat)


def match_seats(match: Match) -> list[TableSeat]:
    """The seats of ``match``'s table with their players, in play order: read once per match
    and process (seats do not change during a match). Shared: read them, never change them."""
    version = version_of(match, None)  # the seats depend on the match alone
    seats: list[TableSeat] | None = cache.get(SEATS, match.pk, version)
    if seats is None:
        seats = list(
            TableSeat.objects.filter(table_id=match.table_id)
            .select_related("player")
            .order_by("seat")
        )
        cache.put(SEATS, match.pk, version, seats)
    return seats
