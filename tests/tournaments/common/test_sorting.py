"""Names sort by the value of their numbers, Chinese or Arabic (issue 15: 一队, 二队, 三队)."""

from __future__ import annotations

import pytest

from tournaments.common.sorting import chinese_number, natural_key, naturally


@pytest.mark.parametrize(
    ("text", "value"),
    [("一", 1), ("十", 10), ("十一", 11), ("二十", 20), ("九十九", 99), ("一百零五", 105)],
)
def test_chinese_numerals(text: str, value: int) -> None:
    assert chinese_number(text) == value


def test_teams_sort_by_their_numbers() -> None:
    names = ["研发十一队", "研发二队", "财务一队", "研发一队", "研发十队", "研发三队"]
    assert sorted(names, key=natural_key) == [
        "研发一队",
        "研发二队",
        "研发三队",
        "研发十队",
        "研发十一队",
        "财务一队",
    ]
    assert naturally(["team 10", "Team 9", "team 1"], str) == ["team 1", "Team 9", "team 10"]


def test_names_without_numbers_sort_as_text() -> None:
    assert sorted(["乙队", "甲队"], key=natural_key) == sorted(["乙队", "甲队"])
    assert natural_key("") == ()
