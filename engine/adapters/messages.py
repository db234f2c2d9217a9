"""The error codes of the adapters (小路子, 上海斗地主), with their English messages (the site
translates them by code); those of the score sheets live with the sheets (engine/sheets.py and
each game's ``sheet`` module)."""

from __future__ import annotations

from engine.errors import register_messages

MESSAGES: dict[str, str] = {
    # the adapters
    "adapter.bid_value": "a bid is 1, 2 or 3, not {text!r}",
    "adapter.yes_no": "a {kind} is yes or no, not {text!r}",
    "adapter.no_deal_number": "no deal {number}: {dealt} deals were dealt",
}

register_messages(MESSAGES)
