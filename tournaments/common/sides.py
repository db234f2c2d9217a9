"""Seats, sides and teams of a team event, as the event's game has them (issue 27).

A team event is of a game with fixed sides (``Game.fixed_sides``): a table seats two teams, team
A on the seats of the game's first side and team B on those of its second, each team in its
members' order. So a team has as many players as a side has seats (大怪路子: 3 of 6 seats, by
parity, seated a0 b0 a1 b1 a2 b2; a game of two sides of two at tables of four: 2), and nothing
here names a game (tests/tournaments/common/test_sides.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from django.utils.translation import pgettext

from engine.game import Game
from engine.registry import get_game

__all__ = [
    "TEAM_SIDES",
    "seat_side",
    "seating",
    "seats_text",
    "side_figure",
    "side_figure_start",
    "side_seats",
    "team_game",
    "team_size",
]

#: The two teams of a table as tournaments stores them (``Pairing.team_a``/``team_b``, a tally's
#: ``points_a``...): team A holds the game's first side, team B its second.
TEAM_SIDES = ("A", "B")

_T = TypeVar("_T")


def team_game(game: str | Game) -> bool:
    """Whether ``game`` is played by teams: fixed sides of equal size, two of them, named as the
    tallies store them (``A``, ``B``). A game of three sides would seat three teams a table, which
    the pairing does not draw."""
    chosen = get_game(game) if isinstance(game, str) else game
    if not chosen.fixed_sides or tuple(chosen.sides) != TEAM_SIDES:
        return False
    sizes = {len(chosen.side_seats(side)) for side in chosen.sides}
    return len(sizes) == 1 and 0 not in sizes


def side_seats(game: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats of team A and of team B at a table of ``game`` (its first and second side)."""
    chosen = get_game(game)
    first, second = chosen.sides[:2]
    return chosen.side_seats(first), chosen.side_seats(second)


def team_size(game: str) -> int:
    """How many players a team of ``game`` has: the seats of one side. ValueError for a game
    without fixed sides (its events are individual)."""
    if not team_game(game):
        raise ValueError(f"the game {game!r} is not played by teams of two fixed sides")
    return len(side_seats(game)[0])


def seating(game: str, members_a: Sequence[_T], members_b: Sequence[_T]) -> list[_T]:
    """The players of a table in seat order: team A's members on the first side's seats, team
    B's on the second's, each in team order (大怪路子: a0 b0 a1 b1 a2 b2)."""
    seats_a, seats_b = side_seats(game)
    if len(members_a) != len(seats_a) or len(members_b) != len(seats_b):
        raise ValueError(f"a team of {game!r} has {len(seats_a)} players")
    by_seat = dict(zip(seats_a, members_a, strict=True)) | dict(
        zip(seats_b, members_b, strict=True)
    )
    return [by_seat[seat] for seat in sorted(by_seat)]


def seat_side(game: str, seat: object) -> str | None:
    """The team (``"A"``/``"B"``) that holds ``seat`` at a table of ``game`` (None for a seat
    that is no seat of a side, or not a seat)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return None
    for side, seats in zip(TEAM_SIDES, side_seats(game), strict=True):
        if seat in seats:
            return side
    return None


def seats_text(game: str, side: str) -> str:
    """A team's seats as people read them on a page, counted from 1: ``"1, 3, 5"``."""
    seats = side_seats(game)[TEAM_SIDES.index(side)]
    separator = pgettext("list separator", ", ")
    return separator.join(str(seat + 1) for seat in seats)


def side_figure(game: str) -> str | None:
    """The key of the game's first figure held by a side (大怪路子: ``level``), which a team's
    standing and a match's ladder follow; None when the game has none."""
    spec = next((f for f in get_game(game).figure_specs if f.holder == "side"), None)
    return spec.key if spec is not None else None


def side_figure_start(game: str) -> int:
    """Where the side figure starts (2 when the game has none: a team's level that never moves)."""
    spec = next((f for f in get_game(game).figure_specs if f.holder == "side"), None)
    return spec.start if spec is not None else 2
