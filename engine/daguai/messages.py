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
