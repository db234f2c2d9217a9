"""Every distinct legal play of a hand, leading or against a play to beat.

Two plays are distinct when they differ in what they are (type and key) or in what they spend
that a player cares about: the natural ranks, how many 小怪 and 大怪, and for a flush or a
straight flush its suit. Plays that differ only in which suit of a rank is spent are listed once.

Instead of trying every subset of the hand, each type is built from the hand's rank and suit
counts, knowing exactly which natural-card patterns each type admits once the highest-type rule
for wild jokers is applied (see :func:`engine.daguai.plays.classify`).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from itertools import combinations

from engine.cards import BIG_JOKER, SMALL_JOKER, Card, Rank
from engine.daguai.plays import (
    BJ_POWER,
    LEVEL_POWER,
    SJ_POWER,
    Play,
    PlayType,
    flush_joker_power,
    power,
    straight_high,
)

__all__ = ["legal_plays"]

_RANKS: tuple[Rank, ...] = tuple(Rank(max(r, 2)) for r in range(17))
_WINDOWS: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (h, (14, 2, 3, 4, 5) if h == 5 else tuple(range(h - 4, h + 1))) for h in range(5, 15)
)
_SINGLE = PlayType.SINGLE
_STRAIGHT = PlayType.STRAIGHT
_FLUSH = PlayType.FLUSH
_FULL_HOUSE = PlayType.FULL_HOUSE
_FOUR = PlayType.FOUR_WITH_ONE
_STRAIGHT_FLUSH = PlayType.STRAIGHT_FLUSH
_FIVE = PlayType.FIVE_OF_A_KIND
_OF_A_KIND = {2: PlayType.PAIR, 3: PlayType.TRIPLE, 5: PlayType.FIVE_OF_A_KIND}


def legal_plays(hand: Iterable[Card], level: Rank, over: Play | None = None) -> list[Play]:
    """Every distinct play of ``hand`` at ``level`` to lead (``over`` None) or that beats ``over``.

    >>> from engine.cards import parse_cards
    >>> [str(p) for p in legal_plays(parse_cards("3H 3S 4H"), Rank.TWO)]
    ['3S', '4H', '3S 3H']
    """
    gen = _Generator(hand, level)
    if over is None:
        plays = gen.singles(0)
        for size in (2, 3):
            plays += gen.of_a_kind(size, 0)
        plays += gen.fives(0, ())
        return plays
    size = len(over.cards)
    if size == 1:
        return gen.singles(over.key[0])
    if size in (2, 3):
        return gen.of_a_kind(size, over.key[0])
    return gen.fives(over.type.strength, over.key)


class _Generator:
    """The hand's counts, and one builder per type."""

    def __init__(self, hand: Iterable[Card], level: Rank) -> None:
        self.level = level
        by_rank: dict[int, list[Card]] = {}
        sj = bj = 0
        for card in sorted(hand, key=_code):
            if card.suit is None:
                if card.rank == Rank.BIG_JOKER:
                    bj += 1
                else:
                    sj += 1
            else:
                by_rank.setdefault(card.rank, []).append(card)
        self.by_rank = by_rank
        self.ranks = sorted(by_rank)
        self.sj = sj
        self.bj = bj
        self.jokers = sj + bj
        # suit mask of each rank, and the cards of each (rank, suit)
        self.suits: dict[int, int] = {}
        self.by_suit: list[dict[int, list[Card]]] = [{}, {}, {}, {}]
        for r, cards in by_rank.items():
            mask = 0
            for c in cards:
                assert c.suit is not None
                mask |= 1 << c.suit
                self.by_suit[c.suit].setdefault(r, []).append(c)
            self.suits[r] = mask
        # the joker sets of each size: (SJ * s + BJ * b) for s <= sj, b <= bj
        self.joker_sets: list[list[tuple[Card, ...]]] = [
            [
                (SMALL_JOKER,) * s + (BIG_JOKER,) * (k - s)
                for s in range(min(k, sj), -1, -1)
                if k - s <= bj
            ]
            for k in range(6)
        ]

    # -- one-, two- and three-card plays ------------------------------------------------------

    def singles(self, floor: int) -> list[Play]:
        level = self.level
        plays = []
        for r in self.ranks:
            p = power(r, level)
            if p > floor:
                plays.append(Play(_SINGLE, (self.by_rank[r][0],), _RANKS[r], (p,), level))
        if self.sj and floor < SJ_POWER:
            plays.append(Play(_SINGLE, (SMALL_JOKER,), Rank.SMALL_JOKER, (SJ_POWER,), level))
        if self.bj and floor < BJ_POWER:
            plays.append(Play(_SINGLE, (BIG_JOKER,), Rank.BIG_JOKER, (BJ_POWER,), level))
        return plays

    def of_a_kind(self, size: int, floor: int) -> list[Play]:
        """Pairs, triples or five of a kind: one natural rank and jokers, or jokers only."""
        level = self.level
        kind = _OF_A_KIND[size]
        joker_sets = self.joker_sets
        plays = []
        for r in self.ranks:
            p = power(r, level)
            if p <= floor:
                continue
            key = (p,)
            rank = _RANKS[r]
            cards = self.by_rank[r]
            for a in range(min(size, len(cards)), 0, -1):
                naturals = tuple(cards[:a])
                for jokers in joker_sets[size - a]:
                    plays.append(Play(kind, naturals + jokers, rank, key, level))
        for jokers in joker_sets[size]:
            # all jokers: all BJ are BJs, otherwise they all count as SJ
            if jokers[0] == BIG_JOKER:
                if floor < BJ_POWER:
                    plays.append(Play(kind, jokers, Rank.BIG_JOKER, (BJ_POWER,), level))
            elif floor < SJ_POWER:
                plays.append(Play(kind, jokers, Rank.SMALL_JOKER, (SJ_POWER,), level))
        return plays

    # -- five-card plays ----------------------------------------------------------------------

    def fives(self, strength: int, key: tuple[int, ...]) -> list[Play]:
        """Five-card plays of a type stronger than ``strength``, or as strong with a higher key."""
        plays: list[Play] = []
        builders = (
            (1, self.straights),
            (2, self.flushes),
            (3, self.full_houses),
            (4, self.fours),
            (5, self.straight_flushes),
        )
        for s, build in builders:
            if s > strength:
                plays += build()
            elif s == strength:
                plays += [p for p in build() if p.key > key]
        if strength < 6:
            plays += self.of_a_kind(5, 0)
        elif strength == 6:
            plays += self.of_a_kind(5, key[0])
        return plays

    def _runs(self, available: Container[int], least: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(high card, natural ranks) of every straight shape: the ranks of a window the hand holds,
        at least ``least`` of them (the jokers fill the rest), each counted in its lowest window."""
        least = max(least, 5 - self.jokers)
        for high, window in _WINDOWS:
            held = [r for r in window if r in available]
            if len(held) < least:
                continue
            for n in range(least, len(held) + 1):
                for ranks in combinations(held, n):
                    if high == 5 or high in ranks:
                        yield high, ranks

    def straight_flushes(self) -> list[Play]:
        level = self.level
        plays = []
        for suit_cards in self.by_suit:
            for high, ranks in self._runs(suit_cards, 2):
                naturals = tuple(suit_cards[r][0] for r in sorted(ranks))
                for jokers in self.joker_sets[5 - len(ranks)]:
                    plays.append(
                        Play(_STRAIGHT_FLUSH, naturals + jokers, _RANKS[high], (high,), level)
                    )
        return plays

    def straights(self) -> list[Play]:
        """Mixed-suit straights: three natural ranks or more (two and three jokers make a four)."""
        level = self.level
        plays = []
        suits = self.suits
        for high, ranks in self._runs(suits, 3):
            mask = 0
            for r in ranks:
                mask |= suits[r]
            if mask & (mask - 1) == 0:
                continue  # all cards of these ranks are of one suit: a straight flush
            naturals = _mixed([self.by_rank[r] for r in sorted(ranks)])
            for jokers in self.joker_sets[5 - len(ranks)]:
                plays.append(Play(_STRAIGHT, naturals + jokers, _RANKS[high], (high,), level))
        return plays

    def fours(self) -> list[Play]:
        level = self.level
        plays = []
        by_rank = self.by_rank
        ranks = self.ranks
        for x in ranks:
            xs = by_rank[x]
            key = (power(x, level),)
            for a in range(min(4, len(xs)), 1, -1):
                joker_sets = self.joker_sets[4 - a]
                if not joker_sets:
                    continue
                for y in ranks:
                    if y == x:
                        continue
                    naturals = (
                        tuple(xs[:a]) + (by_rank[y][0],)
                        if x < y
                        else (by_rank[y][0],) + tuple(xs[:a])
                    )
                    for jokers in joker_sets:
                        plays.append(Play(_FOUR, naturals + jokers, _RANKS[x], key, level))
        # one card each of two ranks and three jokers: the lower rank is the four
        joker_sets = self.joker_sets[3]
        if joker_sets:
            for x, y in combinations(ranks, 2):
                if straight_high((x, y)):
                    # a straight flush when both are of one suit: the four needs two suits
                    if (self.suits[x] | self.suits[y]) & ((self.suits[x] | self.suits[y]) - 1) == 0:
                        continue
                    naturals = _mixed([by_rank[x], by_rank[y]])
                else:
                    naturals = (by_rank[x][0], by_rank[y][0])
                px, py = power(x, level), power(y, level)
                four = x if px < py else y
                key = (min(px, py),)
                for jokers in joker_sets:
                    plays.append(Play(_FOUR, naturals + jokers, _RANKS[four], key, level))
        return plays

    def full_houses(self) -> list[Play]:
        level = self.level
        plays = []
        by_rank = self.by_rank
        ranks = self.ranks
        for x in ranks:
            xs = by_rank[x]
            if len(xs) < 3:
                continue
            key = (power(x, level),)
            for y in ranks:
                ys = by_rank[y]
                if y == x or len(ys) < 2:
                    continue
                naturals = tuple(xs[:3]) + tuple(ys[:2]) if x < y else tuple(ys[:2]) + tuple(xs[:3])
                plays.append(Play(_FULL_HOUSE, naturals, _RANKS[x], key, level))
        # two pairs and a joker: the lower pair is the triple
        joker_sets = self.joker_sets[1]
        if joker_sets:
            pairs = [r for r in ranks if len(by_rank[r]) >= 2]
            for x, y in combinations(pairs, 2):
                px, py = power(x, level), power(y, level)
                triple = x if px < py else y
                key = (min(px, py),)
                naturals = tuple(by_rank[x][:2]) + tuple(by_rank[y][:2])
                for jokers in joker_sets:
                    plays.append(Play(_FULL_HOUSE, naturals + jokers, _RANKS[triple], key, level))
        return plays

    def flushes(self) -> list[Play]:
        """Five cards of one suit with three or more natural ranks that are not a straight flush."""
        level = self.level
        low = flush_joker_power(level)
        plays = []
        for suit_cards in self.by_suit:
            if len(suit_cards) < 3:
                continue
            cards = [c for r in sorted(suit_cards) for c in suit_cards[r]]  # in code order
            repeats = len(cards) > len(suit_cards)
            for j in range(min(2, self.jokers) + 1):
                joker_sets = self.joker_sets[j]
                seen: set[tuple[Card, ...]] = set()
                for naturals in combinations(cards, 5 - j):
                    ranks = tuple([c.rank for c in naturals])
                    if repeats:
                        if naturals in seen:
                            continue
                        seen.add(naturals)
                        if len(set(ranks)) < 3:
                            continue  # two ranks: a four or a full house
                    if straight_high(ranks):
                        continue  # a straight flush
                    powers = [LEVEL_POWER if r == level else int(r) for r in ranks]
                    powers.sort(reverse=True)
                    top = _RANKS[level if powers[0] == LEVEL_POWER else powers[0]]
                    key = (*powers, *(low,) * j)
                    for jokers in joker_sets:
                        plays.append(Play(_FLUSH, naturals + jokers, top, key, level))
        return plays


def _code(card: Card) -> int:
    return card.code


def _mixed(groups: list[list[Card]]) -> tuple[Card, ...]:
    """One card of each group (in rank order), not all of one suit; the caller checks it can be."""
    picks = [g[0] for g in groups]
    first = picks[0].suit
    if all(c.suit == first for c in picks):
        for i, group in enumerate(groups):
            other = next((c for c in group if c.suit != first), None)
            if other is not None:
                picks[i] = other
                break
    return tuple(picks)
