"""What the engine made of an offline table's sheet, with names: the preview a referee reads
before entering a result and the confirmer reads before confirming it.

Each deal's result is put in words by the game (its sheet spec's ``describe``); the figures,
sides and seats come from the game's description. No game is named here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from engine.game import Game
from engine.registry import get_game
from games.models import Deal, Match
from tournaments.models import Pairing
from tournaments.results.sheet_entry import spec_of


@dataclass(frozen=True, slots=True)
class PreviewSeat:
    """A seat of the table as the preview names it; ``side`` is the class of its side's colour
    (``"a"``, ``"b"``; ``""`` when seats play for themselves)."""

    seat: int
    name: str
    team: str
    side: str = ""

    @property
    def number(self) -> int:
        """The seat as people count it, from 1."""
        return self.seat + 1


@dataclass(frozen=True, slots=True)
class PreviewDeal:
    """One deal of a team game, as the engine scored it, with names: what the referee and the
    confirmer read."""

    number: int
    dealer: PreviewSeat | None
    finish: tuple[PreviewSeat, ...]
    leave: PreviewSeat | None
    what: str  # the deal's result in the game's words (tribute, levels and why, an escape)
    points_a: int
    points_b: int


@dataclass(frozen=True, slots=True)
class ResultPreview:
    """What the engine computed from a referee's sheet, before anything is written."""

    team_a: str
    team_b: str
    deals: tuple[PreviewDeal, ...]
    points_a: int
    points_b: int
    figures: tuple[tuple[str, str, str], ...]  # (label, side A's value, side B's value)
    finished: bool
    winner: str
    end_reason: str


@dataclass(frozen=True, slots=True)
class SeatsDeal:
    """One deal of a table whose seats play for themselves, as the engine scored it, with names."""

    number: int
    dealer: PreviewSeat | None
    what: str  # what happened, in the game's words (the landlord and the factors, the mode...)
    finish: tuple[PreviewSeat, ...]
    leave: PreviewSeat | None
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatsPreview:
    """What the engine computed from the sheet of a table whose seats play for themselves:
    each deal's points per seat, the totals and the game's figures."""

    seats: tuple[PreviewSeat, ...]
    deals: tuple[SeatsDeal, ...]
    points: tuple[int, ...]
    figures: tuple[tuple[str, tuple[int, ...]], ...]  # (label, value per seat)
    finished: bool
    winner: str  # a player's name, "" while it goes on or for a tie
    end_reason: str
    kind: str = "seats"


def _english() -> bool:
    return translation.get_language() == "en"


def _label(game: Game, key: str, english: bool) -> str:
    spec = next(f for f in game.figure_specs if f.key == key)
    return spec.label_en if english else spec.label_zh


def _names(people: dict[int, PreviewSeat], game: Game) -> list[str]:
    return [people[s].name if s in people else str(s + 1) for s in range(game.seat_count)]


def _leaving_points(match: Match, deals: list[Any], count: int) -> tuple[int, ...]:
    return tuple(
        p - sum(d.points[s] for d in deals if d.points) for s, p in enumerate(match.points or [])
    )[:count]


def seats_preview_of(pairing: Pairing, match: Match, rows: Sequence[Deal]) -> SeatsPreview:
    """The preview of a table whose seats play for themselves."""
    game = get_game(match.game)
    spec = spec_of(game)
    english = _english()
    people = {
        s.seat: PreviewSeat(s.seat, s.player.name, "")
        for s in pairing.table.seats.select_related("player")
    }
    names = _names(people, game)
    sides = {side: side for side in game.sides}

    def seat(value: Any) -> PreviewSeat | None:
        if not isinstance(value, int):
            return None
        return people.get(value) or PreviewSeat(value, str(value + 1), "")

    deals = []
    for row in rows:
        deals.append(
            SeatsDeal(
                number=row.number,
                dealer=seat(row.dealer_seat),
                what=spec.describe(row.result or {}, names, sides, english),
                finish=tuple(x for x in map(seat, row.finishing_order or []) if x is not None),
                leave=None,
                points=tuple(row.points or []),
            )
        )
    if match.left_seat is not None:
        deals.append(
            SeatsDeal(
                number=len(deals) + 1,
                dealer=None,
                what=_("Leaving before a deal ends the match."),
                finish=(),
                leave=seat(match.left_seat),
                points=_leaving_points(match, deals, game.seat_count),
            )
        )
    figures = tuple(
        (
            _label(game, figure.key, english),
            tuple(
                int(((match.figures or {}).get(figure.key) or {}).get(str(s), figure.start))
                for s in range(game.seat_count)
            ),
        )
        for figure in game.figure_specs
        if figure.holder == "seat"
    )
    winner = seat(int(match.winner)) if match.winner.isdigit() else None
    return SeatsPreview(
        seats=tuple(people[s] for s in sorted(people)),
        deals=tuple(deals),
        points=tuple(match.points or []),
        figures=figures,
        finished=match.status == Match.Status.FINISHED,
        winner=winner.name if winner is not None else "",
        end_reason=match.get_end_reason_display() if match.end_reason else "",
    )


def preview_of(
    pairing: Pairing, match: Match, rows: Sequence[Deal]
) -> ResultPreview | SeatsPreview:
    """The preview of ``match`` and its deal ``rows`` (by number), as the engine scored a sheet:
    rows that need not be saved (a preview writes nothing)."""
    game = get_game(match.game)
    if pairing.team_a_id is None or not game.fixed_sides or len(game.sides) != 2:
        return seats_preview_of(pairing, match, rows)
    assert pairing.team_a is not None and pairing.team_b is not None
    spec = spec_of(game)
    english = _english()
    side_a, side_b = game.sides
    teams = {side_a: pairing.team_a.name, side_b: pairing.team_b.name}
    colours = {side_a: "a", side_b: "b"}

    def seat(value: Any) -> PreviewSeat | None:
        if not isinstance(value, int) or not 0 <= value < game.seat_count:
            return None
        side = game.side_of(value) or ""
        found = people.get(value)
        name = found.name if found is not None else str(value + 1)
        return PreviewSeat(value, name, teams.get(side, ""), colours.get(side, ""))

    people = {
        s.seat: PreviewSeat(s.seat, s.player.name, "")
        for s in pairing.table.seats.select_related("player")
    }
    names = _names(people, game)
    deals = []
    for row in rows:
        side_points = row.side_points or {}
        deals.append(
            PreviewDeal(
                number=row.number,
                dealer=seat(row.dealer_seat),
                finish=tuple(x for x in map(seat, row.finishing_order or []) if x is not None),
                leave=None,
                what=spec.describe(row.result or {}, names, teams, english),
                points_a=side_points.get(side_a, 0),
                points_b=side_points.get(side_b, 0),
            )
        )
    totals = match.side_points or {}
    if match.left_seat is not None:
        deals.append(
            PreviewDeal(
                number=len(deals) + 1,
                dealer=None,
                finish=(),
                leave=seat(match.left_seat),
                what=_("Leaving before a deal ends the match."),
                points_a=totals.get(side_a, 0) - sum(d.points_a for d in deals),
                points_b=totals.get(side_b, 0) - sum(d.points_b for d in deals),
            )
        )
    figures = []
    for figure in game.figure_specs:
        if figure.holder != "side":
            continue
        values = (match.figures or {}).get(figure.key) or {}
        figures.append(
            (
                _label(game, figure.key, english),
                figure.label(int(values.get(side_a, figure.start))),
                figure.label(int(values.get(side_b, figure.start))),
            )
        )
    return ResultPreview(
        team_a=teams[side_a],
        team_b=teams[side_b],
        deals=tuple(deals),
        points_a=totals.get(side_a, 0),
        points_b=totals.get(side_b, 0),
        figures=tuple(figures),
        finished=match.status == Match.Status.FINISHED,
        winner=teams.get(match.winner or "", ""),
        end_reason=match.get_end_reason_display() if match.end_reason else "",
    )
