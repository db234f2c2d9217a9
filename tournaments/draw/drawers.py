"""The draw table: which drawer makes a new round's tables, by the event's kind (team or
individual) and its format (the event's pairing format, or the knockout stage's bracket), as
Tabbycat's draw managers do.

Every place that draws a round asks :func:`drawer_for` and hands the drawer a
:class:`DrawRequest`: the round, who plays in it (the teams or players; when the event draws only
those checked in, just them) and who is absent. The drawer seats the tables and says what it did
in a line for the round's log. The pure algorithms (tournaments.draw.teams, .players) know nothing
of this table; the drawers build their input and seat their output.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from games.models import Player, Table
from tournaments.common.i18n import join_list
from tournaments.draw import seating
from tournaments.draw import team_draw as team
from tournaments.models import Event, Pairing, PairingTally, Round, Team

__all__ = [
    "DRAWERS",
    "KNOCKOUT",
    "DrawRequest",
    "Drawn",
    "EventKind",
    "drawer_for",
    "event_format",
    "event_kind",
    "seat_entrants",
]


class EventKind(enum.StrEnum):
    TEAM = "team"
    INDIVIDUAL = "individual"


#: The format of a knockout stage's rounds: its bracket decides who meets whom.
KNOCKOUT = "knockout"

#: Who plays: teams (a team event) or players (an individual event).
Entrant = Team | Player


@dataclass(frozen=True)
class DrawRequest:
    """What a drawer gets: the new round, who plays in it, who is absent (not checked in), and
    for a knockout round the bracket's tables (each its entrants in seat order)."""

    round: Round
    who: Sequence[Entrant]
    absent: Sequence[Entrant] = ()
    bracket: Sequence[Sequence[Entrant]] = ()


@dataclass(frozen=True)
class Drawn:
    """What a drawer did: the round log's line, and the tables it seated in table order."""

    detail: str
    pairings: list[Pairing] = field(default_factory=list)


Drawer = Callable[[DrawRequest], Drawn]


def _teams(entrants: Sequence[Entrant]) -> list[Team]:
    teams = [t for t in entrants if isinstance(t, Team)]
    assert len(teams) == len(entrants), "a team event's drawer takes teams"
    return teams


def _players(entrants: Sequence[Entrant]) -> list[Player]:
    players = [p for p in entrants if isinstance(p, Player)]
    assert len(players) == len(entrants), "an individual event's drawer takes players"
    return players


def _absent_detail(absent: Sequence[Entrant]) -> str:
    return f", absent: {join_list(sorted(a.name for a in absent))}" if absent else ""


def _team_paired(request: DrawRequest) -> Drawn:
    """Swiss or round robin (the event's format tells tournaments.draw.team_draw which)."""
    round, event = request.round, request.round.event
    teams = _teams(request.who)
    draw = team.team_draw(event, teams, round.number)
    by_id = {t.pk: t for t in teams}
    team.team_round_fill(
        round,
        [(by_id[t.team_a], by_id[t.team_b]) for t in draw.tables],
        [by_id[draw.bye]] if draw.bye is not None else [],
        event.table_mode,
        absent=_teams(request.absent),
    )
    detail = f"{event.get_pairing_format_display()}: {len(draw.tables)} tables"
    if draw.bye is not None:
        detail += f", bye: {by_id[draw.bye].name}"
    if draw.rematches:
        detail += f", unavoidable rematches: {draw.rematches}"
    if draw.same_unit:
        detail += f", same-unit tables: {draw.same_unit}"
    return Drawn(detail + _absent_detail(request.absent))


def _individual_swiss(request: DrawRequest) -> Drawn:
    round, event = request.round, request.round.event
    draw = seating.individual_draw(event, _players(request.who), round.number)
    detail = seating.individual_round_fill(round, draw, event.table_mode)
    return Drawn(f"{event.get_pairing_format_display()}: {detail}" + _absent_detail(request.absent))


def _manual(request: DrawRequest) -> Drawn:
    """An empty draft: an organizer sets the tables (tournaments.draw.services)."""
    return Drawn("manual: an organizer sets the tables" + _absent_detail(request.absent))


def seat_entrants(round: Round, entrants: Sequence[Entrant], number: int, mode: str) -> Pairing:
    """Seat ``entrants`` (seat order: two teams, or a table's players) at table ``number``."""
    if round.event.is_individual:
        return seating.table_seat(round=round, players=_players(entrants), number=number, mode=mode)
    team_a, team_b = _teams(entrants)
    pairing = team.pairing_create(
        round=round, team_a=team_a, team_b=team_b, number=number, mode=Table.Mode(mode)
    )
    PairingTally.objects.create(
        pairing=pairing, event_id=round.event_id, team_a=team_a, team_b=team_b
    )
    return pairing


def _bracket(request: DrawRequest) -> Drawn:
    """A knockout round: the bracket's tables, seated as they come."""
    round = request.round
    pairings = [
        seat_entrants(round, entrants, number, round.event.table_mode)
        for number, entrants in enumerate(request.bracket, start=1)
    ]
    return Drawn(f"{len(pairings)} tables", pairings)


#: (event kind, format) -> drawer. A pair missing here is a draw the site does not make.
DRAWERS: dict[tuple[EventKind, str], Drawer] = {
    (EventKind.TEAM, Event.PairingFormat.SWISS): _team_paired,
    (EventKind.TEAM, Event.PairingFormat.ROUND_ROBIN): _team_paired,
    (EventKind.TEAM, Event.PairingFormat.MANUAL): _manual,
    (EventKind.TEAM, KNOCKOUT): _bracket,
    (EventKind.INDIVIDUAL, Event.PairingFormat.SWISS): _individual_swiss,
    (EventKind.INDIVIDUAL, Event.PairingFormat.MANUAL): _manual,
    (EventKind.INDIVIDUAL, KNOCKOUT): _bracket,
}


def event_kind(event: Event) -> EventKind:
    return EventKind.INDIVIDUAL if event.is_individual else EventKind.TEAM


def event_format(event: Event) -> str:
    """The format of the event's next round: its knockout stage's bracket once the stage exists,
    else the event's pairing format."""
    return KNOCKOUT if event.knockout_stage_exists() else event.pairing_format


def drawer_for(event: Event, format: str | None = None) -> Drawer:
    """The drawer of the event's next round (``format`` overrides :func:`event_format`). Raises
    ApplicationError for a format the event's kind does not draw."""
    kind = event_kind(event)
    key = (kind, format if format is not None else event_format(event))
    drawer = DRAWERS.get(key)
    if drawer is None:
        if kind == EventKind.INDIVIDUAL and key[1] == Event.PairingFormat.ROUND_ROBIN:
            raise ApplicationError(_("Round robin is for team events; use Swiss or manual."))
        raise ApplicationError(
            _("Luzi does not draw %(format)s rounds of this event.") % {"format": key[1]}
        )
    return drawer
