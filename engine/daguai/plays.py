"""Plays of 大怪路子: what cards make (with wild jokers) and which play beats which.

Contract: ``shared/rules/daguai.md``, sections *Levels*, *Plays* and *Jokers are wild*.
Every play is classified at a level rank (级牌), which changes the single-card order:
BJ > SJ > level rank > A > K > ... > 2.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from operator import attrgetter

from engine.cards import BIG_JOKER, Card, Rank, format_cards, parse_cards, parse_rank
from engine.errors import InvalidNotationError, InvalidPlayError

__all__ = [
    "LEVELS",
    "Play",
    "PlayType",
    "classify",
    "hand_sort_key",
    "parse_level",
    "power",
]

#: The level ladder: 2, 3, ..., K, A.
LEVELS: tuple[Rank, ...] = tuple(Rank(r) for r in range(2, 15))

#: Power of the level rank in the single-card order (between A = 14 and SJ).
LEVEL_POWER = 15
SJ_POWER = 16
BJ_POWER = 17


class PlayType(enum.Enum):
    """The nine kinds of play; ``size`` cards each, five-card kinds ordered by ``strength``."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_WITH_ONE = "four_with_one"
    STRAIGHT_FLUSH = "straight_flush"
    FIVE_OF_A_KIND = "five_of_a_kind"

    @property
    def size(self) -> int:
        """How many cards a play of this type has."""
        return _SIZE[self]

    @property
    def strength(self) -> int:
        """Order among the five-card types (straight 1 .. five_of_a_kind 6); 0 for the others."""
        return _STRENGTH[self]

    @property
    def chinese(self) -> str:
        """The type's Chinese name (单张, 对牌, 三张, 杂顺, 同花, 三带两, 四带一, 同花顺, 五同)."""
        return _CHINESE[self]

    @property
    def english(self) -> str:
        """The type's English name for people (``four with one``)."""
        return self.value.replace("_", " ")


_SIZE = {t: (1 if t is PlayType.SINGLE else 2 if t is PlayType.PAIR else 3) for t in PlayType}
_SIZE.update({t: 5 for t in PlayType if t not in (PlayType.SINGLE, PlayType.PAIR, PlayType.TRIPLE)})
_STRENGTH = {
    PlayType.SINGLE: 0,
    PlayType.PAIR: 0,
    PlayType.TRIPLE: 0,
    PlayType.STRAIGHT: 1,
    PlayType.FLUSH: 2,
    PlayType.FULL_HOUSE: 3,
    PlayType.FOUR_WITH_ONE: 4,
    PlayType.STRAIGHT_FLUSH: 5,
    PlayType.FIVE_OF_A_KIND: 6,
}
_CHINESE = {
    PlayType.SINGLE: "单张",
    PlayType.PAIR: "对牌",
    PlayType.TRIPLE: "三张",
    PlayType.STRAIGHT: "杂顺",
    PlayType.FLUSH: "同花",
    PlayType.FULL_HOUSE: "三带两",
    PlayType.FOUR_WITH_ONE: "四带一",
    PlayType.STRAIGHT_FLUSH: "同花顺",
    PlayType.FIVE_OF_A_KIND: "五同",
}
_CODE = attrgetter("code")
_RANKS: tuple[Rank, ...] = tuple(Rank(max(r, 2)) for r in range(17))
_OF_A_KIND = {1: PlayType.SINGLE, 2: PlayType.PAIR, 3: PlayType.TRIPLE, 5: PlayType.FIVE_OF_A_KIND}


def power(rank: int, level: int) -> int:
    """The rank's place in the single-card order: 2..14 natural, 15 the level, 16 SJ, 17 BJ.

    >>> power(Rank.ACE, Rank.TWO), power(Rank.TWO, Rank.TWO), power(Rank.BIG_JOKER, Rank.TWO)
    (14, 15, 17)
    """
    if rank >= Rank.SMALL_JOKER:
        return int(rank) + 1
    return LEVEL_POWER if rank == level else int(rank)


def hand_sort_key(card: Card, level: int) -> tuple[int, int]:
    """Sort key for showing a hand in single-card order (``reverse=True`` for high first)."""
    return (power(card.rank, level), -(card.suit or 0))


def flush_joker_power(level: int) -> int:
    """What a joker counts as in a flush: the lowest rank of the single-card order **[decided]**."""
    return 3 if level == Rank.TWO else 2


def parse_level(token: str) -> Rank:
    """Read a level rank (2 .. A); raises :class:`InvalidNotationError` for anything else."""
    try:
        rank = parse_rank(token)
    except InvalidNotationError:
        raise InvalidNotationError(
            f"unknown level {token.strip()!r} (use 2..10, J, Q, K or A)"
        ) from None
    if rank.is_joker:
        raise InvalidNotationError(
            f"a joker is no level: {token.strip()!r} (use 2..10, J, Q, K or A)"
        )
    return rank


#: The lowest straight window holding some distinct natural ranks (sorted, A as 14): its high card.
_STRAIGHT_HIGH: dict[tuple[int, ...], int] = {}
for _high in range(5, 15):
    _window = (14, 2, 3, 4, 5) if _high == 5 else tuple(range(_high - 4, _high + 1))
    for _n in range(1, 6):
        for _ranks in combinations(_window, _n):
            _STRAIGHT_HIGH.setdefault(tuple(sorted(_ranks)), _high)


def straight_high(ranks: Iterable[int]) -> int:
    """The high card of the lowest straight window that holds these distinct natural ranks, or 0.

    A is low in A2345 (high card 5) and high in 10JQKA (high card 14); no wrap-around.

    >>> [straight_high(r) for r in ([3, 4, 5, 6], [14, 3], [14, 10], [12, 2])]
    [6, 5, 14, 0]
    """
    return _STRAIGHT_HIGH.get(tuple(sorted(ranks)), 0)


@dataclass(frozen=True, slots=True)
class Play:
    """A classified play: its type, the cards, the rank it is compared by, and the level.

    ``key`` orders plays of the same type (higher beats lower); use :meth:`beats` to compare.

    >>> str(Play.parse("3H 4S 5H 6H BJ").rank)
    '6'
    """

    type: PlayType
    cards: tuple[Card, ...]
    rank: Rank
    key: tuple[int, ...]
    level: Rank

    @classmethod
    def parse(cls, text: str, level: Rank | str = Rank.TWO) -> Play:
        """Read cards and classify them; raises :class:`InvalidPlayError` when they make no play.

        >>> Play.parse("3H 3S 3D BJ 4C")
        Play.parse('3S 3H 3D 4C BJ', level='2')
        >>> Play.parse("3H 3S 3D BJ 4C").type
        <PlayType.FOUR_WITH_ONE: 'four_with_one'>
        """
        lvl = parse_level(level) if isinstance(level, str) else level
        cards = parse_cards(text)
        play = classify(cards, lvl)
        if play is None:
            raise InvalidPlayError(f"{format_cards(cards)!r} is not a play")
        return play

    def beats(self, other: Play) -> bool:
        """Whether this play may be played on ``other``: same card count and strictly higher."""
        if len(self.cards) != len(other.cards):
            return False
        if self.type is not other.type:
            return self.type.strength > other.type.strength
        return self.key > other.key

    @property
    def jokers(self) -> int:
        """How many jokers the play spends."""
        return sum(1 for c in self.cards if c.suit is None)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r}, level={self.level.token!r})"


def _make(
    kind: PlayType, cards: Sequence[Card], rank: int, key: tuple[int, ...], level: Rank
) -> Play:
    return Play(kind, tuple(sorted(cards, key=_CODE)), _RANKS[rank], key, level)


def classify(cards: Sequence[Card], level: Rank) -> Play | None:
    """The play these cards make at ``level``, or ``None`` when they make none.

    Jokers are wild in plays of 2, 3 and 5 cards: the highest type is taken, and within it the
    jokers count as the lowest cards that make it (3 4 5 6 BJ is the straight 2-6).
    """
    n = len(cards)
    if n == 1:
        card = cards[0]
        return Play(PlayType.SINGLE, (card,), card.rank, (power(card.rank, level),), level)
    if n != 2 and n != 3 and n != 5:
        return None
    counts: dict[Rank, int] = {}
    suits = set()
    for c in cards:
        if c.suit is not None:
            counts[c.rank] = counts.get(c.rank, 0) + 1
            suits.add(c.suit)
    if not counts:
        # All jokers: all BJ are BJs, otherwise they all count as SJ.
        rank = Rank.BIG_JOKER if all(c == BIG_JOKER for c in cards) else Rank.SMALL_JOKER
        return _make(_OF_A_KIND[n], cards, rank, (power(rank, level),), level)
    if len(counts) == 1:
        rank = next(iter(counts))
        return _make(_OF_A_KIND[n], cards, rank, (power(rank, level),), level)
    if n != 5:
        return None
    return _classify_five(cards, counts, len(suits) == 1, level)


def _classify_five(
    cards: Sequence[Card], counts: dict[Rank, int], one_suit: bool, level: Rank
) -> Play | None:
    naturals = sum(counts.values())
    high = _STRAIGHT_HIGH.get(tuple(sorted(counts)), 0) if len(counts) == naturals else 0
    if high and one_suit:
        return _make(PlayType.STRAIGHT_FLUSH, cards, high, (high,), level)
    if len(counts) == 2:
        (x, cx), (y, cy) = counts.items()
        px = LEVEL_POWER if x == level else int(x)
        py = LEVEL_POWER if y == level else int(y)
        if px > py:
            x, cx, px, y, cy, py = y, cy, py, x, cx, px
        # Among several readings the jokers go lowest: try the lower rank first.
        if cy == 1:  # a four needs the other rank once
            return _make(PlayType.FOUR_WITH_ONE, cards, x, (px,), level)
        if cx == 1:
            return _make(PlayType.FOUR_WITH_ONE, cards, y, (py,), level)
        if cx <= 3 and cy <= 2:
            return _make(PlayType.FULL_HOUSE, cards, x, (px,), level)
        return _make(PlayType.FULL_HOUSE, cards, y, (py,), level)
    if one_suit:
        powers = [
            LEVEL_POWER if c.rank == level else int(c.rank) for c in cards if c.suit is not None
        ]
        powers.sort(reverse=True)
        if naturals < 5:
            powers += [flush_joker_power(level)] * (5 - naturals)
        key = tuple(powers)
        top = level if powers[0] == LEVEL_POWER else powers[0]
        return _make(PlayType.FLUSH, cards, top, key, level)
    if high:
        return _make(PlayType.STRAIGHT, cards, high, (high,), level)
    return None
