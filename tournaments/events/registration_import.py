"""The registration import's writes and reads: what a file would do in an event (the plan, with the
players the importer reaches and the units of the event's meet), and importing it in one
transaction. Reading and planning a file are :mod:`tournaments.events.importing` (pure)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.exceptions import ApplicationError, ConflictError
from games.models import Player
from games.tables.services import player_create
from tournaments.events import importing
from tournaments.events.organizers import event_organizer_require
from tournaments.events.units import meet_units_by_name
from tournaments.models import Event, Membership, Registration, TeamMember, Unit

__all__ = ["event_import", "event_import_plan", "import_closed"]


def import_closed(event: Event) -> str:
    """Why ``event`` takes no import now, and what to do instead ("" while it does): a team
    event takes players during registration; an individual event also while it runs (a late
    player joins from the next round)."""
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        return ""
    if event.status == Event.Status.RUNNING and event.is_individual:
        return ""
    if event.status == Event.Status.RUNNING:
        return _(
            "%(event)s is running: a team event takes its players during registration (its "
            "teams are fixed once play has begun), so a file cannot be imported now. Add a late "
            "team by hand in the admin, or import into an event still in registration."
        ) % {"event": event.name}
    return _("%(event)s is %(status)s: import players during registration.") % {
        "event": event.name,
        "status": event.get_status_display(),
    }


def _elsewhere(event: Event) -> Q:
    """Players of another meet's events: never found again by an import (matching them would
    hand this event's organizers that player, and a login code for their account)."""
    return Q(
        player__in=Registration.objects.exclude(event__meet_id=event.meet_id).values("player")
    ) | Q(player__in=TeamMember.objects.exclude(event__meet_id=event.meet_id).values("player"))


def _reached(event: Event, user: User | None) -> Q | None:
    """The players an import by ``user`` may take again (None: every player of the meet, for
    the system and superusers): the players of the events ``user`` organizes."""
    if user is None or getattr(user, "is_superuser", False):
        return None
    mine = Event.objects.filter(organizers=user)
    return Q(player__in=Registration.objects.filter(event__in=mine).values("player")) | Q(
        player__in=TeamMember.objects.filter(event__in=mine).values("player")
    )


def _import_existing(event: Event, user: User | None) -> importing.Existing:
    in_team = frozenset(
        (unit, number)
        for unit, number in Membership.objects.filter(
            player__team_members__event=event
        ).values_list("unit__name", "employee_number")
        if number
    )
    units = meet_units_by_name(event.meet)
    unit_names = {unit.pk: name for name, unit in units.items()}
    reach = _reached(event, user)
    reachable: dict[tuple[str, str], int] = {}
    unreachable: set[tuple[str, str]] = set()
    known = (
        Membership.objects.filter(unit__in=list(units.values()))
        .exclude(employee_number="")
        .exclude(_elsewhere(event))
    )
    reached_ids = None if reach is None else set(known.filter(reach).values_list("pk", flat=True))
    for pk, unit_id, number, player_id in known.order_by("pk").values_list(
        "pk", "unit_id", "employee_number", "player_id"
    ):
        key = (unit_names[unit_id], number)
        if reached_ids is None or pk in reached_ids:
            reachable.setdefault(key, player_id)
        else:
            unreachable.add(key)
    registered = frozenset(
        (unit_names[unit_id], name)
        for name, unit_id in Membership.objects.filter(
            player__registrations__event=event, unit__in=list(units.values())
        ).values_list("player__name", "unit_id")
    )
    return importing.Existing(
        units=frozenset(units),
        team_names=frozenset(event.teams.values_list("name", flat=True)),
        in_team=in_team,
        reachable=reachable,
        unreachable=frozenset(unreachable - set(reachable)),
        registered=registered,
        teams=not event.is_individual,
        team_size=0 if event.is_individual else event.team_size,
    )


def event_import_plan(
    *,
    event: Event,
    filename: str,
    content: bytes,
    create_units: bool = True,
    user: User | None = None,
    others: str = importing.OTHERS_NEW,
    balanced: bool = False,
) -> importing.ImportPlan:
    """Read a registration file and return what importing it by ``user`` would do (or its bad
    rows, and ``closed``: why the event takes no import now); writes nothing. Raises
    ApplicationError when the file itself cannot be read (format, columns). ``balanced``: the
    teams formed within a unit are balanced by the players' ratings, not taken in file order."""
    if others not in importing.OTHERS_CHOICES:
        raise ApplicationError(
            _("'others' is one of: %(choices)s.") % {"choices": ", ".join(importing.OTHERS_CHOICES)}
        )
    try:
        rows = importing.read_table(filename, content, gettext=_)
    except importing.ImportError_ as error:
        raise ApplicationError(str(error)) from None
    plan = importing.plan_import(
        rows,
        _import_existing(event, user),
        create_units=create_units,
        others=others,
        gettext=_,
        team_order=_balanced_order(event) if balanced else None,
    )
    return dataclasses.replace(plan, closed=import_closed(event))


def _balanced_order(
    event: Event,
) -> Callable[[Sequence[importing.PlannedPlayer]], list[importing.PlannedPlayer]]:
    """Players in runs of three that form teams of close average ratings (a new player: 1500)."""

    def order(members: Sequence[importing.PlannedPlayer]) -> list[importing.PlannedPlayer]:
        from ratings.seeding import balanced_teams

        teams = balanced_teams(game=event.game, players=members, key=lambda p: p.reuses)
        return [p for team in teams for p in team]

    return order


@transaction.atomic
def event_import(
    *,
    event: Event,
    filename: str,
    content: bytes,
    user: User | None = None,
    create_units: bool = True,
    others: str = importing.OTHERS_NEW,
    balanced: bool = False,
) -> importing.ImportPlan:
    """Import players and teams from a CSV or XLSX file into ``event`` and return the plan done.

    Nothing is written unless the whole file is valid: otherwise ApplicationError lists every bad
    row (``extra["problems"]``). Unit names are resolved within the event's meet, and units
    missing there are created for the meet (unless ``create_units`` is false); a player already
    known by employee number in the unit is taken again only when ``user`` reaches them (a player
    of an event they organize; the system and superusers: any player of the meet), otherwise the
    row makes a new player, or is refused when ``others`` is ``"refuse"``. In a team event
    players without a team form teams of three within their unit; an individual event registers
    each player. A team event takes an import during registration, an individual event also while
    it runs (the player joins from the next round).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    event_organizer_require(event=event, user=user)
    closed = import_closed(event)
    if closed:
        raise ConflictError(closed)
    plan = event_import_plan(
        event=event,
        filename=filename,
        content=content,
        create_units=create_units,
        user=user,
        others=others,
        balanced=balanced,
    )
    if not plan.ok:
        raise ApplicationError(
            ngettext(
                "%(count)d bad row; nothing was imported.",
                "%(count)d bad rows; nothing was imported.",
                len(plan.problems),
            )
            % {"count": len(plan.problems)},
            extra={"problems": [{"row": p.row, "message": p.message} for p in plan.problems]},
        )
    from tournaments.events.entries import registration_ensure, team_create
    from tournaments.events.services import event_results_changed

    found = meet_units_by_name(event.meet)
    units = {
        name: found.get(name) or _meet_unit_create(event, name)
        for name in {p.unit for p in plan.players}
    }
    reused = {
        player.pk: player
        for player in Player.objects.filter(pk__in=[p.reuses for p in plan.reused])
    }

    def player_for(planned: importing.PlannedPlayer) -> Player:
        if planned.reuses is not None and planned.reuses in reused:
            return reused[planned.reuses]
        player = player_create(name=planned.name)
        Membership.objects.create(
            player=player, unit=units[planned.unit], employee_number=planned.employee_number
        )
        return player

    for team in plan.teams:
        team_create(
            event=event,
            name=team.name,
            players=[player_for(p) for p in team.players],
            unit=units[team.unit],
        )
    registration_ensure(event=event, players=[player_for(p) for p in plan.without_team])
    if plan.without_team:
        event_results_changed(event=event)
    return plan


def _meet_unit_create(event: Event, name: str) -> Unit:
    """A unit of ``event``'s meet called ``name`` (made by this import, or found when a
    concurrent one made it)."""
    try:
        with transaction.atomic():
            return Unit.objects.create(name=name, meet=event.meet)
    except IntegrityError:
        return Unit.objects.get(name=name, meet=event.meet, parent__isnull=True)
