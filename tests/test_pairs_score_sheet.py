"""An offline table of a team event of a fixed-sides team game the platform has never named
(tests/pairsgame.py, 对墩: two sides of two) is entered from its score sheet through the one
generic form (issue 27): the form shows 对墩's own fields by the players' names, the preview puts
each deal in 对墩's words by the teams' names, the person who entered it cannot confirm it, a
second organizer does, and the match's result and the team standings follow; the printed sheet
has 对墩's columns. No production code names the game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from config.apps import games_register_extra
from engine.registry import unregister
from games.models import Match, Table
from tests.games.factories import PlayerFactory
from tests.sheet_pages import enter_and_confirm, offline_round, printed_sheets, refused_picks
from tests.tournaments.factories import EventFactory
from tournaments.events import entries as events_entries
from tournaments.standings.selectors import event_standings_rows

pytestmark = pytest.mark.django_db

TRICKS = ([2, 1, 1, 0], [1, 0, 2, 1])  # side A (seats 0, 2) takes 3 of 4 tricks, then 3 again
PICKS = {
    "action": "preview",
    **{f"d{n}_tricks_{s}": str(t) for n, row in enumerate(TRICKS, 1) for s, t in enumerate(row)},
}
SHEET = {"deals": [{"tricks": row} for row in TRICKS]}


@pytest.fixture(autouse=True)
def pairs() -> Iterator[None]:
    assert games_register_extra("pairs=tests.pairsgame") == ["pairs"]
    yield
    unregister("pairs")


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(game="pairs", table_mode=Table.Mode.OFFLINE, deals_per_match=2)
    assert not event.is_individual and event.team_size == 2
    red = events_entries.team_create(
        event=event, name="红队", players=PlayerFactory.create_batch(2)
    )
    blue = events_entries.team_create(
        event=event, name="蓝队", players=PlayerFactory.create_batch(2)
    )
    world = offline_round(event)
    pairing = world["pairing"]
    teams = {pairing.team_a_id: "A", pairing.team_b_id: "B"}
    return {**world, "side_of": {teams[t.pk]: t for t in (red, blue)}}


def test_a_team_table_of_pairs_is_entered_previewed_and_confirmed(world: dict[str, Any]) -> None:
    side_a, side_b = world["side_of"]["A"], world["side_of"]["B"]
    match = enter_and_confirm(
        world,
        PICKS,
        SHEET,
        preview=[f"{side_a.name} won 3 tricks of 4"],  # the deal in words, by the team's name
        review=f"{side_a.name}赢 3 墩",
    )
    assert match.status == Match.Status.FINISHED and match.deals.count() == 2
    assert match.points == [2, -2, 2, -2] and match.side_points == {"A": 4, "B": -4}
    assert match.winner == "A"
    rows = event_standings_rows(event=world["event"], kind="team")
    assert [(r.team, r.wins, r.losses) for r in rows] == [
        (side_a.name, 1, 0),
        (side_b.name, 0, 1),
    ]


def test_a_bad_pick_of_the_pairs_sheet_is_refused_naming_the_deal(world: dict[str, Any]) -> None:
    refused_picks(world, PICKS, {"d2_tricks_3": "2"}, 5)  # 5 tricks of 4 in all


def test_the_pairs_printed_sheet_has_its_columns_and_seats_from_1(world: dict[str, Any]) -> None:
    text = printed_sheets(world)
    assert world["names"][0] in text
    assert world["side_of"]["A"].name in text and world["side_of"]["B"].name in text
