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
