"""Cards, suits and ranks shared by every game of the engine.

The model is the standard French pack with two jokers; a game chooses how many
decks to use and what the ranks mean (see :mod:`engine.daguai.plays` for the
single-card order of 大怪路子).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.errors import InvalidNotationError

__all__ = [
    "Card",
    "Rank",
    "Suit",
    "BIG_JOKER",
    "SMALL_JOKER",
    "format_cards",
    "pack",
    "parse_cards",
    "parse_rank",
]


class Suit(enum.IntEnum):
    """The four suits; suits never rank in 大怪路子, the order is only for display."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The suit's letter: ``S``, ``H``, ``D`` or ``C``."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♠``, ``♥``, ``♦`` or ``♣``."""
        return "♠♥♦♣"[self]


class Rank(enum.IntEnum):
    """Ranks in their natural order, A high; the jokers above every natural rank."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    SMALL_JOKER = 15
    BIG_JOKER = 16

    @property
    def token(self) -> str:
        """The rank's token: ``2`` .. ``10``, ``J``, ``Q``, ``K``, ``A``, ``SJ``, ``BJ``."""
        return _RANK_TOKENS[self]

    @property
    def is_joker(self) -> bool:
        """Whether this is one of the two joker ranks."""
        return self >= Rank.SMALL_JOKER

    def __str__(self) -> str:
        return _RANK_TOKENS[self]


_RANK_TOKENS: dict[int, str] = {
    **{r: str(r) for r in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
    15: "SJ",
    16: "BJ",
}
_RANK_BY_TOKEN: dict[str, Rank] = {token: Rank(value) for value, token in _RANK_TOKENS.items()}
_RANK_BY_TOKEN["T"] = Rank.TEN
_NATURAL_RANK_BY_TOKEN = {t: r for t, r in _RANK_BY_TOKEN.items() if not r.is_joker}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: a natural rank with a suit, or a joker (``suit`` is ``None``).

    >>> Card.parse("10H")
    Card.parse('10H')
    >>> str(Card.parse("♥T"))
    '10H'
    """

    rank: Rank
    suit: Suit | None
    code: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank.is_joker:
            if self.suit is not None:
                raise InvalidNotationError(
                    f"a joker has no suit: {self.rank.token}{self.suit.letter}"
                )
            code = 52 + self.rank - Rank.SMALL_JOKER
        else:
            if self.suit is None:
                raise InvalidNotationError(f"a natural card needs a suit: {self.rank.token}")
            code = (self.rank - 2) * 4 + self.suit
        object.__setattr__(self, "code", code)

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card token (``10H``, ``TH``, ``♥10``, ``SJ``, ``BJ``, ``小怪``, ``大怪``).

        Raises :class:`InvalidNotationError` naming the token when it is not a card.
        """
        card = _CARD_BY_TOKEN.get(token.strip().upper())
        if card is None:
            raise InvalidNotationError.of("cards.unknown_token", token=token.strip())
        return card

    @property
    def is_joker(self) -> bool:
        """Whether the card is 小怪 (SJ) or 大怪 (BJ)."""
        return self.suit is None

    def __str__(self) -> str:
        if self.suit is None:
            return self.rank.token
        return self.rank.token + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.code == other.code
        return NotImplemented

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __hash__(self) -> int:
        return self.code


#: Every kind of card, indexed by :attr:`Card.code` (52 naturals, then SJ, BJ).
CARDS: tuple[Card, ...] = tuple(
    [Card(Rank(r), Suit(s)) for r in range(2, 15) for s in range(4)]
    + [Card(Rank.SMALL_JOKER, None), Card(Rank.BIG_JOKER, None)]
)
SMALL_JOKER = CARDS[52]
BIG_JOKER = CARDS[53]

_SUIT_BY_TOKEN = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
_SUIT_BY_TOKEN.update({s.symbol: s for s in Suit})
_SUIT_BY_TOKEN.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})

_CARD_BY_TOKEN: dict[str, Card] = {}
for _card in CARDS[:52]:
    assert _card.suit is not None
    for _rt, _r in _NATURAL_RANK_BY_TOKEN.items():
        if _r != _card.rank:
            continue
        for _st, _s in _SUIT_BY_TOKEN.items():
            if _s == _card.suit:
                _CARD_BY_TOKEN[_rt + _st] = _card
                if not _st.isascii():  # symbol first (♥10); letter first would make SJ ambiguous
                    _CARD_BY_TOKEN[_st + _rt] = _card
for _token in ("SJ", "小怪", "小王"):
    _CARD_BY_TOKEN[_token] = SMALL_JOKER
for _token in ("BJ", "大怪", "大王"):
    _CARD_BY_TOKEN[_token] = BIG_JOKER

_SEPARATORS = re.compile(r"[\s,，、;；]+")


def parse_cards(text: str) -> list[Card]:
    """Read a list of card tokens separated by spaces or commas.

    >>> parse_cards("10H, ♠A 小怪")
    [Card.parse('10H'), Card.parse('AS'), Card.parse('SJ')]

    Raises :class:`InvalidNotationError` naming the first bad token.
    """
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    cards = []
    for token in tokens:
        card = _CARD_BY_TOKEN.get(token.upper())
        if card is None:
            raise InvalidNotationError.of("cards.unknown_token_in", token=token, text=text.strip())
        cards.append(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards as space-separated tokens, the inverse of :func:`parse_cards`."""
    return " ".join(str(c) for c in cards)


def parse_rank(token: str) -> Rank:
    """Read a rank token (``2`` .. ``10``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``SJ``, ``BJ``)."""
    rank = _RANK_BY_TOKEN.get(token.strip().upper())
    if rank is None:
        raise InvalidNotationError.of("cards.unknown_rank", token=token.strip())
    return rank


def pack(decks: int = 1, jokers: bool = True) -> list[Card]:
    """The cards of ``decks`` decks (52 naturals, and SJ, BJ when ``jokers``), in code order."""
    one: Sequence[Card] = CARDS if jokers else CARDS[:52]
    return [card for card in one for _ in range(decks)]
