"""Writes for tournaments. Tables are made through games' services: this app never builds games rows
itself."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractUser, Group, Permission
from django.db import IntegrityError, transaction

from config.exceptions import ApplicationError
from games.models import Player, Table
from games.services import table_create
from tournaments.models import (
    TEAM_SIZE,
    Event,
    Membership,
    Pairing,
    Round,
    RoundEntry,
    Team,
    TeamMember,
    Unit,
)

ORGANIZERS_GROUP = "organizers"

#: What an organizer may do in the admin; which events they may do it to is limited by
# Event.organizers.
ORGANIZER_PERMISSIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "tournaments": {
        "event": ("view", "change"),
        "team": ("view", "add", "change", "delete"),
        "teammember": ("view", "add", "change", "delete"),
        "round": ("view", "add", "change", "delete"),
        "pairing": ("view", "add", "change", "delete"),
        "roundentry": ("view", "add", "change", "delete"),
        "unit": ("view", "add", "change"),
        "membership": ("view", "add", "change", "delete"),
        "meet": ("view",),
    },
    "games": {"player": ("view", "add", "change")},
}


@transaction.atomic
def organizer_group_ensure() -> Group:
    """Return the organizers' group, creating it and (re)granting its model permissions."""
    group, _created = Group.objects.get_or_create(name=ORGANIZERS_GROUP)
    wanted = []
    for models in ORGANIZER_PERMISSIONS.values():
        for model, actions in models.items():
            wanted += [f"{action}_{model}" for action in actions]
    permissions = Permission.objects.filter(
        content_type__app_label__in=ORGANIZER_PERMISSIONS, codename__in=wanted
    )
    group.permissions.set(permissions)
    return group


@transaction.atomic
def event_organizer_add(*, event: Event, user: AbstractUser) -> None:
    """Make ``user`` an organizer of ``event``: staff, in the organizers' group, on the event."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(organizer_group_ensure())
    event.organizers.add(user)


@transaction.atomic
def unit_get_or_create(
    *, name: str, kind: Unit.Kind = Unit.Kind.DEPARTMENT, parent: Unit | None = None
) -> Unit:
    """Return the unit called ``name`` under ``parent``, creating it if needed."""
    name = name.strip()
    if not name:
        raise ApplicationError("A unit needs a name.")
    unit, _created = Unit.objects.get_or_create(name=name, parent=parent, defaults={"kind": kind})
    return unit


@transaction.atomic
def membership_ensure(*, player: Player, unit: Unit, employee_number: str = "") -> Membership:
    """Return the player's membership of ``unit``, creating it if needed."""
    membership, _created = Membership.objects.get_or_create(
        player=player, unit=unit, defaults={"employee_number": employee_number}
    )
    return membership


@transaction.atomic
def team_create(
    *, event: Event, name: str, players: Sequence[Player], unit: Unit | None = None
) -> Team:
    """Create a team of exactly three distinct players (in seat order) for ``event`` and return it.

    Raises ApplicationError for a wrong number of players, a repeated player, a taken name, or a
    player
    already in another team of the event.
    """
    name = name.strip()
    if not name:
        raise ApplicationError("A team needs a name.")
    if len(players) != TEAM_SIZE:
        raise ApplicationError(f"A team has exactly {TEAM_SIZE} players, got {len(players)}.")
    if len({p.pk for p in players}) != TEAM_SIZE:
        raise ApplicationError("A player can appear only once in a team.")
    if Team.objects.filter(event=event, name=name).exists():
        raise ApplicationError(f"The event already has a team called {name!r}.")
    taken = TeamMember.objects.filter(event=event, player__in=players).select_related("player")
    if taken:
        names = ", ".join(sorted(m.player.name for m in taken))
        raise ApplicationError(f"Already in a team of this event: {names}.")
    team = Team.objects.create(event=event, name=name, unit=unit)
    TeamMember.objects.bulk_create(
        TeamMember(team=team, event=event, player=player, order=order)
        for order, player in enumerate(players)
    )
    return team


@transaction.atomic
def round_create(*, event: Event) -> Round:
    """Create and return the event's next round (numbered after the last one)."""
    last = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return Round.objects.create(event=event, number=(last or 0) + 1)


@transaction.atomic
def pairing_create(
    *,
    round: Round,
    team_a: Team,
    team_b: Team,
    number: int,
    mode: Table.Mode = Table.Mode.ONLINE,
) -> Pairing:
    """Seat ``team_a`` (seats 0, 2, 4) against ``team_b`` (seats 1, 3, 5) at a new table of
    ``round``.

    Members take their seats in team order: a0, b0, a1, b1, a2, b2. Raises ApplicationError for a
    team of
    another event, a team that meets itself, or a team already placed in this round.
    """
    if team_a.pk == team_b.pk:
        raise ApplicationError("A team cannot play against itself.")
    if team_a.event_id != round.event_id or team_b.event_id != round.event_id:
        raise ApplicationError("Both teams must belong to the round's event.")
    members_a = [m.player for m in team_a.members.select_related("player").order_by("order")]
    members_b = [m.player for m in team_b.members.select_related("player").order_by("order")]
    if len(members_a) != TEAM_SIZE or len(members_b) != TEAM_SIZE:
        raise ApplicationError(f"Both teams need {TEAM_SIZE} players to be seated.")
    seated = [p for pair in zip(members_a, members_b, strict=True) for p in pair]
    table = table_create(name=f"{round} · {number}", players=seated, mode=mode)
    try:
        with transaction.atomic():
            pairing = Pairing.objects.create(
                round=round, number=number, table=table, team_a=team_a, team_b=team_b
            )
            RoundEntry.objects.bulk_create(
                [
                    RoundEntry(round=round, team=team_a, pairing=pairing),
                    RoundEntry(round=round, team=team_b, pairing=pairing),
                ]
            )
    except IntegrityError:
        raise ApplicationError(
            f"Table {number} is taken, or a team is already placed in round {round.number}."
        ) from None
    return pairing
