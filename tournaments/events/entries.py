"""Writes of who plays in an event: units, memberships, registrations, teams, and a team's
withdrawal."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import (
    User,
)
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from games.models import Player
from games.tables.access import access_changed
from tournaments.common import sides
from tournaments.common.i18n import join_list
from tournaments.events.organizers import event_is_organizer as event_is_organizer
from tournaments.events.organizers import event_organizer_require as event_organizer_require
from tournaments.events.organizers import round_log_add as round_log_add
from tournaments.events.services import event_results_changed
from tournaments.models import (
    Event,
    Membership,
    Registration,
    Team,
    TeamMember,
    Unit,
    UnitKind,
)


@transaction.atomic
def unit_get_or_create(
    *, name: str, kind: UnitKind = UnitKind.DEPARTMENT, parent: Unit | None = None
) -> Unit:
    """Return the unit called ``name`` under ``parent``, creating it if needed."""
    name = name.strip()
    if not name:
        raise ApplicationError(_("A unit needs a name."))
    unit, _created = Unit.objects.get_or_create(name=name, parent=parent, defaults={"kind": kind})
    return unit


@transaction.atomic
def membership_ensure(*, player: Player, unit: Unit, employee_number: str = "") -> Membership:
    """Return the player's membership of ``unit``, creating it if needed."""
    membership, _created = Membership.objects.get_or_create(
        player=player, unit=unit, defaults={"employee_number": employee_number}
    )
    return membership


def registration_ensure(*, event: Event, players: Sequence[Player]) -> None:
    """Register ``players`` in ``event`` (those already registered stay as they are)."""
    Registration.objects.bulk_create(
        [Registration(event=event, player=player) for player in players], ignore_conflicts=True
    )
    access_changed()  # bulk_create sends no signal (games.tables.access)


@transaction.atomic
def team_create(
    *, event: Event, name: str, players: Sequence[Player], unit: Unit | None = None
) -> Team:
    """Create a team of exactly ``event.team_size`` distinct players (in seat order; 大怪路子:
    three) for ``event`` and return it.

    Raises ApplicationError for an individual event, a wrong number of players, a repeated player,
    a taken name, or a player already in another team of the event.
    """
    name = name.strip()
    if not name:
        raise ApplicationError(_("A team needs a name."))
    if not sides.team_game(event.game):
        raise ApplicationError(_("This event is individual: its players play for themselves."))
    size = event.team_size
    if len(players) != size:
        raise ApplicationError(
            _("A team has exactly %(size)d players, got %(count)d.")
            % {"size": size, "count": len(players)}
        )
    if len({p.pk for p in players}) != size:
        raise ApplicationError(_("A player can appear only once in a team."))
    if Team.objects.filter(event=event, name=name).exists():
        raise ApplicationError(
            _("The event already has a team called “%(name)s”.") % {"name": name}
        )
    taken = TeamMember.objects.filter(event=event, player__in=players).select_related("player")
    if taken:
        names = join_list(sorted(m.player.name for m in taken))
        raise ApplicationError(_("Already in a team of this event: %(names)s.") % {"names": names})
    team = Team.objects.create(event=event, name=name, unit=unit)
    registration_ensure(event=event, players=players)
    event_results_changed(event=event)
    TeamMember.objects.bulk_create(
        TeamMember(team=team, event=event, player=player, order=order, size=size)
        for order, player in enumerate(players)
    )
    access_changed()  # bulk_create sends no signal (games.tables.access)
    return team


@transaction.atomic
def team_withdraw(*, team: Team, user: User | None = None, withdrawn: bool = True) -> Team:
    """Withdraw a team from later rounds (a no-show), or bring it back with ``withdrawn=False``.
    Its results so far stay in the standings."""
    team = Team.objects.select_for_update().select_related("event").get(pk=team.pk)
    event_organizer_require(event=team.event, user=user)
    team.withdrawn = withdrawn
    team.save(update_fields=["withdrawn"])
    return team
