"""The rows of an event's standings as pages, the API, the downloads and the cache carry them: one
frozen row per team, player or unit, with names and typed figures (tournaments.standings.selectors
makes them; a format such as duplicate play ranks them its own way through tournaments.formats).

A row reads a column by its key (:meth:`value`, the CSV's cells), says itself as the API's JSON
object (:meth:`as_dict`, keys in the columns' order, the duplicate score last where there is one),
and pickles (the standings are cached). Templates read its fields as they read a dict's keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Self

__all__ = [
    "PlayerRow",
    "PlayerUnitRow",
    "StandingsRow",
    "TeamRow",
    "UnitRow",
]


class _Row:
    """What every standings row can do; its fields are each kind's."""

    __slots__ = ()

    rank: int
    points: int
    tied: bool
    duplicate: float | int | None

    @property
    def entrant(self) -> int:
        """The id of the team, player or unit the row ranks."""
        raise NotImplementedError

    def value(self, column: str) -> object:
        """The row's cell in ``column`` ("" for a column it does not have)."""
        if column != "figures" and column in self.__dataclass_fields__:  # type: ignore[attr-defined]
            return getattr(self, column)
        return ""

    def as_dict(self) -> dict[str, object]:
        """The row as the API writes it: its columns in order, the duplicate score (where the
        event has one) last."""
        out: dict[str, object] = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.name == "figures":
                out.update(value)
            elif f.name != "duplicate" or value is not None:
                out[f.name] = value
        return out

    def ranked(self, *, rank: int, tied: bool, duplicate: float | int | None) -> Self:
        """The row at another place (a format's ranking), with its duplicate score."""
        return replace(self, rank=rank, tied=tied, duplicate=duplicate)  # type: ignore[type-var]


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamRow(_Row):
    rank: int
    team_id: int
    team: str
    unit: str
    points: int
    wins: int
    draws: int
    losses: int
    played: int
    byes: int
    highest_level: str  # as the game writes a level (大怪路子's 14 is "A")
    levels_gained: int
    opponents_points: int
    head_to_head: int
    tied: bool
    duplicate: float | int | None = None

    @property
    def entrant(self) -> int:
        return self.team_id


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRow(_Row):
    rank: int
    player_id: int
    player: str
    team: str
    points: int
    deals: int
    average_place: float | None
    tributes_paid: int
    tributes_received: int
    byes: int
    #: the game's own figures a seat holds (上海斗地主's rating points, 小路子's silver), in order
    figures: dict[str, int] = field(default_factory=dict)
    tied: bool
    duplicate: float | int | None = None

    @property
    def entrant(self) -> int:
        return self.player_id

    @property
    def figure_values(self) -> list[int]:
        """The game's figures, in the game's order (the page's columns)."""
        return list(self.figures.values())

    def value(self, column: str) -> object:
        if column in self.figures:
            return self.figures[column]
        return _Row.value(self, column)


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitRow(_Row):
    """A unit of a team event: its teams' points and match wins."""

    rank: int
    unit_id: int
    unit: str
    teams: int
    points: int
    wins: int
    best_rank: int
    tied: bool
    duplicate: float | int | None = None

    @property
    def entrant(self) -> int:
        return self.unit_id


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerUnitRow(_Row):
    """A unit of an individual event: the points of its ``counted`` best players of ``players``."""

    rank: int
    unit_id: int
    unit: str
    players: int
    counted: int
    points: int
    best_rank: int
    tied: bool
    duplicate: float | int | None = None

    @property
    def entrant(self) -> int:
        return self.unit_id


#: A row of any kind of standings.
StandingsRow = TeamRow | PlayerRow | UnitRow | PlayerUnitRow
