"""Plays of 上海斗地主: the nine types, how cards are classified and which play beats which.

Contract: ``docs/shanghai_doudizhu.md``, sections *Cards and ranks*, *Plays* and *Comparison*.
Two decks, jokers not wild. The single order is BJ > SJ > 2 > A > K > ... > 3; every sequence
type lies on the chain A 2 3 .. K A (positions 1..14, A at both ends, no wrap-around).

>>> Play.parse("3H 4H 5S 6D 7C")
Play.parse('3H 4H 5S 6D 7C')
>>> p = Play.parse("AS 2S 3S 4S 5S")
>>> p.type.value, p.key_token
('straight', '5')
>>> Play.parse("7S 7H 7D 7C").beats(Play.parse("SJ SJ"))
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import Card, Rank, format_cards, parse_cards
from engine.errors import InvalidPlayError

__all__ = [
    "JOKER_BOMB_SIZE",
    "Play",
    "PlayType",
    "bomb_class",
    "card_power",
    "chain_rank",
    "classify",
    "classify_counts",
    "power",
    "sort_key",
]


class PlayType(enum.Enum):
    """The nine kinds of play (牌型)."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    TRIPLE_PAIR = "triple_pair"
    STRAIGHT = "straight"
    PAIR_STRAIGHT = "pair_straight"
    TRIPLE_STRAIGHT = "triple_straight"
    AIRPLANE = "airplane"
    BOMB = "bomb"

    @property
    def chinese(self) -> str:
        """The type's Chinese name (单牌, 对牌, 三条, 三带二, 顺子, 双顺, 3顺, 飞机带翅膀, 炸弹)."""
        return _CHINESE[self]

    @property
    def english(self) -> str:
        """The type's English name for people (``triple pair``)."""
        return self.value.replace("_", " ")

    @property
    def is_sequence(self) -> bool:
        """Whether the type lies on the chain (its key is a chain position)."""
        return self in _SEQUENCES


_CHINESE = {
    PlayType.SINGLE: "单牌",
    PlayType.PAIR: "对牌",
    PlayType.TRIPLE: "三条",
    PlayType.TRIPLE_PAIR: "三带二",
    PlayType.STRAIGHT: "顺子",
    PlayType.PAIR_STRAIGHT: "双顺",
    PlayType.TRIPLE_STRAIGHT: "3顺",
    PlayType.AIRPLANE: "飞机带翅膀",
    PlayType.BOMB: "炸弹",
}
_SEQUENCES = frozenset(
    {PlayType.STRAIGHT, PlayType.PAIR_STRAIGHT, PlayType.TRIPLE_STRAIGHT, PlayType.AIRPLANE}
)

#: The four jokers (类1) compare as a bomb of this many "cards": above every other bomb.
JOKER_BOMB_SIZE = 99

# Single order: 3..K = 3..13, A = 14, 2 = 15, SJ = 16, BJ = 17.
_POWER: tuple[int, ...] = (0, 0, 15, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17)
# Chain positions of a rank: A is 1 (low) and 14 (high); 2 is 2; 3..K are 3..13.
_CHAIN_RANK: tuple[Rank, ...] = (
    Rank.ACE,  # 0: unused
    Rank.ACE,
    Rank.TWO,
    *(Rank(r) for r in range(3, 14)),
    Rank.ACE,
)
_LOW_POSITION: dict[int, int] = {int(Rank.ACE): 1, int(Rank.TWO): 2}
_LOW_POSITION.update({r: r for r in range(3, 14)})
_NATURALS = 13


def power(rank: int) -> int:
    """The rank's place in the single order: 3..13 for 3..K, A 14, 2 15, SJ 16, BJ 17.

    >>> power(Rank.TWO) > power(Rank.ACE), power(Rank.BIG_JOKER) > power(Rank.SMALL_JOKER)
    (True, True)
    """
    return _POWER[rank]


def card_power(card: Card) -> tuple[int, int]:
    """Sort key of a card: single order, then suit (S H D C) for display and system leads."""
    return (_POWER[card.rank], -(card.suit or 0))


def chain_rank(position: int) -> Rank:
    """The rank on chain position 1..14 (1 and 14 are both A)."""
    return _CHAIN_RANK[position]


def bomb_class(size: int, jokers: bool = False) -> int:
    """The bomb class: 1 for the four jokers, 2..6 for 8, 7, 6, 5, 4 of a rank."""
    return 1 if jokers else 10 - size


@dataclass(frozen=True, slots=True)
class Play:
    """A classified play: its type, the cards (sorted), and the key it compares by.

    ``key`` is the single-order power of the rank for single, pair, triple, 三带二 and bombs (0
    for the four jokers), the chain position of the top of the run for sequence types and the
    top of the triple run for airplanes. ``length`` is the number of chain positions of a run (1
    otherwise).
    """

    type: PlayType
    cards: tuple[Card, ...]
    key: int
    key_rank: Rank | None
    length: int = 1

    @classmethod
    def parse(cls, text: str) -> Play:
        """Classify the cards written in ``text``; raises :class:`InvalidPlayError` if no play."""
        play = classify(parse_cards(text))
        if play is None:
            raise InvalidPlayError(f"{text.strip()!r} is not a play")
        return play

    @property
    def size(self) -> int:
        """How many cards the play has."""
        return len(self.cards)

    @property
    def is_bomb(self) -> bool:
        """Whether the play is a bomb (类1..6)."""
        return self.type is PlayType.BOMB

    @property
    def bomb_class(self) -> int:
        """The bomb class 1..6 (0 when not a bomb)."""
        if self.type is not PlayType.BOMB:
            return 0
        return bomb_class(self.size, self.key_rank is None)

    @property
    def key_token(self) -> str | None:
        """The rank token the play compares by (``None`` for the four jokers)."""
        return None if self.key_rank is None else self.key_rank.token

    @property
    def bomb_strength(self) -> tuple[int, int]:
        """How bombs compare: (size, power); the four jokers above every other bomb."""
        if self.key_rank is None:
            return (JOKER_BOMB_SIZE, 0)
        return (self.size, self.key)

    def beats(self, other: Play) -> bool:
        """Whether this play may be played on ``other`` (压牌).

        A bomb beats every non-bomb; bomb on bomb compares class 1 first, then size, then rank;
        otherwise same type, same number of cards and a strictly higher key.
        """
        if self.type is PlayType.BOMB:
            if other.type is not PlayType.BOMB:
                return True
            return self.bomb_strength > other.bomb_strength
        if other.type is PlayType.BOMB:
            return False
        return self.type is other.type and self.size == other.size and self.key > other.key

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


def _run_top(ranks: Iterable[int]) -> tuple[int, int] | None:
    """(top position, length) when the natural ``ranks`` (distinct) form one run on the chain.

    A reads as 14 when that makes a run (so 13 ranks A..K read as 2..A), else as 1.
    """
    positions = sorted(_LOW_POSITION[r] for r in ranks)
    n = len(positions)
    low_read = positions[-1] if positions[-1] - positions[0] == n - 1 else 0
    if positions[0] == 1:  # an ace: try it on top
        high = sorted([*positions[1:], 14])
        if high[-1] - high[0] == n - 1:
            return (14, n)
    if low_read:
        return (low_read, n)
    return None


def classify_counts(counts: dict[int, int]) -> tuple[PlayType, int, Rank | None, int] | None:
    """(type, key, key rank, run length) for a multiset of ranks (rank -> count), or ``None``."""
    items = [(r, c) for r, c in counts.items() if c > 0]
    if not items:
        return None
    if len(items) == 1:
        rank, c = items[0]
        if c == 1:
            return (PlayType.SINGLE, _POWER[rank], Rank(rank), 1)
        if c == 2:
            return (PlayType.PAIR, _POWER[rank], Rank(rank), 1)
        if c == 3:
            return (PlayType.TRIPLE, _POWER[rank], Rank(rank), 1)
        if 4 <= c <= 8 and rank < Rank.SMALL_JOKER:
            return (PlayType.BOMB, _POWER[rank], Rank(rank), 1)
        return None
    jokers = [r for r, _ in items if r >= Rank.SMALL_JOKER]
    if jokers:
        if len(items) == 2 and len(jokers) == 2 and all(c == 2 for _, c in items):
            return (PlayType.BOMB, 0, None, 1)  # 类1: SJ SJ BJ BJ
        if len(items) == 2:
            (r1, c1), (r2, c2) = items
            if {c1, c2} == {3, 2}:
                triple = r1 if c1 == 3 else r2
                if triple < Rank.SMALL_JOKER:
                    return (PlayType.TRIPLE_PAIR, _POWER[triple], Rank(triple), 1)
        return None
    values = {c for _, c in items}
    if len(values) == 1:
        c = values.pop()
        ranks = [r for r, _ in items]
        run = _run_top(ranks)
        if run is not None:
            top, n = run
            if c == 1 and n >= 5:
                return (PlayType.STRAIGHT, top, _CHAIN_RANK[top], n)
            if c == 2 and n >= 3:
                return (PlayType.PAIR_STRAIGHT, top, _CHAIN_RANK[top], n)
            if c == 3 and n >= 2:
                return (PlayType.TRIPLE_STRAIGHT, top, _CHAIN_RANK[top], n)
        return None
    if len(items) == _NATURALS and values <= {1, 2, 3, 6, 4}:
        # the whole chain A..K..A: the A group appears twice
        ace = counts.get(int(Rank.ACE), 0)
        others = {c for r, c in items if r != Rank.ACE}
        if len(others) == 1:
            c = others.pop()
            if ace == 2 * c:
                kind = {
                    1: PlayType.STRAIGHT,
                    2: PlayType.PAIR_STRAIGHT,
                    3: PlayType.TRIPLE_STRAIGHT,
                }
                return (kind[c], 14, Rank.ACE, 14)
        return None
    if values == {3, 2}:
        triples = [r for r, c in items if c == 3]
        pairs = [r for r, c in items if c == 2]
        if len(triples) == len(pairs) == 1:
            return (PlayType.TRIPLE_PAIR, _POWER[triples[0]], Rank(triples[0]), 1)
        if len(triples) == len(pairs) >= 2:
            trun = _run_top(triples)
            prun = _run_top(pairs)
            if trun is not None and prun is not None:
                top, n = trun
                return (PlayType.AIRPLANE, top, _CHAIN_RANK[top], n)
    return None


def classify(cards: Sequence[Card]) -> Play | None:
    """The play ``cards`` make, or ``None`` (the order of the cards does not matter).

    >>> classify(parse_cards("3H 3S 3D 4H 4S 4D 6C 6C 7H 7H")).type.value
    'airplane'
    >>> classify(parse_cards("SJ BJ")) is None
    True
    """
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    found = classify_counts(counts)
    if found is None:
        return None
    kind, key, key_rank, length = found
    return Play(kind, tuple(sorted(cards, key=sort_key)), key, key_rank, length)


def sort_key(card: Card) -> tuple[int, int]:
    """The order of a play's cards: single order, then suit (S H D C)."""
    return (_POWER[card.rank], card.suit or 0)
