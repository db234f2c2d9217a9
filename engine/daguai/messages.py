"""The error codes of 大怪路子 and their English messages (the site translates them by code)."""

from __future__ import annotations

from engine.errors import register_messages

MESSAGES: dict[str, str] = {
    # playing a deal (deal.py)
    "daguai.not_awaited": "no action of seat {seat} is awaited ({state})",
    "daguai.not_a_seat_action": "{action}: seat {seat} is not a seat (0-5)",
    "daguai.deal_over": "{action}: the deal is over",
    "daguai.escape_system": "{action}: an escape is never a system action",
    "daguai.system_plays": "{action}: the system plays {expected} here",
    "daguai.not_holding": "{action}: seat {seat} does not hold {cards}",
    "daguai.escape_after_out": (
        "{action}: seat {seat} has already gone out of this deal and cannot escape"
    ),
    "daguai.no_return_now": "{action}: no tribute is being returned ({state})",
    "daguai.no_tribute_received": "{action}: seat {seat} received no tribute",
    "daguai.already_returned": "{action}: seat {seat} has already returned a card",
    "daguai.return_one_card": "{action}: a return is exactly one card",
    "daguai.not_playing_yet": "{action}: no playing yet ({state})",
    "daguai.not_your_turn": "{action}: not seat {seat}'s turn ({state})",
    "daguai.leader_must_play": "{action}: the leader must play, not pass",
    "daguai.play_needs_cards": "{action}: a play needs cards",
    "daguai.not_a_play": "{action}: {cards} is not a play",
    "daguai.wrong_count": "{action}: {count} cards cannot be played on {current_count}",
    "daguai.does_not_beat": (
        "{action}: {type_en} {cards} does not beat {current_type_en} {current}"
    ),
    # the adapter (game.py)
    "daguai.unknown_action": "Unknown action {kind!r}: use play, pass or return.",
    "daguai.return_exactly_one": "A return is exactly one card.",
    "daguai.no_deal_number": "no deal {number}: {dealt} deals were dealt",
    # a referee's sheet (game.py, offline.py, result.py)
    "daguai.sheet_object": "a score sheet is an object, not {value!r}",
    "daguai.sheet_deals_list": "a score sheet's deals are a list, not {value!r}",
    "daguai.entry_object": "an entry is an object, not {value!r}",
    "daguai.entry_unknown_keys": "unknown keys {keys}",
    "daguai.seat_list": "{field} must be a list of seats, not {value!r}",
    "daguai.seat_value": "{field} must be a seat, not {value!r}",
    "daguai.first_dealer": "the first dealer must be a seat 0-5, not {value!r}",
    "daguai.escape_and_leave": "an entry is an escape or a leaving, not both",
    "daguai.leave_with_finish": "a seat leaving between deals has no finishing order",
    "daguai.match_ended": "the match has already ended ({end})",
    "daguai.not_a_seat": "seat {seat!r} is not a seat (0-5)",
    "daguai.escaped_after_out": "seat {seat} escaped after going out",
    "daguai.finish_not_seat": "seat {seat!r} is not a seat (0-5) in finishing order {order}",
    "daguai.finish_twice": "seat {seat} goes out twice in finishing order {order}",
    "daguai.finish_goes_on": (
        "the deal ended when team {team} was out (after seat {seat}), "
        "but finishing order {order} goes on"
    ),
    "daguai.finish_not_ended": (
        "finishing order {order} has not ended the deal (no team is all out)"
    ),
    "daguai.finish_ended": "finishing order {order} has already ended the deal",
    "daguai.escape_gone_out": (
        "seat {seat} has already gone out in finishing order {order}: only a seat still "
        "holding cards can escape"
    ),
    "daguai.base_negative": "the base score must not be negative, not {base}",
}

register_messages(MESSAGES)


#: The same codes as people read them: code -> (Simplified Chinese, English), with ``%(name)s``
#: params. The site shows these (``Game.message_catalog``), naming cards as cards and seats as
#: their players; rule terms keep their Chinese names in English too.
TEXTS: dict[str, tuple[str, str]] = {
    "daguai.not_awaited": ("现在不该%(seat)s操作。", "It is not %(seat)s's turn to act."),
    "daguai.not_a_seat_action": ("没有座位 %(seat)s。", "There is no seat %(seat)s."),
    "daguai.deal_over": ("这一局已经结束。", "The deal is over."),
    "daguai.escape_system": ("系统不会替玩家逃跑。", "The system never escapes for a player."),
    "daguai.system_plays": ("此处系统代打的是别的牌。", "The system plays something else here."),
    "daguai.not_holding": ("%(seat)s手里没有%(cards)s。", "%(seat)s does not hold %(cards)s."),
    "daguai.escape_after_out": (
        "%(seat)s本局已出完，不能逃跑。",
        "%(seat)s has already gone out of this deal and cannot escape.",
    ),
    "daguai.no_return_now": ("现在不是还贡的时候。", "No tribute is being returned (还贡) now."),
    "daguai.no_tribute_received": (
        "%(seat)s没有收到进贡，无需还贡。",
        "%(seat)s received no tribute (进贡), so returns nothing.",
    ),
    "daguai.already_returned": (
        "%(seat)s已经还过贡了。",
        "%(seat)s has already returned a card (还贡).",
    ),
    "daguai.return_one_card": ("还贡只能还一张牌。", "Return (还贡) exactly one card."),
    "daguai.not_playing_yet": (
        "还不能出牌：正在进贡和还贡。",
        "Nobody plays yet: tribute is being paid and returned.",
    ),
    "daguai.not_your_turn": ("还没轮到%(seat)s出牌。", "It is not %(seat)s's turn."),
    "daguai.leader_must_play": ("首家必须出牌，不能不出。", "The leader must play, not pass."),
    "daguai.play_needs_cards": ("出牌需要选牌。", "A play needs cards."),
    "daguai.not_a_play": ("%(cards)s 不成牌型。", "%(cards)s is no play."),
    "daguai.wrong_count": (
        "%(count)s 张牌不能压 %(current_count)s 张牌。",
        "%(count)s cards cannot be played on %(current_count)s.",
    ),
    "daguai.does_not_beat": (
        "%(cards)s（%(type)s）压不过 %(current)s（%(current_type)s）。",
        "%(cards)s (%(type)s) does not beat %(current)s (%(current_type)s).",
    ),
    "daguai.unknown_action": (
        "本游戏没有 %(kind)s 这一操作：只能出牌、不出或还贡。",
        "This game has no action %(kind)s: play, pass or return.",
    ),
    "daguai.return_exactly_one": ("还贡只能还一张牌。", "Return (还贡) exactly one card."),
    "daguai.no_deal_number": (
        "没有第 %(number)s 局：只发了 %(dealt)s 局。",
        "There is no deal %(number)s: %(dealt)s deals were dealt.",
    ),
    "daguai.sheet_object": ("记分单无效。", "The score sheet is not valid."),
    "daguai.sheet_deals_list": (
        "记分单的各局不是列表。",
        "The score sheet's deals are not a list.",
    ),
    "daguai.entry_object": ("这一局的记录无效。", "The entry is not valid."),
    "daguai.entry_unknown_keys": ("未知项 %(keys)s。", "Unknown fields %(keys)s."),
    "daguai.seat_list": (
        "%(field)s 应为座位列表，而不是 %(value)s。",
        "%(field)s must be a list of seats, not %(value)s.",
    ),
    "daguai.seat_value": (
        "%(field)s 应为座位，而不是 %(value)s。",
        "%(field)s must be a seat, not %(value)s.",
    ),
    "daguai.first_dealer": (
        "首局庄家应为座位，而不是 %(value)s。",
        "The first dealer must be a seat, not %(value)s.",
    ),
    "daguai.escape_and_leave": (
        "一局只能是逃跑或局间离开之一，不能两者都有。",
        "A deal has an escape or a seat leaving, not both.",
    ),
    "daguai.leave_with_finish": (
        "局间离开没有出完顺序。",
        "A seat leaving between deals has no finishing order.",
    ),
    "daguai.match_ended": (
        "比赛此前已经结束（%(end)s）。",
        "The match had already ended (%(end)s).",
    ),
    "daguai.not_a_seat": ("%(seat)s 不是座位。", "%(seat)s is not a seat."),
    "daguai.escaped_after_out": ("%(seat)s 已出完后又逃跑。", "%(seat)s escaped after going out."),
    "daguai.finish_not_seat": (
        "出完顺序 %(order)s 中的 %(seat)s 不是座位。",
        "%(seat)s in finishing order %(order)s is not a seat.",
    ),
    "daguai.finish_twice": (
        "%(seat)s在出完顺序 %(order)s 中出完了两次。",
        "%(seat)s goes out twice in finishing order %(order)s.",
    ),
    "daguai.finish_goes_on": (
        "%(team)s 队全部出完（%(seat)s 之后）时这一局已结束，但出完顺序 %(order)s 还在继续。",
        "The deal ended when side %(team)s was all out (after %(seat)s), but finishing order "
        "%(order)s goes on.",
    ),
    "daguai.finish_not_ended": (
        "出完顺序 %(order)s 还没有结束这一局：没有一队全部出完。",
        "Finishing order %(order)s has not ended the deal: no side is all out.",
    ),
    "daguai.finish_ended": (
        "出完顺序 %(order)s 已经结束了这一局。",
        "Finishing order %(order)s has already ended the deal.",
    ),
    "daguai.escape_gone_out": (
        "%(seat)s在出完顺序 %(order)s 中已出完：只有手里还有牌的人才能逃跑。",
        "%(seat)s has already gone out in finishing order %(order)s: only a player still holding "
        "cards can escape.",
    ),
    "daguai.base_negative": (
        "底分不能为负数，而不是 %(base)s。",
        "The base score must not be negative, not %(base)s.",
    ),
}
