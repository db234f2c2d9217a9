"""Who belongs to which unit, as events read it (a module of its own: selectors and the duplicate
scores both need it, and neither imports the other)."""

from __future__ import annotations

from tournaments.models import Event, Membership

__all__ = ["player_units"]


def player_units(event: Event) -> dict[int, int | None]:
    """Each registered player's unit (the first they belong to)."""
    units: dict[int, int | None] = {}
    for player, unit in (
        Membership.objects.filter(player__registrations__event=event)
        .order_by("player_id", "pk")
        .values_list("player_id", "unit_id")
    ):
        units.setdefault(player, unit)
    return units
