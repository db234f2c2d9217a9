"""Classifying and comparing plays (contract: Levels, Plays, Jokers are wild; seeds/000)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CARDS, Rank, parse_cards
from engine.daguai import Play, PlayType, classify, parse_level, power
from engine.errors import InvalidNotationError, InvalidPlayError

T = PlayType


def kind(text: str, level: str = "2") -> tuple[str, str] | None:
    play = classify(parse_cards(text), parse_level(level))
    return None if play is None else (play.type.value, play.rank.token)


def beats(a: str, b: str, level: str = "2") -> bool:
    return Play.parse(a, level).beats(Play.parse(b, level))


# -- the plays of seeds/000 四 and the contract's Plays section --------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7D", ("single", "7")),
        ("9H 9S", ("pair", "9")),  # 对牌: two cards of one rank, suits may differ
        ("QH QS QC", ("triple", "Q")),
        ("7H 6S 5D 4C 3H", ("straight", "7")),  # 76543
        ("KH QS JD 10C 9H", ("straight", "K")),  # KQJ109
        ("AH 2S 3D 4C 5H", ("straight", "5")),  # A2345: the lowest straight, 5-high
        ("10H JS QD KC AH", ("straight", "A")),  # 10JQKA: the highest
        ("2H 7H 8H JH KH", ("flush", "2")),  # 红桃 278JK at level 2: the 2 is the level rank
        ("9H 9S 9D 5C 5H", ("full_house", "9")),  # 99955
        ("9H 9S 9D 9C 5H", ("four_with_one", "9")),  # 99995
        ("4H 5H 6H 7H 8H", ("straight_flush", "8")),  # 红桃45678
        ("10S JS QS KS AS", ("straight_flush", "A")),
        ("AS 2S 3S 4S 5S", ("straight_flush", "5")),
        ("9H 9S 9D 9C 9H", ("five_of_a_kind", "9")),  # 99999
        ("5H 5H 5H 9S 9S", ("full_house", "5")),  # three decks: identical cards exist
        ("4H 4H 7H JH KH", ("flush", "K")),  # duplicate ranks allowed in a flush
    ],
)
def test_play_types(cards, expected):
    assert kind(cards) == expected


@pytest.mark.parametrize(
    "cards",
    [
        "3H 4S",  # two ranks
        "3H 3S 3D 3C",  # four cards never make a play
        "3H 4H 5H 6H",
        "3H 3S 4D",
        "QH KS AD 2C 3H",  # no wrap-around
        "JH QS KD AC 2H",
        "3H 4S 5D 6C 8H",  # a gap
        "3H 3S 4D 5C 6H",  # a pair and three singles
        "3H 3S 4D 4C 6H",  # two pairs and a single
        "SJ BJ 3H 4S",  # four cards, jokers or not
        "3H 4S 5D 6C 7H 8H",  # six cards
    ],
)
def test_no_play(cards):
    assert kind(cards) is None


def test_single_card_order():
    # BJ > SJ > level rank > A > K > ... > 2, the level rank taken out of its place
    order = [
        "BJ",
        "SJ",
        "8H",
        "AH",
        "KH",
        "QH",
        "JH",
        "10H",
        "9H",
        "7H",
        "6H",
        "5H",
        "4H",
        "3H",
        "2H",
    ]
    for higher, lower in zip(order, order[1:], strict=False):
        assert beats(higher, lower, "8")
        assert not beats(lower, higher, "8")
    assert beats("2H", "AS", "2")
    assert not beats("2H", "AS", "3")


def test_suits_never_rank_and_equal_plays_do_not_beat():
    assert not beats("9H", "9S")
    assert not beats("9S", "9H")
    assert not beats("9H 9S", "9D 9C")
    assert not beats("4S 5H 6D 7C 8H", "4H 5S 6S 7D 8D")


def test_plays_of_different_card_counts_never_beat():
    assert not beats("BJ BJ", "3H")
    assert not beats("BJ BJ BJ", "3H 3S")
    assert not beats("9H 9S 9D 9C 9H", "3H 3S 3D")


def test_five_card_type_order():
    # 五同 > 同花顺 > 四带一 > 三带二 > 同花 > 杂顺, whatever the ranks
    ladder = [
        "2H 2S 2D 2C 2H",  # five of a kind (level 3, so 2 is the lowest rank)
        "AS 2S 3S 4S 5S",  # the lowest straight flush
        "3H 3S 3D 3C 4H",
        "3H 3S 3D 4C 4H",
        "2H 3H 4H 5H 7H",
        "AH 2S 3D 4C 5H",
    ]
    for i, higher in enumerate(ladder):
        for lower in ladder[i + 1 :]:
            assert beats(higher, lower, "3"), (higher, lower)
            assert not beats(lower, higher, "3"), (lower, higher)


def test_straights_compare_by_highest_card():
    assert beats("2H 3S 4D 5C 6H", "AH 2S 3D 4C 5H")
    assert beats("10H JS QD KC AH", "9H 10S JD QC KH")
    assert beats("5S 6S 7S 8S 9S", "4H 5H 6H 7H 8H")


def test_the_level_rank_is_natural_inside_straights():
    # seeds/000 三.3: with level 8, 6 7 8 9 10 ... the straight's top card is J, not 8
    assert kind("7H 8S 9D 10C JH", "8") == ("straight", "J")
    assert kind("6H 7S 8D 9C 10H", "8") == ("straight", "10")
    assert kind("4H 5H 6H 7H 8H", "8") == ("straight_flush", "8")
    assert beats("7H 8S 9D 10C JH", "6H 7S 8D 9C 10H", "8")
    # ... but above A everywhere else
    assert beats("8H 8S 8D 3C 3H", "AH AS AD 3C 3H", "8")
    assert beats("8H 8S", "AH AS", "8")


def test_full_house_by_triple_and_four_by_four_only():
    assert beats("10H 10S 10D 2C 2H", "9H 9S 9D AC AH")
    assert not beats("9H 9S 9D AC AH", "9H 9S 9D 2C 2H")
    assert beats("10H 10S 10D 10C 2H", "9H 9S 9D 9C AH")
    assert not beats("9H 9S 9D 9C AH", "9H 9S 9D 9C 2H")


def test_flush_compares_highest_then_next_in_single_card_order():
    assert kind("2H 7H 8H JH KH", "5") == ("flush", "K")
    assert beats("2H 7H 8H JH AH", "2S 7S 8S JS KS", "5")
    assert beats("3H 7H 8H JH KH", "2S 7S 8S JS KS", "5")  # ties go down to the last card
    assert not beats("2H 7H 8H JH KH", "2S 7S 8S JS KS", "5")  # equal: suits never rank
    # the level rank is above A in a flush
    assert beats("2H 5H 7H 9H 8H", "2S 5S 7S 9S AS", "8")


# -- jokers are wild -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("3H 4S 5D 6C BJ", ("straight", "6")),  # seeds/000 三.1: 2-3-4-5-6, not 3-7
        ("9H 9S 5D 5C BJ", ("full_house", "5")),  # contract: 555+99
        ("3H 3S 3D BJ 4C", ("four_with_one", "3")),  # seeds/000 三.1: 33334, not 33344
        ("9H BJ", ("pair", "9")),  # contract: 9 BJ is a pair of 9
        ("9H SJ SJ", ("triple", "9")),
        ("9H 9S 9D BJ SJ", ("five_of_a_kind", "9")),
        ("9H BJ BJ SJ SJ", ("five_of_a_kind", "9")),
        ("3H 4H 5H 6H BJ", ("straight_flush", "6")),
        ("3H 4H BJ BJ SJ", ("straight_flush", "5")),  # jokers lowest: A-2-3-4-5
        ("3H 4S BJ BJ SJ", ("four_with_one", "3")),  # the lower rank is the four
        ("JH KS SJ SJ BJ", ("four_with_one", "J")),
        ("10H JH QH KH BJ", ("straight_flush", "K")),  # 9-K, not 10-A
        ("JH QH KH AH BJ", ("straight_flush", "A")),
        ("AH 3S 4D 5C SJ", ("straight", "5")),
        ("AH KS QD JC SJ", ("straight", "A")),
        ("3H 7H JH KH BJ", ("flush", "K")),
        ("3H 7H KH BJ SJ", ("flush", "K")),  # three ranks: no four, no full house
        ("3H 9H BJ SJ BJ", ("four_with_one", "3")),  # jokers reach a higher type than the flush
        ("7H 7H 8S 8S BJ", ("full_house", "7")),
    ],
)
def test_jokers_are_wild(cards, expected):
    assert kind(cards) == expected


def test_jokers_count_as_the_lowest_cards_in_single_card_order():
    # With level 5, the 5s are above A: 9 9 5 5 BJ is 999+55, whose triple is lower.
    assert kind("9H 9S 5D 5C BJ", "5") == ("full_house", "9")
    assert kind("5H 9S BJ BJ SJ", "5") == ("four_with_one", "9")


def test_a_single_joker_is_just_itself():
    assert kind("BJ") == ("single", "BJ")
    assert kind("SJ") == ("single", "SJ")
    assert beats("BJ", "SJ") and beats("SJ", "AH") and beats("SJ", "2H")


def test_all_joker_plays():
    assert kind("BJ SJ") == ("pair", "SJ")  # BJ may stand for SJ, never the reverse
    assert kind("BJ BJ") == ("pair", "BJ")
    assert kind("SJ SJ") == ("pair", "SJ")
    assert beats("BJ BJ", "BJ SJ")
    assert not beats("BJ SJ", "SJ SJ")  # both are a pair of SJ
    assert kind("BJ BJ BJ") == ("triple", "BJ")
    assert kind("BJ BJ SJ") == ("triple", "SJ")
    assert kind("BJ BJ BJ SJ SJ") == ("five_of_a_kind", "SJ")
    assert kind("BJ BJ BJ BJ BJ") == ("five_of_a_kind", "BJ")
    assert beats("SJ SJ", "2H 2S")  # a pair of SJ is above the level pair
    assert beats("SJ SJ SJ SJ SJ", "2H 2S 2D 2C 2H")


def test_a_flush_joker_counts_as_the_lowest_rank():
    # [decided] the joker is a 2 (a 3 when 2 is the level): the natural 2 ties, a 3 beats it
    assert not beats("AS KS 9S 5S 2S", "AH KH 9H 5H BJ", "8")
    assert not beats("AH KH 9H 5H BJ", "AS KS 9S 5S 2S", "8")
    assert beats("AS KS 9S 5S 3S", "AH KH 9H 5H BJ", "8")
    assert beats("AS KS 9S 5S 4S", "AH KH 9H 5H BJ", "2")
    assert not beats("AS KS 9S 5S 3S", "AH KH 9H 5H BJ", "2")


def test_play_parse_and_repr_round_trip():
    play = Play.parse("3H 3S 3D BJ 4C", "7")
    assert play.type is T.FOUR_WITH_ONE and play.rank is Rank.THREE
    assert repr(play) == "Play.parse('3S 3H 3D 4C BJ', level='7')"
    assert eval(repr(play)) == play
    assert Play.parse(str(play), "7") == play
    with pytest.raises(InvalidPlayError, match="3H 4S"):
        Play.parse("3H 4S")
    with pytest.raises(InvalidNotationError, match="'Z'"):
        Play.parse("3H", "Z")
    with pytest.raises(InvalidNotationError, match="joker"):
        parse_level("BJ")


def test_power_order():
    ranks = (Rank.SEVEN, Rank.NINE, Rank.ACE, Rank.EIGHT)
    assert [power(r, Rank.EIGHT) for r in ranks] == [7, 9, 14, 15]
    assert power(Rank.SMALL_JOKER, Rank.EIGHT) < power(Rank.BIG_JOKER, Rank.EIGHT)


@given(
    st.lists(st.sampled_from(CARDS), min_size=1, max_size=5),
    st.sampled_from(list(Rank)[:13]),
    st.randoms(use_true_random=False),
)
def test_classification_ignores_card_order(cards, level, rng):
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert classify(cards, level) == classify(shuffled, level)


@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=5), st.sampled_from(list(Rank)[:13]))
def test_a_play_never_beats_itself_and_beating_is_antisymmetric(cards, level):
    play = classify(cards, level)
    if play is None:
        return
    assert not play.beats(play)
    assert Play.parse(str(play), level) == play


def test_the_level_rank_follows_the_dealer_teams_level():
    # seeds/000 三.3: a dealer team at level K makes K the level card, above A
    assert beats("KH", "AS", "K")
    assert beats("KH KS", "AH AS", "K")
    assert not beats("KH", "AS", "Q")
    assert beats("KH KS KD 2C 2H", "AH AS AD 2C 2H", "K")
