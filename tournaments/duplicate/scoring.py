"""Duplicate scoring (复式计分): one deal's results at the tables that held the same cards.

Pure: no Django. For one deal and one seat (individual games) or side (大怪路子 teams), each table
that played the deal has a result in points; a table's duplicate score compares it with the other
tables' results for the same seat or side:

* against the datum: its points minus the average of the other tables' points (0 when no other
  table played the deal); the scores of one deal add up to 0 across the tables;
* matchpoints: 2 for each other table it beat on that deal, 1 for each tie; the n tables of one
  deal share n(n-1) matchpoints.

>>> scores = deal_scores({1: 10, 2: -2, 3: -2})
>>> [(t, s.datum, s.matchpoints) for t, s in sorted(scores.items())]
[(1, 12.0, 4), (2, -6.0, 1), (3, -6.0, 1)]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["DealScore", "bye_score", "deal_scores"]

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True, slots=True)
class DealScore:
    """One table's duplicate score on one deal for one seat or side."""

    datum: float
    matchpoints: int


def deal_scores(results: Mapping[T, int]) -> dict[T, DealScore]:
    """Each table's score on one deal from every table's points for the same seat or side
    (only the tables that played the deal: an absent table, a bye or a match that ended before
    the deal is simply not in ``results``)."""
    count = len(results)
    total = sum(results.values())
    ordered = sorted(results.values())
    out: dict[T, DealScore] = {}
    for table, points in results.items():
        if count < 2:
            out[table] = DealScore(0.0, 0)
            continue
        datum = points - (total - points) / (count - 1)
        below = _count_below(ordered, points)
        equal = _count_below(ordered, points + 1) - below - 1  # the others with the same points
        out[table] = DealScore(datum, 2 * below + equal)
    return out


def bye_score(tables: int) -> DealScore:
    """What a bye scores on a deal that ``tables`` tables played: the average (0 against the
    datum, n - 1 matchpoints: the n(n-1) of the deal shared by n)."""
    return DealScore(0.0, max(0, tables - 1))


def _count_below(ordered: list[int], value: int) -> int:
    """How many of ``ordered`` (sorted) are below ``value``."""
    return bisect_left(ordered, value)
