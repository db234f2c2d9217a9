"""Dealing the hidden cards anew, consistently with what one seat knows (determinization).

A seat that searches over the hidden cards needs *worlds*: complete deals in which its own hand
and everything public are as they are, and every card it has not seen is dealt at random among
the places that may hold it. Public information becomes three kinds of constraint here:

- ``counts``: how many hidden cards each holder has (a seat's public card count less the cards
  known to be in its hand; a kitty's size);
- ``known``: cards known to be in a holder's hand (a tribute's receiver holds the tribute card
  until it plays it; a 摊打 landlord's hand is public; the marked card's holder...);
- ``allowed``: which unknown cards a holder may have at all (a payer of tribute holds nothing
  above the card it paid; a seat that showed a void in a suit holds none of it).

:func:`deal_hidden` deals the ``pool`` of unseen cards to the holders under those constraints.
The games' samplers (``engine/*/search.py``) say what is known; this module only deals.

>>> import random
>>> hands = deal_hidden(list("aabbc"), {1: 2, 2: 3}, random.Random(1),
...                     allowed={1: lambda c: c != "c"})
>>> sorted(hands[1] + hands[2]) == sorted("aabbc"), "c" in hands[1], len(hands[2])
(True, False, 3)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from engine.errors import EngineError

__all__ = ["SamplingError", "deal_hidden", "known_still_held"]

C = TypeVar("C", bound=Hashable)

#: Greedy dealing of constrained cards first can meet a dead end; it is retried this often.
_TRIES = 20


class SamplingError(EngineError):
    """No dealing of the pool satisfies the constraints (the public information contradicts
    itself, or the caller counted wrong)."""


def known_still_held(given: Iterable[C], played: Iterable[C]) -> Counter[C]:
    """The cards a seat is known to hold still: those it was seen to receive (``given``) less
    the copies of them it has played since (with several packs a played copy may have been one
    of its own: the known cards are a lower bound, never more than it can hold).

    >>> sorted(known_still_held(["AS", "AS", "2H"], ["AS", "3C"]).elements())
    ['2H', 'AS']
    """
    known = Counter(given)
    known.subtract(Counter(c for c in played if c in known))
    return +known


def deal_hidden(
    pool: Sequence[C],
    counts: Mapping[int, int],
    rng: random.Random,
    *,
    allowed: Mapping[int, Callable[[C], bool]] | None = None,
) -> dict[int, list[C]]:
    """Deal every card of ``pool`` to the holders, ``counts[h]`` cards to holder ``h``, each card
    to a holder that ``allowed`` lets hold it (a holder without an entry may hold anything).

    Cards that only some holders may hold are dealt first, each to one of them at random in
    proportion to the places they have left; the free cards fill the rest. Raises
    :class:`SamplingError` when the counts do not add up or no dealing fits.
    """
    if sum(counts.values()) != len(pool) or any(n < 0 for n in counts.values()):
        raise SamplingError(
            f"{len(pool)} hidden cards cannot be dealt as {dict(counts)} (the counts must add up)"
        )
    allowed = allowed or {}
    holders = sorted(counts)
    if not allowed:
        cards = list(pool)
        rng.shuffle(cards)
        hands: dict[int, list[C]] = {}
        start = 0
        for h in holders:
            hands[h] = cards[start : start + counts[h]]
            start += counts[h]
        return hands
    # per distinct card, the holders that may hold it
    may: dict[C, tuple[int, ...]] = {}
    for card in pool:
        if card not in may:
            may[card] = tuple(
                h for h in holders if counts[h] and (h not in allowed or allowed[h](card))
            )
    for _ in range(_TRIES):
        found = _try_deal(pool, counts, holders, may, rng)
        if found is not None:
            return found
    raise SamplingError("no dealing of the hidden cards fits what is known")


def _try_deal(
    pool: Sequence[C],
    counts: Mapping[int, int],
    holders: Sequence[int],
    may: Mapping[C, tuple[int, ...]],
    rng: random.Random,
) -> dict[int, list[C]] | None:
    left = dict(counts)
    hands: dict[int, list[C]] = {h: [] for h in holders}
    cards = list(pool)
    rng.shuffle(cards)
    # the most constrained cards first (fewest holders that may take them)
    cards.sort(key=lambda c: len(may[c]))
    for card in cards:
        options = [h for h in may[card] if left[h] > 0]
        if not options:
            return None
        total = sum(left[h] for h in options)
        pick = rng.randrange(total)
        for h in options:
            pick -= left[h]
            if pick < 0:
                break
        hands[h].append(card)
        left[h] -= 1
    return hands
