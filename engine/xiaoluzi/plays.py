"""The 32-card pack of 小路子, its notation, plays with wild jokers (百搭), and every legal play.

Contract: ``docs/xiaoluzi.md``, sections *Cards and ranks* and *Plays*. Only 1, 2, 3 or 4 cards
make a play; the natural cards of a pair, triple or four share one rank and jokers joining them
take that rank; BJ SJ together is the highest pair (its rank is written ``SJ``).

>>> Play.parse("9S BJ")
Play.parse('9S BJ')
>>> str(Play.parse("9S BJ").rank), Play.parse("BJ SJ").beats(Play.parse("AS AH"))
('9', True)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from operator import attrgetter

from engine.cards import BIG_JOKER, SMALL_JOKER, Card, Rank, Suit, format_cards, parse_cards
from engine.errors import InvalidNotationError, InvalidPlayError

__all__ = [
    "PACK",
    "Play",
    "PlayType",
    "classify",
    "legal_plays",
    "parse_hand",
    "sort_cards",
]

#: The 32 cards: 7H 7D, 8 .. A of every suit, SJ and BJ (in card-code order).
PACK: tuple[Card, ...] = tuple(
    sorted(
        [Card(Rank.SEVEN, Suit.HEARTS), Card(Rank.SEVEN, Suit.DIAMONDS)]
        + [Card(Rank(r), s) for r in range(8, 15) for s in Suit]
        + [SMALL_JOKER, BIG_JOKER]
    )
)
_IN_PACK = frozenset(PACK)
SEVEN_OF_HEARTS = Card(Rank.SEVEN, Suit.HEARTS)


class PlayType(enum.Enum):
    """The four kinds of play, named by how many cards they have."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FOUR = "four"

    @property
    def size(self) -> int:
        """How many cards a play of this type has."""
        return _SIZE[self]

    @property
    def chinese(self) -> str:
        """The type's Chinese name (單張, 對子, 三張, 四張 in simplified characters)."""
        return _CHINESE[self]


_SIZE = {PlayType.SINGLE: 1, PlayType.PAIR: 2, PlayType.TRIPLE: 3, PlayType.FOUR: 4}
_BY_SIZE = {n: t for t, n in _SIZE.items()}
_CHINESE = {
    PlayType.SINGLE: "单张",
    PlayType.PAIR: "对子",
    PlayType.TRIPLE: "三张",
    PlayType.FOUR: "四张",
}


#: Sort key of the single-card order, low first; among equal ranks S, H, D, C (the card code).
sort_key: Callable[[Card], int] = attrgetter("code")


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """The cards in single-card order, low first (7H .. A, SJ, BJ)."""
    return sorted(cards, key=sort_key)


def parse_hand(text: str) -> list[Card]:
    """Read cards of this pack; raises :class:`InvalidNotationError` for a card outside the
    pack (7S, 7C, any 2-6) or a card given twice (aliases such as BJ, 大王, 大怪 are one card).

    >>> parse_hand("10h ♠A 大王")
    [Card.parse('10H'), Card.parse('AS'), Card.parse('BJ')]
    >>> parse_hand("7S")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidNotationError: 7S is not a card of the 小路子 pack (no 2-6, no 7S 7C): '7S'
    """
    cards = parse_cards(text)
    check_cards(cards, text)
    return cards


def check_cards(cards: Sequence[Card], text: str = "") -> None:
    """Raise :class:`InvalidNotationError` when a card is outside the pack or given twice."""
    where = text.strip() if text else format_cards(cards)
    seen: set[Card] = set()
    for card in cards:
        if card not in _IN_PACK:
            raise InvalidNotationError(
                f"{card} is not a card of the 小路子 pack (no 2-6, no 7S 7C): {where!r}"
            )
        if card in seen:
            raise InvalidNotationError(f"{card} is given twice (the pack has one): {where!r}")
        seen.add(card)


@dataclass(frozen=True, slots=True)
class Play:
    """A classified play: its type, its cards (single-card order) and the rank it compares by.

    >>> Play.parse("QS SJ BJ").type, str(Play.parse("QS SJ BJ").rank)
    (<PlayType.TRIPLE: 'triple'>, 'Q')
    """

    type: PlayType
    cards: tuple[Card, ...]
    rank: Rank

    @classmethod
    def parse(cls, text: str, *, joker_sevens: bool = True) -> Play:
        """Read cards and classify them; raises :class:`InvalidNotationError` for bad cards and
        :class:`InvalidPlayError` when they make no play."""
        cards = parse_hand(text)
        play = classify(cards, joker_sevens=joker_sevens)
        if play is None:
            raise InvalidPlayError(f"{format_cards(cards)!r} is not a play")
        return play

    def beats(self, other: Play) -> bool:
        """Whether this play may be played on ``other``: same card count, strictly higher rank."""
        return self.type is other.type and self.rank > other.rank

    @property
    def jokers(self) -> int:
        """How many jokers the play holds."""
        return sum(1 for c in self.cards if c.suit is None)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


def _make(cards: Sequence[Card], rank: Rank) -> Play:
    return Play(_BY_SIZE[len(cards)], tuple(sorted(cards, key=sort_key)), rank)


def classify(cards: Sequence[Card], *, joker_sevens: bool = True) -> Play | None:
    """The play these cards make, or ``None`` when they make none.

    >>> [str(p.rank) if (p := classify(parse_cards(t))) else None for t in ("BJ SJ", "9S 8D BJ")]
    ['SJ', None]
    """
    n = len(cards)
    if n == 1:
        return Play(PlayType.SINGLE, (cards[0],), cards[0].rank)
    if not 2 <= n <= 4:
        return None
    rank: Rank | None = None
    jokers = 0
    for card in cards:
        if card.suit is None:
            jokers += 1
        elif rank is None:
            rank = card.rank
        elif card.rank != rank:
            return None
    if rank is None:
        # jokers only: the joker pair BJ SJ (one pack: no BJ BJ, no three jokers)
        if n == 2 and cards[0] != cards[1]:
            return _make(cards, Rank.SMALL_JOKER)
        return None
    if jokers > 2:
        return None
    if rank == Rank.SEVEN and n >= 3 and not joker_sevens:
        return None
    return _make(cards, rank)


def legal_plays(
    hand: Iterable[Card], over: Play | None = None, *, joker_sevens: bool = True
) -> list[Play]:
    """Every distinct play of ``hand`` (each set of cards once), to lead or to beat ``over``.

    Ordered by size, then rank, then fewer jokers.

    >>> [str(p) for p in legal_plays(parse_cards("8S 8H BJ"), Play.parse("7H 7D"))]
    ['8S 8H', '8S BJ', '8H BJ']
    """
    naturals: dict[Rank, list[Card]] = {}
    jokers: list[Card] = []
    for card in sort_cards(hand):
        if card.suit is None:
            jokers.append(card)
        else:
            naturals.setdefault(card.rank, []).append(card)
    if over is None:
        sizes: Sequence[int] = (1, 2, 3, 4)
        floor = 0
    else:
        sizes = (len(over.cards),)
        floor = over.rank
    joker_sets: list[list[tuple[Card, ...]]] = [
        list(combinations(jokers, j)) for j in range(min(len(jokers), 2) + 1)
    ]
    plays: list[Play] = []
    for size in sizes:
        ptype = _BY_SIZE[size]
        if size == 1:
            plays += [
                Play(ptype, (c,), c.rank) for cs in naturals.values() for c in cs if c.rank > floor
            ]
            plays += [Play(ptype, (j,), j.rank) for j in jokers if j.rank > floor]
            continue
        for rank, cards in naturals.items():
            if rank <= floor:
                continue
            if rank == Rank.SEVEN and size >= 3 and not joker_sevens:
                continue
            for j in range(min(len(jokers), size - 1), -1, -1):
                m = size - j
                if m > len(cards):
                    break
                for nat in combinations(cards, m):
                    for jok in joker_sets[j]:
                        plays.append(Play(ptype, nat + jok, rank))
        if size == 2 and len(jokers) == 2 and floor < Rank.SMALL_JOKER:
            plays.append(Play(ptype, (jokers[0], jokers[1]), Rank.SMALL_JOKER))
    plays.sort(key=lambda p: (len(p.cards), p.rank, p.jokers))
    return plays


def play_of(cards: Sequence[Card], *, joker_sevens: bool = True) -> Play:
    """The play ``cards`` make; raises :class:`InvalidPlayError` when none."""
    play = classify(cards, joker_sevens=joker_sevens)
    if play is None:
        raise InvalidPlayError(f"{format_cards(cards)!r} is not a play")
    return play


__all__ += ["SEVEN_OF_HEARTS", "check_cards", "play_of", "sort_key"]
