"""A slow, obviously-correct oracle: classify every sub-multiset of a hand."""

from __future__ import annotations

from collections import Counter

from engine.cards import Card, Rank
from engine.daguai import Play, PlayType, classify

Signature = tuple[object, ...]


def signature(play: Play) -> Signature:
    """What makes two plays distinct: type, key, natural ranks, jokers, and the suit of a flush."""
    naturals = tuple(sorted(c.rank for c in play.cards if c.suit is not None))
    sj = sum(1 for c in play.cards if c.rank == Rank.SMALL_JOKER)
    bj = sum(1 for c in play.cards if c.rank == Rank.BIG_JOKER)
    suit = None
    if play.type in (PlayType.FLUSH, PlayType.STRAIGHT_FLUSH):
        suit = next(c.suit for c in play.cards if c.suit is not None)
    return (play.type, play.key, naturals, sj, bj, suit)


def sub_multisets(hand: list[Card], size: int) -> set[tuple[Card, ...]]:
    counts = Counter(hand)
    kinds = sorted(counts)
    out: set[tuple[Card, ...]] = set()

    def walk(i: int, left: int, acc: list[Card]) -> None:
        if left == 0:
            out.add(tuple(acc))
            return
        if i == len(kinds):
            return
        for m in range(min(counts[kinds[i]], left), -1, -1):
            walk(i + 1, left - m, acc + [kinds[i]] * m)

    walk(0, size, [])
    return out


def brute_plays(hand: list[Card], level: Rank, over: Play | None = None) -> dict[Signature, Play]:
    sizes = (1, 2, 3, 5) if over is None else (len(over.cards),)
    found: dict[Signature, Play] = {}
    for size in sizes:
        for cards in sub_multisets(hand, size):
            play = classify(list(cards), level)
            if play is None or (over is not None and not play.beats(over)):
                continue
            found.setdefault(signature(play), play)
    return found
