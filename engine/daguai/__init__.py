"""大怪路子 (Da Guai Lu Zi): six players, three decks, wild jokers.

The rules contract is ``shared/rules/daguai.md``; this package implements it.
"""

from engine.daguai.legal import legal_plays
from engine.daguai.plays import LEVELS, Play, PlayType, classify, hand_sort_key, parse_level, power

__all__ = [
    "LEVELS",
    "Play",
    "PlayType",
    "classify",
    "hand_sort_key",
    "legal_plays",
    "parse_level",
    "power",
]

#: Players at a table, decks in the pack, cards dealt to each player.
PLAYERS = 6
DECKS = 3
HAND_SIZE = 27
