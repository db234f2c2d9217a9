"""A match of 上海斗地主: ``deals`` played deals with running totals of points and rating.

All-pass deals (荒番) are dealt again and do not count; they double the next played deal as the
``huangfan`` option says. An escape ends the match for the table.

>>> from engine.shanghai_doudizhu.bots import HeuristicBot, play_match
>>> match = play_match(Match(seed=1), [HeuristicBot(seed=s) for s in range(4)])
>>> match.over, match.played, sum(match.points)
(True, 4, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.errors import IllegalActionError
from engine.shanghai_doudizhu.actions import Action
from engine.shanghai_doudizhu.deal import Deal
from engine.shanghai_doudizhu.result import SEATS, DealResult, EscapeKind, Outcome
from engine.shanghai_doudizhu.rules import (
    DEFAULT_RULES,
    RULES_VERSION,
    FirstBidder,
    Huangfan,
    Rules,
)

__all__ = ["Match", "MatchEnd", "deal_seed"]


class MatchEnd(enum.Enum):
    """Why a match ended: all its deals were played, or a player escaped."""

    DEALS = "deals"
    ESCAPE = "escape"
    LEFT = "left"


def deal_seed(match_seed: int | str, number: int) -> str:
    """The seed of the match's ``number``-th deal (all-pass deals included), e.g. ``'7/1'``."""
    return f"{match_seed}/{number}"


class Match:
    """The state of a match; deals are started with :meth:`start_deal` and driven through
    :meth:`apply`, :meth:`timeout` and :meth:`escape`."""

    def __init__(self, *, seed: int | str = 0, rules: Rules = DEFAULT_RULES) -> None:
        self.seed = seed
        self.rules = rules
        self.deals: list[Deal] = []
        self.points = [0, 0, 0, 0]
        self.rating = [0, 0, 0, 0]
        self.played = 0
        self.all_pass_run = 0  # all-pass deals since the last played deal
        self.pending = 0  # queued 荒番局 (huangfan=queue)
        self.end: MatchEnd | None = None
        self.left: int | None = None

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self.end is not None

    @property
    def deal(self) -> Deal | None:
        """The deal being played (``None`` before the first or between deals)."""
        if self.deals and not self.deals[-1].over:
            return self.deals[-1]
        return None

    def huangfan(self) -> int:
        """H for the next deal, from the all-pass deals before it and the option."""
        mode = self.rules.huangfan
        if mode is Huangfan.MULTIPLY:
            return self.all_pass_run
        if mode is Huangfan.QUEUE:
            return 1 if self.pending else 0
        return 1 if self.all_pass_run else 0

    def next_first_bidder(self) -> int | None:
        """The first bidder of the next deal under ``first_bidder=rotate`` (``None``: the seed)."""
        if self.rules.first_bidder is FirstBidder.MARKED_CARD or not self.deals:
            return None
        return (self.deals[-1].first_bidder + 1) % 4

    def start_deal(
        self,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        kitty: Sequence[Card] = (),
        marked: tuple[int, Card] | None = None,
        rules_version: str = RULES_VERSION,
    ) -> Deal:
        """Deal the next deal (``hands`` etc. replace the seeded dealing, for tests;
        ``rules_version`` that of the record it replays)."""
        if self.over:
            raise IllegalActionError(f"the match is over ({self.end.value if self.end else ''})")
        if self.deal is not None:
            raise IllegalActionError("the current deal is not over")
        deal = Deal(
            seed=deal_seed(self.seed, len(self.deals) + 1),
            rules=self.rules,
            huangfan=self.huangfan(),
            first_bidder=self.next_first_bidder(),
            hands=hands,
            kitty=kitty,
            marked=marked,
            rules_version=rules_version,
        )
        self.deals.append(deal)
        return deal

    def _current(self) -> Deal:
        deal = self.deal
        if deal is None:
            raise IllegalActionError("no deal is being played")
        return deal

    def apply(self, action: Action) -> None:
        """Apply ``action`` to the current deal (and settle it when it ends)."""
        deal = self._current()
        deal.apply(action)
        self._settle(deal)

    def apply_logged(self, action: Action) -> None:
        """:meth:`apply` for an action read back from a table's log (see
        :meth:`Deal.apply_logged`)."""
        deal = self._current()
        deal.apply_logged(action)
        self._settle(deal)

    def timeout(self, seat: int | None = None) -> Action:
        """The system acts for the awaited seat of the current deal."""
        deal = self._current()
        action = deal.timeout(seat)
        self._settle(deal)
        return action

    def escape(self, seat: int, kind: EscapeKind) -> DealResult:
        """``seat`` escapes from the current deal, which ends the match."""
        deal = self._current()
        result = deal.escape(seat, kind)
        self._settle(deal)
        return result

    def leave(self, seat: int) -> None:
        """``seat`` leaves between deals: not an escape (nothing is scored), but the match ends
        for the table."""
        if seat not in SEATS:
            raise IllegalActionError(f"seat must be 0-3, not {seat!r}")
        if self.over:
            raise IllegalActionError(f"the match is over ({self.end.value if self.end else ''})")
        if self.deal is not None:
            raise IllegalActionError(f"seat {seat} leaves during a deal: that is an escape")
        self.left = seat
        self.end = MatchEnd.LEFT

    def _settle(self, deal: Deal) -> None:
        result = deal.result
        if result is None:
            return
        if result.outcome is Outcome.ALL_PASS:
            self.all_pass_run += 1
            self.pending += 1
            return
        for s in SEATS:
            self.points[s] += result.points[s]
            self.rating[s] += result.rating[s]
        self.played += 1
        self.all_pass_run = 0
        if self.pending:
            self.pending -= 1
        if result.outcome is Outcome.ESCAPE:
            self.end = MatchEnd.ESCAPE
        elif self.played >= self.rules.deals:
            self.end = MatchEnd.DEALS

    def to_json(self) -> dict[str, Any]:
        """The match's totals and each deal's result."""
        return {
            "seed": self.seed,
            "options": self.rules.to_json(),
            "deals": len(self.deals),
            "played": self.played,
            "end": None if self.end is None else self.end.value,
            "left": self.left,
            "points": list(self.points),
            "rating": list(self.rating),
            "results": [None if d.result is None else d.result.to_json() for d in self.deals],
        }
