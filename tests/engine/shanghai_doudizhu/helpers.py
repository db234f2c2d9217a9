"""Hand-made deals for the tests."""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import Card, pack, parse_cards
from engine.shanghai_doudizhu.deal import Deal
from engine.shanghai_doudizhu.rules import DEFAULT_RULES, Rules


def rig(
    cards: dict[int, str] | None = None,
    kitty: str = "",
    *,
    marked: tuple[int, str] | None = None,
    rules: Rules = DEFAULT_RULES,
    huangfan: int = 0,
    fill_seed: int = 1,
) -> Deal:
    """A deal whose seats hold ``cards`` (seat -> tokens) and the kitty ``kitty``; the rest is
    dealt from the remaining cards (shuffled by ``fill_seed``) up to 25 cards and 8 in the kitty.
    ``marked`` is (seat, card) and defaults to seat 0's first card."""
    cards = cards or {}
    given = [parse_cards(cards.get(s, "")) for s in range(4)]
    given_kitty = parse_cards(kitty)
    pool = Counter(pack(2))
    pool.subtract(Counter([c for h in given for c in h] + given_kitty))
    assert all(n >= 0 for n in pool.values()), "more than two copies of a card"
    rest: list[Card] = sorted(pool.elements())
    random.Random(fill_seed).shuffle(rest)
    hands = []
    for h in given:
        need = 25 - len(h)
        hands.append(h + rest[:need])
        rest = rest[need:]
    full_kitty = given_kitty + rest[: 8 - len(given_kitty)]
    mark = None if marked is None else (marked[0], Card.parse(marked[1]))
    return Deal(hands=hands, kitty=full_kitty, marked=mark, rules=rules, huangfan=huangfan)
