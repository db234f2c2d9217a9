"""小路子's table as the table and replay pages show it: its words (Chinese, English) and what
the page draws (:mod:`engine.table_ui`; the keys are listed in docs/adding-a-game.md)."""

from __future__ import annotations

from typing import Any

from engine.table_ui import SCORE_FACT

__all__ = ["TERMS", "UI"]

TERMS: dict[str, Any] = {
    "declarer": ("宣牌", "宣牌"),
    "counter": ("反宣", "反宣"),
    "bystander": ("旁观", "旁观"),
    "bystanderTitle": ("本局旁观，手牌不公开", "watches this deal; their hand stays hidden"),
    "holder7h": ("红桃7", "红桃7"),
    "answers": ("宣牌 / 反宣", "宣牌 / 反宣"),
    "mode": ("方式", "Mode"),
    "modes": {
        "none": ("普通模式", "普通模式"),
        "declared": ("一打三", "一打三"),
        "countered": ("一对一", "一对一"),
    },
    "slam": ("关门！", "关门 (slam)!"),
    "silver": ("银子", "银子"),
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
        "declare": ("宣牌", "宣牌"),
        "no_declare": ("不宣", "不宣"),
        "counter": ("反宣", "反宣"),
        "no_counter": ("不反宣", "不反宣"),
    },
    "choose": {
        "declare": (
            "是否宣牌？宣牌后一打三。",
            "Do you declare (宣牌)? You play one against three.",
        ),
        "counter": (
            "是否反宣？反宣后一对一。",
            "Do you counter-declare (反宣)? You play one against one.",
        ),
    },
}


def _is(key: str) -> dict[str, Any]:
    return {"eq": [{"get": key}, {"get": "seat"}]}


_DEAL = {"has": "v"}
_ANSWERS = {
    "id": "fact-answers",
    "when": _DEAL,
    "label": {"t": "answers"},
    # each answer is [question, seat, yes]: 宣牌 / 不宣, 反宣 / 不反宣
    "value": {
        "each": "v.answers",
        "item": {
            "cat": [
                {"seat": "$.1"},
                " ",
                {
                    "map": "kinds",
                    "key": {
                        "if": {"eq": [{"get": "$.0"}, "declare"]},
                        "then": {"if": {"get": "$.2"}, "then": "declare", "else": "no_declare"},
                        "else": {"if": {"get": "$.2"}, "then": "counter", "else": "no_counter"},
                    },
                },
            ]
        },
        "sep": " → ",
        "empty": "—",
    },
}
_MODE = {
    "id": "fact-mode",
    "when": {"and": [_DEAL, {"get": "v.mode"}]},
    "label": {"t": "mode"},
    "value": {"map": "modes", "key": {"get": "v.mode"}},
}
_SILVER = [
    {"when": {"get": "r.silver"}, "p": {"t": "silver"}},
    {"when": {"get": "r.silver"}, "points": "r.silver"},
]


def _result(*, leave: bool) -> dict[str, Any]:
    cases: list[Any] = [
        [
            {"eq": [{"get": "r.kind"}, "escape"]},
            {"f": "escapeDuring", "v": {"name": {"seat": "r.seat"}}},
        ]
    ]
    if leave:
        cases.append(
            [
                {"eq": [{"get": "r.kind"}, "leave"]},
                {"f": "leftBetween", "v": {"name": {"seat": "r.seat"}}},
            ]
        )
    return {
        "case": cases,
        "else": {
            "cat": [
                {"map": "modes", "key": {"get": "r.mode"}},
                " · ",
                {"t": "finishOrder"},
                " ",
                {"seats": "r.finish", "sep": " → "},
                {"if": {"get": "r.slam"}, "then": {"cat": [" · ", {"t": "slam"}]}},
            ]
        },
    }


UI: dict[str, Any] = {
    "head": {"if": {"get": "v.mode"}, "then": {"map": "modes", "key": {"get": "v.mode"}}},
    "roles": [
        {"when": _is("v.declarer"), "text": {"t": "declarer"}, "cls": "role landlord"},
        {"when": _is("v.counter"), "text": {"t": "counter"}, "cls": "role landlord"},
        {
            "when": {"in": [{"get": "seat"}, {"get": "v.bystanders"}]},
            "text": {"t": "bystander"},
            "cls": "role",
            "title": {"t": "bystanderTitle"},
        },
        {
            "when": {"and": [_is("v.holder_7h"), {"eq": [{"get": "v.phase"}, "declare"]}]},
            "text": {"t": "holder7h"},
            "cls": "role",
        },
    ],
    "replayRoles": [
        {"when": _is("v.holder_7h"), "text": {"t": "holder7h"}},
        {"when": _is("v.declarer"), "text": {"t": "declarer"}, "cls": "role"},
        {"when": _is("v.counter"), "text": {"t": "counter"}, "cls": "role"},
        {"when": {"in": [{"get": "seat"}, {"get": "v.bystanders"}]}, "text": {"t": "bystander"}},
    ],
    # the bystanders' hands, face up once the deal is over
    "shown": [{"cards": "v.revealed.@seat"}],
    "facts": [
        _ANSWERS,
        _MODE,
        {
            "when": {"has": "v.declarer"},
            "label": {"t": "declarer"},
            "value": {"seat": "v.declarer"},
        },
        {"when": {"has": "v.counter"}, "label": {"t": "counter"}, "value": {"seat": "v.counter"}},
        {
            "id": "fact-bystanders",
            "when": {"len": "v.bystanders"},
            "label": {"t": "bystander"},
            "value": {
                "cat": [{"seats": "v.bystanders", "sep": ", "}, " · ", {"t": "bystanderTitle"}]
            },
        },
        SCORE_FACT,
        {
            "id": "fact-silver",
            "when": {"get": "m.figures.silver"},
            "label": {"t": "silver"},
            "value": {"points": "m.figures.silver"},
        },
    ],
    "replayFacts": [_ANSWERS, _MODE],
    "result": _result(leave=True),
    "replayResult": _result(leave=False),
    "resultAfter": _SILVER,
}
