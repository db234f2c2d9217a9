"""Reads of events for pages: which events and meets a visitor may see, an event's teams and
players, each player's unit, and who may watch an event's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import (
    Count,
    Prefetch,
    Q,
    QuerySet,
)

if TYPE_CHECKING:
    from games.models import Player
from tournaments.common.sorting import natural_key
from tournaments.models import (
    Event,
    Meet,
    Membership,
    Pairing,
    Registration,
    Round,
    Team,
    TeamMember,
    Unit,
)


def events_visible_to(user: User | AnonymousUser) -> QuerySet[Event]:
    """Return the events ``user`` may look at: public ones, plus private ones they organize."""
    events = Event.objects.all()
    if getattr(user, "is_superuser", False):
        return events
    if user.is_authenticated:
        return events.filter(Q(is_private=False) | Q(organizers=user)).distinct()
    return events.filter(is_private=False)


def table_rule(table_id: int, user: User | AnonymousUser | None) -> bool | None:
    """The tournaments' say on who sees a table of one of its rounds (see games.tables.access).

    A draft round's tables are its organizers' alone; a private event's tables are seen by its
    organizers and its registered players; other tables are for everyone (None: no objection).
    """
    row = (
        Pairing.objects.filter(table_id=table_id)
        .values("round__status", "round__event_id", "round__event__is_private")
        .first()
    )
    if row is None:
        return None  # not a table of an event (a practice table)
    is_draft = row["round__status"] == Round.Status.DRAFT
    if not is_draft and not row["round__event__is_private"]:
        return None
    if user is None or not user.is_authenticated:
        return False
    event_id = row["round__event_id"]
    if getattr(user, "is_superuser", False):
        return True
    if Event.objects.filter(pk=event_id, organizers=user).exists():
        return True
    if is_draft:
        return False
    return Registration.objects.filter(event_id=event_id, player__user=user).exists() or (
        TeamMember.objects.filter(event_id=event_id, player__user=user).exists()
    )


def meets_for_home(user: User | AnonymousUser) -> QuerySet[Meet]:
    """Return meets with at least one visible event, each with its visible events and their
    counts."""
    visible = events_visible_to(user)
    events = (
        Event.objects.filter(pk__in=visible.values("pk"))
        .annotate(
            team_count=Count("teams", distinct=True),
            player_count=Count(
                "registrations", filter=Q(registrations__withdrawn=False), distinct=True
            ),
        )
        .order_by("name")
    )
    return (
        Meet.objects.filter(events__in=visible.values("pk"))
        .distinct()
        .prefetch_related(Prefetch("events", queryset=events, to_attr="visible_events"))
    )


def event_teams(*, event: Event) -> QuerySet[Team]:
    """Return the event's teams with their unit and members (in order), by unit then name."""
    members = TeamMember.objects.select_related("player").order_by("order")
    return (
        event.teams.select_related("unit")
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("unit__name", "name")
    )


def event_players(*, event: Event) -> list[tuple[Player, str, bool]]:
    """Return an individual event's registered players as (player, unit name, withdrawn), by unit
    then name (the unit being the first the player belongs to, as standings count it)."""
    units = player_units(event)
    names = dict(
        Unit.objects.filter(pk__in={u for u in units.values() if u is not None}).values_list(
            "pk", "name"
        )
    )
    rows = [
        (reg.player, names.get(units.get(reg.player_id) or 0, ""), reg.withdrawn)
        for reg in Registration.objects.filter(event=event).select_related("player")
    ]
    rows.sort(key=lambda row: (natural_key(row[1]), natural_key(row[0].name), row[0].pk))
    return rows


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
