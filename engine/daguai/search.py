"""What the search bot of 大怪路子 may imagine: worlds consistent with one seat's view.

Public: every card played (the pile), each seat's card count, the tribute pairs (not their
cards). Private to ``seat``: its hand, and, when it paid or received tribute, the tribute card
and the returned card. So, for ``seat``:

- a receiver of its tribute holds the card it paid (less copies that receiver played since);
- when it received tribute, the payer holds the card it returned (likewise), and the payer held
  nothing above the tribute card it paid (the highest of its hand): the payer's other cards are
  all at or below it;
- everything else unseen (three packs less its hand, the pile and those known cards) is dealt
  at random over the other seats, each getting its public count.

A pass is always allowed in 大怪路子, so passing shows no void; nothing else is known.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from engine.cards import Card, pack
from engine.daguai.actions import Action, ActionKind
from engine.daguai.bots import HeuristicBot, _cost, _groups
from engine.daguai.deal import Deal, Phase, Tribute
from engine.daguai.plays import classify, power
from engine.sampling import deal_hidden, known_still_held
from engine.search import DealWorld, clone_deal

__all__ = ["hidden_constraints", "prune", "sample_hands", "sample_world"]

#: Candidates searched per decision: the heuristic's, pass, and the cheapest plays of each kind.
MAX_CANDIDATES = 4


def _played_by(deal: Deal) -> list[list[Card]]:
    played: list[list[Card]] = [[] for _ in range(6)]
    for action in deal.actions:
        if action.kind is ActionKind.PLAY:
            played[action.seat].extend(action.cards)
    return played


def _at_most(top: Card, level: int) -> Callable[[Card], bool]:
    """Whether a card is at or below ``top`` in the order a tribute card is chosen by."""
    ceiling = (power(top.rank, level), top.code)

    def allowed(card: Card) -> bool:
        return (power(card.rank, level), card.code) <= ceiling

    return allowed


def hidden_constraints(
    deal: Deal, seat: int
) -> tuple[list[Card], dict[int, int], dict[int, Counter[Card]], dict[int, Callable[[Card], bool]]]:
    """What ``seat`` knows of the others' hands: the unseen pool, how many unseen cards each
    other seat holds, the cards known to be in a hand, and which cards a hand may hold."""
    played = _played_by(deal)
    known: dict[int, Counter[Card]] = {s: Counter() for s in range(6) if s != seat}
    allowed: dict[int, Callable[[Card], bool]] = {}
    level = deal.level
    for t in deal.tributes:
        if t.payer == seat:
            known[t.receiver] += known_still_held([t.card], played[t.receiver])
        elif t.receiver == seat:
            returned = deal.returns.get(seat)
            if returned is not None:
                known[t.payer] += known_still_held([returned], played[t.payer])
            allowed[t.payer] = _at_most(t.card, level)
    unseen = Counter(pack(3))
    unseen.subtract(Counter(deal.hands[seat]))
    unseen.subtract(Counter(deal.pile))
    for counter in known.values():
        unseen.subtract(counter)
    pool = sorted((+unseen).elements(), key=lambda c: c.code)
    counts = {s: len(deal.hands[s]) - sum(known[s].values()) for s in range(6) if s != seat}
    return pool, counts, known, allowed


def sample_hands(deal: Deal, seat: int, rng: random.Random) -> list[list[Card]]:
    """Every seat's hand in one world: ``seat``'s own, the others dealt from what it knows."""
    pool, counts, known, allowed = hidden_constraints(deal, seat)
    dealt = deal_hidden(pool, counts, rng, allowed=allowed)
    hands: list[list[Card]] = []
    for s in range(6):
        if s == seat:
            hands.append(list(deal.hands[s]))
        else:
            hands.append(list(known[s].elements()) + dealt[s])
    return hands


def prune(deal: Deal, seat: int, legal: Sequence[Action], chosen: Action) -> list[Action]:
    """The candidates worth searching: pass, and per kind of play (type and rank) its cheapest
    way, the cheapest kinds first, up to :data:`MAX_CANDIDATES`."""
    if deal.phase is Phase.RETURN:
        # a return: one card of each rank, lowest first (the heuristic's is added by the world)
        seen: dict[int, Action] = {}
        for action in legal:
            rank = action.cards[0].rank
            if rank not in seen:
                seen[rank] = action
        ordered = sorted(seen.values(), key=lambda a: power(a.cards[0].rank, deal.level))
        return ordered[:MAX_CANDIDATES]
    hand = deal.hands[seat]
    groups = _groups(hand)
    best: dict[tuple[str, int], tuple[tuple[int, int, int, int], Action]] = {}
    passes: list[Action] = []
    for action in legal:
        if action.kind is ActionKind.PASS:
            passes.append(action)
            continue
        play = classify(action.cards, deal.level)
        if play is None:
            continue
        key = (play.type.value, play.key[0])
        cost = _cost(play, groups, deal.level)
        if key not in best or cost < best[key][0]:
            best[key] = (cost, action)
    plays = [a for _, a in sorted(best.values(), key=lambda ca: ca[0])]
    return (passes + plays)[:MAX_CANDIDATES]


def sample_world(deal: Deal, seat: int, rng: random.Random) -> DealWorld[Deal]:
    """A world of ``deal`` for ``seat``: the hidden hands dealt anew, heuristic rollouts."""
    hands = sample_hands(deal, seat, rng)
    # the tribute and return cards that ``seat`` did not see are not carried into the world:
    # a card of the receiver's (the payer's) imagined hand stands for each
    tributes = tuple(
        t
        if seat in (t.payer, t.receiver) or not hands[t.receiver]
        else Tribute(t.payer, t.receiver, max(hands[t.receiver], key=lambda c: c.code))
        for t in deal.tributes
    )
    payer_of = {t.receiver: t.payer for t in deal.tributes}
    returns = {
        r: c if seat in (r, payer_of[r]) or not hands[payer_of[r]] else hands[payer_of[r]][0]
        for r, c in deal.returns.items()
    }
    world = clone_deal(
        deal,
        hands=hands,
        initial_hands=tuple(tuple(h) for h in hands),
        tributes=tributes,
        returns=returns,
    )
    return DealWorld(world, HeuristicBot(seed=rng.getrandbits(32)), prune)
