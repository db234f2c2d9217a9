"""Legal plays of a hand: the generator against a brute-force oracle, bomb limits, 报到 sets."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, pack, parse_cards
from engine.shanghai_doudizhu.legal import legal_plays, report_sets
from engine.shanghai_doudizhu.plays import Play, classify
from tests.hypothesis_profiles import examples

_PACK = pack(2)


def ranks(play: Play) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(Counter(c.rank for c in play.cards).items()))


def oracle(
    hand: list[Card], over: Play | None, bombs: bool = True, declared: tuple[Play, ...] = ()
) -> set[tuple[tuple[int, int], ...]]:
    """Every sub-multiset of the hand that makes a legal play, by brute force."""
    locked = [Counter(c.rank for c in p.cards) for p in declared]
    out = set()
    for k in range(1, len(hand) + 1):
        for comb in itertools.combinations(hand, k):
            play = classify(comb)
            if play is None or (over is not None and not play.beats(over)):
                continue
            if play.is_bomb and not bombs:
                continue
            counts = Counter(c.rank for c in comb)
            touched = [lk for lk in locked if set(lk) & set(counts)]
            if touched and (len(touched) > 1 or touched[0] != counts):
                continue
            out.add(ranks(play))
    return out


_CHAIN = [14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]


@st.composite
def small_hands(draw: st.DrawFn) -> list[Card]:
    """Up to 12 cards from a window of the chain (so sequences happen), maybe with jokers."""
    start = draw(st.integers(0, 10))
    width = draw(st.integers(2, 6))
    rank_set = set(_CHAIN[start : start + width])
    if draw(st.booleans()):
        rank_set |= {15, 16}
    pool = [c for c in _PACK if c.rank in rank_set]
    indexes = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=12, unique=True))
    return [pool[i] for i in indexes]


@settings(max_examples=examples(150), deadline=None)
@given(small_hands(), small_hands(), st.booleans(), st.booleans())
def test_generator_equals_brute_force_oracle(
    hand: list[Card], other: list[Card], follow: bool, bombs: bool
) -> None:
    over = None
    if follow:
        leads = legal_plays(other)
        over = leads[len(other) % len(leads)]
    generated = [ranks(p) for p in legal_plays(hand, over, bombs=bombs)]
    assert len(generated) == len(set(generated))
    assert set(generated) == oracle(hand, over, bombs)


@settings(max_examples=examples(60), deadline=None)
@given(small_hands(), st.booleans())
def test_generator_with_declared_sets_equals_oracle(hand: list[Card], follow: bool) -> None:
    hand = hand + parse_cards("SJ SJ BJ BJ") if not any(c.is_joker for c in hand) else hand
    sets = tuple(report_sets(hand))
    over = Play.parse("3S 3H 3D 3C") if follow else None
    generated = [ranks(p) for p in legal_plays(hand, over, declared=sets)]
    assert set(generated) == oracle(hand, over, True, sets)


def test_every_generated_play_is_of_the_hand() -> None:
    hand = _PACK[:33]
    for play in legal_plays(hand):
        assert not Counter(play.cards) - Counter(hand)
        assert classify(play.cards) == play


def test_following_lists_same_type_and_length_and_bombs() -> None:
    hand = parse_cards("4S 5S 6S 7S 8S 9S 9H 9D 9C")
    over = Play.parse("3H 4H 5H 6H 7H")
    assert sorted(str(p) for p in legal_plays(hand, over)) == [
        "4S 5S 6S 7S 8S",
        "5S 6S 7S 8S 9S",
        "9S 9H 9D 9C",
    ]


def test_farmer_at_bomb_limit_has_no_bomb_but_may_split_it() -> None:
    hand = parse_cards("9S 9H 9D 9C")
    plays = legal_plays(hand, bombs=False)
    assert {p.type.value for p in plays} == {"single", "pair", "triple"}
    assert legal_plays(hand, Play.parse("3S 3H 3D 3C"), bombs=False) == []


def test_report_sets_whole_rank_and_four_jokers() -> None:
    hand = parse_cards("8S 8H 8D 8C 8S 8H 8D 8C 7S 7H 7D 7C 7S 7H 7D SJ SJ BJ BJ 3S")
    assert sorted(str(p) for p in report_sets(hand)) == [
        "7S 7S 7H 7H 7D 7D 7C",
        "8S 8S 8H 8H 8D 8D 8C 8C",
        "SJ SJ BJ BJ",
    ]
    assert report_sets(parse_cards("8S 8H 8D 8C 8S 8H SJ SJ BJ")) == []


def test_declared_set_goes_out_whole_and_alone() -> None:
    hand = parse_cards("8S 8H 8D 8C 8S 8H 8D 3S")
    (declared,) = report_sets(hand)
    plays = legal_plays(hand, declared=[declared])
    assert sorted(str(p) for p in plays) == ["3S", "8S 8S 8H 8H 8D 8D 8C"]
    # undeclared, the same cards may be split
    assert len(legal_plays(hand)) > 2


def test_whole_chain_hand_equals_oracle() -> None:
    # 14 cards: both A positions need the A twice; the 13-run reads 2..A once
    hand = parse_cards("AS AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    generated = [ranks(p) for p in legal_plays(hand)]
    assert len(generated) == len(set(generated))
    assert set(generated) == oracle(hand, None)
    over = Play.parse("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    assert [str(p) for p in legal_plays(hand, over)] == []
    fourteen = [p for p in legal_plays(hand) if p.size == 14]
    assert [p.key_token for p in fourteen] == ["A"]
