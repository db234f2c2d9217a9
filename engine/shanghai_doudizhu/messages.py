"""The error codes of 上海斗地主 and their English messages (the site translates them by code)."""

from __future__ import annotations

from engine.errors import register_messages

MESSAGES: dict[str, str] = {
    # playing a deal (deal.py)
    "doudizhu.not_awaited": "no action of seat {seat} is awaited ({state})",
    "doudizhu.not_a_seat_action": "{action}: seat {seat} is not a seat (0-3)",
    "doudizhu.deal_over": "{action}: the deal is over",
    "doudizhu.escape_kind": "{action}: an escape names its kind, never the system",
    "doudizhu.system_plays": "{action}: the system plays {expected} here",
    "doudizhu.not_your_turn": "{action}: not seat {seat}'s turn ({state})",
    "doudizhu.expected_kind": "{action}: now a {allowed} ({state})",
    "doudizhu.bid_too_low": "{action}: a bid must be above the highest so far ({highest})",
    "doudizhu.report_whole_sets": (
        "{action}: 报到 declares whole sets (the four jokers, or all 7-8 cards of a "
        "rank); the sets here: {sets}"
    ),
    "doudizhu.not_holding": "{action}: seat {seat} does not hold {cards}",
    "doudizhu.leader_must_play": "{action}: the leader must play, not pass",
    "doudizhu.not_a_play": "{action}: {cards} is not a play",
    "doudizhu.does_not_beat": (
        "{action}: {type_en} {cards} does not beat {current_type_en} {current}"
    ),
    "doudizhu.bomb_limit": "{action}: seat {seat} has played his {limit} bomb(s) allowed",
    "doudizhu.set_whole": "{action}: a declared 报到 set goes out whole and alone ({sets})",
}

register_messages(MESSAGES)


#: The same codes as people read them: code -> (Simplified Chinese, English), with ``%(name)s``
#: params. The site shows these (``Game.message_catalog``), naming cards as cards and seats as
#: their players; rule terms keep their Chinese names in English too.
TEXTS: dict[str, tuple[str, str]] = {
    "doudizhu.not_awaited": ("现在不该%(seat)s操作。", "It is not %(seat)s's turn to act."),
    "doudizhu.not_a_seat_action": ("没有座位 %(seat)s。", "There is no seat %(seat)s."),
    "doudizhu.deal_over": ("这一局已经结束。", "The deal is over."),
    "doudizhu.escape_kind": ("系统不会替玩家逃跑。", "The system never escapes for a player."),
    "doudizhu.system_plays": ("此处系统代打的是别的牌。", "The system plays something else here."),
    "doudizhu.not_your_turn": ("还没轮到%(seat)s出牌。", "It is not %(seat)s's turn."),
    "doudizhu.expected_kind": ("现在不能进行这一操作。", "This is not the time for that action."),
    "doudizhu.bid_too_low": (
        "叫分必须高于目前最高的叫分（%(highest)s）。",
        "A bid (叫分) must be above the highest so far (%(highest)s).",
    ),
    "doudizhu.report_whole_sets": (
        "报到须报整套（四张王，或某一点数的全部牌）：这里是 %(sets)s。",
        "报到 declares whole sets (the four jokers, or every card of a rank): here %(sets)s.",
    ),
    "doudizhu.not_holding": ("%(seat)s手里没有%(cards)s。", "%(seat)s does not hold %(cards)s."),
    "doudizhu.leader_must_play": ("首家必须出牌，不能不出。", "The leader must play, not pass."),
    "doudizhu.not_a_play": ("%(cards)s 不成牌型。", "%(cards)s is no play."),
    "doudizhu.does_not_beat": (
        "%(cards)s（%(type)s）压不过 %(current)s（%(current_type)s）。",
        "%(cards)s (%(type)s) does not beat %(current)s (%(current_type)s).",
    ),
    "doudizhu.bomb_limit": (
        "%(seat)s已打完允许的 %(limit)s 个炸弹。",
        "%(seat)s has played the %(limit)s bombs allowed.",
    ),
    "doudizhu.set_whole": (
        "报到的整套牌须整套单独打出（%(sets)s）。",
        "A declared 报到 set goes out whole and alone (%(sets)s).",
    ),
    "adapter.bid_value": ("叫分只能是 1、2 或 3。", "A bid (叫分) is 1, 2 or 3."),
    "adapter.yes_no": ("请回答是或否。", "Answer yes or no."),
    "adapter.no_deal_number": (
        "没有第 %(number)s 局：只发了 %(dealt)s 局。",
        "There is no deal %(number)s: %(dealt)s deals were dealt.",
    ),
}
