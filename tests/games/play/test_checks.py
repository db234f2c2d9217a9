"""The words a player reads about a selection before sending it: the engine's verdict."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from games.play.checks import SeatView, selection_explain

HAND = "BJ SJ 2C 2D AD AS KS QD JC JD JD JH 9H 9H 8C 8D 8S 7H 6C 6D 6H 6S 5C 5C 5S 3D 3S"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def view(current: str | None = None, *, turn: bool = True, returning: bool = False) -> SeatView:
    return SeatView(hand=HAND, level="2", current=current, my_turn=turn, returning=returning)


def test_a_lead_names_the_play() -> None:
    verdict = selection_explain(view=view(), cards="9H 9H")
    assert verdict.ok and verdict.kind == "play" and verdict.play_type == "pair"
    assert "对牌" in verdict.message and "9" in verdict.message


def test_jokers_are_read_by_the_engine() -> None:
    verdict = selection_explain(view=view(), cards="3S 5C 6C BJ 7H")  # 3 4 5 6 7 with a joker
    assert verdict.ok and verdict.play_type == "straight"


@pytest.mark.parametrize(
    ("current", "cards", "words"),
    [
        ("KH KD", "9H 9H", "does not beat"),
        ("KH KD", "9H", "play 2 cards or pass"),
        ("3H 3C", "9H 9H", "beats"),
        ("4H 4D 4C QS QH", "6C 6D 6H 6S 5C", "beats"),  # four with one over a full house
    ],
)
def test_following_compares_with_the_current_play(current: str, cards: str, words: str) -> None:
    verdict = selection_explain(view=view(current), cards=cards)
    assert words in verdict.message
    assert verdict.ok is (words == "beats")


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("", "Select cards first"),
        ("9H 8C", "make no play"),
        ("9H 8C 8D 8S", "1, 2, 3 or 5"),
        ("3S 5C 9H KS AD", "five cards must be"),
        ("10H", "do not hold 10H"),
        ("9H 9H 9H", "do not hold 9H"),
        ("ZZ", "not cards"),
        ("3S " * 80, "Too many"),
    ],
)
def test_what_is_wrong_is_said_in_words(cards: str, words: str) -> None:
    verdict = selection_explain(view=view(), cards=cards)
    assert not verdict.ok and words in verdict.message


def test_not_your_turn_and_returning() -> None:
    assert "not your turn" in selection_explain(view=view(turn=False), cards="9H").message
    back = selection_explain(view=view(turn=False, returning=True), cards="3D")
    assert back.ok and back.kind == "return"
    two = selection_explain(view=view(turn=False, returning=True), cards="3D 3S")
    assert not two.ok and "exactly one" in two.message
