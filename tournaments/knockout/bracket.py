"""Knockout brackets, pure (no Django): the seeding, who meets whom in each round, and the places
the results give.

A bracket of ``size`` seeds is played in *matches* of ``match_size`` entrants: 2 for team events
(1 v N, 2 v N-1 ... in bracket order, so that seeds 1 and 2 can meet only in the final), 4 for
individual games of four seats (tables 1, 4, 5, 8 and 2, 3, 6, 7 for eight: a snake; the top two
of each table go through). Places are decided in *groups*: the group of places ``lo``..``hi``
plays its matches; the winners form the group of the upper half of its places, and the losers the
group of the lower half when those places are played (``places_played``: a third-place match for
4, the 5th-8th places for 8), or else share the first place of that half (two losing semi-final
teams without a third-place match are both 3rd). A group as large as one match decides its places
by the match's order (a final, a third-place match, the final table of four).

>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> snake_tables([1, 2, 3, 4, 5, 6, 7, 8])
[[1, 4, 5, 8], [2, 3, 6, 7]]
>>> b = plan(4, 2, 4, {})
>>> [(m.key, m.entrants) for m in b.matches]
[('1-1-1', (1, 4)), ('1-1-2', (2, 3)), ('2-1-1', None), ('2-3-1', None)]
>>> b = plan(4, 2, 4, {"1-1-1": (1, 4), "1-1-2": (3, 2), "2-1-1": (3, 1), "2-3-1": (2, 4)})
>>> sorted(b.places.items())
[(1, (2, True)), (2, (3, True)), (3, (1, True)), (4, (4, True))]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "TABLE_SIZES",
    "TEAM_SIZES",
    "Bracket",
    "BracketMatch",
    "bracket_order",
    "match_key",
    "plan",
    "snake_tables",
]

#: the bracket sizes of team events (matches of two) and of individual games of four seats
TEAM_SIZES = (2, 4, 8, 16)
TABLE_SIZES = (4, 8, 16)


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order: neighbours meet first, seeds 1 and 2 only in the final."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def snake_tables(seeds: Sequence[int], table_size: int = 4) -> list[list[int]]:
    """Seat ``seeds`` (best first) at tables of ``table_size`` in a snake: row by row, each row
    back the other way, so that every table gets one of the best, one of the next ..."""
    count = len(seeds) // table_size
    tables: list[list[int]] = [[] for _ in range(count)]
    for row in range(table_size):
        part = list(seeds[row * count : (row + 1) * count])
        if row % 2:
            part.reverse()
        for table, seed in zip(tables, part, strict=True):
            table.append(seed)
    return tables


def match_key(round_number: int, lo: int, index: int) -> str:
    """A match's name in the plan: its round, the best place its group decides, its number."""
    return f"{round_number}-{lo}-{index}"


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of the plan: the places its group decides, its entrants (seeds in seat order; None
    while an earlier match is undecided) and where they come from."""

    key: str
    round: int
    lo: int
    hi: int
    index: int
    entrants: tuple[int, ...] | None
    #: where the entrants come from: ("W", key) the winners of a match, ("L", key) its losers
    feeds: tuple[tuple[str, str], ...]
    result: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Bracket:
    """The whole plan as the results stand: every match, and each seed's place (place, final?):
    a place not final yet is the best the seed can still reach, shared with the others there."""

    size: int
    match_size: int
    places_played: int
    matches: tuple[BracketMatch, ...]
    places: Mapping[int, tuple[int, bool]]

    @property
    def rounds(self) -> int:
        return max((m.round for m in self.matches), default=0)

    def round_matches(self, number: int) -> list[BracketMatch]:
        return [m for m in self.matches if m.round == number]

    @property
    def complete(self) -> bool:
        return all(m.result is not None for m in self.matches)


@dataclass(slots=True)
class _Group:
    lo: int
    hi: int
    entrants: list[int] | None
    feeds: tuple[tuple[str, str], ...]


def _split(entrants: list[int], match_size: int, first_round: bool) -> list[list[int]]:
    if match_size == 2:  # the better seed takes side A (seats 0, 2, 4)
        return [sorted(entrants[i : i + 2]) for i in range(0, len(entrants), 2)]
    if first_round:
        return snake_tables(sorted(entrants), match_size)
    return snake_tables(entrants, match_size)


def plan(
    size: int,
    match_size: int,
    places_played: int,
    results: Mapping[str, Sequence[int]],
) -> Bracket:
    """The bracket of ``size`` seeds in matches of ``match_size`` with the given ``results``
    (a match's key to its entrants best first). A result that does not name exactly the match's
    entrants is ignored (the match stays undecided)."""
    if match_size not in (2, 4) or size % match_size or size < match_size:
        raise ValueError(f"no bracket of {size} in matches of {match_size}")
    advance = match_size // 2
    first = bracket_order(size) if match_size == 2 else list(range(1, size + 1))
    groups = [_Group(1, size, first, ())]
    matches: list[BracketMatch] = []
    places: dict[int, tuple[int, bool]] = {}
    number = 0
    while groups:
        number += 1
        following: list[_Group] = []
        for group in groups:
            n = group.hi - group.lo + 1
            count = n // match_size
            tables: list[list[int] | None] = (
                list(_split(group.entrants, match_size, number == 1))
                if group.entrants is not None
                else [None] * count
            )
            orders: list[tuple[int, ...] | None] = []
            for index, table in enumerate(tables, start=1):
                key = match_key(number, group.lo, index)
                given = results.get(key)
                order = (
                    tuple(given)
                    if given is not None and table is not None and sorted(given) == sorted(table)
                    else None
                )
                orders.append(order)
                if match_size == 2 and len(group.feeds) == 2 * count:
                    feeds = group.feeds[2 * index - 2 : 2 * index]
                else:
                    feeds = group.feeds
                matches.append(
                    BracketMatch(
                        key=key,
                        round=number,
                        lo=group.lo,
                        hi=group.hi,
                        index=index,
                        entrants=tuple(table) if table is not None else None,
                        feeds=feeds,
                        result=order,
                    )
                )
            decided = group.entrants is not None and all(o is not None for o in orders)
            if group.entrants is not None and not decided:
                for seed in group.entrants:
                    places[seed] = (group.lo, False)
            if n == match_size:
                if decided:
                    for place, seed in enumerate(orders[0] or (), start=group.lo):
                        places[seed] = (place, True)
                continue
            half = n // 2
            keys = [match_key(number, group.lo, i) for i in range(1, count + 1)]
            winners = losers = None
            if decided:
                done = [o for o in orders if o is not None]
                if match_size == 2:
                    winners = [o[0] for o in done]
                    losers = [o[1] for o in done]
                else:  # re-seeded: the tables' winners first, then the runners-up, each by seed
                    winners = [s for pos in range(advance) for s in sorted(o[pos] for o in done)]
                    losers = [
                        s
                        for pos in range(advance, match_size)
                        for s in sorted(o[pos] for o in done)
                    ]
            following.append(
                _Group(group.lo, group.lo + half - 1, winners, tuple(("W", k) for k in keys))
            )
            if group.lo + half <= places_played:
                following.append(
                    _Group(group.lo + half, group.hi, losers, tuple(("L", k) for k in keys))
                )
            elif losers is not None:
                for seed in losers:
                    places[seed] = (group.lo + half, True)
        groups = following
    return Bracket(size, match_size, places_played, tuple(matches), places)
