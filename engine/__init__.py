"""Luzi's rules engine: pure Python, standard library only, one subpackage per game.

The card model (:mod:`engine.cards`) is shared; 大怪路子 lives in :mod:`engine.daguai`.
"""

from engine.cards import Card, Rank, Suit, format_cards, pack, parse_cards
from engine.errors import EngineError, IllegalActionError, InvalidNotationError, InvalidPlayError

__all__ = [
    "Card",
    "EngineError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidPlayError",
    "Rank",
    "Suit",
    "format_cards",
    "pack",
    "parse_cards",
]

__version__ = "0.1.0"
