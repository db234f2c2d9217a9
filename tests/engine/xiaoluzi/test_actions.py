"""Actions and the rules options: typed values with a JSON (and text) round trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError, InvalidNotationError
from engine.xiaoluzi.actions import Action, ActionKind, Rules


def test_rules_defaults_are_the_contracts():
    rules = Rules()
    assert rules.to_json() == {
        "base_score": 1,
        "base_silver": 1,
        "deals_per_match": 4,
        "system_actions_to_escape": 3,
        "joker_sevens": True,
        "first_lead_7h": False,
        "slam_count": "cards",
    }


@given(
    st.builds(
        Rules,
        base_score=st.integers(1, 100),
        base_silver=st.integers(1, 100),
        deals_per_match=st.integers(1, 20),
        system_actions_to_escape=st.integers(0, 9),
        joker_sevens=st.booleans(),
        first_lead_7h=st.booleans(),
        slam_count=st.sampled_from(["cards", "plays"]),
    )
)
def test_rules_round_trip(rules):
    assert Rules.from_json(rules.to_json()) == rules


def test_missing_options_take_their_defaults():
    assert Rules.from_json({"slam_count": "plays"}) == Rules(slam_count="plays")


@pytest.mark.parametrize(
    "data",
    [
        {"base_score": 0},
        {"base_silver": -1},
        {"deals_per_match": 0},
        {"system_actions_to_escape": -1},
        {"joker_sevens": 1},
        {"first_lead_7h": "yes"},
        {"slam_count": "hands"},
        {"base_score": True},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(data):
    with pytest.raises(EngineError):
        Rules.from_json(data)


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        Rules().base_score = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        "0 declare",
        "1 no_declare",
        "2 counter",
        "3 no_counter",
        "0 play 9S BJ",
        "1 pass",
        "2 escape",
        "3 pass (system)",
        "0 no_declare (system)",
        "1 play 7H (system)",
    ],
)
def test_actions_round_trip_through_text_and_json(text):
    action = Action.parse(text)
    assert str(action) == text
    assert Action.from_json(action.to_json()) == action
    assert repr(action) == f"Action.parse({text!r})"


def test_action_constructors():
    assert Action.declare(1, True).kind is ActionKind.DECLARE
    assert Action.declare(1, False).kind is ActionKind.NO_DECLARE
    assert Action.counter(1, True).kind is ActionKind.COUNTER
    assert Action.counter(1, False).kind is ActionKind.NO_COUNTER
    assert Action.declare(1, True).kind.is_answer and not ActionKind.PLAY.is_answer


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"kind": "jump", "seat": 0},
        {"kind": "pass", "seat": 4},
        {"kind": "pass", "seat": True},
        {"kind": "pass", "seat": 0, "cards": "AS"},
        {"kind": "play", "seat": 0},
        {"kind": "play", "seat": 0, "cards": "7S"},
        {"kind": "play", "seat": 0, "cards": "AS AS"},
        {"kind": "pass", "seat": 0, "system": "yes"},
        {"kind": "pass", "seat": 0, "extra": 1},
    ],
)
def test_malformed_actions(data):
    with pytest.raises(InvalidNotationError):
        Action.from_json(data)
