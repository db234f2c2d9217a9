"""Whole matches of 小路子 bot against bot, checking the engine's invariants as they are played.

Used by ``luzi simulate --game xiaoluzi`` and ``bench/bench_xiaoluzi.py``.

>>> stats = simulate(deals=3, seed=1)
>>> stats.deals, sum(stats.modes.values()) + stats.escapes
(3, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.xiaoluzi.actions import DEFAULT_RULES, Rules
from engine.xiaoluzi.bots import make_bots
from engine.xiaoluzi.deal import Deal
from engine.xiaoluzi.match import Match
from engine.xiaoluzi.record import Record, replay
from engine.xiaoluzi.result import DealResult, EscapeResult, deal_result

__all__ = ["BOT_MODES", "InvariantError", "SimulationStats", "check_deal_end", "simulate"]

#: ``heuristic`` or ``random`` at every seat.
BOT_MODES = ("heuristic", "random")

#: No deal needs this many actions (32 cards, 7 questions, a trick of passes has 4 actions).
MAX_ACTIONS = 200


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
    modes: dict[str, int] = field(
        default_factory=lambda: {"none": 0, "declared": 0, "countered": 0}
    )
    declarer_wins: int = 0
    counter_wins: int = 0
    slams: int = 0
    escapes: int = 0
    seconds: float = 0.0

    @property
    def deals_per_second(self) -> float:
        """Deals played per second of wall time."""
        return self.deals / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON object."""
        return {
            "game": "xiaoluzi",
            "bots": self.bots,
            "seed": self.seed,
            "deals": self.deals,
            "matches": self.matches,
            "actions": self.actions,
            "plays": self.plays,
            "modes": dict(self.modes),
            "declarer_wins": self.declarer_wins,
            "counter_wins": self.counter_wins,
            "slams": self.slams,
            "escapes": self.escapes,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals_per_second, 1),
        }


def check_deal_end(deal: Deal) -> None:
    """Check an ended deal: every card kept, the result agrees with the finish, both ledgers of
    a played-out deal sum to zero, the public view shows no hand."""
    if not deal.cards_accounted():
        raise InvariantError(f"cards lost or made up in {deal!r}")
    result = deal.result
    if isinstance(result, DealResult):
        counts = deal.cards_played if deal.rules.slam_count == "cards" else deal.plays_made
        again = deal_result(
            deal.mode,
            deal.finish,
            counts,
            declarer=deal.declarer,
            counter=deal.counter,
            base_score=deal.rules.base_score,
            base_silver=deal.rules.base_silver,
            slam_count=deal.rules.slam_count,
        )
        if again != result:
            raise InvariantError(f"the deal's result {result} is not its finish's {again}")
        if sum(result.points) != 0 or sum(result.silver) != 0:
            raise InvariantError(f"points {result.points} or silver {result.silver} not zero-sum")
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
    rules: Rules = DEFAULT_RULES,
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
        players = make_bots([bots] * 4, seed=f"{seed}:{number}")
        match = Match(seed=f"{seed}:{number}", rules=rules)
        number += 1
        stats.matches += 1
        while not match.over and stats.deals < deals:
            deal = match.start_deal()
            while deal.turn is not None:
                match.apply(players[deal.turn].act(deal, deal.turn))
                if len(deal.actions) > MAX_ACTIONS:
                    raise InvariantError(f"a deal did not end in {MAX_ACTIONS} actions")
            check_deal_end(deal)
            if verify_records:
                record = Record.loads(Record.from_deal(deal).dumps())
                if replay(record).result != deal.result:
                    raise InvariantError("a record did not replay to its deal's result")
            _count(stats, deal)
            if progress is not None:
                progress(stats.deals, deals)
    stats.seconds = time.perf_counter() - start
    return stats


def _count(stats: SimulationStats, deal: Deal) -> None:
    stats.deals += 1
    stats.actions += len(deal.actions)
    stats.plays += sum(deal.plays_made)
    result = deal.result
    if isinstance(result, EscapeResult):
        stats.escapes += 1
        return
    assert result is not None
    stats.modes[result.mode.value] += 1
    stats.slams += result.slam
    if result.declarer is not None and result.winner == result.declarer:
        stats.declarer_wins += 1
    if result.counter is not None and result.winner == result.counter:
        stats.counter_wins += 1
