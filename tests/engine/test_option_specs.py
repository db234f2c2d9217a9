"""Issue 26: every game describes its options for people: a name and help in both languages, and
each choice in words (a form never shows a raw code such as ``marked_card`` or ``half_up``)."""

from __future__ import annotations

import pytest

from engine.registry import get_game, registered_keys

EVENT_OWN = {"deals_per_match", "base_score", "base"}  # set with the event's own fields


@pytest.mark.parametrize("key", registered_keys())
def test_every_option_has_help_and_every_choice_a_word(key: str) -> None:
    for spec in get_game(key).option_specs():
        assert spec.label_zh and spec.label_en
        if spec.name not in EVENT_OWN:
            assert spec.help_zh and spec.help_en, spec.name
        if spec.kind == "choice":
            assert spec.default in spec.choices
            for choice in spec.choices:
                assert spec.choice_label(choice) != choice, (spec.name, choice)
                assert spec.choice_label(choice, chinese=False) != choice, (spec.name, choice)
            data = spec.to_json()
            assert set(data["choice_labels"]) == set(spec.choices)


def test_choice_labels_in_both_languages() -> None:
    specs = {s.name: s for s in get_game("shanghai_doudizhu").option_specs()}
    assert specs["first_bidder"].choice_label("marked_card") == "标记牌持有者"
    assert specs["active_escape_rounding"].choice_label("half_up", chinese=False) == "round half up"
    assert specs["first_bidder"].label(chinese=False) == "first bidder"
    assert specs["first_bidder"].choice_label("unknown") == "unknown"  # a value it does not name
