"""The error codes of referees' score sheets (小路子, 上海斗地主), with their
English messages (the site translates them by code)."""

from __future__ import annotations

from engine.errors import register_messages

MESSAGES: dict[str, str] = {
    # any sheet's fields (sheet_fields.py)
    "sheet.object": "a score sheet is an object, not {value!r}",
    "sheet.deals_list": "a list of deals, not {value!r}",
    "sheet.deal_object": "a deal is an object, not {value!r}",
    "sheet.unknown_field": "unknown field (use {allowed})",
    "sheet.missing": "missing",
    "sheet.number_range": "must be a number {low}-{high}, not {value!r}",
    "sheet.number_min": "must be a number {low} or more, not {value!r}",
    "sheet.seat_missing": "missing: a seat 0-3",
    "sheet.seat": "must be a seat 0-3, not {value!r}",
    "sheet.flag": "must be true or false, not {value!r}",
    "sheet.choice_missing": "missing: one of {choices}",
    "sheet.choice": "must be one of {choices}, not {value!r}",
    "sheet.seat_list": "must be a list of seats 0-3, not {value!r}",
    "sheet.seat_in_list": "{seat!r} is not a seat 0-3 in {value!r}",
    "sheet.seat_twice": "a seat appears twice in {value!r}",
    "sheet.four_counts": "must be four numbers, one per seat, not {value!r}",
    "sheet.count_range": "each count is 0-{high}, not {value!r}",
    "sheet.match_ended": "the match has already ended ({end})",
    # 小路子's sheet
    "xiaoluzi_sheet.none_declarer": "mode none has no declarer",
    "xiaoluzi_sheet.none_counter": "mode none has no counter-declarer",
    "xiaoluzi_sheet.declared_counter": "mode declared has no counter-declarer",
    "xiaoluzi_sheet.declare_and_counter": "seat {seat} cannot declare and counter-declare",
    "xiaoluzi_sheet.finish_count": "mode {mode} ends with {need} out, not {out}",
    "xiaoluzi_sheet.bystander_out": "seat {seat} is a bystander and cannot go out",
    "xiaoluzi_sheet.none_slam": "mode none has no slam",
    "xiaoluzi_sheet.slam_made": "the cards played make a slam",
    "xiaoluzi_sheet.slam_not_made": "the cards played make no slam",
    "xiaoluzi_sheet.escape_no_played": "an escape is settled without the cards played",
    "xiaoluzi_sheet.nobody_escapes": "the deal was over with {out} out: nobody escapes",
    "xiaoluzi_sheet.escape_out": "seat {seat} was out already and cannot escape",
    "xiaoluzi_sheet.escape_bystander": "seat {seat} is a bystander and cannot escape",
    # 上海斗地主's sheet
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
    "doudizhu_sheet.bid_3_ends": "a bid of 3 ends the bidding at once: the escape came during play",
    "doudizhu_sheet.all_pass_none": "an all-pass deal has none: nobody bid",
    "doudizhu_sheet.bidder_rotates": "the first bidder rotates to seat {expected}, not {given}",
    "doudizhu_sheet.bidder_first": (
        "the first bidder is (first_dealer) seat {expected}, not {given}"
    ),
    "doudizhu_sheet.head_bid_bidder": "头撂 is the first bidder's bid: seat {seat} bid first",
    "doudizhu_sheet.is_head_bid": "seat {seat} bid first and bid 3: that is 头撂 (head_bid)",
    "doudizhu_sheet.winner_missing": "missing: landlord or farmers (or all_pass, escape, leave)",
    "doudizhu_sheet.one_end": "a deal ends one way, not with both {first} and {second}",
}

register_messages(MESSAGES)
