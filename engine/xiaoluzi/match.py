"""A match of 小路子: a fixed number of deals at one table, running totals of points and silver.

Contract: ``docs/xiaoluzi.md``, sections *Match* and *Timeouts and escapes*. Nothing carries from
deal to deal but the totals; every deal starts with its declaring round. :class:`Match` drives
its deals the way a :class:`Deal` is driven (``apply``, ``timeout``, ``escape``) and settles each
deal as it ends.

>>> match = Match(seed=1, rules=Rules(deals_per_match=2))
>>> deal = match.start_deal()
>>> deal.phase.value, match.deals_played, match.over
('declare', 0, False)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.errors import EngineError, IllegalActionError
from engine.xiaoluzi.actions import DEFAULT_RULES, SEATS, Action, Rules
from engine.xiaoluzi.deal import Deal
from engine.xiaoluzi.result import CannotEscapeError, DealResult, EscapeResult, leave_result

__all__ = ["Match", "MatchEnd", "places"]


class MatchEnd(enum.Enum):
    """Why a match ended: its deals were played, an escape, or a player leaving between deals."""

    DEALS = "deals"
    ESCAPE = "escape"
    LEFT = "left"


def places(points: Sequence[int], silver: Sequence[int]) -> list[int]:
    """Each seat's place: by points, then silver; ties share a place.

    >>> places([3, 3, -3, -3], [3, 5, -4, -4])
    [2, 1, 3, 3]
    """
    keys = list(zip(points, silver, strict=True))
    return [1 + sum(1 for other in keys if other > key) for key in keys]


class Match:
    """The state of one match; start each deal with :meth:`start_deal`, then drive it.

    ``points`` and ``silver`` are per seat over the match, already multiplied by the base score
    and the base silver.
    """

    def __init__(self, *, seed: int | str = 0, rules: Rules = DEFAULT_RULES) -> None:
        self.seed = seed
        self.rules = rules
        self._rng = random.Random(seed)
        self.deals: list[Deal] = []
        self.results: list[DealResult | EscapeResult] = []
        self.points = [0, 0, 0, 0]
        self.silver = [0, 0, 0, 0]
        self.end: MatchEnd | None = None
        self.left: EscapeResult | None = None
        self.leaving: int | None = None

    # -- observers -----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self.end is not None

    @property
    def deal(self) -> Deal | None:
        """The deal being played, or ``None`` between deals."""
        if self.deals and not self.deals[-1].over:
            return self.deals[-1]
        return None

    @property
    def deals_played(self) -> int:
        """How many deals have ended."""
        return sum(1 for d in self.deals if d.over)

    def places(self) -> list[int]:
        """Each seat's place so far: by points, then silver; ties share a place."""
        return places(self.points, self.silver)

    def legal_actions(self, seat: int) -> list[Action]:
        """The current deal's legal actions for ``seat`` (none between deals)."""
        deal = self.deal
        return [] if deal is None else deal.legal_actions(seat)

    # -- driving -------------------------------------------------------------------------------

    def next_seed(self) -> int:
        """The seed the next deal is dealt from (drawn from the match's seed)."""
        return self._rng.getrandbits(63)

    def start_deal(self, *, hands: Sequence[Sequence[Card] | str] | None = None) -> Deal:
        """Deal the next deal; raises when the match is over or a deal is being played.

        ``hands`` replaces the seeded deal (tests, puzzles): such a deal is hand-made, and a
        match holding one does not replay from its records (a match deals from its seed).
        """
        if self.over:
            raise IllegalActionError(f"the match is over ({self.end.value if self.end else ''})")
        if self.deal is not None:
            raise IllegalActionError("a deal is being played; finish it first")
        deal = Deal(seed=self.next_seed(), rules=self.rules, hands=hands)
        self.deals.append(deal)
        return deal

    def _current(self, what: object) -> Deal:
        deal = self.deal
        if deal is None:
            raise IllegalActionError(f"{what}: no deal is being played")
        return deal

    def apply(self, action: Action) -> None:
        """Apply ``action`` to the current deal; settle the deal when it ends."""
        self._current(action).apply(action)
        self._settle()

    def timeout(self, seat: int) -> Action:
        """Let the system act for ``seat`` in the current deal; returns the action."""
        action = self._current(f"timeout of seat {seat}").timeout(seat)
        self._settle()
        return action

    def escape(self, seat: int) -> EscapeResult:
        """``seat`` escapes from the current deal (ends the match); between deals it leaves.

        Raises :class:`CannotEscapeError` for a seat that is out or a bystander (see
        :meth:`leave` for such a player who goes anyway).
        """
        deal = self.deal
        if deal is None:
            self._check_leave(seat)
            return self._leave_now(seat)
        result = deal.escape(seat)
        self._settle()
        return result

    def leave(self, seat: int) -> EscapeResult | None:
        """``seat`` leaves the table. Between deals, before the match's deals are played: −3,
        each other seat +1, the match ends. During a deal, a seat that cannot escape (out, or a
        bystander) is settled so once the deal is over, unless it was the match's last (then
        ``None`` now and nothing later); a seat that can escape must :meth:`escape`.
        """
        self._check_leave(seat)
        deal = self.deal
        if deal is not None:
            if deal.can_escape(seat):
                raise CannotEscapeError(f"seat {seat} leaves during the deal: that is an escape")
            if self.leaving is None:
                self.leaving = seat
            return None
        return self._leave_now(seat)

    def _check_leave(self, seat: int) -> None:
        if seat not in SEATS:
            raise EngineError(f"seat must be 0-3, not {seat!r}")
        if self.over:
            raise IllegalActionError(f"seat {seat} leaves: the match is over already")

    def _leave_now(self, seat: int) -> EscapeResult:
        result = leave_result(
            seat, base_score=self.rules.base_score, base_silver=self.rules.base_silver
        )
        self.left = result
        self.results.append(result)
        self._add(result)
        self.end = MatchEnd.LEFT
        return result

    def _add(self, result: DealResult | EscapeResult) -> None:
        for s in SEATS:
            self.points[s] += result.points[s]
            self.silver[s] += result.silver[s]

    def _settle(self) -> None:
        deal = self.deals[-1]
        settled = len(self.results) - (1 if self.left is not None else 0)
        if not deal.over or settled == len(self.deals):
            return
        result = deal.result
        assert result is not None
        self.results.append(result)
        self._add(result)
        if isinstance(result, EscapeResult):
            self.end = MatchEnd.ESCAPE
        elif len(self.deals) >= self.rules.deals_per_match:
            self.end = MatchEnd.DEALS
        elif self.leaving is not None:
            self._leave_now(self.leaving)

    # -- summary -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A summary: options, totals of points and silver, places, each deal's result."""
        return {
            "seed": self.seed,
            "rules": self.rules.to_json(),
            "over": self.over,
            "end": None if self.end is None else self.end.value,
            "deals_played": self.deals_played,
            "points": list(self.points),
            "silver": list(self.silver),
            "places": self.places(),
            "results": [r.to_json() for r in self.results],
        }

    def public_view(self) -> dict[str, Any]:
        """What every player may see of the match: the summary and the current deal's view."""
        summary = self.to_json()
        del summary["seed"]  # the seed deals every hand: never public
        deal = self.deal
        return {
            **summary,
            "deal_number": len(self.deals) if deal is not None else None,
            "deal": None if deal is None else deal.public_view(),
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        """The public view with ``seat``'s private view of the current deal."""
        view = self.public_view()
        deal = self.deal
        if deal is not None:
            view["deal"] = deal.private_view(seat)
        return view

    def __repr__(self) -> str:
        state = self.end.value if self.end else f"{self.deals_played} deals played"
        return f"<Match seed={self.seed!r} {state}>"
