"""Legal plays: the generator against a brute-force oracle (contract: Plays, Jokers are wild)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CARDS, Card, Rank, pack, parse_cards
from engine.daguai import HAND_SIZE, Play, PlayType, classify, legal_plays, parse_level
from tests.engine.brute import brute_plays, signature
from tests.hypothesis_profiles import examples

JOKERS = [c for c in CARDS if c.is_joker]
LEVELS = list(Rank)[:13]


@st.composite
def small_hands(draw: st.DrawFn) -> list[Card]:
    """Up to 11 cards, often crowded into one suit or one straight window, often with jokers."""
    shape = draw(st.sampled_from(["any", "suit", "window"]))
    if shape == "suit":
        suit = draw(st.integers(0, 3))
        pool = [c for c in CARDS if c.suit == suit]
    elif shape == "window":
        low = draw(st.integers(2, 10))
        pool = [
            c for c in CARDS if c.suit is not None and (low <= c.rank <= low + 4 or c.rank == 14)
        ]
    else:
        pool = list(CARDS[:52])
    naturals = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=9))
    jokers = draw(st.lists(st.sampled_from(JOKERS), max_size=4))
    hand = naturals + jokers
    # at most three copies of a card: three decks
    counts: Counter[Card] = Counter()
    kept = []
    for card in hand:
        if counts[card] < 3:
            counts[card] += 1
            kept.append(card)
    return kept


@st.composite
def plays_to_beat(draw: st.DrawFn, level: Rank) -> Play | None:
    cards = draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=5))
    return classify(cards, level)


def check(hand: list[Card], level: Rank, over: Play | None) -> None:
    generated = legal_plays(hand, level, over)
    signatures = [signature(p) for p in generated]
    assert len(set(signatures)) == len(signatures), "a play is listed twice"
    in_hand = Counter(hand)
    for play in generated:
        assert not Counter(play.cards) - in_hand, f"{play} spends cards not in the hand"
        assert classify(list(play.cards), level) == play, f"{play} is not what its cards make"
        if over is not None:
            assert play.beats(over), f"{play} does not beat {over}"
    expected = brute_plays(hand, level, over)
    missing = [str(expected[s]) for s in set(expected) - set(signatures)]
    extra = [str(p) for p in generated if signature(p) not in expected]
    assert not missing, f"missing {missing}"
    assert not extra, f"extra {extra}"


@settings(max_examples=examples(300), deadline=None)
@given(small_hands(), st.sampled_from(LEVELS))
def test_leading_matches_brute_force(hand, level):
    check(hand, level, None)


@settings(max_examples=examples(300), deadline=None)
@given(small_hands(), st.sampled_from(LEVELS), st.data())
def test_following_matches_brute_force(hand, level, data):
    over = data.draw(plays_to_beat(level))
    if over is None:
        return
    check(hand, level, over)


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 6), st.sampled_from(LEVELS))
def test_full_hands_give_only_legal_distinct_plays(seed, jokers, level):
    rng = random.Random(seed)
    naturals = [c for c in pack(3) if not c.is_joker]
    hand = rng.sample(naturals, HAND_SIZE - jokers) + rng.sample(
        [c for c in pack(3) if c.is_joker], jokers
    )
    plays = legal_plays(hand, level)
    signatures = {signature(p) for p in plays}
    assert len(signatures) == len(plays)
    in_hand = Counter(hand)
    for play in plays:
        assert not Counter(play.cards) - in_hand
        assert classify(list(play.cards), level) == play
    # every single card of the hand can be led, and every play it leads can be followed
    assert {c.rank for c in hand} == {p.rank for p in plays if p.type is PlayType.SINGLE}
    lead = rng.choice(plays)
    for answer in legal_plays(hand, level, lead):
        assert answer.beats(lead)


def test_examples():
    level = parse_level("2")
    hand = parse_cards("3H 3S 4H")
    assert [str(p) for p in legal_plays(hand, level)] == ["3S", "4H", "3S 3H"]
    assert legal_plays(hand, level, Play.parse("4S 4D")) == []
    over = Play.parse("3H 4S 5D 6C 7C")
    answers = legal_plays(parse_cards("3H 4H 5H 6H 7S 8S BJ 9D"), level, over)
    assert {(p.type.value, p.rank.token) for p in answers} == {
        ("straight", "8"),
        ("straight", "9"),
        ("straight_flush", "6"),
    }


def test_suits_matter_in_flushes_not_in_pairs():
    level = parse_level("2")
    hand = parse_cards("9H 9S 9D 3H 5H 7H JH 3S 5S 7S JS")
    plays = legal_plays(hand, level)
    pairs = [p for p in plays if p.type is PlayType.PAIR]
    assert [p.rank.token for p in pairs] == ["3", "5", "7", "9", "J"]  # one 9-pair, not three
    flushes = [p for p in plays if p.type is PlayType.FLUSH]
    assert sorted(str(p) for p in flushes) == ["3H 5H 7H 9H JH", "3S 5S 7S 9S JS"]


def test_a_two_rank_four_needs_two_suits_when_it_could_be_a_straight_flush():
    level = parse_level("2")
    fours = [
        p
        for p in legal_plays(parse_cards("3H 4H BJ BJ SJ"), level)
        if p.type is PlayType.FOUR_WITH_ONE
    ]
    assert fours == []  # 3H 4H + three jokers is a straight flush
    plays = legal_plays(parse_cards("3H 4H 4S BJ BJ SJ"), level)
    assert Play.parse("3H 4S BJ BJ SJ") in plays
    assert Play.parse("3H 4H BJ BJ SJ") in plays
