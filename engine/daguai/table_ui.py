"""大怪路子's table as the table and replay pages show it: its words (Chinese, English) and what
the page draws (:mod:`engine.table_ui`; the keys are listed in docs/adding-a-game.md)."""

from __future__ import annotations

from typing import Any

__all__ = ["TERMS", "UI"]

TERMS: dict[str, Any] = {
    "levelRank": ("级牌 %(rank)s", "级牌 %(rank)s"),
    "levels": ("级别 %(A)s %(a)s : %(B)s %(b)s", "levels %(A)s %(a)s : %(B)s %(b)s"),
    "teamPoints": ("积分 %(A)s %(a)s : %(B)s %(b)s", "points %(A)s %(a)s : %(B)s %(b)s"),
    "returnPrompt": (
        "%(name)s 向你进贡 %(card)s。请选一张牌还贡给他。",
        "%(name)s paid you %(card)s (进贡). Select one card to return to them (还贡).",
    ),
    "waitingReturn": ("等待 %(names)s 还贡。", "Waiting for the return (还贡) of %(names)s."),
    "tribute": ("进贡与还贡", "进贡 and 还贡"),
    "tributeLine": ("%(payer)s → %(receiver)s", "%(payer)s → %(receiver)s"),
    "returned": ("已还贡", "returned (还贡)"),
    "draw": ("平局：不进贡，不计分。", "A draw: no tribute, no points."),
    "won": ("%(side)s 赢了这一局。", "%(side)s won the deal."),
    "payers": ("进贡：%(names)s。", "Paying: %(names)s."),
    "levelChange": (
        "级别 %(A)s %(a0)s : %(B)s %(b0)s → %(A)s %(a)s : %(B)s %(b)s。",
        "Levels %(A)s %(a0)s : %(B)s %(b0)s → %(A)s %(a)s : %(B)s %(b)s.",
    ),
    "passedA": ("过A！", "Passed A (过A)!"),
    "ladder": ("级别（A:B）：", "Levels (A:B):"),
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
    "challengeNote": (
        "有进贡、还贡的牌局，从进贡、还贡之后开始出牌时的手牌打起。",
        "A deal that began with 进贡 and 还贡 is played from the hands as they were when play "
        "began.",
    ),
    "endReasons": {
        "passed_a": ("过A", "passed A (过A)"),
    },
}

_SIDES = {"A": {"get": "sides.A"}, "B": {"get": "sides.B"}}
_SEAT_IS = {"eq": [{"get": "v.dealer"}, {"get": "seat"}]}

UI: dict[str, Any] = {
    # a pass is allowed whenever a play is to be beaten (docs/rules.md)
    "passRule": "trick",
    "levelKey": "level",
    "seatPoints": False,
    "waitAwaiting": False,
    "replaySides": True,
    "head": {
        "join": [
            {"if": {"has": "v"}, "then": {"f": "levelRank", "v": {"rank": {"get": "v.level"}}}},
            {
                "f": "levels",
                "v": {**_SIDES, "a": {"get": "m.levels.A"}, "b": {"get": "m.levels.B"}},
            },
            {
                "f": "teamPoints",
                "v": {**_SIDES, "a": {"get": "m.team_points.A"}, "b": {"get": "m.team_points.B"}},
            },
        ],
        "sep": " · ",
    },
    "replayHead": {
        "cat": [
            {"f": "levelRank", "v": {"rank": {"get": "v.level"}}},
            " · ",
            {"t": "dealer"},
            " ",
            {"seat": "v.dealer"},
        ]
    },
    "replayRoles": [
        {"text": {"side": "info.side"}, "cls": "side"},
        {"when": _SEAT_IS, "text": {"t": "dealer"}, "cls": "dealer"},
    ],
    "facts": [],
    "replayFacts": [
        {"id": "fact-level", "label": {"label": "levelRank"}, "value": {"get": "v.level"}},
        {
            "each": "v.tributes",
            "label": {"t": "tribute"},
            "value": {
                "cat": [
                    {
                        "f": "tributeLine",
                        "v": {"payer": {"seat": "$.payer"}, "receiver": {"seat": "$.receiver"}},
                    },
                    " ",
                    {"cards": "$.card"},
                    {
                        "if": {"get": "$.return"},
                        "then": {"cat": [" · ", {"t": "returned"}, " ", {"cards": "$.return"}]},
                    },
                ]
            },
        },
    ],
    # while tribute is paid and returned (进贡, 还贡): who pays whom, and the returns
    "pending": [
        {
            "when": {"and": [{"len": "v.tributes"}, {"not": {"eq": [{"get": "v.phase"}, "over"]}}]},
            "h2": {"t": "tribute"},
        },
        {
            "each": "v.tributes",
            "when": {"not": {"eq": [{"get": "v.phase"}, "over"]}},
            "p": {
                "cat": [
                    {
                        "f": "tributeLine",
                        "v": {"payer": {"seat": "$.payer"}, "receiver": {"seat": "$.receiver"}},
                    },
                    {"if": {"get": "$.card"}, "then": {"cat": [" ", {"cards": "$.card"}]}},
                    {
                        "if": {"get": "$.returned"},
                        "then": {
                            "cat": [
                                " · ",
                                {"t": "returned"},
                                {
                                    "if": {"get": "$.return"},
                                    "then": {"cat": [" ", {"cards": "$.return"}]},
                                },
                            ]
                        },
                    },
                ]
            },
        },
    ],
    "returnPrompt": {
        "each": "v.tributes",
        "item": {
            "if": {"eq": [{"get": "$.receiver"}, {"get": "me"}]},
            "then": {
                "f": "returnPrompt",
                "v": {"name": {"seat": "$.payer"}, "card": {"cards": "$.card"}},
            },
        },
    },
    "result": {
        "case": [
            [
                {"eq": [{"get": "r.outcome"}, "escape"]},
                {
                    "if": {"get": "r.during_deal"},
                    "then": {"f": "escapeDuring", "v": {"name": {"seat": "r.seat"}}},
                    "else": {"f": "leftBetween", "v": {"name": {"seat": "r.seat"}}},
                },
            ],
            [{"eq": [{"get": "r.outcome"}, "draw"]}, {"t": "draw"}],
        ],
        "else": {"def": "won"},
    },
    "replayResult": {
        "case": [
            [
                {"eq": [{"get": "r.outcome"}, "escape"]},
                {"f": "escapeDuring", "v": {"name": {"seat": "r.seat"}}},
            ],
            [{"eq": [{"get": "r.outcome"}, "draw"]}, {"t": "draw"}],
        ],
        # the replay names no sides in the change of levels
        "else": {"with": {"sides": {"obj": {"A": "", "B": ""}}}, "do": {"def": "won"}},
    },
    "resultBefore": [
        {
            "when": {"len": "v.finish"},
            "p": {"cat": [{"t": "finishOrder"}, " ", {"seats": "v.finish", "sep": " → "}]},
        }
    ],
    "defs": {
        "won": {
            "cat": [
                {"f": "won", "v": {"side": {"side": "r.winner"}}},
                " ",
                {"f": "payers", "v": {"names": {"seats": "r.payers"}}},
                {
                    "if": {"and": [{"get": "r.levels_before"}, {"get": "r.levels"}]},
                    "then": {
                        "cat": [
                            " ",
                            {
                                "f": "levelChange",
                                "v": {
                                    **_SIDES,
                                    "a0": {"get": "r.levels_before.A"},
                                    "b0": {"get": "r.levels_before.B"},
                                    "a": {"get": "r.levels.A"},
                                    "b": {"get": "r.levels.B"},
                                },
                            },
                        ]
                    },
                },
                {"if": {"get": "r.passed_a"}, "then": {"cat": [" ", {"t": "passedA"}]}},
            ]
        }
    },
}
