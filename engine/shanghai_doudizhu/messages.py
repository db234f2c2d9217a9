"""The error codes of 上海斗地主 and their English messages (the site translates them by code)."""

from __future__ import annotations

from engine.errors import register_messages

MESSAGES: dict[str, str] = {
    # the actions as seated players send them (game.py: ``seat_action``); the codes keep the
    # ``adapter.`` prefix they had when the game's adapter lived in engine/adapters/
    "adapter.bid_value": "a bid is 1, 2 or 3, not {text!r}",
    "adapter.yes_no": "a {kind} is yes or no, not {text!r}",
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
    # its referees' score sheet (engine/shanghai_doudizhu/sheet.py)
    "doudizhu_sheet.redeals_listed": (
        "紧接本局之前录入了 %(listed)s 局荒番，而不是 %(redeals)s 局。",
        "%(listed)s all-pass deals (荒番) are entered right before this deal, not %(redeals)s.",
    ),
    "doudizhu_sheet.huangfan_max": (
        "荒番最多计 %(most)s 次，而不是 %(run)s 次。",
        "荒番 counts at most %(most)s, not %(run)s.",
    ),
    "doudizhu_sheet.no_report_sets": (
        "没有报到的一局不填报到套数。",
        "A deal without 报到 has no sets.",
    ),
    "doudizhu_sheet.double_report_sets": (
        "这里报到只报一套（双报到才报两套）。",
        "报到 declares one set here (双报到 declares two).",
    ),
    "doudizhu_sheet.head_bid_3": (
        "头撂是叫 3 分，而不是 %(bid)s 分。",
        "头撂 is a bid of 3, not %(bid)s.",
    ),
    "doudizhu_sheet.open_hand_head": (
        "只有头撂的一局才能摊打。",
        "摊打 happens only in a 头撂 deal.",
    ),
    "doudizhu_sheet.report_no_play_winner": (
        "报到不打算地主胜。",
        "报到 不打 is a win of the 地主.",
    ),
    "doudizhu_sheet.escape_object": (
        "逃跑须填写逃跑者、方式和发生时间。",
        "The escape needs its player, kind and when it happened.",
    ),
    "doudizhu_sheet.bidding_no_landlord": (
        "叫分时逃跑没有地主（否则应为出牌时逃跑）。",
        "An escape during the bidding has no 地主 (it came during play).",
    ),
    "doudizhu_sheet.bidding_not_over": ("叫分尚未结束。", "The bidding was not over."),
    "doudizhu_sheet.bid_3_ends": (
        "叫 3 分立即结束叫分：逃跑发生在出牌时。",
        "A bid of 3 ends the bidding at once: the escape came during play.",
    ),
    "doudizhu_sheet.all_pass_none": (
        "荒番的一局没有这一项：无人叫分。",
        "A deal nobody bid on (荒番) has none.",
    ),
    "doudizhu_sheet.bidder_rotates": (
        "首叫轮到%(expected)s，而不是%(given)s。",
        "The first bidder rotates to %(expected)s, not %(given)s.",
    ),
    "doudizhu_sheet.bidder_first": (
        "首叫是%(expected)s（首局庄家），而不是%(given)s。",
        "The first bidder is %(expected)s (the first dealer), not %(given)s.",
    ),
    "doudizhu_sheet.head_bid_bidder": (
        "头撂是首叫者的叫分：首叫的是%(seat)s。",
        "头撂 is the first bidder's bid: %(seat)s bid first.",
    ),
    "doudizhu_sheet.is_head_bid": (
        "%(seat)s首叫就叫 3 分：这是头撂。",
        "%(seat)s bid first and bid 3: that is 头撂.",
    ),
    "doudizhu_sheet.winner_missing": (
        "未填写：地主胜或农民胜（或荒番、逃跑）。",
        "missing: the 地主 or the 农民 won (or 荒番, an escape).",
    ),
    "doudizhu_sheet.one_end": (
        "一局只有一种结局，不能同时是 %(first)s 和 %(second)s。",
        "A deal ends one way, not with both %(first)s and %(second)s.",
    ),
}
