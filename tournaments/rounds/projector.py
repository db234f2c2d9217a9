"""What the projector shows of an individual event (小路子, 上海斗地主): the round's tables of four
with each seat's player and points, the player standings with the game's own figures, and the
units by their best N players. Reads only; the view renders it (tournaments/views.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language

from engine.registry import get_game
from games.models import Table
from tournaments import formats
from tournaments.common.standings_rows import PlayerRow, StandingsRow
from tournaments.events.memberships import player_units
from tournaments.models import Event, Round, Unit
from tournaments.rounds.selectors import round_tables


@dataclass(frozen=True)
class ProjectorSeat:
    """One seat of a table as the projector shows it: the player and their points so far."""

    name: str
    is_bot: bool
    points: int | None


@dataclass(frozen=True)
class ProjectorTable:
    """One table of four of the round: its number, seats in play order, where it stands."""

    number: int
    table_id: int
    offline: bool
    status: str  # the tally's: pending, playing, finished
    live: bool  # an online table being played (a spectator can watch it)
    deals: int
    seats: list[ProjectorSeat]


def projector_tables(*, round: Round) -> list[ProjectorTable]:
    """The round's tables in order, each seat with its player's points in the table's match (none
    before the match starts). Points are the tallies' (in a duplicate round they count only the
    deals every table has played), and a duplicate round's tables are not watched live."""
    pairings = list(
        round_tables(round=round).select_related("tally").prefetch_related("tally__players")
    )
    hidden_live = not formats.round_watched(round)  # duplicate play: not while the round runs
    tables = []
    for p in pairings:
        tally = getattr(p, "tally", None)
        by_seat = {pt.seat: pt.points for pt in tally.players.all()} if tally is not None else {}
        status = tally.status if tally is not None else "pending"
        tables.append(
            ProjectorTable(
                number=p.number,
                table_id=p.table.pk,
                offline=p.table.mode == Table.Mode.OFFLINE,
                status=status,
                live=not hidden_live
                and p.table.mode == Table.Mode.ONLINE
                and p.table.status == Table.Status.PLAYING,
                deals=tally.deals if tally is not None else 0,
                seats=[
                    ProjectorSeat(
                        name=s.player.name,
                        is_bot=s.player.is_bot,
                        points=by_seat.get(s.seat) if status != "pending" else None,
                    )
                    for s in p.table.seats.all()
                ],
            )
        )
    return tables


def figure_names(event: Event) -> list[str]:
    """The names of the game's per-player figures in the page's language, in standings order."""
    english = get_language() == "en"
    return [
        f.label_en if english else f.label_zh
        for f in get_game(event.game).figure_specs
        if f.holder == "seat"
    ]


def player_rows(event: Event, rows: Sequence[StandingsRow]) -> list[dict[str, Any]]:
    """The player standings rows with each player's unit and the game's figures in column order."""
    units = player_units(event)
    names = dict(
        Unit.objects.filter(pk__in={u for u in units.values() if u}).values_list("pk", "name")
    )
    return [
        {
            **r.as_dict(),
            "unit_name": names.get(units.get(r.player_id) or 0, ""),
            "figure_values": r.figure_values,
        }
        for r in rows
        if isinstance(r, PlayerRow)
    ]
