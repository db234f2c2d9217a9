"""上海斗地主 (Shanghai Dou Dizhu): four players, two decks, a landlord against three farmers.

The rules as implemented are in ``docs/shanghai_doudizhu.md``; this package implements them.
"""

import engine.shanghai_doudizhu.messages  # noqa: F401  (registers the package's error codes first)
from engine.shanghai_doudizhu.actions import Action, ActionKind
from engine.shanghai_doudizhu.bots import (
    HeuristicBot,
    RandomBot,
    hand_strength,
    play_deal,
    play_match,
)
from engine.shanghai_doudizhu.deal import HAND_SIZE, KITTY_SIZE, Deal, Phase
from engine.shanghai_doudizhu.legal import Shape, legal_plays, legal_shapes, play_of, report_sets
from engine.shanghai_doudizhu.match import Match, MatchEnd, deal_seed
from engine.shanghai_doudizhu.plays import Play, PlayType, classify
from engine.shanghai_doudizhu.record import (
    GAME,
    Headers,
    Record,
    RecordError,
    ReplayError,
    match_records,
    replay,
    replay_match,
)
from engine.shanghai_doudizhu.result import (
    DealResult,
    EscapeKind,
    Factors,
    Outcome,
    all_pass_result,
    deal_result,
    escape_result,
    farmer_amount,
)
from engine.shanghai_doudizhu.rules import (
    DEFAULT_RULES,
    RULES_VERSION,
    DoubleReport,
    EscapeRounding,
    FirstBidder,
    Huangfan,
    ReportLossRating,
    Rules,
)

#: Players at a table, decks in the pack.
SEAT_COUNT = 4
DECKS = 2

__all__ = [
    "DECKS",
    "DEFAULT_RULES",
    "GAME",
    "HAND_SIZE",
    "KITTY_SIZE",
    "RULES_VERSION",
    "SEAT_COUNT",
    "Action",
    "ActionKind",
    "Deal",
    "DealResult",
    "DoubleReport",
    "EscapeKind",
    "EscapeRounding",
    "Factors",
    "FirstBidder",
    "Huangfan",
    "Outcome",
    "Phase",
    "Play",
    "PlayType",
    "ReportLossRating",
    "Rules",
    "all_pass_result",
    "classify",
    "deal_result",
    "escape_result",
    "farmer_amount",
    "legal_plays",
    "report_sets",
    "Shape",
    "legal_shapes",
    "play_of",
    "deal_seed",
    "HeuristicBot",
    "RandomBot",
    "hand_strength",
    "play_deal",
    "play_match",
    "Match",
    "MatchEnd",
    "Headers",
    "Record",
    "RecordError",
    "ReplayError",
    "match_records",
    "replay",
    "replay_match",
]
