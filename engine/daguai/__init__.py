"""大怪路子 (Da Guai Lu Zi): six players, three decks, wild jokers.

The rules contract is ``shared/rules/daguai.md``; this package implements it.
"""

import engine.daguai.messages  # noqa: F401  (registers the package's error codes first)
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

# Deals, results, matches, records and bots (Rules engine II).
from engine.daguai.bots import HeuristicBot, RandomBot, play_deal, play_match  # noqa: E402
from engine.daguai.deal import RULES_VERSION, Action, ActionKind, Deal, Phase, Rules  # noqa: E402
from engine.daguai.match import Match, MatchEnd  # noqa: E402
from engine.daguai.record import Record, RecordError, ReplayError, replay, replay_match  # noqa: E402
from engine.daguai.result import (  # noqa: E402
    DealResult,
    EscapeResult,
    InvalidFinishError,
    Levels,
    Outcome,
    Team,
    deal_result,
    escape_result,
    leave_result,
)

__all__ += [
    "RULES_VERSION",
    "Action",
    "ActionKind",
    "Deal",
    "DealResult",
    "EscapeResult",
    "HeuristicBot",
    "InvalidFinishError",
    "Levels",
    "Match",
    "MatchEnd",
    "Outcome",
    "Phase",
    "RandomBot",
    "Record",
    "RecordError",
    "ReplayError",
    "Rules",
    "Team",
    "deal_result",
    "escape_result",
    "leave_result",
    "play_deal",
    "play_match",
    "replay",
    "replay_match",
]
