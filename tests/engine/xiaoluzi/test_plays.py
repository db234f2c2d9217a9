"""The pack, the notation, plays with wild jokers, comparison, and every legal play."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, parse_cards
from engine.errors import InvalidNotationError, InvalidPlayError
from engine.xiaoluzi.plays import (
    PACK,
    Play,
    PlayType,
    classify,
    legal_plays,
    parse_hand,
    sort_cards,
)
from tests.hypothesis_profiles import examples


def play(text: str, **options: bool) -> Play:
    return Play.parse(text, **options)


# -- the pack and the notation -----------------------------------------------------------------


def test_the_pack_has_32_unique_cards():
    assert len(PACK) == 32 and len(set(PACK)) == 32
    naturals = [c for c in PACK if not c.is_joker]
    assert len(naturals) == 30
    assert {str(c) for c in PACK if c.rank == Rank.SEVEN} == {"7H", "7D"}
    assert {c.rank for c in naturals} == {Rank(r) for r in range(7, 15)}
    assert all(sum(1 for c in naturals if c.rank == r) == 4 for r in range(8, 15))
    assert {str(c) for c in PACK if c.is_joker} == {"SJ", "BJ"}


@pytest.mark.parametrize("token", ["7S", "7C", "2H", "3S", "4D", "5C", "6H", "6S"])
def test_a_card_outside_the_pack_is_invalid_notation(token):
    with pytest.raises(InvalidNotationError, match=token):
        parse_hand(f"8S {token}")


@pytest.mark.parametrize("text", ["9S 9S", "BJ 大王", "大怪 BJ", "小王 SJ", "10H TH", "♥10 10h"])
def test_the_same_card_twice_is_invalid_notation(text):
    with pytest.raises(InvalidNotationError, match="twice"):
        parse_hand(text)


def test_tokens_aliases_separators_and_case():
    with pytest.raises(InvalidNotationError):
        parse_hand("10h, th")
    assert [str(c) for c in parse_hand("TH ♠A 小王 大王")] == ["10H", "AS", "SJ", "BJ"]
    assert [str(c) for c in parse_hand("qs,kd 小怪")] == ["QS", "KD", "SJ"]
    assert [str(c) for c in parse_hand("大怪")] == ["BJ"]


def test_an_unknown_token_is_invalid_notation():
    with pytest.raises(InvalidNotationError, match="XX"):
        parse_hand("8S XX")


def test_single_card_order():
    order = ["7H", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "SJ", "BJ"]
    plays = [play(t) for t in order]
    for low, high in zip(plays, plays[1:], strict=False):
        assert high.beats(low) and not low.beats(high)


def test_suits_never_rank():
    assert not play("AS").beats(play("AH")) and not play("AH").beats(play("AS"))
    assert not play("7D").beats(play("7H")) and not play("7H").beats(play("7D"))


def test_play_notation_round_trips():
    for text in ("9S BJ", "QS QH SJ", "KS KH SJ BJ", "BJ SJ", "7H"):
        p = play(text)
        assert Play.parse(str(p)) == p
        assert repr(p) == f"Play.parse({str(p)!r})"
    assert str(play("BJ 9S")) == "9S BJ"
    assert sort_cards(parse_cards("BJ 7D 7H AS SJ")) == parse_cards("7H 7D AS SJ BJ")


# -- plays -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "rank"),
    [
        ("AS", PlayType.SINGLE, "A"),
        ("BJ", PlayType.SINGLE, "BJ"),
        ("SJ", PlayType.SINGLE, "SJ"),
        ("JS JH", PlayType.PAIR, "J"),
        ("AS AD", PlayType.PAIR, "A"),
        ("JS JH JD", PlayType.TRIPLE, "J"),
        ("8S 8H 8D 8C", PlayType.FOUR, "8"),
        ("KS KH KD KC", PlayType.FOUR, "K"),
        # the contract's joker examples
        ("9S BJ", PlayType.PAIR, "9"),
        ("QS QH SJ", PlayType.TRIPLE, "Q"),
        ("QS SJ BJ", PlayType.TRIPLE, "Q"),
        ("KS KH KD BJ", PlayType.FOUR, "K"),
        ("KS KH SJ BJ", PlayType.FOUR, "K"),
        ("7H 7D SJ", PlayType.TRIPLE, "7"),
        ("7D SJ BJ", PlayType.TRIPLE, "7"),
        ("7H 7D SJ BJ", PlayType.FOUR, "7"),
        ("7H 7D", PlayType.PAIR, "7"),
        ("BJ SJ", PlayType.PAIR, "SJ"),
        ("BJ SJ 9S", PlayType.TRIPLE, "9"),
    ],
)
def test_plays_and_the_rank_they_compare_by(text, kind, rank):
    p = play(text)
    assert p.type is kind and p.rank.token == rank and p.type.size == len(p.cards)


@pytest.mark.parametrize(
    "text",
    ["9S 8S", "9S 8D BJ", "8S 8H 8D 8C 9S", "AS AH AD AC BJ", "", "AS KS QS JS 10S"],
)
def test_anything_else_is_no_play(text):
    assert classify(parse_cards(text)) is None
    with pytest.raises(InvalidPlayError):
        Play.parse(text)


def test_jokers_only_make_the_joker_pair_and_the_singles():
    sj, bj = Card.parse("SJ"), Card.parse("BJ")
    assert classify([bj, bj]) is None  # one pack: no BJ BJ (and parsing refuses it)
    assert classify([sj, bj]) is not None
    assert classify([sj, bj, sj]) is None


def test_option_joker_sevens_false_makes_joker_sevens_no_play():
    for text in ("7H 7D SJ", "7D SJ BJ", "7H 7D SJ BJ"):
        assert classify(parse_cards(text), joker_sevens=False) is None
        assert classify(parse_cards(text)) is not None
    # pairs of 7 and other triples are untouched
    assert classify(parse_cards("7H SJ"), joker_sevens=False) is not None
    assert classify(parse_cards("7H 7D"), joker_sevens=False) is not None
    assert classify(parse_cards("8S 8H SJ"), joker_sevens=False) is not None


# -- comparison --------------------------------------------------------------------------------


def test_different_card_counts_never_beat_each_other():
    assert not play("AS AH").beats(play("8S"))
    assert not play("BJ").beats(play("8S 8H"))
    assert not play("AS AH AD AC").beats(play("8S 8H 8D"))
    assert not play("8S 8H 8D").beats(play("AS AH AD AC"))


def test_a_four_beats_only_a_four():
    assert play("9S 9H 9D 9C").beats(play("8S 8H 8D 8C"))
    assert not play("9S 9H 9D 9C").beats(play("AS"))


@pytest.mark.parametrize(
    "order",
    [
        ["7H 7D", "8S 8H", "9S 9H", "10S 10H", "JS JH", "QS QH", "KS KH", "AS AH", "BJ SJ"],
        ["7H 7D SJ", "8S 8H 8D", "9S 9H 9D", "10S 10H 10D", "JS JH JD", "AS AH AD"],
        ["7H 7D SJ BJ", "8S 8H 8D 8C", "9S 9H 9D 9C", "QS QH QD QC", "AS AH AD AC"],
    ],
)
def test_orders_of_pairs_triples_and_fours(order):
    plays = [play(t) for t in order]
    for low, high in zip(plays, plays[1:], strict=False):
        assert high.beats(low) and not low.beats(high)


def test_a_play_with_jokers_equals_the_natural_play_of_its_rank():
    assert not play("AS BJ").beats(play("AH AD"))
    assert not play("AH AD").beats(play("AS BJ"))
    assert not play("QS SJ BJ").beats(play("QH QD QC"))
    assert play("KS BJ").beats(play("QS QH"))


def test_the_joker_pair_beats_every_pair():
    assert play("BJ SJ").beats(play("AS AH"))
    assert play("BJ SJ").beats(play("AS BJ"))
    assert not play("AS AH").beats(play("BJ SJ"))


# -- every legal play --------------------------------------------------------------------------


def brute_force(hand, over=None, joker_sevens=True):
    """Every subset of the hand that classifies (and beats ``over``), as sets of cards."""
    found = set()
    for n in range(1, min(len(hand), 4) + 1):
        for cards in combinations(hand, n):
            p = classify(cards, joker_sevens=joker_sevens)
            if p is not None and (over is None or p.beats(over)):
                found.add((frozenset(cards), p.type, p.rank))
    return found


def as_set(plays):
    return {(frozenset(p.cards), p.type, p.rank) for p in plays}


def test_legal_plays_example():
    hand = parse_cards("8S 8H BJ")
    assert [str(p) for p in legal_plays(hand, play("7H 7D"))] == ["8S 8H", "8S BJ", "8H BJ"]
    assert [str(p) for p in legal_plays(hand)] == [
        "8S", "8H", "BJ", "8S 8H", "8S BJ", "8H BJ", "8S 8H BJ",
    ]  # fmt: skip
    assert legal_plays(parse_cards("AS"), play("BJ")) == []


@settings(max_examples=examples(300), deadline=None)
@given(hand=st.lists(st.sampled_from(PACK), min_size=0, max_size=9, unique=True), data=st.data())
def test_the_generator_equals_the_brute_force_oracle(hand, data):
    joker_sevens = data.draw(st.booleans())
    assert as_set(legal_plays(hand, joker_sevens=joker_sevens)) == brute_force(
        hand, joker_sevens=joker_sevens
    )
    rest = [c for c in PACK if c not in hand]
    size = data.draw(st.integers(1, 4))
    over_cards = data.draw(
        st.lists(st.sampled_from(rest), min_size=size, max_size=size, unique=True)
    )
    over = classify(over_cards, joker_sevens=joker_sevens)
    if over is not None:
        generated = legal_plays(hand, over, joker_sevens=joker_sevens)
        assert as_set(generated) == brute_force(hand, over, joker_sevens)
        assert len(generated) == len(as_set(generated))  # each set of cards once
