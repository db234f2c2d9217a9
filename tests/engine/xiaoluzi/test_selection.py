"""The words a 小路子 player reads about a selection (issue 26): the check (the game's
``explain_selection`` on the seat's view, as the site asks it) says yes exactly when the deal
would take the play, and a no says what play the cards make and why it does not go, as 大怪路子
does, never only "cannot be played now"."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import format_cards, parse_cards
from engine.errors import IllegalActionError
from engine.registry import get_game
from engine.xiaoluzi.actions import Action, Rules
from engine.xiaoluzi.bots import RandomBot
from engine.xiaoluzi.deal import Deal, Phase
from tests.hypothesis_profiles import examples

GAME = get_game("xiaoluzi")
HANDS = [
    "7H 8S 8H 9S 10S JS QS KS",
    "7D 8D 9H 10H JH QH KH AH",
    "8C 9D 10D JD QD KD AS AD",
    "9C 10C JC QC KC AC SJ BJ",
]


def to_play(seed: int, moves: int) -> Deal:
    deal = Deal(seed=seed)
    rng = random.Random(seed)
    bots = [RandomBot(seed=seed * 4 + s) for s in range(4)]
    while deal.phase is not Phase.PLAY:
        seat = deal.turn
        assert seat is not None
        deal.apply(rng.choice(deal.legal_actions(seat)))
    for _ in range(moves):
        if deal.over:
            break
        seat = deal.turn
        assert seat is not None
        deal.apply(bots[seat].act(deal, seat))
    return deal


@settings(max_examples=examples(80), deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 12), data=st.data())
def test_the_check_says_yes_exactly_when_the_deal_takes_the_play(
    seed: int, moves: int, data: st.DataObject
) -> None:
    deal = to_play(seed, moves)
    if deal.over:
        return
    seat = deal.turn
    assert seat is not None
    hand = list(deal.hands[seat])
    picks = data.draw(st.sets(st.integers(0, len(hand) - 1), min_size=1, max_size=5))
    selection = [hand[i] for i in sorted(picks)]
    verdict = GAME.explain_selection(view=deal.private_view(seat), cards=format_cards(selection))
    trial = copy.deepcopy(deal)
    try:
        trial.apply(Action.play(seat, selection))
        taken = True
    except IllegalActionError:
        taken = False
    assert verdict.ok is taken, (verdict, format_cards(selection))
    if taken:
        assert sorted(parse_cards(verdict.cards)) == sorted(selection)
        assert sorted(trial.hands[seat]) == sorted(set(hand) - set(selection))
    else:
        assert verdict.message != "%(cards)s cannot be played now."


def playing(*plays: str, rules: Rules | None = None) -> Deal:
    """HANDS in mode none (seat 0 holds 7H and leads), then ``plays`` (``"0 play 9S"``...)."""
    deal = Deal(hands=HANDS, rules=rules or Rules())
    for seat in range(4):
        deal.apply(Action.declare(seat, False))
    for text in plays:
        deal.apply(Action.parse(text))
    return deal


def say(deal: Deal, cards: str, english: bool = False) -> str:
    seat = deal.turn
    assert seat is not None
    verdict = GAME.explain_selection(view=deal.private_view(seat), cards=cards, english=english)
    assert not verdict.ok, verdict
    return str(verdict.message % dict(verdict.params))


def ok(deal: Deal, cards: str) -> Any:
    seat = deal.turn
    assert seat is not None
    verdict = GAME.explain_selection(view=deal.private_view(seat), cards=cards)
    assert verdict.ok, verdict
    return verdict


def test_a_refusal_names_the_play_and_the_play_to_beat() -> None:
    deal = playing("0 play 8S 8H", "1 pass", "2 pass")
    assert deal.turn == 3
    assert say(deal, "9C SJ BJ") == "The play to beat is 对子 8: play 2 cards or pass."
    assert say(deal, "9C SJ BJ", english=True) == (
        "The play to beat is 对子 (pair) 8: play 2 cards or pass."
    )
    assert ok(deal, "9C SJ").params == {"play": "对子 9", "current": "对子 8"}
    deal = playing("0 play 9S", "1 play AH")
    assert deal.turn == 2
    assert say(deal, "KD") == "This is 单张 K: it does not beat 单张 A."
    assert say(deal, "AS").startswith("This is 单张 A: as high as 单张 A, so it does not beat it")
    assert say(deal, "KD AD").startswith("2 cards of different ranks make no play")


def test_what_makes_no_play_is_said() -> None:
    deal = playing()
    assert say(deal, "8S 9S").startswith("2 cards of different ranks make no play")
    assert say(deal, "8S 8H 9S 10S JS").startswith("Only 1 to 4 cards make a play in 小路子")
    assert ok(deal, "8S 8H").params == {"play": "对子 8"}


def test_the_table_options_are_named() -> None:
    first = playing(rules=Rules(first_lead_7h=True))
    assert say(first, "9S") == "The first lead holds 7H (红桃7) at this table."
    assert ok(first, "7H").params == {"play": "单张 7"}
    hands = [
        "7H 7D SJ 9S 10S JS QS KS",
        "8S 8D 9H 10H JH QH KH AH",
        "8C 9D 10D JD QD KD AS AD",
        "9C 10C JC QC KC AC 8H BJ",
    ]
    sevens = Deal(hands=hands, rules=Rules(joker_sevens=False))
    for seat in range(4):
        sevens.apply(Action.declare(seat, False))
    assert say(sevens, "7H 7D SJ") == (
        "At this table jokers make no triple or four of 7 (joker_sevens is off)."
    )
    assert ok(sevens, "7H 7D").params == {"play": "对子 7"}
    assert ok(sevens, "7D SJ").params == {"play": "对子 7"}
