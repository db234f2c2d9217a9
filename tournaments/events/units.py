"""Which units belong to whom: a unit is a meet's when the meet's events use it (a team's unit, a
unit of its players), when the meet's import made it, or when it is the meet's host; and a unit is
also its children's (a parent unit whose departments an event uses is that event's too). Imports
resolve unit names within the event's meet; the admin reaches units through them."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F, Q, QuerySet

from games.models import Player
from tournaments.models import Event, Meet, Membership, Registration, Team, TeamMember, Unit

__all__ = [
    "events_unit_ids",
    "meet_units_by_name",
    "used_unit_ids",
    "with_ancestors",
    "with_descendants",
]


def with_ancestors(ids: Iterable[int]) -> set[int]:
    """``ids`` and every unit above them."""
    found = set(ids)
    frontier = set(found)
    while frontier:
        parents = (
            set(
                Unit.objects.filter(pk__in=frontier, parent__isnull=False).values_list(
                    "parent_id", flat=True
                )
            )
            - found
        )
        found |= parents
        frontier = parents
    return found


def with_descendants(ids: Iterable[int]) -> set[int]:
    """``ids`` and every unit below them."""
    found = set(ids)
    frontier = set(found)
    while frontier:
        children = set(Unit.objects.filter(parent_id__in=frontier).values_list("pk", flat=True))
        children -= found
        found |= children
        frontier = children
    return found


def _players_of(events: QuerySet[Event]) -> QuerySet[Player]:
    return Player.objects.filter(
        Q(pk__in=Registration.objects.filter(event__in=events).values("player"))
        | Q(pk__in=TeamMember.objects.filter(event__in=events).values("player"))
    )


def events_unit_ids(events: QuerySet[Event]) -> set[int]:
    """The units ``events`` use (their teams' units and their players' units), the units their
    meets' imports made and their meets' hosts (with the units below a host), and every unit
    above those."""
    direct = set(
        Team.objects.filter(event__in=events, unit__isnull=False).values_list("unit", flat=True)
    ) | set(
        Membership.objects.filter(player__in=_players_of(events)).values_list("unit", flat=True)
    )
    meets = Meet.objects.filter(events__in=events)
    direct |= set(Unit.objects.filter(meet__in=meets).values_list("pk", flat=True))
    hosts = meets.filter(organizer_unit__isnull=False).values_list("organizer_unit", flat=True)
    direct |= with_descendants(hosts)
    return with_ancestors(direct)


def used_unit_ids() -> set[int]:
    """The units any event or meet holds (as :func:`events_unit_ids` reads them for all)."""
    return events_unit_ids(Event.objects.all())


def meet_units_by_name(meet: Meet) -> dict[str, Unit]:
    """The units an import into ``meet`` finds by name: the meet's own, then those no meet holds
    (made by hand, not used yet). Another meet's unit is never found: a name is resolved within
    the meet (an import elsewhere must not make that meet's unit its own)."""
    own = events_unit_ids(Event.objects.filter(meet=meet))
    units: dict[str, Unit] = {}
    top_first = (F("parent_id").asc(nulls_first=True), "pk")
    for unit in Unit.objects.filter(pk__in=own).order_by(*top_first):
        units.setdefault(unit.name, unit)
    free = Unit.objects.filter(meet__isnull=True).exclude(pk__in=used_unit_ids())
    for unit in free.order_by(*top_first):
        units.setdefault(unit.name, unit)
    return units
