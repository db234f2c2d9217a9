"""What the table and replay pages show of a game, as data the game's package provides.

A game's ``table_ui(chinese=True)`` answers a description (plain JSON): ``terms``, the game's own
words in the page's language, which the page reads as it reads the site's own; and what the page
draws, as small JSON expressions over the deal's view (``static/games/describe.js`` reads them;
``docs/adding-a-game.md`` lists every key). A game that describes nothing gets :data:`DEFAULTS`,
a table that shows the seats, the trick, the points so far and the result's ``outcome``.

Words are written ``(Chinese, English)``; a count's words as a pair of plural forms
(``({"one": .., "other": ..}, {..})``).

>>> words({"mode": ("方式", "Mode"), "modes": {"none": ("普通模式", "普通模式")}}, chinese=False)
{'mode': 'Mode', 'modes': {'none': '普通模式'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DEFAULTS", "SCORE_FACT", "describe", "words"]

#: The points of the match so far, per player, as a fact row (every game but 大怪路子 shows it).
SCORE_FACT: dict[str, Any] = {
    "id": "fact-score",
    "label": {"t": "score"},
    "value": {"points": "m.points"},
}

#: What the page draws of a game that says nothing of it.
DEFAULTS: dict[str, Any] = {
    # pass: "legal" when the legal actions hold a pass; "trick" whenever a play is to be beaten
    "passRule": "legal",
    # the phase whose pass is a choice (a button among the decisions), named by buttons["pass"]
    "passChoice": None,
    # the deal view's key naming the rank drawn as level cards (级牌), if any
    "levelKey": None,
    # each seat's points of the match beside its cards
    "seatPoints": True,
    # outside the play phase, the prompt names the seats awaited
    "waitAwaiting": True,
    # the replay marks each seat's fixed side
    "replaySides": False,
    "head": None,
    "replayHead": None,
    "roles": [],
    "replayRoles": [],
    "shown": [],
    "seatInfo": [],
    "buttons": {},
    "facts": [SCORE_FACT],
    "replayFacts": [],
    "pending": [],
    "returnPrompt": None,
    "result": {"get": "r.outcome"},
    "replayResult": {"get": "r.outcome"},
    "resultBefore": [],
    "resultAfter": [],
    "defs": {},
}


def words(terms: Mapping[str, Any], *, chinese: bool = True) -> dict[str, Any]:
    """``terms`` in one language: each ``(Chinese, English)`` pair becomes its text, a mapping
    of pairs a mapping of texts."""
    return {key: _word(value, chinese) for key, value in terms.items()}


def _word(value: Any, chinese: bool) -> Any:
    if isinstance(value, tuple):
        return value[0] if chinese else value[1]
    if isinstance(value, Mapping):
        return words(value, chinese=chinese)
    return value


def describe(
    terms: Mapping[str, Any], ui: Mapping[str, Any], *, chinese: bool = True
) -> dict[str, Any]:
    """A game's description: :data:`DEFAULTS` with ``ui`` over them, and ``terms`` in one
    language."""
    return {**DEFAULTS, **ui, "terms": words(terms, chinese=chinese)}
