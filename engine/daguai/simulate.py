"""Whole matches bot against bot, checking the engine's invariants as they are played.

Used by ``luzi simulate`` and ``bench/bench_deals.py``.

>>> stats = simulate(deals=3, seed=1)
>>> stats.deals, stats.wins + stats.draws + stats.escapes
(3, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.daguai.bots import make_bots
from engine.daguai.deal import Deal
from engine.daguai.match import Match
from engine.daguai.record import Record, replay
from engine.daguai.result import DealResult, EscapeResult, Team, deal_result

__all__ = ["BOT_MODES", "InvariantError", "SimulationStats", "check_deal_end", "simulate"]

#: ``heuristic`` or ``random`` at every seat, or ``mixed``: a heuristic team against a random
#: team, the sides alternating from match to match.
BOT_MODES = ("heuristic", "random", "mixed")

#: No deal needs this many actions (162 cards; a trick of passes has at most six actions).
MAX_ACTIONS = 3000


class InvariantError(AssertionError):
    """The engine broke one of its own invariants (a bug, never bad input)."""


@dataclass(slots=True)
class SimulationStats:
    """What a simulation played and how fast."""

    bots: str
    seed: int
    deals: int = 0
    matches: int = 0
    actions: int = 0
    plays: int = 0
    wins: int = 0
    draws: int = 0
    escapes: int = 0
    passed_a: int = 0
    tributes: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})
    heuristic_wins: int = 0
    random_wins: int = 0
    seconds: float = 0.0

    @property
    def deals_per_second(self) -> float:
        """Deals played per second of wall time."""
        return self.deals / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON object."""
        data: dict[str, Any] = {
            "bots": self.bots,
            "seed": self.seed,
            "deals": self.deals,
            "matches": self.matches,
            "actions": self.actions,
            "plays": self.plays,
            "wins": self.wins,
            "draws": self.draws,
            "escapes": self.escapes,
            "passed_a": self.passed_a,
            "tributes": {str(k): v for k, v in self.tributes.items()},
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals_per_second, 1),
        }
        if self.bots == "mixed":
            data["heuristic_wins"] = self.heuristic_wins
            data["random_wins"] = self.random_wins
            decided = self.heuristic_wins + self.random_wins
            data["heuristic_win_rate"] = (
                round(self.heuristic_wins / decided, 4) if decided else None
            )
        return data


def check_deal_end(deal: Deal) -> None:
    """Check an ended deal: every card kept, the result agrees with the finishing order, the
    points of a non-escape deal sum to zero, the public view shows no hand."""
    if not deal.cards_accounted():
        raise InvariantError(f"cards lost or made up in {deal!r}")
    result = deal.result
    if isinstance(result, DealResult):
        again = deal_result(
            deal.finish, dealer_team=deal.dealer_team, levels=deal.levels, base=deal.base
        )
        if again != result:
            raise InvariantError(f"the deal's result {result} is not its finishing order's {again}")
        if sum(result.points) != 0:
            raise InvariantError(f"points {result.points} do not sum to zero")
    elif not isinstance(result, EscapeResult):
        raise InvariantError(f"a deal ended without a result: {deal!r}")
    view = deal.public_view()
    if "hand" in view or "hands" in view:
        raise InvariantError("the public view shows a hand")


def simulate(
    *,
    deals: int = 100,
    seed: int = 0,
    bots: str = "heuristic",
    verify_records: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationStats:
    """Play matches until ``deals`` deals are played; raises :class:`InvariantError` on a bug.

    With ``verify_records`` every deal's record is written, read back and replayed as well.
    """
    if bots not in BOT_MODES:
        raise ValueError(f"unknown bots {bots!r} (use {', '.join(BOT_MODES)})")
    stats = SimulationStats(bots=bots, seed=seed)
    start = time.perf_counter()
    number = 0
    while stats.deals < deals:
        heuristic_team = Team.A if number % 2 == 0 else Team.B
        if bots == "mixed":
            kinds = ["heuristic" if Team.of(s) is heuristic_team else "random" for s in range(6)]
        else:
            kinds = [bots] * 6
        players = make_bots(kinds, seed=f"{seed}:{number}")
        match = Match(seed=f"{seed}:{number}")
        number += 1
        stats.matches += 1
        while not match.over and stats.deals < deals:
            deal = match.start_deal()
            dealt = sum(len(h) for h in deal.hands)
            while not deal.over:
                for seat in deal.awaiting():
                    match.apply(players[seat].act(deal, seat))
                    if sum(len(h) for h in deal.hands) + len(deal.pile) != dealt:
                        raise InvariantError(f"card count changed after {deal.actions[-1]}")
                    if deal.over:
                        break
                if len(deal.actions) > MAX_ACTIONS:
                    raise InvariantError(f"a deal did not end in {MAX_ACTIONS} actions")
            check_deal_end(deal)
            if verify_records:
                record = Record.loads(Record.from_deal(deal).dumps())
                if replay(record).result != deal.result:
                    raise InvariantError("a record did not replay to its deal's result")
            _count(stats, deal, heuristic_team if bots == "mixed" else None)
            if progress is not None:
                progress(stats.deals, deals)
    stats.seconds = time.perf_counter() - start
    return stats


def _count(stats: SimulationStats, deal: Deal, heuristic_team: Team | None) -> None:
    stats.deals += 1
    stats.actions += len(deal.actions)
    stats.plays += deal.plays
    result = deal.result
    if isinstance(result, EscapeResult):
        stats.escapes += 1
        return
    assert result is not None
    if result.winner is None:
        stats.draws += 1
        return
    stats.wins += 1
    stats.passed_a += result.passed_a
    stats.tributes[len(result.payers)] += 1
    if heuristic_team is not None:
        if result.winner is heuristic_team:
            stats.heuristic_wins += 1
        else:
            stats.random_wins += 1
