"""engine.duplicate: the hands a match seed deals, seat by seat, are the hands its match deals."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import pack
from engine.duplicate import DUPLICATE_GAMES, dealt_deals, first_dealer
from engine.errors import EngineError
from engine.registry import get_game
from tests.hypothesis_profiles import examples

SIZES = {"daguai": (6, 27, 3, 0), "xiaoluzi": (4, 8, None, 0), "shanghai_doudizhu": (4, 25, 2, 8)}


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(DUPLICATE_GAMES), st.integers(0, 2**62))
def test_each_deal_gives_every_seat_its_cards_and_the_pack_once(game: str, seed: int) -> None:
    seats, size, decks, aside = SIZES[game]
    deals = dealt_deals(game, seed, 3)
    assert [d.number for d in deals] == [1, 2, 3]
    assert dealt_deals(game, seed, 2) == deals[:2]  # deal k does not depend on how many
    for deal in deals:
        assert len(deal.hands) == seats and all(len(h) == size for h in deal.hands)
        assert len(deal.aside) == aside
        cards = Counter(c for h in deal.hands for c in h) + Counter(deal.aside)
        if decks is not None:
            assert cards == Counter(pack(decks))
        else:
            assert sum(cards.values()) == 32 and max(cards.values()) == 1


@settings(max_examples=examples(15), deadline=None)
@given(st.sampled_from(DUPLICATE_GAMES), st.integers(0, 2**62))
def test_the_first_deal_is_the_one_the_games_match_deals(game: str, seed: int) -> None:
    g = get_game(game)
    state = g.new_match(seed=seed, options=g.default_options())
    info = state.start_deal()
    dealt = dealt_deals(game, seed, 1)[0]
    assert str(info.seed) == dealt.seed
    if first_dealer(game, seed) is not None:
        assert info.dealer == first_dealer(game, seed)
    for seat in range(g.seat_count):
        hand = state.deal_view(1, seat)["hand"]
        shown = sorted(hand.split()) if isinstance(hand, str) else sorted(map(str, hand))
        assert shown == sorted(str(c) for c in dealt.hands[seat])


def test_an_unknown_game_or_count_is_refused() -> None:
    with pytest.raises(EngineError):
        dealt_deals("bridge", 1, 1)
    with pytest.raises(EngineError):
        dealt_deals("daguai", 1, -1)
