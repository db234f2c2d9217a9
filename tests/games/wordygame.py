"""词牌 (Wordy): 玩具牌 (tests/toygame.py) under another key, with words of its own, for tests only.

It brings what a game's package brings to the site's pages: a catalog of its error codes in
Chinese and English (``message_catalog``) and its table description (``table_ui``: words, roles,
facts, result words), so that a test can show that a game registered at run time is shown in its
own words with no edit to games/ or static/. Register it with ``LUZI_EXTRA_GAMES=wordy=
tests.games.wordygame``.
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.table_ui import SCORE_FACT
from tests.toygame import ToyAction, ToyGame

__all__ = ["GAME", "TEXTS", "TERMS", "UI"]

TEXTS: dict[str, tuple[str, str]] = {
    "wordy.no_shouting": (
        "词牌不许%(kind)s：%(seat)s只能出牌。",
        "No %(kind)s in Wordy: %(seat)s plays.",
    ),
}

TERMS: dict[str, Any] = {
    "leader": ("领出", "leads the deal"),
    "tricksOf": ("赢墩 %(n)s", "%(n)s tricks"),
    "kinds": {"play": ("出牌", "play")},
    "won": ("%(name)s 最多墩", "%(name)s took most tricks"),
}

UI: dict[str, Any] = {
    "roles": [
        {
            "when": {"eq": [{"get": "v.dealer"}, {"get": "seat"}]},
            "text": {"t": "leader"},
            "cls": "role",
        }
    ],
    "facts": [
        {
            "id": "fact-dealer",
            "when": {"has": "v"},
            "label": {"t": "leader"},
            "value": {"seat": "v.dealer"},
        },
        SCORE_FACT,
    ],
    "result": {"f": "won", "v": {"name": {"seat": "r.best"}}},
}


class WordyGame(ToyGame):
    """玩具牌 as 词牌, in its own words."""

    key: str = "wordy"
    name_zh: str = "词牌"
    name_en: str = "Wordy"
    messages = TEXTS
    table_terms = TERMS
    table_draws = UI

    def seat_action(self, seat: int, kind: str, cards: str = "") -> ToyAction:
        if kind != "play":
            # its English given here, not registered: the engine's codes stay the three games'
            raise EngineError(
                f"seat {seat} cannot {kind}: use play",
                code="wordy.no_shouting",
                params={"seat": seat, "kind": kind},
            )
        return super().seat_action(seat, kind, cards)


GAME = WordyGame()
