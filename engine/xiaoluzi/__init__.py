"""小路子 (Xiao Lu Zi): four players, one 32-card pack, wild jokers, declaring and countering.

The rules as implemented are in ``docs/xiaoluzi.md``; this package implements them. Public
names for the game registry: :data:`GAME`, :data:`SEAT_COUNT`, :class:`Rules` (the options),
:class:`Deal`, :class:`Match`, :class:`Record`, :func:`replay`, the bots.
"""

import engine.xiaoluzi.messages  # noqa: F401  (registers the package's error codes first)
from engine.xiaoluzi.actions import DEFAULT_RULES, RULES_VERSION, SEATS, Action, ActionKind, Rules
from engine.xiaoluzi.bots import HeuristicBot, RandomBot, make_bots, play_deal, play_match
from engine.xiaoluzi.deal import Deal, Phase, deal_hands
from engine.xiaoluzi.match import Match, MatchEnd, places
from engine.xiaoluzi.plays import (
    PACK,
    Play,
    PlayType,
    classify,
    legal_plays,
    parse_hand,
    sort_cards,
)
from engine.xiaoluzi.record import (
    GAME,
    Headers,
    Record,
    RecordError,
    ReplayError,
    match_json,
    match_records,
    replay,
    replay_match,
)
from engine.xiaoluzi.result import (
    CannotEscapeError,
    DealResult,
    EscapeResult,
    InvalidFinishError,
    Mode,
    deal_result,
    declaration_made,
    escape_result,
    leave_result,
    slam_winners,
)

#: Players at a table; cards dealt to each.
SEAT_COUNT = 4
HAND_SIZE = 8

__all__ = [
    "DEFAULT_RULES",
    "GAME",
    "HAND_SIZE",
    "PACK",
    "RULES_VERSION",
    "SEATS",
    "SEAT_COUNT",
    "Action",
    "ActionKind",
    "CannotEscapeError",
    "Deal",
    "DealResult",
    "EscapeResult",
    "Headers",
    "HeuristicBot",
    "InvalidFinishError",
    "Match",
    "MatchEnd",
    "Mode",
    "Phase",
    "Play",
    "PlayType",
    "RandomBot",
    "Record",
    "RecordError",
    "ReplayError",
    "Rules",
    "classify",
    "deal_hands",
    "deal_result",
    "declaration_made",
    "escape_result",
    "leave_result",
    "legal_plays",
    "make_bots",
    "match_json",
    "match_records",
    "parse_hand",
    "places",
    "play_deal",
    "play_match",
    "replay",
    "replay_match",
    "slam_winners",
    "sort_cards",
]
