"""上海斗地主's score sheet: a match played with real cards, checked and scored deal by deal.

The sheet (JSON) is ``{"first_dealer": 0, "deals": [...]}`` (``first_dealer`` optional: deal 1's
first bidder); each deal is one of::

    {"landlord": 0, "bid": 2, "winner": "landlord"}
    {"landlord": 1, "bid": 3, "head_bid": true, "open_hand": true, "report": "double_play",
     "marked_joker": true, "redeals": 1, "winner": "farmers"}
    {"all_pass": true}
    {"escape": {"seat": 2, "kind": "active", "during": "bidding"}, "bid": 1}
    {"escape": {"seat": 0, "kind": "timeouts", "during": "play"}, "landlord": 0, "bid": 2}
    {"leave": 3}

A deal won by play (or by 报到 不打) names the ``landlord``, the ``bid`` (1-3), the ``winner``
(landlord / farmers) and, when they happened, ``head_bid`` (头撂, a bid of 3 by the first bidder),
``open_hand`` (摊打, only after 头撂), ``report`` (报到: none / play / no_play / double_play /
double_no_play; ``report_sets`` the number of sets of a 双报到, 2 when not given) and
``marked_joker`` (标记王). ``redeals`` (荒番) is the number of all-pass deals right before it: the
all-pass deals entered as ``{"all_pass": true}`` count by themselves, ``redeals`` then must agree;
without them ``redeals`` stands for all-pass deals the sheet does not list. ``first_bidder``
(optional) is the deal's first bidder, its dealer on the sheet. An escape names the seat, the
kind (disconnect / timeouts / active) and whether it came ``during`` the bidding (``bid``: the
highest bid so far, 0-2, no landlord) or the play (the landlord, the bid and what was chosen so
far; ``report`` none / play / double_play). ``{"leave": seat}`` is leaving between deals: nothing
is scored, the match ends. Every refusal says ``deal N: FIELD: why``.

>>> from engine.shanghai_doudizhu import DEFAULT_RULES
>>> sheet = score_sheet({"deals": [{"landlord": 0, "bid": 2, "winner": "landlord"}]},
...                     rules=DEFAULT_RULES)
>>> sheet.points, sheet.figures[-1]["rating"]
((6, -2, -2, -2), {'0': 3, '1': -1, '2': -1, '3': -1})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.adapters.sheet_fields import Fields, sheet_deals
from engine.game import ScoredSheet, SheetDeal
from engine.shanghai_doudizhu import EscapeKind, Outcome, Rules
from engine.shanghai_doudizhu.result import (
    MAX_HUANGFAN,
    DealResult,
    Factors,
    all_pass_result,
    deal_result,
    escape_result,
)
from engine.shanghai_doudizhu.rules import FirstBidder, Huangfan

__all__ = ["REPORTS", "score_sheet"]

#: The values of a deal's ``report`` (报到): none, 报到 打 / 不打, 双报到 打 / 不打.
REPORTS = ("none", "play", "no_play", "double_play", "double_no_play")

_ENDS = ("winner", "all_pass", "escape", "leave")
_FACTOR_FIELDS = ("landlord", "bid", "head_bid", "open_hand", "report", "report_sets")
_FIELDS = (*_ENDS, *_FACTOR_FIELDS, "marked_joker", "redeals", "first_bidder")
_LANDLORD_WINS = (Outcome.LANDLORD, Outcome.REPORT_NO_PLAY)


@dataclass
class _Table:
    """What the sheet carries from deal to deal: totals, the 荒番 run and queue, the rotation."""

    rules: Rules
    points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    rating: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    wins: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    played: int = 0
    run: int = 0  # all-pass deals since the last played deal
    listed: int = 0  # of which the sheet lists as deals
    pending: int = 0  # queued 荒番局 (huangfan=queue)
    bidder: int | None = None  # the first bidder of the deal before, when known

    def figures(self) -> dict[str, dict[str, int]]:
        return {
            "rating": {str(s): v for s, v in enumerate(self.rating)},
            "landlord_wins": {str(s): v for s, v in enumerate(self.wins)},
        }

    def huangfan(self, row: Fields) -> int:
        """H of this deal, from the all-pass deals before it (and its ``redeals``)."""
        if row.has("redeals"):
            redeals = row.integer("redeals", low=0)
            if self.listed and redeals != self.listed:
                row.refuse(
                    "redeals", "doudizhu_sheet.redeals_listed", listed=self.listed, redeals=redeals
                )
            if not self.listed:
                self.run += redeals
                self.pending += redeals
        mode = self.rules.huangfan
        if mode is Huangfan.MULTIPLY:
            if self.run > MAX_HUANGFAN:
                row.refuse(
                    "redeals", "doudizhu_sheet.huangfan_max", most=MAX_HUANGFAN, run=self.run
                )
            return self.run
        if mode is Huangfan.QUEUE:
            return 1 if self.pending else 0
        return 1 if self.run else 0

    def add(self, result: DealResult) -> None:
        if result.outcome is Outcome.ALL_PASS:
            self.run += 1
            self.listed += 1
            self.pending += 1
            return
        for s in range(4):
            self.points[s] += result.points[s]
            self.rating[s] += result.rating[s]
        if result.outcome in _LANDLORD_WINS and result.landlord is not None:
            self.wins[result.landlord] += 1
        self.played += 1
        self.run = self.listed = 0
        if self.pending:
            self.pending -= 1


def _report(row: Fields, choices: tuple[str, ...]) -> tuple[int, bool | None]:
    """The declared sets and 打 (``True``) / 不打 (``False``) of ``report`` (0 and ``None``
    without 报到)."""
    report = row.choice("report", choices, "none")
    if report == "none":
        row.absent("report_sets", "doudizhu_sheet.no_report_sets")
        return 0, None
    sets = 1
    if report.startswith("double"):
        sets = row.integer("report_sets", low=2, high=3, default=2)
    else:
        row.absent("report_sets", "doudizhu_sheet.double_report_sets")
    return sets, not report.endswith("no_play")


def _factors(row: Fields, table: _Table, *, bid: int, reports: tuple[str, ...]) -> Factors:
    head, open_hand = row.flag("head_bid"), row.flag("open_hand")
    if head and bid != 3:
        row.refuse("head_bid", "doudizhu_sheet.head_bid_3", bid=bid)
    if open_hand and not head:
        row.refuse("open_hand", "doudizhu_sheet.open_hand_head")
    reported, fight = _report(row, reports)
    return Factors(
        base=table.rules.base,
        bid=bid,
        head=head,
        huangfan=table.huangfan(row),
        marked_joker=row.flag("marked_joker"),
        open=open_hand,
        reported=reported,
        fight=fight,
    )


def _won(row: Fields, table: _Table) -> DealResult:
    landlord = row.seat("landlord")
    factors = _factors(row, table, bid=row.integer("bid", low=1, high=3), reports=REPORTS)
    winner = row.choice("winner", ("landlord", "farmers"))
    if factors.fight is False:
        if winner != "landlord":
            row.refuse("winner", "doudizhu_sheet.report_no_play_winner")
        outcome = Outcome.REPORT_NO_PLAY
    else:
        outcome = Outcome.LANDLORD if winner == "landlord" else Outcome.FARMERS
    return deal_result(landlord, outcome, factors, table.rules)


def _escaped(row: Fields, table: _Table) -> DealResult:
    escape = row.data.get("escape")
    if not isinstance(escape, dict):
        row.refuse("escape", "doudizhu_sheet.escape_object", value=escape)
    what = Fields(escape, row.number, "escape.")
    what.only(("seat", "kind", "during"))
    seat = what.seat("seat")
    kind = EscapeKind(what.choice("kind", tuple(k.value for k in EscapeKind)))
    during = what.choice("during", ("bidding", "play"))
    if during == "bidding":
        row.absent("landlord", "doudizhu_sheet.bidding_no_landlord")
        for name in ("head_bid", "open_hand", "report"):
            row.absent(name, "doudizhu_sheet.bidding_not_over")
        bid = row.integer("bid", low=0, high=3, default=0)
        if bid == 3:
            row.refuse("bid", "doudizhu_sheet.bid_3_ends")
        landlord = None
    else:
        landlord = row.seat("landlord")
        bid = row.integer("bid", low=1, high=3)
    factors = _factors(row, table, bid=bid, reports=("none", "play", "double_play"))
    return escape_result(seat, kind, landlord, factors, table.rules)


def _all_pass(row: Fields, table: _Table) -> DealResult:
    for name in (*_FACTOR_FIELDS, "redeals"):
        row.absent(name, "doudizhu_sheet.all_pass_none")
    factors = Factors(
        base=table.rules.base, huangfan=table.huangfan(row), marked_joker=row.flag("marked_joker")
    )
    return all_pass_result(factors)


def _dealer(row: Fields, table: _Table, result: DealResult, first_dealer: int | None) -> int:
    """The deal's first bidder as the sheet says or the rotation gives, else the landlord."""
    rotate = table.rules.first_bidder is FirstBidder.ROTATE
    expected = first_dealer if table.bidder is None and row.number == 1 else None
    if rotate and table.bidder is not None:
        expected = (table.bidder + 1) % 4
    given = row.optional_seat("first_bidder")
    if given is not None and expected is not None and given != expected:
        how = "rotates" if rotate and row.number != 1 else "first"
        row.refuse("first_bidder", f"doudizhu_sheet.bidder_{how}", expected=expected, given=given)
    bidder = given if given is not None else expected
    if bidder is not None and row.flag("head_bid") and bidder != result.landlord:
        row.refuse("first_bidder", "doudizhu_sheet.head_bid_bidder", seat=bidder)
    if bidder == result.landlord and result.factors.bid == 3 and not row.flag("head_bid"):
        row.refuse("head_bid", "doudizhu_sheet.is_head_bid", seat=bidder)
    table.bidder = bidder
    if bidder is not None:
        return bidder
    if result.landlord is not None:
        return result.landlord
    return first_dealer or 0


def score_sheet(entry: Any, *, rules: Rules) -> ScoredSheet:
    """Check and score a sheet of 上海斗地主 (``rules`` with the base score); raises
    :class:`~engine.errors.EngineError` worded ``deal N: FIELD: why`` for the first bad deal."""
    head, rows = sheet_deals(entry, ("first_dealer",))
    first_dealer = head.optional_seat("first_dealer")
    table = _Table(rules)
    figures = [table.figures()]
    deals: list[SheetDeal] = []
    end: str | None = None
    left: int | None = None
    for row in rows:
        if end is not None:
            row.ended(end)
        row.only(_FIELDS)
        ends = [name for name in _ENDS if row.has(name) and row.data[name] is not False]
        if not ends:
            row.refuse("winner", "doudizhu_sheet.winner_missing")
        if len(ends) > 1:
            row.refuse(ends[1], "doudizhu_sheet.one_end", first=ends[0], second=ends[1])
        if ends[0] == "leave":
            row.only(("leave",))
            left, end = row.seat("leave"), "left"
            continue
        if ends[0] == "all_pass":
            row.flag("all_pass")
            result = _all_pass(row, table)
        else:
            result = _escaped(row, table) if ends[0] == "escape" else _won(row, table)
        dealer = _dealer(row, table, result, first_dealer)
        table.add(result)
        figures.append(table.figures())
        deals.append(
            SheetDeal(
                number=row.number or 0,
                dealer=dealer,
                level_rank=None,
                result=result.to_json(),
                finish=(),
                points=result.points,
                escape=result.escaper,
            )
        )
        if result.outcome is Outcome.ESCAPE:
            end = "escape"
        elif table.played >= rules.deals:
            end = "deals_played"
    winner = None
    if end is not None:
        keys = list(zip(table.points, table.rating, strict=True))
        firsts = [s for s, key in enumerate(keys) if key == max(keys)]
        winner = str(firsts[0]) if len(firsts) == 1 else None
    return ScoredSheet(
        deals=tuple(deals),
        points=tuple(table.points),
        figures=tuple(figures),
        end_reason=end,
        winner=winner,
        left=left,
    )
