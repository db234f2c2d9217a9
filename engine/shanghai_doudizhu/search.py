"""What the search bot of 上海斗地主 may imagine: worlds consistent with one seat's view.

Public: every card played, each seat's card count, the bids, the marked card and its holder
(标记牌: the seat it was dealt to still holds it until it plays a copy), the 报到 sets still in
the landlord's hand, and, after 摊打, the landlord's whole hand and the kitty. The landlord alone
sees the kitty before 摊打. So, for ``seat``:

- before the kitty is taken it is a ninth place of 8 unseen cards (holder ``KITTY``);
- after it is taken by another landlord, its cards are in that landlord's hand, unseen unless
  the hand was shown (摊打);
- a landlord who declared a 报到 set declared every card of that rank he held: he holds no
  other card of it;
- known cards (the marked card, the declared sets, a shown hand) stay with their holder; the
  rest of the unseen cards (two packs less ``seat``'s hand, the pile and the known cards) are
  dealt at random by the public counts. A pass is always allowed, so passing shows no void.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from engine.cards import Card, pack
from engine.sampling import deal_hidden, known_still_held
from engine.search import DealWorld, clone_deal
from engine.shanghai_doudizhu.actions import Action, ActionKind
from engine.shanghai_doudizhu.bots import HeuristicBot
from engine.shanghai_doudizhu.deal import KITTY_SIZE, Deal, Phase
from engine.shanghai_doudizhu.legal import declared_ranks
from engine.shanghai_doudizhu.plays import classify

__all__ = ["KITTY", "hidden_constraints", "prune", "sample_hidden", "sample_world"]

#: The kitty's holder number in the sampler (the seats are 0-3).
KITTY = 4

#: Candidates searched per decision: the heuristic's, pass, and one play of each kind.
MAX_CANDIDATES = 8


def hidden_constraints(
    deal: Deal, seat: int
) -> tuple[list[Card], dict[int, int], dict[int, Counter[Card]], dict[int, Callable[[Card], bool]]]:
    """What ``seat`` knows: the unseen pool, how many unseen cards each other holder (seats,
    and the kitty while it lies) has, the cards known to be in a holder's hand, and which
    cards a holder may hold (a landlord who declared a 报到 set of a rank held every card of
    that rank he had: he holds no other)."""
    played: list[list[Card]] = [[] for _ in range(4)]
    for action in deal.actions:
        if action.kind is ActionKind.PLAY:
            played[action.seat].extend(action.cards)
    holders = [s for s in range(4) if s != seat]
    if not deal.kitty_taken:
        holders.append(KITTY)
    known: dict[int, Counter[Card]] = {h: Counter() for h in holders}
    landlord = deal.landlord
    if landlord is not None and landlord != seat and deal.open_hand:
        known[landlord] = Counter(deal.hands[landlord])  # 摊打: the hand is public
    elif landlord is not None and landlord != seat and deal.locked:
        known[landlord] = Counter(c for p in deal.locked for c in p.cards)
    allowed: dict[int, Callable[[Card], bool]] = {}
    if landlord is not None and landlord != seat and deal.declared:
        ranks = declared_ranks(deal.declared)
        allowed[landlord] = lambda card: card.rank not in ranks
    marked = deal.marked_seat
    if marked != seat and not (landlord == marked and deal.open_hand):
        extra = known_still_held([deal.marked_card], played[marked]) - known[marked]
        known[marked] += extra
    unseen = Counter(pack(2))
    unseen.subtract(Counter(deal.hands[seat]))
    unseen.subtract(Counter(deal.pile))
    for counter in known.values():
        unseen.subtract(counter)
    pool = sorted((+unseen).elements(), key=lambda c: c.code)
    counts = {
        h: (KITTY_SIZE if h == KITTY else len(deal.hands[h])) - sum(known[h].values())
        for h in holders
    }
    return pool, counts, known, allowed


def sample_hidden(deal: Deal, seat: int, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Every seat's hand in one world and the kitty while it lies (else ``[]``)."""
    pool, counts, known, allowed = hidden_constraints(deal, seat)
    dealt = deal_hidden(pool, counts, rng, allowed=allowed)
    hands = [
        list(deal.hands[s]) if s == seat else list(known[s].elements()) + dealt[s] for s in range(4)
    ]
    kitty = dealt.get(KITTY, [])
    return hands, kitty


def prune(deal: Deal, seat: int, legal: Sequence[Action], chosen: Action) -> list[Action]:
    """The non-plays (pass, bids, answers), then one play per kind (type, size and key) in the
    order the rules list them, up to :data:`MAX_CANDIDATES`; for 报到 the heuristic's choice
    and declaring nothing."""
    if deal.phase is Phase.REPORT:
        return [a for a in legal if not a.cards][:1]
    others: list[Action] = []
    best: dict[tuple[str, int, int], Action] = {}
    for action in legal:
        if action.kind is not ActionKind.PLAY:
            others.append(action)
            continue
        play = classify(action.cards)
        if play is None:
            continue
        best.setdefault((play.type.value, len(action.cards), play.key), action)
    return (others + list(best.values()))[:MAX_CANDIDATES]


def sample_world(deal: Deal, seat: int, rng: random.Random) -> DealWorld[Deal]:
    """A world of ``deal`` for ``seat``: the hidden hands (and kitty) dealt anew, heuristic
    rollouts."""
    hands, kitty = sample_hidden(deal, seat, rng)
    shown = deal.landlord == seat or (deal.landlord is not None and deal.open_hand)
    world = clone_deal(
        deal,
        hands=hands,
        kitty=tuple(kitty) if not deal.kitty_taken else (deal.kitty if shown else ()),
        initial_hands=tuple(tuple(h) for h in hands),
    )
    return DealWorld(world, HeuristicBot(seed=rng.getrandbits(32)), prune)
