"""Plays of 上海斗地主: every type, the chain, classification, comparison."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import pack, parse_cards
from engine.errors import InvalidPlayError
from engine.shanghai_doudizhu.plays import Play, PlayType, classify, power
from tests.hypothesis_profiles import examples


def kind(text: str) -> tuple[str, str | None, int] | None:
    play = classify(parse_cards(text))
    return None if play is None else (play.type.value, play.key_token, play.size)


def beats(a: str, b: str) -> bool:
    return Play.parse(a).beats(Play.parse(b))


def test_single_order_bj_over_sj_over_2_over_a() -> None:
    assert beats("BJ", "SJ") and beats("SJ", "2S") and beats("2S", "AS") and beats("4S", "3S")
    assert power(2) > power(14) > power(13)


def test_suits_never_rank() -> None:
    assert not beats("7S", "7H") and not beats("7H", "7S")


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7H", ("single", "7", 1)),
        ("SJ", ("single", "SJ", 1)),
        ("7H 7H", ("pair", "7", 2)),
        ("SJ SJ", ("pair", "SJ", 2)),
        ("BJ BJ", ("pair", "BJ", 2)),
        ("9S 9H 9D", ("triple", "9", 3)),
        ("9S 9H 9D 4C 4C", ("triple_pair", "9", 5)),
        ("9S 9H 9D SJ SJ", ("triple_pair", "9", 5)),
        ("3H 4H 5S 6D 7C", ("straight", "7", 5)),
        ("AS 2S 3S 4S 5S", ("straight", "5", 5)),
        ("10S JS QS KS AS", ("straight", "A", 5)),
        ("3H 3S 4H 4S 5H 5S", ("pair_straight", "5", 6)),
        ("3H 3S 3D 4H 4S 4D", ("triple_straight", "4", 6)),
        ("AH AS AD 2H 2S 2D", ("triple_straight", "2", 6)),
        ("3H 3S 3D 4H 4S 4D 6C 6C 7H 7H", ("airplane", "4", 10)),
        ("7S 7H 7D 7C", ("bomb", "7", 4)),
        ("7S 7H 7D 7C 7S 7H 7D 7C", ("bomb", "7", 8)),
        ("SJ SJ BJ BJ", ("bomb", None, 4)),
    ],
)
def test_every_type(cards: str, expected: tuple[str, str | None, int]) -> None:
    assert kind(cards) == expected


@pytest.mark.parametrize(
    "cards",
    [
        "SJ BJ",  # no two-joker rocket, SJ BJ is no pair
        "3S 3H 3D 4C",  # no 三带一
        "3S 3H 3D 4C 5C",  # no triple with two singles
        "3S 3H 3D 3C 4C 5C",  # no 四带二
        "3S 3H 3D 3C 4C 4D",  # no 四带二 (pairs)
        "KS AS 2S 3S 4S",  # no wrap-around
        "3S 4S 5S 6S",  # a straight has 5 or more
        "3S 3H 4S 4H",  # a 双顺 has 3 pairs or more
        "3S 3H 3D 3C 3S 4H 4H",  # five of a rank with a pair: no 三带二
        "3H 3S 3D 4H 4S 4D 7S 7H 7D 7C",  # four of a rank is never two wings
        "3H 3S 3D 4H 4S 4D 4C 4C 5H 5H",  # wings sharing a triple's rank
        "3H 3S 3D 4H 4S 4D SJ SJ BJ BJ",  # a joker pair is never a wing
        "SJ 2S 3S 4S 5S",  # jokers are never in a sequence
        "7H 7H 8S 9S 10S JS",  # a straight holds each position once
        "",
    ],
)
def test_no_play(cards: str) -> None:
    assert kind(cards) is None


def test_14_straight_holds_two_aces_and_is_the_highest() -> None:
    text = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH"
    assert kind(text) == ("straight", "A", 14)
    # nothing of the same type and length can beat it
    assert not beats(text, text)


def test_14_pair_straight_holds_four_aces() -> None:
    middle = " ".join(
        f"{r}S {r}H" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    )
    assert kind(f"AS AH AD AC {middle}") == ("pair_straight", "A", 28)
    assert kind(f"AS AH {middle}") == ("pair_straight", "A", 26)  # 13 positions read as 2..A


def test_13_position_run_reads_2_to_a() -> None:
    text = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    play = Play.parse(text)
    assert (play.type, play.key_token, play.length) == (PlayType.STRAIGHT, "A", 13)


def test_sequence_keys_by_chain_position() -> None:
    assert beats("2S 3S 4S 5S 6S", "AS 2S 3S 4S 5S")
    assert beats("10S JS QS KS AS", "9S 10S JS QS KS")
    assert not beats("AS 2S 3S 4S 5S", "3H 4H 5H 6H 7H")
    assert beats("3H 3S 3D 4H 4S 4D", "AH AS AD 2H 2S 2D")  # AAA222 = 2 is the lowest


def test_same_type_and_length_and_higher_key() -> None:
    assert not beats("4S 5S 6S 7S 8S 9S", "3H 4H 5H 6H 7H")  # 6 cards on 5
    assert not beats("4S 4H", "3S")  # other type
    assert not beats("7S", "7H")  # equal
    assert beats("2S", "AS")  # 2 above A for singles
    assert beats("2S 2H 2D 3C 3C", "AS AH AD KC KC")


def test_triple_pair_and_airplane_compare_by_triples_only() -> None:
    assert beats("5S 5H 5D 3C 3C", "4S 4H 4D AC AC")
    assert not beats("4S 4H 4D AC AC", "4S 4H 4D 3C 3C")
    assert beats("4H 4S 4D 5H 5S 5D 6C 6C 7H 7H", "3H 3S 3D 4H 4S 4D KC KC AH AH")


def test_bombs() -> None:
    assert beats("3S 3H 3D 3C", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH")
    assert beats("3S 3H 3D 3C 3S", "2S 2H 2D 2C")  # more cards wins
    assert beats("2S 2H 2D 2C", "AS AH AD AC")  # equal counts: higher rank
    assert beats("SJ SJ BJ BJ", "2S 2H 2D 2C 2S 2H 2D 2C")  # 类1 beats all
    assert not beats("2S 2H 2D 2C 2S 2H 2D 2C", "SJ SJ BJ BJ")
    assert not beats("AS AH AD AC", "AS AH AD AC")
    assert not beats("2S 2H 2D 2C", "3S 3H 3D 3C 3S")


@pytest.mark.parametrize(
    ("cards", "cls"),
    [
        ("SJ SJ BJ BJ", 1),
        ("8S " * 8, 2),
        ("8S " * 7, 3),
        ("8S " * 6, 4),
        ("8S " * 5, 5),
        ("8S " * 4, 6),
    ],
)
def test_bomb_classes(cards: str, cls: int) -> None:
    # copies beyond two are fine for classification, which only looks at ranks
    assert Play.parse(cards).bomb_class == cls


def test_parse_round_trip_and_error() -> None:
    play = Play.parse("3H 3S")
    assert Play.parse(str(play)) == play and repr(play) == "Play.parse('3S 3H')"
    with pytest.raises(InvalidPlayError, match="SJ BJ"):
        Play.parse("SJ BJ")


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 107), min_size=1, max_size=12, unique=True), st.randoms())
def test_classification_does_not_depend_on_order(indexes: list[int], rnd: random.Random) -> None:
    cards = [pack(2)[i] for i in indexes]
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert classify(cards) == classify(shuffled)
