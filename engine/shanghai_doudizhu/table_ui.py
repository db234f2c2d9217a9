"""上海斗地主's table as the table and replay pages show it: its words (Chinese, English) and what
the page draws (:mod:`engine.table_ui`; the keys are listed in docs/adding-a-game.md)."""

from __future__ import annotations

from typing import Any

from engine.table_ui import SCORE_FACT

__all__ = ["TERMS", "UI"]

TERMS: dict[str, Any] = {
    "landlord": ("地主", "地主"),
    "farmer": ("农民", "农民"),
    "markedHolder": ("标记牌", "标记牌"),
    "marked": ("标记牌", "标记牌"),
    "heldBy": ("在 %(name)s 手中", "held by %(name)s"),
    "bids": ("叫分", "叫分"),
    "bidOf": ("%(n)s 分", "%(n)s 分"),
    "noBid": ("不叫", "不叫"),
    "kitty": ("底牌", "底牌"),
    "openHand": ("摊打", "摊打"),
    "headBid": ("头撂", "头撂"),
    "huangfan": ("荒番 ×%(n)s", "荒番 ×%(n)s"),
    "markedJoker": ("标记王", "标记王"),
    "reported": ("报到 %(n)s", "报到 %(n)s"),
    "reportSets": ("报到", "报到"),
    "bombLimit": ("炸弹（限数）", "炸弹 (limit)"),
    "bombsLeft": (
        {"one": "还可炸 %(n)s 次", "other": "还可炸 %(n)s 次"},
        {"one": "%(n)s bomb left", "other": "%(n)s bombs left"},
    ),
    "factors": ("番数", "番数"),
    "noFactor": ("无加番", "no factor"),
    "allPass": ("荒番：无人叫分，重新发牌。", "荒番: nobody bid; the deal is dealt again."),
    "landlordWon": ("地主 %(name)s 获胜。", "The landlord (地主) %(name)s won."),
    "farmersWon": ("农民获胜。", "The farmers (农民) won."),
    "kittyTaken": ("已归地主", "taken by the landlord (地主)"),
    "leaveConfirm": (
        "确定离开牌桌？局中离开算逃跑：你扣 18 倍底分，比赛结束。关闭页面不算离开。",
        "Leave the table? During a deal this is an escape (逃跑): you lose 18 × the base score and "
        "the match ends. Closing the page is not leaving.",
    ),
    "leaveConfirmOut": (
        "确定离开牌桌？你本局已出完牌，不算逃跑；"
        "如果下一局开始时你仍未回来，算局间离开（扣 3 倍底分），比赛结束。",
        "Leave the table? You have gone out of this deal, so it is no escape; if you are still "
        "away when the next deal starts, you have left between deals (−3 × the base score) and "
        "the match ends.",
    ),
    "leaveConfirmBetween": (
        "确定离开牌桌？局间离开扣 3 倍底分，比赛结束。",
        "Leave the table? Leaving between deals costs you 3 × the base score and ends the match.",
    ),
    "kinds": {
        "open:yes": ("摊打", "摊打"),
        "open:no": ("不摊打", "不摊打"),
        "fight:yes": ("打", "打"),
        "fight:no": ("不打", "不打"),
        "report": ("报到", "报到"),
        "report:none": ("不报到", "不报到"),
    },
    "choose": {
        "bid": ("请叫分：1、2 或 3 分，或不叫。", "Your bid (叫分): 1, 2 or 3, or 不叫."),
        "open": (
            "头撂：是否摊打（亮出手牌打）？",
            "头撂: do you play with your hand face up (摊打)?",
        ),
        "report": ("请报到，或不报到。", "Declare your 报到 sets, or none."),
        "fight": ("报到：打还是不打？", "报到: do you fight it (打) or concede (不打)?"),
    },
}


def _eq(key: str, value: Any) -> dict[str, Any]:
    return {"eq": [{"get": key}, value]}


_IS_LANDLORD = {"eq": [{"get": "v.landlord"}, {"get": "seat"}]}
_DEAL = {"has": "v"}
_MARKED = {
    "when": {"get": "v.marked"},
    "label": {"t": "marked"},
    "value": {
        "cat": [
            {"cards": "v.marked.card"},
            " ",
            {"f": "heldBy", "v": {"name": {"seat": "v.marked.seat"}}},
        ]
    },
}
_BIDS = {
    "id": "fact-bids",
    "when": _DEAL,
    "label": {"t": "bids"},
    "value": {
        "each": "v.bids",
        "item": {"cat": [{"seat": "$.seat"}, " ", {"def": "bid"}]},
        "sep": " → ",
        "empty": "—",
    },
}
_LANDLORD = {
    "id": "fact-landlord",
    "when": {"has": "v.landlord"},
    "label": {"t": "landlord"},
    "value": {
        "cat": [
            {"seat": "v.landlord"},
            " · ",
            {"f": "bidOf", "v": {"n": {"get": "v.bid"}}},
            {"if": {"get": "v.head_bid"}, "then": {"cat": [" · ", {"t": "headBid"}]}},
            {"if": {"get": "v.open_hand"}, "then": {"cat": [" · ", {"t": "openHand"}]}},
        ]
    },
}
_FIGHT = {
    "if": {"or": [_eq("v.fight", True), _eq("v.fight", False)]},
    "then": {
        "map": "kinds",
        "key": {"if": {"get": "v.fight"}, "then": "fight:yes", "else": "fight:no"},
    },
}
_REPORT = {
    "id": "fact-report",
    "when": {"len": "v.declared"},
    "label": {"t": "reportSets"},
    "value": {"cat": [{"each": "v.declared", "item": {"cat": [{"cards": "$"}, " "]}}, _FIGHT]},
}


def _factors(*, fight: bool) -> dict[str, Any]:
    """The factors ``f`` of a deal in words: 叫分, 荒番, 标记王, 头撂, 摊打, 报到 (and 打/不打)."""
    reported: dict[str, Any] = {"f": "reported", "v": {"n": {"get": "f.reported"}}}
    if fight:
        reported = {
            "cat": [
                reported,
                {
                    "case": [
                        [
                            _eq("f.fight", True),
                            {"cat": [" ", {"map": "kinds", "key": "fight:yes"}]},
                        ],
                        [
                            _eq("f.fight", False),
                            {"cat": [" ", {"map": "kinds", "key": "fight:no"}]},
                        ],
                    ]
                },
            ]
        }
    return {
        "join": [
            {"if": {"get": "f.bid"}, "then": {"f": "bidOf", "v": {"n": {"get": "f.bid"}}}},
            {
                "if": {"get": "f.huangfan"},
                "then": {"f": "huangfan", "v": {"n": {"get": "f.huangfan"}}},
            },
            {"if": {"get": "f.marked_joker"}, "then": {"t": "markedJoker"}},
            {"if": {"get": "f.head_bid"}, "then": {"t": "headBid"}},
            {"if": {"get": "f.open_hand"}, "then": {"t": "openHand"}},
            {"if": {"get": "f.reported"}, "then": reported},
        ],
        "sep": " · ",
        "empty": {"t": "noFactor"},
    }


def _result(factors: str) -> dict[str, Any]:
    return {
        "case": [
            [_eq("r.outcome", "all_pass"), {"t": "allPass"}],
            [
                _eq("r.outcome", "escape"),
                {"f": "escapeDuring", "v": {"name": {"seat": "r.escaper"}}},
            ],
        ],
        "else": {
            "cat": [
                {
                    "if": _eq("r.winner", "landlord"),
                    "then": {"f": "landlordWon", "v": {"name": {"seat": "r.landlord"}}},
                    "else": {"t": "farmersWon"},
                },
                " ",
                {
                    "if": _eq("r.outcome", "report_no_play"),
                    "then": {"cat": [{"map": "kinds", "key": "fight:no"}, " · "]},
                },
                {"with": {"f": {"get": "r.factors"}}, "do": {"def": factors}},
            ]
        },
    }


UI: dict[str, Any] = {
    # a pass in the bidding is 不叫
    "passChoice": "bid",
    "buttons": {
        "bid": {"f": "bidOf", "v": {"n": {"get": "a.value"}}},
        "open": {
            "map": "kinds",
            "key": {"if": {"get": "a.value"}, "then": "open:yes", "else": "open:no"},
        },
        "fight": {
            "map": "kinds",
            "key": {"if": {"get": "a.value"}, "then": "fight:yes", "else": "fight:no"},
        },
        "report": {
            "map": "kinds",
            "key": {"if": {"get": "a.cards"}, "then": "report", "else": "report:none"},
        },
        "pass": {"t": "noBid"},
    },
    "roles": [
        {"when": _IS_LANDLORD, "text": {"t": "landlord"}, "cls": "role landlord"},
        {
            "when": {"and": [{"has": "v.landlord"}, {"not": _IS_LANDLORD}]},
            "text": {"t": "farmer"},
            "cls": "role",
        },
        {
            "when": {"eq": [{"get": "v.marked.seat"}, {"get": "seat"}]},
            "text": {"t": "markedHolder"},
            "cls": "role",
        },
        {
            "each": "v.bids",
            "when": {"and": [_eq("v.phase", "bid"), {"eq": [{"get": "$.seat"}, {"get": "seat"}]}]},
            "text": {"def": "bid"},
            "cls": "bid",
        },
    ],
    "replayRoles": [
        {
            "when": {"has": "v.landlord"},
            "text": {"if": _IS_LANDLORD, "then": {"t": "landlord"}, "else": {"t": "farmer"}},
            "cls": {"if": _IS_LANDLORD, "then": "role landlord", "else": "role"},
        }
    ],
    # the 摊打 landlord's hand, face up
    "shown": [{"when": _IS_LANDLORD, "cards": "v.landlord_hand"}],
    "seatInfo": [
        {
            "when": {"has": "v.bomb_limits.@seat"},
            "text": {
                "f": "bombsLeft",
                "v": {"n": {"left": ["v.bomb_limits.@seat", "v.bombs.@seat"]}},
            },
        }
    ],
    "facts": [
        _MARKED,
        _BIDS,
        _LANDLORD,
        {
            "id": "fact-kitty",
            "when": {"get": "v.kitty"},
            "label": {"t": "kitty"},
            "value": {"cards": "v.kitty"},
        },
        {
            "id": "fact-open",
            "when": {"get": "v.landlord_hand"},
            "label": {"t": "openHand"},
            "value": {"cards": "v.landlord_hand"},
        },
        _REPORT,
        {
            "when": _DEAL,
            "skipEmpty": True,
            "label": {"t": "bombLimit"},
            "value": {
                "each": "v.bomb_limits",
                "item": {
                    "if": {"has": "$"},
                    "then": {
                        "cat": [
                            {"seat": "#"},
                            " ",
                            {"f": "bombsLeft", "v": {"n": {"left": ["$", "v.bombs.@#"]}}},
                        ]
                    },
                },
                "sep": " · ",
            },
        },
        {
            "id": "fact-factors",
            "when": _DEAL,
            "label": {"t": "factors"},
            # the factors as they stand (the engine's Factors: the highest bid so far while bidding)
            "value": {
                "with": {
                    "f": {
                        "if": {"get": "v.result"},
                        "then": {"get": "v.result.factors"},
                        "else": {
                            "obj": {
                                "bid": {
                                    "if": {"has": "v.landlord"},
                                    "then": {"get": "v.bid"},
                                    "else": {"get": "v.highest"},
                                },
                                "huangfan": {"get": "v.huangfan"},
                                "head_bid": {"get": "v.head_bid"},
                                "open_hand": {"get": "v.open_hand"},
                                "marked_joker": {
                                    "and": [
                                        {"get": "v.marked"},
                                        {"in": [{"get": "v.marked.card"}, ["BJ", "SJ"]]},
                                    ]
                                },
                                "reported": {
                                    "if": {"has": "v.fight"},
                                    "then": {"len": "v.declared"},
                                    "else": 0,
                                },
                                "fight": {
                                    "if": {"len": "v.declared"},
                                    "then": {"get": "v.fight"},
                                    "else": None,
                                },
                            }
                        },
                    }
                },
                "do": {"def": "factors"},
            },
        },
        SCORE_FACT,
    ],
    "replayFacts": [
        _MARKED,
        _BIDS,
        _LANDLORD,
        {
            "id": "fact-kitty",
            "when": {"get": "x.kitty"},
            "label": {"t": "kitty"},
            "value": {
                "if": {"and": [{"has": "v.landlord"}, {"not": _eq("v.phase", "bid")}]},
                "then": {"cat": [{"cards": "x.kitty"}, " ", {"t": "kittyTaken"}]},
                "else": {"cards": "x.kitty"},
            },
        },
        _REPORT,
    ],
    "result": _result("factors"),
    "replayResult": _result("factorsBare"),
    "defs": {
        "bid": {
            "if": {"get": "$.bid"},
            "then": {"f": "bidOf", "v": {"n": {"get": "$.bid"}}},
            "else": {"t": "noBid"},
        },
        "factors": _factors(fight=True),
        "factorsBare": _factors(fight=False),
    },
}
