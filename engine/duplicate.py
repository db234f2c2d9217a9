"""Duplicate play (复式): the deals a match seed deals, seat by seat, without playing them.

Every game deals each deal from a seed drawn from the match's seed, and the cards a seat is dealt
depend on that seed alone (never on the dealer, the levels or earlier results). So matches started
from one seed deal the same cards to the same seats, deal after deal, however differently they are
played: a duplicate round gives every table's match the round's seed. This module names those
hands for the printed deal sheets (发牌单) of offline duplicate tables.

>>> deals = dealt_deals("xiaoluzi", 7, 2)
>>> [len(h) for h in deals[0].hands], deals[1].number
([8, 8, 8, 8], 2)
>>> dealt_deals("xiaoluzi", 7, 1)[0].hands == deals[0].hands
True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.errors import EngineError

__all__ = ["DealtDeal", "dealt_deals", "duplicate_games", "first_dealer", "plays_duplicate"]


@dataclass(frozen=True)
class DealtDeal:
    """Deal ``number`` of a match: its seed (as games stores it) and each seat's cards as dealt
    (before any 进贡/还贡 or kitty), plus the cards left aside (上海斗地主's kitty)."""

    number: int
    seed: str
    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...] = ()


def duplicate_games() -> tuple[str, ...]:
    """The registered games that deal duplicate boards (their ``dealt_hands`` answers)."""
    from engine.registry import registered_games

    return tuple(g.key for g in registered_games() if _deals_duplicate(g))


def plays_duplicate(game: str) -> bool:
    """Whether the registered game ``game`` deals duplicate boards (False for an unknown key)."""
    from engine.registry import get_game

    try:
        return _deals_duplicate(get_game(game))
    except EngineError:
        return False


def _deals_duplicate(game: object) -> bool:
    from engine.base import GameBase

    method = getattr(type(game), "dealt_hands", None)
    return method is not None and method is not GameBase.dealt_hands


def __getattr__(name: str) -> tuple[str, ...]:
    # DUPLICATE_GAMES: read from the registry when asked (games registered later count too)
    if name == "DUPLICATE_GAMES":
        return duplicate_games()
    raise AttributeError(name)


def dealt_deals(game: str, match_seed: int, count: int) -> list[DealtDeal]:
    """The first ``count`` deals a match of ``game`` started from ``match_seed`` deals.

    Raises EngineError for a game whose dealing is not known here, or a negative count.
    """
    from engine.registry import get_game

    if count < 0:
        raise EngineError(f"count must not be negative, not {count}")
    try:
        found = get_game(game)
    except EngineError:
        raise EngineError(f"duplicate dealing is not known for the game {game!r}") from None
    if not _deals_duplicate(found):
        raise EngineError(f"duplicate dealing is not known for the game {game!r}")
    deals: list[DealtDeal] = found.dealt_hands(match_seed, count)
    return deals


def first_dealer(game: str, match_seed: int) -> int | None:
    """The first deal's dealer a match seed gives (大怪路子); None where the seed does not pick a
    dealer before the deal (the others name the first bidder or declarer within the deal)."""
    from engine.registry import get_game

    try:
        found = get_game(game)
    except EngineError:
        return None
    return found.first_dealer(match_seed)
