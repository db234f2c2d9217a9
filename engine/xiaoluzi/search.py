"""What the search bot of 小路子 may imagine: worlds consistent with one seat's view.

Public: every card played (the pile) and who played it, each seat's card count, the declaring
and countering, and who held the 7♥ (that seat was asked first). So the holder of the 7♥ still
holds it until it is played; everything else unseen (the 32-card pack less ``seat``'s hand, the
pile and the 7♥ when placed) is dealt at random over the other seats by their counts. A pass is
always allowed in 小路子, so passing shows no void.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.cards import Card
from engine.sampling import deal_hidden
from engine.search import DealWorld, clone_deal
from engine.xiaoluzi.actions import Action, ActionKind
from engine.xiaoluzi.bots import HeuristicBot
from engine.xiaoluzi.deal import Deal
from engine.xiaoluzi.plays import PACK, SEVEN_OF_HEARTS, classify

__all__ = ["hidden_constraints", "prune", "sample_hands", "sample_world"]

#: Candidates searched per decision: the heuristic's, pass, and one play of each kind.
MAX_CANDIDATES = 10


def hidden_constraints(
    deal: Deal, seat: int
) -> tuple[list[Card], dict[int, int], dict[int, list[Card]]]:
    """What ``seat`` knows of the others' hands: the unseen pool, how many unseen cards each
    other seat holds, and the cards known to be in a hand (the 7♥ with its holder)."""
    known: dict[int, list[Card]] = {s: [] for s in range(4) if s != seat}
    holder = deal.holder_7h
    if holder != seat and SEVEN_OF_HEARTS not in deal.pile:
        known[holder].append(SEVEN_OF_HEARTS)
    unseen = Counter(PACK)
    unseen.subtract(Counter(deal.hands[seat]))
    unseen.subtract(Counter(deal.pile))
    for cards in known.values():
        unseen.subtract(Counter(cards))
    pool = sorted((+unseen).elements(), key=PACK.index)
    counts = {s: len(deal.hands[s]) - len(known[s]) for s in range(4) if s != seat}
    return pool, counts, known


def sample_hands(deal: Deal, seat: int, rng: random.Random) -> list[list[Card]]:
    """Every seat's hand in one world: ``seat``'s own, the others dealt from what it knows."""
    pool, counts, known = hidden_constraints(deal, seat)
    dealt = deal_hidden(pool, counts, rng)
    return [
        list(deal.hands[s]) if s == seat else sorted(known[s] + dealt[s], key=PACK.index)
        for s in range(4)
    ]


def prune(deal: Deal, seat: int, legal: Sequence[Action], chosen: Action) -> list[Action]:
    """Pass (or the answers when declaring), then one play per kind (type, size and rank) in
    the order the rules list them, up to :data:`MAX_CANDIDATES`."""
    others: list[Action] = []
    best: dict[tuple[str, int, int], Action] = {}
    for action in legal:
        if action.kind is not ActionKind.PLAY:
            others.append(action)
            continue
        play = classify(action.cards, joker_sevens=deal.rules.joker_sevens)
        if play is None:
            continue
        best.setdefault((play.type.value, len(action.cards), int(play.rank)), action)
    return (others + list(best.values()))[:MAX_CANDIDATES]


def sample_world(deal: Deal, seat: int, rng: random.Random) -> DealWorld[Deal]:
    """A world of ``deal`` for ``seat``: the hidden hands dealt anew, heuristic rollouts."""
    hands = sample_hands(deal, seat, rng)
    world = clone_deal(deal, hands=hands, initial_hands=tuple(tuple(h) for h in hands))
    return DealWorld(world, HeuristicBot(seed=rng.getrandbits(32)), prune)
