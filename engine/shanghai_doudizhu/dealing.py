"""How a deal of 上海斗地主 gets its cards (:class:`engine.shanghai_doudizhu.deal.Deal` calls it).

Dealing is a pure function of the seed's random stream: it shuffles the 108 cards (two packs in
:func:`engine.cards.pack` order); seat s gets cards ``25s .. 25s+24``, the kitty is the last 8.
Then, under ``first_bidder=marked_card``, ``randrange(100)`` picks the marked card among the 100
dealt (its holder bids first); under ``rotate`` the first bidder is given by the match (or
``randrange(4)`` in the first deal) and ``randrange(25)`` picks the marked card in his hand. A
hand-made deal (four hands, a kitty, a marked card) is checked instead.

>>> from engine.shanghai_doudizhu.rules import DEFAULT_RULES
>>> dealt = deal_cards(random.Random(7), DEFAULT_RULES)
>>> [len(h) for h in dealt.hands], len(dealt.kitty), dealt.hand_made
([25, 25, 25, 25], 8, False)
>>> dealt.marked[1] in dealt.hands[dealt.marked[0]]
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, pack
from engine.errors import EngineError
from engine.shanghai_doudizhu.result import SEATS
from engine.shanghai_doudizhu.rules import FirstBidder, Rules

__all__ = ["HAND_SIZE", "KITTY_SIZE", "Dealt", "deal_cards"]

HAND_SIZE = 25
KITTY_SIZE = 8


@dataclass(frozen=True, slots=True)
class Dealt:
    """The cards of a deal as dealt: four hands (seat order), the kitty, whether they were given
    rather than shuffled, and the marked card ``(seat, card)``."""

    hands: list[list[Card]]
    kitty: tuple[Card, ...]
    hand_made: bool
    marked: tuple[int, Card]


def deal_cards(
    rng: random.Random,
    rules: Rules,
    *,
    first_bidder: int | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    kitty: Sequence[Card] = (),
    marked: tuple[int, Card] | None = None,
) -> Dealt:
    """The deal's cards from ``rng`` (the deal's seeded stream), or the hand-made ``hands``,
    ``kitty`` and ``marked`` checked; raises :class:`~engine.errors.EngineError` for a first
    bidder, hands or a marked card the rules do not allow."""
    if first_bidder is not None and first_bidder not in SEATS:
        raise EngineError(f"first_bidder must be a seat 0-3, not {first_bidder!r}")
    if first_bidder is not None and rules.first_bidder is FirstBidder.MARKED_CARD:
        raise EngineError(
            "a first_bidder is given only under first_bidder=rotate; under marked_card the "
            "marked card's holder bids first"
        )
    if hands is None:
        cards = pack(2)
        rng.shuffle(cards)
        dealt = [cards[25 * s : 25 * s + 25] for s in SEATS]
        rest = tuple(cards[100:])
        hand_made = False
        if first_bidder is None and rules.first_bidder is FirstBidder.MARKED_CARD:
            index = rng.randrange(100)
            seat = index // 25
            marked = (seat, dealt[seat][index % 25])
        else:
            seat = rng.randrange(4) if first_bidder is None else first_bidder
            marked = (seat, dealt[seat][rng.randrange(25)])
    else:
        if len(hands) != 4 or not all(hands):
            raise EngineError("a hand-made deal has four hands with cards")
        dealt = [list(h) for h in hands]
        rest = tuple(kitty)
        for card, count in Counter([*rest, *(c for h in hands for c in h)]).items():
            if count > 2:
                raise EngineError(f"{count} copies of {card}, the two packs have two")
        hand_made = True
        if marked is None:
            seat = 0 if first_bidder is None else first_bidder
            marked = (seat, dealt[seat][0])
        elif first_bidder is not None and marked[0] != first_bidder:
            raise EngineError(
                f"under rotate the marked card is in the first bidder's hand (seat "
                f"{first_bidder}), not seat {marked[0]}'s"
            )
    if marked[0] not in SEATS or marked[1] not in dealt[marked[0]]:
        raise EngineError(f"the marked card {marked[1]} is not in seat {marked[0]}'s hand")
    sizes = [len(h) for h in dealt]
    if sizes != [HAND_SIZE] * 4 or len(rest) != KITTY_SIZE:
        raise EngineError(
            f"a deal gives each seat {HAND_SIZE} cards and the kitty {KITTY_SIZE}, not "
            f"{', '.join(map(str, sizes))} and {len(rest)}"
        )
    return Dealt(dealt, rest, hand_made, marked)
