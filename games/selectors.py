"""Reads from the card room."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Table, TableSeat


def table_seats(*, table: Table) -> QuerySet[TableSeat]:
    """Return the table's seats in play order with their players."""
    return table.seats.select_related("player").order_by("seat")
