"""The per-game entry form's picks become the game's own score sheet deals (the engine checks
the rules); a pick that is no number, or a leaving without its seat, is refused naming the
deal and the field."""

from __future__ import annotations

import pytest

from engine.registry import get_game
from tournaments.sheets import PickError, picked_deals


def test_doudizhu_rows_become_the_sheets_deals() -> None:
    post = {
        "d1_end": "escape",
        "d1_escape": "2",
        "d1_escape_kind": "active",
        "d1_escape_during": "bidding",
        "d1_bid": "1",
        "d1_report": "none",
        "d3_end": "landlord",  # a blank row in between is skipped
        "d3_landlord": "1",
        "d3_bid": "3",
        "d3_head_bid": "1",
        "d3_open_hand": "1",
        "d3_report": "no_play",
        "d3_redeals": "2",
        "d3_first_bidder": "1",
        "d4_leave": "3",  # only the seat that left
    }
    deals = picked_deals("shanghai_doudizhu", post, 4)
    assert deals == [
        {"escape": {"seat": 2, "kind": "active", "during": "bidding"}, "bid": 1},
        {
            "winner": "landlord",
            "landlord": 1,
            "bid": 3,
            "head_bid": True,
            "open_hand": True,
            "report": "no_play",
            "redeals": 2,
            "first_bidder": 1,
        },
        {"leave": 3},
    ]
    game = get_game("shanghai_doudizhu")
    scored = game.score_sheet({"deals": deals[1:2]}, options=game.default_options())
    assert scored.deals[0].result["outcome"] == "report_no_play"


def test_xiaoluzi_rows_become_the_sheets_deals() -> None:
    post = {
        "d1_mode": "countered",
        "d1_declarer": "0",
        "d1_counter": "1",
        "d1_1": "0",
        "d1_slam": "1",
        "d2_mode": "declared",
        "d2_declarer": "2",
        "d2_escape": "0",
        "d3_mode": "leave",
        "d3_leave": "1",
    }
    assert picked_deals("xiaoluzi", post, 3) == [
        {"mode": "countered", "declarer": 0, "counter": 1, "finish": [0], "slam": True},
        {"mode": "declared", "declarer": 2, "finish": [], "escape": 0},
        {"leave": 1},
    ]


@pytest.mark.parametrize(
    ("game", "post", "field"),
    [
        ("shanghai_doudizhu", {"d1_end": "landlord", "d1_bid": "two"}, "bid"),
        ("shanghai_doudizhu", {"d1_end": "leave"}, "leave"),
        ("xiaoluzi", {"d1_mode": "none", "d1_2": "-1"}, "finish"),
        ("xiaoluzi", {"d1_mode": "declared", "d1_played_3": "1e9"}, "played"),
        ("xiaoluzi", {"d1_mode": "leave"}, "leave"),
    ],
)
def test_a_bad_pick_names_the_deal_and_field(game: str, post: dict[str, str], field: str) -> None:
    with pytest.raises(PickError) as caught:
        picked_deals(game, post, 2)
    assert (caught.value.deal, caught.value.field) == (1, field)
