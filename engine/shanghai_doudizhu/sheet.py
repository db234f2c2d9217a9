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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import register_messages
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
from engine.sheets import (
    Fields,
    PickMissing,
    SheetColumn,
    SheetField,
    SheetSpec,
    seat_name,
    sheet_deals,
    words,
)

__all__ = ["REPORTS", "SHEET_SPEC", "describe_deal", "form_deal", "score_sheet"]

register_messages(
    {
        "doudizhu_sheet.redeals_listed": (
            "{listed} all-pass deals are entered right before this deal, not {redeals}"
        ),
        "doudizhu_sheet.huangfan_max": "荒番 counts at most {most}, not {run}",
        "doudizhu_sheet.no_report_sets": "a deal without 报到 has no sets",
        "doudizhu_sheet.double_report_sets": (
            "报到 declares one set (双报到: double_play, double_no_play)"
        ),
        "doudizhu_sheet.head_bid_3": "头撂 is a bid of 3, not {bid}",
        "doudizhu_sheet.open_hand_head": "摊打 happens only in a 头撂 deal (head_bid)",
        "doudizhu_sheet.report_no_play_winner": "报到 不打 (report no_play) is a landlord win",
        "doudizhu_sheet.escape_object": "an object with seat, kind and during, not {value!r}",
        "doudizhu_sheet.bidding_no_landlord": (
            "an escape during the bidding has no landlord (during: play)"
        ),
        "doudizhu_sheet.bidding_not_over": "the bidding was not over",
        "doudizhu_sheet.bid_3_ends": (
            "a bid of 3 ends the bidding at once: the escape came during play"
        ),
        "doudizhu_sheet.all_pass_none": "an all-pass deal has none: nobody bid",
        "doudizhu_sheet.bidder_rotates": "the first bidder rotates to seat {expected}, not {given}",
        "doudizhu_sheet.bidder_first": (
            "the first bidder is (first_dealer) seat {expected}, not {given}"
        ),
        "doudizhu_sheet.head_bid_bidder": "头撂 is the first bidder's bid: seat {seat} bid first",
        "doudizhu_sheet.is_head_bid": "seat {seat} bid first and bid 3: that is 头撂 (head_bid)",
        "doudizhu_sheet.winner_missing": (
            "missing: landlord or farmers (or all_pass, escape, leave)"
        ),
        "doudizhu_sheet.one_end": "a deal ends one way, not with both {first} and {second}",
    }
)

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


# --- The sheet on the site's form, its preview and the printed sheet ---------------------------


def form_deal(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """A deal of the sheet from one row of the form (:attr:`SHEET_SPEC`'s fields), ``None`` for
    a blank row; raises :class:`~engine.sheets.PickMissing` for a leaving without its seat."""
    end = row.get("end")
    if not end and row.get("leave") is not None:
        end = "leave"  # only the seat that left is picked
    if not end:
        return None
    if end == "leave":
        if row.get("leave") is None:
            raise PickMissing("leave")
        return {"leave": row["leave"]}
    deal: dict[str, Any] = {}
    if end == "all_pass":
        deal["all_pass"] = True
    elif end == "escape":
        deal["escape"] = {
            "seat": row.get("escape"),
            "kind": row.get("escape_kind") or None,
            "during": row.get("escape_during") or None,
        }
    else:
        deal["winner"] = end
    if end != "all_pass":
        for name in ("landlord", "bid"):
            if row.get(name) is not None:
                deal[name] = row[name]
        for name in ("head_bid", "open_hand"):
            if row.get(name):
                deal[name] = True
        report = row.get("report")
        if report and report != "none":
            deal["report"] = report
        if row.get("redeals"):
            deal["redeals"] = row["redeals"]
    if row.get("marked_joker"):
        deal["marked_joker"] = True
    if row.get("first_bidder") is not None:
        deal["first_bidder"] = row["first_bidder"]
    return deal


def describe_deal(
    result: Mapping[str, Any], seats: Sequence[str], sides: Mapping[str, str], english: bool
) -> str:
    """A deal of 上海斗地主 in words: the landlord, the bid and each factor, who won."""
    factors = result.get("factors") or {}
    outcome = result.get("outcome")
    parts: list[str] = []
    if result.get("landlord") is not None:
        parts.append(
            words(
                english,
                "地主 {name}，叫 {bid} 分",
                "Landlord {name}, bid {bid}",
                name=seat_name(seats, result["landlord"]),
                bid=int(factors.get("bid", 0)),
            )
        )
    if factors.get("head_bid"):
        parts.append("头撂")
    if factors.get("open_hand"):
        parts.append("摊打")
    if factors.get("reported"):
        how = "打" if factors.get("fight") else "不打"
        parts.append(f"报到 ×{factors['reported']} {how}")
    if factors.get("marked_joker"):
        parts.append(words(english, "标记王", "marked joker (标记王)"))
    if factors.get("huangfan"):
        parts.append(f"荒番 {factors['huangfan']}")
    if outcome == "all_pass":
        parts.insert(
            0, words(english, "无人叫分，重新发牌（荒番）", "All pass: dealt again (荒番)")
        )
    elif outcome == "escape":
        name = seat_name(seats, result.get("escaper"))
        parts.append(words(english, "{name}逃跑", "{name} escaped (逃跑)", name=name))
    elif outcome == "farmers":
        parts.append(words(english, "农民胜", "the farmers win"))
    else:
        parts.append(words(english, "地主胜", "the landlord wins"))
    return " · ".join(parts)


SHEET_SPEC = SheetSpec(
    fields=(
        SheetField(
            "end",
            "choice",
            "成绩",
            "Result",
            field="winner",
            choices=(
                ("landlord", "地主胜", "Landlord wins (地主胜)"),
                ("farmers", "农民胜", "Farmers win (农民胜)"),
                ("all_pass", "无人叫分（荒番）", "All pass (荒番)"),
                ("escape", "逃跑", "Escape (逃跑)"),
                ("leave", "开局前离开", "Left before the deal"),
            ),
        ),
        SheetField("landlord", "seat", "地主", "Landlord (地主)"),
        SheetField("bid", "number", "叫分", "Bid (叫分)", maximum=3),
        SheetField("head_bid", "flag", "头撂", "头撂"),
        SheetField("open_hand", "flag", "摊打", "摊打"),
        SheetField(
            "report",
            "choice",
            "报到",
            "报到",
            blank=False,
            choices=(
                ("none", "不报到", "No 报到"),
                ("play", "报到 打", "报到 打 (play)"),
                ("no_play", "报到 不打", "报到 不打 (no play)"),
                ("double_play", "双报到 打", "双报到 打"),
                ("double_no_play", "双报到 不打", "双报到 不打"),
            ),
        ),
        SheetField("marked_joker", "flag", "标记王", "Marked joker (标记王)"),
        SheetField("redeals", "number", "此前荒番", "荒番 before", maximum=9),
        SheetField("first_bidder", "seat", "首叫", "First bidder"),
        SheetField("escape", "seat", "逃跑", "Escaped (逃跑)"),
        SheetField(
            "escape_kind",
            "choice",
            "方式",
            "How",
            field="escape",
            choices=(
                ("active", "主动离开", "left the table (主动)"),
                ("disconnect", "掉线", "disconnected (掉线)"),
                ("timeouts", "超时", "timed out (超时)"),
            ),
        ),
        SheetField(
            "escape_during",
            "choice",
            "时机",
            "When",
            field="escape",
            choices=(
                ("play", "出牌中", "during play"),
                ("bidding", "叫分中", "during the bidding"),
            ),
        ),
        SheetField("leave", "seat", "开局前离开", "Left before it"),
    ),
    form_deal=form_deal,
    columns=(
        SheetColumn("首叫", "First bidder"),
        SheetColumn("地主", "Landlord (地主)"),
        SheetColumn("叫分", "Bid (叫分)"),
        SheetColumn("头撂", "头撂"),
        SheetColumn("摊打", "摊打"),
        SheetColumn("报到（打 / 不打）", "报到 (打 / 不打)"),
        SheetColumn("标记王", "Marked joker (标记王)"),
        SheetColumn("此前荒番", "荒番 before"),
        SheetColumn("胜方（地主 / 农民）", "Winner (地主 / 农民)"),
        SheetColumn("逃跑：座位、方式、时机", "Escape: seat, how, when"),
        SheetColumn("开局前离开（座位）", "Left before it (seat)"),
    ),
    first_dealer_zh="第 1 局首叫（可不填）",
    first_dealer_en="First bidder of deal 1 (optional)",
    first_dealer_print_zh="第 1 局首叫（座位）",
    first_dealer_print_en="First bidder of deal 1 (seat)",
    help_zh=(
        "每局填写：结果、地主和叫分、头撂（首叫即叫 3 分）、摊打、报到（打或不打）、标记王、"
        "紧挨本局之前且未单独录入的荒番局数，或谁以何种方式逃跑。逃跑或开局前离开即结束比赛。"
    ),
    help_en=(
        "For each deal: how it ended, the landlord and the bid, 头撂 (a first bid of 3), 摊打, "
        "报到 (打 or 不打), the marked joker, the all-pass deals (荒番) right before it that are "
        "not entered as deals, or who escaped and how. An escape, or a player leaving before a "
        "deal, ends the match."
    ),
    print_help_zh=(
        "每局一行，荒番局也写一行：在胜方一栏写“荒番”。座位写号码。"
        "积分、等级分和地主胜局由 Luzi 计算。"
    ),
    print_help_en=(
        "One row per deal, an all-pass deal (荒番) too: write 荒番 in the winner's box. Seats by "
        "number. Luzi computes the points, rating points (等级分) and landlord wins."
    ),
    extra_rows=2,
    print_extra_rows=4,
    describe=describe_deal,
)
