"""A match of 大怪路子: deals at one table, team levels, points, passing A, escapes.

Contract: ``shared/rules/daguai.md``, sections *Levels*, *End of a deal and its result* and
*Match, escapes and timeouts*. :class:`Match` drives its deals the same way a :class:`Deal` is
driven (``apply``, ``timeout``, ``escape``) and settles each deal as it ends.

>>> match = Match(seed=1)
>>> deal = match.start_deal()
>>> (deal.dealer, str(deal.levels), match.deals_played)
(1, '2,2', 0)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.daguai.deal import DEFAULT_RULES, Action, Deal, Rules
from engine.daguai.result import (
    SEATS,
    DealResult,
    EscapeResult,
    Levels,
    Team,
    leave_result,
    points_json,
)
from engine.errors import EngineError, IllegalActionError

__all__ = ["Match", "MatchEnd", "deal_seeds"]


class MatchEnd(enum.Enum):
    """Why a match ended: its deals were played, a team passed A, an escape, or a leaver."""

    DEALS = "deals"
    PASSED_A = "passed_a"
    ESCAPE = "escape"
    LEFT = "left"


def deal_seeds(match_seed: int | str, count: int) -> tuple[int, list[int]]:
    """The first dealer and the seeds of the first ``count`` deals of a match with this seed."""
    rng = random.Random(match_seed)
    dealer = rng.randrange(6)
    return dealer, [rng.getrandbits(63) for _ in range(count)]


class Match:
    """The state of one match; start each deal with :meth:`start_deal`, then drive it.

    ``points`` are per seat over the match, already multiplied by ``base``; ``ladder`` holds
    the levels before the first deal and after every deal. Consecutive system plays carry over
    from deal to deal **[decided]**: when the system play that reaches the limit also ends the
    deal, the seat escapes at its next system play.
    """

    def __init__(self, *, seed: int | str = 0, rules: Rules = DEFAULT_RULES, base: int = 1) -> None:
        if base < 0:
            raise EngineError(f"the base score must not be negative, not {base}")
        self.seed = seed
        self.rules = rules
        self.base = base
        self._rng = random.Random(seed)
        self._next_dealer = self._rng.randrange(6)
        self._tributes: tuple[tuple[int, int], ...] = ()
        self.levels = Levels()
        self.ladder: list[Levels] = [self.levels]
        self.deals: list[Deal] = []
        self.results: list[DealResult | EscapeResult] = []
        self.points = [0, 0, 0, 0, 0, 0]
        self.streaks = [0, 0, 0, 0, 0, 0]
        self.end: MatchEnd | None = None
        self.winner: Team | None = None
        self.left: EscapeResult | None = None

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
        return len(self.results) if self.left is None else len(self.results) - 1

    @property
    def next_dealer(self) -> int:
        """The dealer of the next deal (random for the first deal, from the seed)."""
        return self._next_dealer

    def team_points(self) -> dict[Team, int]:
        """Each team's points: the sum over its seats."""
        return {t: sum(self.points[s] for s in t.seats) for t in Team}

    def legal_actions(self, seat: int) -> list[Action]:
        """The current deal's legal actions for ``seat`` (none between deals)."""
        deal = self.deal
        return [] if deal is None else deal.legal_actions(seat)

    # -- driving -------------------------------------------------------------------------------

    def start_deal(
        self, *, hands: Sequence[Sequence[Card]] | None = None, seed: int | str | None = None
    ) -> Deal:
        """Deal the next deal (with its tribute); raises when the match is over or a deal is on.

        ``hands`` replaces the seeded shuffle, ``seed`` the seed the match draws for the deal (a
        deal dealt again elsewhere: a same-deal challenge)."""
        if self.over:
            raise IllegalActionError(f"the match is over ({self.end.value if self.end else ''})")
        if self.deal is not None:
            raise IllegalActionError("a deal is being played; finish it first")
        drawn = self._rng.getrandbits(63)
        deal = Deal(
            seed=drawn if seed is None else seed,
            dealer=self._next_dealer,
            levels=self.levels,
            tributes=self._tributes,
            rules=self.rules,
            base=self.base,
            hands=hands,
            streaks=self.streaks,
        )
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
        """``seat`` leaves: an escape during a deal, or leaving between deals. Ends the match."""
        deal = self.deal
        if deal is not None:
            result = deal.escape(seat)
            self._settle()
            return result
        return self.leave(seat)

    def leave(self, seat: int) -> EscapeResult:
        """``seat`` leaves between deals before the match's deals are played: −3b, opponents +1b."""
        if seat not in SEATS:
            raise EngineError(f"seat must be 0-5, not {seat!r}")
        if self.over:
            raise IllegalActionError(f"seat {seat} leaves: the match is over already")
        if self.deal is not None:
            raise IllegalActionError(f"seat {seat} leaves: a deal is on, that is an escape")
        result = leave_result(seat, base=self.base)
        self.left = result
        self.results.append(result)
        self._add(result.points)
        self.end = MatchEnd.LEFT
        return result

    def _add(self, points: tuple[int, ...]) -> None:
        for s in SEATS:
            self.points[s] += points[s]

    def _settle(self) -> None:
        deal = self.deals[-1]
        if not deal.over or len(self.results) == len(self.deals):
            return
        result = deal.result
        assert result is not None
        self.results.append(result)
        self._add(result.points)
        self.streaks = list(deal.streaks)
        if isinstance(result, EscapeResult):
            self.ladder.append(self.levels)
            self.end = MatchEnd.ESCAPE
            return
        self.levels = result.levels
        self.ladder.append(self.levels)
        self._next_dealer = result.next_dealer
        self._tributes = result.tributes
        if result.passed_a:
            self.end = MatchEnd.PASSED_A
            self.winner = result.winner
        elif len(self.deals) >= self.rules.deals_per_match:
            self.end = MatchEnd.DEALS

    # -- summary -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A summary of the match: levels, ladder, points per seat and team, each deal's result."""
        teams = self.team_points()
        return {
            "seed": self.seed,
            "rules": self.rules.to_json(),
            "base": self.base,
            "over": self.over,
            "end": None if self.end is None else self.end.value,
            "winner": None if self.winner is None else self.winner.value,
            "levels": self.levels.to_json(),
            "ladder": [lv.to_json() for lv in self.ladder],
            "points": points_json(self.points),
            "team_points": {t.value: p for t, p in teams.items()},
            "results": [r.to_json() for r in self.results],
            "next_dealer": None if self.over else self._next_dealer,
        }

    def public_view(self) -> dict[str, Any]:
        """What every player may see of the match: the summary and the current deal's view."""
        deal = self.deal
        summary = self.to_json()
        del summary["seed"]  # the seed deals every hand: never public
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
        state = self.end.value if self.end else f"{len(self.results)} deals played"
        return f"<Match seed={self.seed!r} levels={self.levels} {state}>"
