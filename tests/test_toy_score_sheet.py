"""An offline table of a game the platform has never named (tests/toygame.py) is entered from
its score sheet through the one generic form (issue 27): the form shows the toy's own fields by
the players' names, the preview puts each deal in the toy's words, a second person confirms,
and the printed sheet has the toy's columns. No production code names the toy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from config.apps import games_register_extra
from engine.registry import unregister
from games.models import Table
from tests.sheet_pages import (
    enter_and_confirm,
    four_players,
    offline_round,
    printed_sheets,
    refused_picks,
)
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

PICKS = {
    "action": "preview",
    **{f"d1_tricks_{s}": str(t) for s, t in enumerate([2, 1, 1, 0])},
    **{f"d2_tricks_{s}": str(t) for s, t in enumerate([0, 0, 0, 4])},
}
SHEET = {"deals": [{"tricks": [2, 1, 1, 0]}, {"tricks": [0, 0, 0, 4]}]}


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    assert games_register_extra("toy=tests.toygame") == ["toy"]
    yield
    unregister("toy")


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(game="toy", table_mode=Table.Mode.OFFLINE, deals_per_match=2)
    four_players(event)
    return offline_round(event)


def test_the_toys_sheet_is_picked_previewed_entered_and_confirmed(world: dict[str, Any]) -> None:
    names = world["names"]
    preview = ["seats-preview", f"{names[0]} took the most tricks", f"{names[3]} took"]
    match = enter_and_confirm(world, PICKS, SHEET, preview=preview, review=f"{names[0]}墩数最多")
    assert match.deals.count() == 2 and match.points == [2, -2, -2, 2]


def test_a_bad_pick_of_the_toys_sheet_is_refused_naming_the_deal(world: dict[str, Any]) -> None:
    refused_picks(world, PICKS, {"d2_tricks_3": "3"}, 3)  # 3 tricks of 4 in all


def test_the_toys_printed_sheet_has_its_columns_and_seats_from_1(world: dict[str, Any]) -> None:
    assert f"1 · {world['names'][0]}" in printed_sheets(world)
