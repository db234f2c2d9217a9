"""Cards and notation (contract: Table)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CARDS, Card, Rank, Suit, format_cards, pack, parse_cards, parse_rank
from engine.errors import InvalidNotationError


def test_the_pack_has_162_cards_three_of_each():
    cards = pack(3)
    assert len(cards) == 162
    counts = Counter(cards)
    assert len(counts) == 54
    assert set(counts.values()) == {3}
    assert sum(1 for c in cards if c.is_joker) == 6


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("♥10", "10H"),
        ("10♥", "10H"),
        ("♠A", "AS"),
        ("2C", "2C"),
        ("♦K", "KD"),
        ("SJ", "SJ"),
        ("BJ", "BJ"),
        ("小怪", "SJ"),
        ("大怪", "BJ"),
        ("小王", "SJ"),
        ("大王", "BJ"),
    ],
)
def test_tokens(token, expected):
    assert str(Card.parse(token)) == expected


def test_sj_is_the_small_joker_not_the_jack_of_spades():
    assert Card.parse("SJ").is_joker
    assert Card.parse("JS") == Card(Rank.JACK, Suit.SPADES)


@pytest.mark.parametrize("token", ["1H", "11H", "10X", "H", "JJ", "10", "XJ", "♥", "A♥♥"])
def test_a_bad_token_is_named(token):
    with pytest.raises(InvalidNotationError, match=repr(token).replace("\\", "\\\\")):
        Card.parse(token)


def test_lists_split_on_spaces_and_commas_and_name_the_bad_token():
    assert format_cards(parse_cards("3H, 4S 5D，BJ")) == "3H 4S 5D BJ"
    assert parse_cards("") == []
    with pytest.raises(InvalidNotationError, match="'ZZ'"):
        parse_cards("3H ZZ 4S")


def test_rank_tokens():
    assert [r.token for r in Rank] == [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "SJ", "BJ"
    ]  # fmt: skip
    assert parse_rank("t") is Rank.TEN
    with pytest.raises(InvalidNotationError):
        parse_rank("1")


def test_a_joker_has_no_suit_and_a_natural_needs_one():
    with pytest.raises(InvalidNotationError):
        Card(Rank.BIG_JOKER, Suit.HEARTS)
    with pytest.raises(InvalidNotationError):
        Card(Rank.TWO, None)


def test_repr_shows_the_parser_call():
    assert repr(Card.parse("TH")) == "Card.parse('10H')"
    assert eval(repr(Card.parse("BJ"))) == Card.parse("BJ")


@given(st.lists(st.sampled_from(CARDS), max_size=30))
def test_format_parse_round_trip(cards):
    assert parse_cards(format_cards(cards)) == cards


@given(st.sampled_from(CARDS))
def test_symbol_notation_round_trips(card):
    if card.suit is None:
        return
    assert Card.parse(card.suit.symbol + card.rank.token) == card
