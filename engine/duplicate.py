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

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import Card
from engine.daguai.deal import Deal as DaguaiDeal
from engine.daguai.match import deal_seeds as daguai_deal_seeds
from engine.errors import EngineError
from engine.registry import get_game
from engine.shanghai_doudizhu.deal import Deal as DoudizhuDeal
from engine.shanghai_doudizhu.match import deal_seed as doudizhu_deal_seed
from engine.xiaoluzi.deal import deal_hands as xiaoluzi_deal_hands

__all__ = ["DUPLICATE_GAMES", "DealtDeal", "dealt_deals", "first_dealer", "plays_duplicate"]

#: The games whose dealing this module knows; any other game that deals by the seed alone says so
#: by its own ``dealt_deals(match_seed, count)`` (:func:`plays_duplicate`).
DUPLICATE_GAMES = ("daguai", "xiaoluzi", "shanghai_doudizhu")


def _own_dealing(game: str) -> Callable[[int, int], list[DealtDeal]] | None:
    try:
        chosen = get_game(game)
    except EngineError:
        return None
    dealing = getattr(chosen, "dealt_deals", None)
    return dealing if callable(dealing) else None


def plays_duplicate(game: str) -> bool:
    """Whether matches of ``game`` can be played duplicate: its dealing is known here, or the
    game names the deals of a match seed itself (``dealt_deals``)."""
    return game in DUPLICATE_GAMES or _own_dealing(game) is not None


@dataclass(frozen=True)
class DealtDeal:
    """Deal ``number`` of a match: its seed (as games stores it) and each seat's cards as dealt
    (before any 进贡/还贡 or kitty), plus the cards left aside (上海斗地主's kitty)."""

    number: int
    seed: str
    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...] = ()


def dealt_deals(game: str, match_seed: int, count: int) -> list[DealtDeal]:
    """The first ``count`` deals a match of ``game`` started from ``match_seed`` deals.

    Raises EngineError for a game whose dealing is not known here, or a negative count.
    """
    if count < 0:
        raise EngineError(f"count must not be negative, not {count}")
    out: list[DealtDeal] = []
    if game == "daguai":
        _dealer, seeds = daguai_deal_seeds(match_seed, count)
        for number, seed in enumerate(seeds, 1):
            deal = DaguaiDeal(seed=seed)
            out.append(DealtDeal(number, str(seed), tuple(tuple(h) for h in deal.initial_hands)))
        return out
    if game == "xiaoluzi":
        rng = random.Random(match_seed)
        for number in range(1, count + 1):
            seed = rng.getrandbits(63)
            hands = xiaoluzi_deal_hands(seed)
            out.append(DealtDeal(number, str(seed), tuple(tuple(h) for h in hands)))
        return out
    if game == "shanghai_doudizhu":
        for number in range(1, count + 1):
            text = doudizhu_deal_seed(match_seed, number)
            dz = DoudizhuDeal(seed=text)
            out.append(DealtDeal(number, text, tuple(tuple(h) for h in dz.hands), tuple(dz.kitty)))
        return out
    own = _own_dealing(game)
    if own is not None:
        return own(match_seed, count)
    raise EngineError(f"duplicate dealing is not known for the game {game!r}")


def first_dealer(game: str, match_seed: int) -> int | None:
    """The first deal's dealer a match seed gives (大怪路子); None where the seed does not pick a
    dealer before the deal (the others name the first bidder or declarer within the deal)."""
    if game == "daguai":
        return daguai_deal_seeds(match_seed, 0)[0]
    return None
