"""The error codes of 小路子 and their English messages (the site translates them by code)."""

from __future__ import annotations

from engine.errors import register_messages

MESSAGES: dict[str, str] = {
    # playing a deal (deal.py)
    "xiaoluzi.not_awaited": "no action of seat {seat} is awaited ({state})",
    "xiaoluzi.not_a_seat_action": "{action}: seat {seat} is not a seat (0-3)",
    "xiaoluzi.deal_over": "{action}: the deal is over",
    "xiaoluzi.escape_system": "{action}: an escape is never a system action",
    "xiaoluzi.system_not_awaited": "{action}: no action of seat {seat} is awaited ({state})",
    "xiaoluzi.system_takes": "{action}: the system takes {expected} here",
    "xiaoluzi.not_your_turn": "{action}: not seat {seat}'s turn ({state})",
    "xiaoluzi.out_of_order": "{action}: out of order ({state})",
    "xiaoluzi.no_question": "{action}: no question is asked ({state})",
    "xiaoluzi.not_holding": "{action}: seat {seat} does not hold {cards}",
    "xiaoluzi.card_twice": "{action}: seat {seat} does not hold a card twice",
    "xiaoluzi.not_playing_yet": "{action}: no playing yet ({state})",
    "xiaoluzi.leader_must_play": "{action}: the leader must play, not pass",
    "xiaoluzi.not_a_play": "{action}: {cards} is not a play",
    "xiaoluzi.wrong_count": "{action}: {count} cards cannot be played on {current_count}",
    "xiaoluzi.does_not_beat": "{action}: {cards} ({rank}) does not beat {current} ({current_rank})",
    "xiaoluzi.lead_7h": "{action}: the first lead must hold 7H",
    "xiaoluzi.escape_bystander": "{action}: seat {seat} cannot escape: it is a bystander",
    "xiaoluzi.escape_out": "{action}: seat {seat} cannot escape: it is out already",
    # settling (result.py)
    "xiaoluzi.seat_needed": "{field}: a seat is needed",
    "xiaoluzi.not_a_seat": "{field}: {value!r} is not a seat (0-3)",
    "xiaoluzi.none_no_roles": "mode none has no declarer and no counter-declarer",
    "xiaoluzi.declared_no_counter": "mode declared has no counter-declarer",
    "xiaoluzi.declare_and_counter": "seat {seat} cannot declare and counter-declare",
    "xiaoluzi.finish_twice": "a seat goes out twice in {finish}",
    "xiaoluzi.played_counts": "played: four counts of 0 or more, not {played}",
    "xiaoluzi.played_hand": "played: a hand has {hand} cards, not {played}",
    "xiaoluzi.none_ends_third": (
        "mode none ends when the third player goes out, not with finish {finish}"
    ),
    "xiaoluzi.mode_ends_first": (
        "mode {mode} ends when the first player goes out, not with finish {finish}"
    ),
    "xiaoluzi.bystander_out": "seat {seat} is a bystander and cannot go out",
    "xiaoluzi.bystander_plays": "seat {seat} is a bystander and plays no card",
    "xiaoluzi.out_played_all": "seat {seat} went out, so it played {hand} cards",
    "xiaoluzi.played_all_out": "seat {seat} played {hand} cards, so it went out",
    "xiaoluzi.out_played": "seat {seat} went out, so it played",
    "xiaoluzi.cannot_escape_over": "seat {seat} cannot escape: the deal is over",
    "xiaoluzi.cannot_escape_out": "seat {seat} cannot escape: it is out already",
    "xiaoluzi.cannot_escape_bystander": "seat {seat} cannot escape: it is a bystander",
}

register_messages(MESSAGES)


#: The same codes as people read them: code -> (Simplified Chinese, English), with ``%(name)s``
#: params. The site shows these (``Game.message_catalog``), naming cards as cards and seats as
#: their players; rule terms keep their Chinese names in English too.
TEXTS: dict[str, tuple[str, str]] = {
    "xiaoluzi.not_awaited": ("现在不该%(seat)s操作。", "It is not %(seat)s's turn to act."),
    "xiaoluzi.system_not_awaited": ("现在不该%(seat)s操作。", "It is not %(seat)s's turn to act."),
    "xiaoluzi.not_a_seat_action": ("没有座位 %(seat)s。", "There is no seat %(seat)s."),
    "xiaoluzi.deal_over": ("这一局已经结束。", "The deal is over."),
    "xiaoluzi.escape_system": ("系统不会替玩家逃跑。", "The system never escapes for a player."),
    "xiaoluzi.system_takes": ("此处系统代打的是别的牌。", "The system plays something else here."),
    "xiaoluzi.not_your_turn": ("还没轮到%(seat)s出牌。", "It is not %(seat)s's turn."),
    "xiaoluzi.out_of_order": ("现在还没轮到这个回答。", "This answer comes out of order."),
    "xiaoluzi.no_question": ("现在不是宣牌或反宣的时候。", "Nobody is asked to 宣牌 or 反宣 now."),
    "xiaoluzi.not_holding": ("%(seat)s手里没有%(cards)s。", "%(seat)s does not hold %(cards)s."),
    "xiaoluzi.card_twice": ("同一张牌选了两次。", "The same card is selected twice."),
    "xiaoluzi.not_playing_yet": (
        "还不能出牌：先宣牌和反宣。",
        "Nobody plays yet: 宣牌 and 反宣 come first.",
    ),
    "xiaoluzi.leader_must_play": ("首家必须出牌，不能不出。", "The leader must play, not pass."),
    "xiaoluzi.not_a_play": ("%(cards)s 不成牌型。", "%(cards)s is no play."),
    "xiaoluzi.wrong_count": (
        "%(count)s 张牌不能压 %(current_count)s 张牌。",
        "%(count)s cards cannot be played on %(current_count)s.",
    ),
    "xiaoluzi.does_not_beat": (
        "%(cards)s 压不过 %(current)s。",
        "%(cards)s does not beat %(current)s.",
    ),
    "xiaoluzi.lead_7h": ("首次出牌必须含红桃7。", "The first lead must include 红桃7."),
    "xiaoluzi.escape_bystander": (
        "%(seat)s本局旁观，不能逃跑。",
        "%(seat)s watches this deal (旁观) and cannot escape.",
    ),
    "xiaoluzi.escape_out": (
        "%(seat)s已出完，不能逃跑。",
        "%(seat)s is out already and cannot escape.",
    ),
    "xiaoluzi.seat_needed": ("%(field)s：需要填写座位。", "%(field)s: a seat is needed."),
    "xiaoluzi.not_a_seat": (
        "%(field)s：%(value)s 不是座位。",
        "%(field)s: %(value)s is not a seat.",
    ),
    "xiaoluzi.none_no_roles": ("普通模式没有宣牌和反宣。", "普通模式 has no 宣牌 and no 反宣."),
    "xiaoluzi.declared_no_counter": ("一打三没有反宣。", "一打三 has no 反宣."),
    "xiaoluzi.declare_and_counter": (
        "%(seat)s不能既宣牌又反宣。",
        "%(seat)s cannot both 宣牌 and 反宣.",
    ),
    "xiaoluzi.finish_twice": (
        "%(finish)s 中有人出完了两次。",
        "A player goes out twice in %(finish)s.",
    ),
    "xiaoluzi.played_counts": (
        "出牌张数：应为四个不小于 0 的数，而不是 %(played)s。",
        "Cards played: four counts of 0 or more, not %(played)s.",
    ),
    "xiaoluzi.played_hand": (
        "出牌张数：一手牌只有 %(hand)s 张，而不是 %(played)s。",
        "Cards played: a hand has %(hand)s cards, not %(played)s.",
    ),
    "xiaoluzi.none_ends_third": (
        "普通模式在第三人出完时结束，出完顺序不能是 %(finish)s。",
        "普通模式 ends when the third player goes out, not with finishing order %(finish)s.",
    ),
    "xiaoluzi.mode_ends_first": (
        "该模式在第一人出完时结束，出完顺序不能是 %(finish)s。",
        "This mode ends when the first player goes out, not with finishing order %(finish)s.",
    ),
    "xiaoluzi.bystander_out": (
        "%(seat)s本局旁观，不能出完。",
        "%(seat)s watches this deal (旁观) and cannot go out.",
    ),
    "xiaoluzi.bystander_plays": (
        "%(seat)s本局旁观，不出牌。",
        "%(seat)s watches this deal (旁观) and plays no card.",
    ),
    "xiaoluzi.out_played_all": (
        "%(seat)s已出完，所以出了 %(hand)s 张牌。",
        "%(seat)s went out, so played %(hand)s cards.",
    ),
    "xiaoluzi.played_all_out": (
        "%(seat)s出了 %(hand)s 张牌，所以已出完。",
        "%(seat)s played %(hand)s cards, so went out.",
    ),
    "xiaoluzi.out_played": ("%(seat)s已出完，所以出过牌。", "%(seat)s went out, so played cards."),
    "xiaoluzi.cannot_escape_over": (
        "这一局已结束：%(seat)s不能逃跑。",
        "The deal is over: %(seat)s cannot escape.",
    ),
    "xiaoluzi.cannot_escape_out": (
        "%(seat)s已出完，不能逃跑。",
        "%(seat)s is out already and cannot escape.",
    ),
    "xiaoluzi.cannot_escape_bystander": (
        "%(seat)s本局旁观，不能逃跑。",
        "%(seat)s watches this deal (旁观) and cannot escape.",
    ),
    "adapter.no_deal_number": (
        "没有第 %(number)s 局：只发了 %(dealt)s 局。",
        "There is no deal %(number)s: %(dealt)s deals were dealt.",
    ),
    # its referees' score sheet (engine/xiaoluzi/sheet.py)
    "xiaoluzi_sheet.none_declarer": ("普通模式没有宣牌。", "普通模式 has no 宣牌."),
    "xiaoluzi_sheet.none_counter": ("普通模式没有反宣。", "普通模式 has no 反宣."),
    "xiaoluzi_sheet.declared_counter": ("一打三没有反宣。", "一打三 has no 反宣."),
    "xiaoluzi_sheet.declare_and_counter": (
        "%(seat)s不能既宣牌又反宣。",
        "%(seat)s cannot both 宣牌 and 反宣.",
    ),
    "xiaoluzi_sheet.finish_count": (
        "该模式在 %(need)s 人出完时结束，出完顺序不能是 %(out)s。",
        "This mode ends with %(need)s out, not with finishing order %(out)s.",
    ),
    "xiaoluzi_sheet.bystander_out": (
        "%(seat)s本局旁观，不能出完。",
        "%(seat)s watches this deal (旁观) and cannot go out.",
    ),
    "xiaoluzi_sheet.none_slam": ("普通模式没有关门。", "普通模式 has no 关门."),
    "xiaoluzi_sheet.slam_made": ("按出牌张数是关门。", "The cards played make a 关门."),
    "xiaoluzi_sheet.slam_not_made": ("按出牌张数不是关门。", "The cards played make no 关门."),
    "xiaoluzi_sheet.escape_no_played": (
        "逃跑结算不填出牌张数。",
        "An escape is settled without the cards played.",
    ),
    "xiaoluzi_sheet.nobody_escapes": (
        "%(out)s 出完时这一局已结束：无人可逃跑。",
        "The deal was over with %(out)s out: nobody escapes.",
    ),
    "xiaoluzi_sheet.escape_out": (
        "%(seat)s已出完，不能逃跑。",
        "%(seat)s was out already and cannot escape.",
    ),
    "xiaoluzi_sheet.escape_bystander": (
        "%(seat)s本局旁观，不能逃跑。",
        "%(seat)s watches this deal (旁观) and cannot escape.",
    ),
}
