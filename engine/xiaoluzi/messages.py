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
