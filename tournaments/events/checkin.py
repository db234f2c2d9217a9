"""Check-in before a round (issue 30): who is there for the next round to be drawn.

In an individual event each registered player checks in; in a team event each member checks
themselves in and the team plays when all its members are in (or when an organizer ticked the
whole team). A player checks in only themselves; an organizer ticks and unticks anyone, and
"carries over" the last round's check-ins to the next. When the event draws only those checked
in (``Event.draw_checked_in_only``), the draw (tournaments.draw.services) reads
:func:`present_players` or :func:`present_teams`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from games.models import Player
from tournaments.common.sorting import naturally
from tournaments.events.organizers import event_is_organizer, event_organizer_require
from tournaments.models import CheckIn, Event, Registration, Team, TeamMember

__all__ = [
    "CheckInRow",
    "check_in",
    "check_in_carry_over",
    "check_in_rows",
    "check_out",
    "checked_in_player_ids",
    "next_round_number",
    "own_entrant",
    "present_players",
    "present_teams",
]


def next_round_number(event: Event) -> int:
    """The number of the event's next round to be drawn: the round check-ins apply to."""
    last = event.rounds.aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


def _open(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise ConflictError(
            _("%(event)s is finished: it takes no more check-ins.") % {"event": event.name}
        )


def own_entrant(event: Event, user: User | AnonymousUser | None) -> Player | None:
    """The user's own player in ``event`` (registered and not withdrawn; in a team event, a
    member of a team that has not withdrawn), or None."""
    if user is None or not user.is_authenticated:
        return None
    player = Player.objects.filter(user=user).first()
    if player is None:
        return None
    if event.is_individual:
        mine = Registration.objects.filter(event=event, player=player, withdrawn=False).exists()
    else:
        mine = TeamMember.objects.filter(
            team__event=event, team__withdrawn=False, player=player
        ).exists()
    return player if mine else None


def _players(event: Event) -> list[Player]:
    """The event's players in the natural order of their names (研发二队 before 研发十队)."""
    players = (
        Player.objects.filter(registrations__event=event, registrations__withdrawn=False)
        .order_by("pk")
        .distinct()
    )
    return naturally(players, lambda p: p.name)


def _teams(event: Event) -> list[Team]:
    """The event's teams in the natural order of their names."""
    teams = event.teams.filter(withdrawn=False).prefetch_related("members__player").order_by("pk")
    return naturally(teams, lambda t: t.name)


def _entrant(
    event: Event, player: int | None, team: int | None
) -> tuple[Player | None, Team | None]:
    """The player or team (exactly one) of ``event`` to tick; ApplicationError otherwise."""
    if (player is None) == (team is None):
        raise ApplicationError(_("Check in one player or one team."))
    if team is not None:
        found_team = event.teams.filter(pk=team, withdrawn=False).first()
        if event.is_individual or found_team is None:
            raise ApplicationError(_("Not a team of %(event)s.") % {"event": event.name})
        return None, found_team
    assert player is not None
    if event.is_individual:
        found = Registration.objects.filter(event=event, player_id=player, withdrawn=False).exists()
    else:
        found = TeamMember.objects.filter(
            team__event=event, team__withdrawn=False, player_id=player
        ).exists()
    if not found:
        raise ApplicationError(_("Not a player of %(event)s.") % {"event": event.name})
    return Player.objects.get(pk=player), None


@transaction.atomic
def check_in(
    *,
    event: Event,
    user: User | None,
    player: int | None = None,
    team: int | None = None,
) -> CheckIn:
    """Check ``player`` (or, by an organizer, ``team``) in for the event's next round. A player
    checks in only themselves; an organizer anyone. Checking in twice keeps the first row."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    _open(event)
    who, whole_team = _entrant(event, player, team)
    if not event_is_organizer(event=event, user=user):
        own = own_entrant(event, user)
        if whole_team is not None or own is None or who is None or own.pk != who.pk:
            raise NotAllowedError(_("You may check in only yourself."))
    row, _created = CheckIn.objects.get_or_create(
        event=event,
        round_number=next_round_number(event),
        player=who,
        team=whole_team,
        defaults={"checked_by": user},
    )
    return row


@transaction.atomic
def check_out(
    *, event: Event, user: User | None, player: int | None = None, team: int | None = None
) -> int:
    """An organizer unticks ``player`` (or ``team``) for the next round; returns the rows gone.
    Unticking a team also unticks its members."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    event_organizer_require(event=event, user=user)
    _open(event)
    who, whole_team = _entrant(event, player, team)
    rows = CheckIn.objects.filter(event=event, round_number=next_round_number(event))
    if whole_team is not None:
        members = [m.player_id for m in whole_team.members.all()]
        rows = rows.filter(team=whole_team) | rows.filter(player_id__in=members)
    else:
        rows = rows.filter(player=who)
    deleted, _kinds = rows.delete()
    return deleted


@transaction.atomic
def check_in_carry_over(*, event: Event, user: User | None) -> int:
    """Copy the last round's check-ins to the next round (those still playing the event);
    returns how many were added."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    event_organizer_require(event=event, user=user)
    _open(event)
    number = next_round_number(event)
    if number == 1:
        raise ApplicationError(_("No round has been drawn yet: there is nothing to carry over."))
    players = {p.pk for p in _players(event)}
    teams = {t.pk for t in _teams(event)}
    added = 0
    for row in CheckIn.objects.filter(event=event, round_number=number - 1):
        if (row.player_id is not None and row.player_id not in players) or (
            row.team_id is not None and row.team_id not in teams
        ):
            continue
        _row, created = CheckIn.objects.get_or_create(
            event=event,
            round_number=number,
            player=row.player,
            team=row.team,
            defaults={"checked_by": user},
        )
        added += created
    return added


def _ticked(event: Event, number: int) -> tuple[set[int], set[int]]:
    rows = CheckIn.objects.filter(event=event, round_number=number)
    players = set(rows.filter(player__isnull=False).values_list("player_id", flat=True))
    teams = set(rows.filter(team__isnull=False).values_list("team_id", flat=True))
    return players, teams


def checked_in_player_ids(event: Event, number: int) -> set[int]:
    """The ids of the players checked in for round ``number``."""
    return _ticked(event, number)[0]


def present_players(event: Event, players: Sequence[Player], number: int) -> list[Player]:
    """Those of ``players`` checked in for round ``number``."""
    ticked, _teams_in = _ticked(event, number)
    return [p for p in players if p.pk in ticked]


def _team_in(team: Team, players: set[int], teams: set[int]) -> bool:
    members = [m.player_id for m in team.members.all()]
    return team.pk in teams or (bool(members) and all(m in players for m in members))


def present_teams(event: Event, teams: Sequence[Team], number: int) -> list[Team]:
    """Those of ``teams`` checked in for round ``number``: ticked as a team, or every member in."""
    players, ticked = _ticked(event, number)
    return [t for t in teams if _team_in(t, players, ticked)]


@dataclass(frozen=True)
class CheckInRow:
    """One line of the organizer's list: a player or a team, whether in, and (a team) who of
    its members is in."""

    name: str
    present: bool
    player: int | None = None
    team: int | None = None
    members: tuple[tuple[int, str, bool], ...] = ()


def check_in_rows(event: Event) -> tuple[int, list[CheckInRow]]:
    """The next round's number and everyone's check-in state, by name."""
    number = next_round_number(event)
    players, teams = _ticked(event, number)
    if event.is_individual:
        return number, [
            CheckInRow(name=p.name, present=p.pk in players, player=p.pk) for p in _players(event)
        ]
    rows = []
    for team in _teams(event):
        members = tuple(
            (m.player_id, m.player.name, m.player_id in players or team.pk in teams)
            for m in team.members.all()
        )
        rows.append(
            CheckInRow(
                name=team.name,
                present=_team_in(team, players, teams),
                team=team.pk,
                members=members,
            )
        )
    return number, rows
