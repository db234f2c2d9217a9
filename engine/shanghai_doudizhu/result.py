"""Settlement of a 上海斗地主 deal: points (积分) with every factor, escapes, rating (等级分).

Contract: ``docs/shanghai_doudizhu.md``, sections *Result and scoring*, *Escapes and timeouts*
and *Rating*. Everything is integer arithmetic: f is each farmer's amount, the landlord's is 3f.

>>> r = deal_result(0, Outcome.LANDLORD, Factors(bid=2))
>>> r.points, r.rating
((6, -2, -2, -2), (3, -1, -1, -1))
>>> deal_result(1, Outcome.FARMERS, Factors(bid=3, head=True, open=True)).points
(6, -18, 6, 6)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.shanghai_doudizhu.rules import (
    DEFAULT_RULES,
    DoubleReport,
    EscapeRounding,
    ReportLossRating,
    Rules,
)

__all__ = [
    "MAX_HUANGFAN",
    "SEATS",
    "DealResult",
    "EscapeKind",
    "Factors",
    "Outcome",
    "all_pass_result",
    "deal_result",
    "escape_result",
    "farmer_amount",
]

#: The four seats, in play order.
SEATS = range(4)

#: The largest H (荒番) accepted: ``huangfan=multiply`` counts all-pass deals in a row, and 2^H
#: must stay a number one can print.
MAX_HUANGFAN = 1000


class Outcome(enum.Enum):
    """How a deal ended."""

    LANDLORD = "landlord"  # the landlord went out first
    FARMERS = "farmers"  # a farmer went out first
    REPORT_NO_PLAY = "report_no_play"  # 报到 不打: a landlord win without play
    ALL_PASS = "all_pass"  # 荒番: nobody bid
    ESCAPE = "escape"


class EscapeKind(enum.Enum):
    """Why a player counts as escaped: disconnected too long, too many timeouts, left the table."""

    DISCONNECT = "disconnect"
    TIMEOUTS = "timeouts"
    ACTIVE = "active"


@dataclass(frozen=True, slots=True)
class Factors:
    """What a deal's amount is made of: base b, bid d, 头撂, H (荒番), J (标记王), T (摊打), the
    number of declared 报到 sets and the 打 (``True``) / 不打 (``False``) choice (``None`` while
    not chosen, or without 报到)."""

    base: int = 1
    bid: int = 0
    head: bool = False
    huangfan: int = 0
    marked_joker: bool = False
    open: bool = False
    reported: int = 0
    fight: bool | None = None

    def __post_init__(self) -> None:
        if self.base < 1:
            raise EngineError(f"the base score must be positive, not {self.base}")
        if self.bid not in (0, 1, 2, 3):
            raise EngineError(f"the bid is 1, 2 or 3, not {self.bid}")
        if self.head and self.bid != 3:
            raise EngineError("头撂 is a bid of 3")
        if self.open and not self.head:
            raise EngineError("摊打 happens only in a 头撂 deal")
        if self.huangfan < 0 or self.reported < 0:
            raise EngineError("荒番 and 报到 counts are 0 or more")
        if self.huangfan > MAX_HUANGFAN:
            raise EngineError(f"huangfan (荒番) is at most {MAX_HUANGFAN}, not {self.huangfan}")

    @property
    def doubling(self) -> int:
        """2^(H+J+T)."""
        return 1 << (self.huangfan + int(self.marked_joker) + int(self.open))

    def to_json(self) -> dict[str, Any]:
        """The factors as a JSON object."""
        return {
            "base": self.base,
            "bid": self.bid,
            "head_bid": self.head,
            "huangfan": self.huangfan,
            "marked_joker": self.marked_joker,
            "open_hand": self.open,
            "reported": self.reported,
            "fight": self.fight,
        }


def _report_multiplier(reported: int, fight: bool, rules: Rules) -> int:
    if rules.double_report is DoubleReport.PER_SET:
        return 2 * reported if fight else reported
    if fight:
        return 2 if reported == 1 else 4
    return 1 if reported == 1 else 2


def farmer_amount(factors: Factors, landlord_wins: bool, rules: Rules = DEFAULT_RULES) -> int:
    """f, each farmer's amount, for a deal settled by play (or 报到 不打 when ``fight`` is
    ``False``); the landlord's is 3f.

    >>> farmer_amount(Factors(bid=3, head=True, open=True, huangfan=1, marked_joker=True,
    ...                       reported=2, fight=True), landlord_wins=True)
    128
    """
    b, d = factors.base, factors.bid
    if d == 0:
        raise EngineError("a deal without a landlord has no amount")
    reported = factors.reported if factors.fight is not None else 0
    if not landlord_wins:
        if reported and factors.fight:
            return 0
        return b * d * factors.doubling
    big_d = 4 if factors.head else d
    if reported and factors.fight is False:
        doubling = 1 << (factors.huangfan + int(factors.marked_joker))
        return b * big_d * doubling * _report_multiplier(reported, False, rules)
    amount = b * big_d * factors.doubling
    if reported:
        amount *= _report_multiplier(reported, True, rules)
    return amount


@dataclass(frozen=True, slots=True)
class DealResult:
    """A settled deal: how it ended, points and rating per seat (seat order), and why."""

    outcome: Outcome
    landlord: int | None
    points: tuple[int, int, int, int]
    rating: tuple[int, int, int, int]
    factors: Factors
    escaper: int | None = None
    escape_kind: EscapeKind | None = None

    @property
    def winner(self) -> str | None:
        """``landlord`` or ``farmers`` for a deal won, ``None`` for all-pass or an escape."""
        if self.outcome in (Outcome.LANDLORD, Outcome.REPORT_NO_PLAY):
            return "landlord"
        if self.outcome is Outcome.FARMERS:
            return "farmers"
        return None

    @property
    def played(self) -> bool:
        """Whether the deal counts as played (everything but an all-pass deal)."""
        return self.outcome is not Outcome.ALL_PASS

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object."""
        return {
            "outcome": self.outcome.value,
            "winner": self.winner,
            "landlord": self.landlord,
            "points": list(self.points),
            "rating": list(self.rating),
            "factors": self.factors.to_json(),
            "escaper": self.escaper,
            "escape_kind": None if self.escape_kind is None else self.escape_kind.value,
        }


def _four(values: list[int]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])


def all_pass_result(factors: Factors = Factors()) -> DealResult:
    """荒番: nobody bid; nothing is scored and no rating moves."""
    return DealResult(Outcome.ALL_PASS, None, (0, 0, 0, 0), (0, 0, 0, 0), factors)


def deal_result(
    landlord: int, outcome: Outcome, factors: Factors, rules: Rules = DEFAULT_RULES
) -> DealResult:
    """Points and rating of a deal won by the landlord (by play or 报到 不打) or by the farmers."""
    if landlord not in SEATS:
        raise EngineError(f"the landlord is a seat 0-3, not {landlord!r}")
    if outcome not in (Outcome.LANDLORD, Outcome.FARMERS, Outcome.REPORT_NO_PLAY):
        raise EngineError(f"{outcome.value} is not settled by deal_result")
    if outcome is Outcome.REPORT_NO_PLAY and (factors.reported < 1 or factors.fight is not False):
        raise EngineError("报到 不打 needs a declared set and 不打")
    if outcome is not Outcome.REPORT_NO_PLAY and factors.fight is False:
        raise EngineError("不打 ends the deal without play")
    landlord_wins = outcome is not Outcome.FARMERS
    f = farmer_amount(factors, landlord_wins, rules)
    sign = 1 if landlord_wins else -1
    points = [-sign * f] * 4
    points[landlord] = sign * 3 * f
    rating = [-sign] * 4
    rating[landlord] = 3 * sign
    lost_report = not landlord_wins and factors.reported and factors.fight
    if lost_report and rules.report_loss_rating is ReportLossRating.VOID:
        rating = [0] * 4
    return DealResult(outcome, landlord, _four(points), _four(rating), factors)


def _active(total: int, rules: Rules) -> int:
    pct = rules.active_escape_percent
    if rules.active_escape_rounding is EscapeRounding.CEIL:
        return (pct * total + 99) // 100
    return (pct * total + 50) // 100


def escape_result(
    seat: int,
    kind: EscapeKind,
    landlord: int | None,
    factors: Factors,
    rules: Rules = DEFAULT_RULES,
) -> DealResult:
    """The deal ends by ``seat``'s escape: each other player gets what his side would win as the
    deal stands, the escaper pays the sum (×1.1 rounded by the option when active).

    ``landlord`` is ``None`` when the escape came during the bidding; ``factors.bid`` is then the
    highest bid so far (0 if none).

    >>> escape_result(2, EscapeKind.ACTIVE, None, Factors(bid=1)).points
    (1, 1, -4, 1)
    """
    if seat not in SEATS:
        raise EngineError(f"the escaper is a seat 0-3, not {seat!r}")
    b = factors.base
    if landlord is None:
        g = max(1, factors.bid)
        share = b * g * (1 << (factors.huangfan + int(factors.marked_joker)))
        wins = [share if p != seat else 0 for p in SEATS]
        rating = [1 if p != seat else -3 for p in SEATS]
    else:
        if landlord not in SEATS:
            raise EngineError(f"the landlord is a seat 0-3, not {landlord!r}")
        counted = (
            factors
            if factors.fight
            else Factors(
                base=factors.base,
                bid=factors.bid,
                head=factors.head,
                huangfan=factors.huangfan,
                marked_joker=factors.marked_joker,
                open=factors.open,
            )
        )
        landlord_win = 3 * farmer_amount(counted, True, rules)
        farmer_win = farmer_amount(counted, False, rules)
        wins = [0 if p == seat else landlord_win if p == landlord else farmer_win for p in SEATS]
        rating = [
            (-3 if p == landlord else -1) if p == seat else (3 if p == landlord else 1)
            for p in SEATS
        ]
    total = sum(wins)
    pays = _active(total, rules) if kind is EscapeKind.ACTIVE else total
    points = list(wins)
    points[seat] = -pays
    return DealResult(Outcome.ESCAPE, landlord, _four(points), _four(rating), factors, seat, kind)
