"""The per-game entry form's picks become the game's own score sheet deals (the engine checks
the rules); a pick that is no number, or a leaving without its seat, is refused naming the
deal and the field."""

from __future__ import annotations

import pytest

from engine.registry import get_game
from tournaments.results.sheet_entry import PickError, picked_deals


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


def test_typed_lines_take_names_or_seats_counted_from_1() -> None:
    from config.exceptions import ApplicationError
    from tournaments.results.sheet_entry import lines_parse

    names = ["甲", "乙", "丙", "丁", "戊", "己"]
    assert lines_parse("1 3 5\n乙，甲 逃跑 丁\nleave 6", names) == [
        {"finish": [0, 2, 4]},
        {"finish": [1, 0], "escape": 3},
        {"finish": [], "leave": 5},
    ]
    for bad in ("0 2 4", "1 7", "甲 庚", "1 escape"):  # no seat 0 or 7, nobody called 庚
        with pytest.raises(ApplicationError, match="第1行"):  # Chinese by default
            lines_parse(bad, names)


def test_every_games_sheet_spec_is_complete_in_both_languages() -> None:
    from engine.registry import registered_keys
    from engine.sheets import FIELD_KINDS

    for key in registered_keys():
        game = get_game(key)
        if not game.score_sheets:
            continue
        spec = game.sheet_spec
        assert spec is not None, key
        assert spec.typed in ("lines", "json") and spec.fields and spec.columns
        for field in spec.fields:
            assert field.kind in FIELD_KINDS and field.label_zh and field.label_en, (key, field)
            assert all(zh and en for _, zh, en in field.choices), (key, field.name)
        assert spec.first_dealer_zh and spec.first_dealer_en and spec.help_zh and spec.help_en
        assert spec.form_deal({f.name: None for f in spec.fields}) is None  # a blank row
        assert picked_deals(key, {}, 3) == []


def test_the_sites_sheet_code_names_no_game() -> None:
    # Issue 27: one entry form, preview and printed sheet for every game, drawn from its spec.
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    files = [
        *(
            root / "tournaments" / "results" / name
            for name in ("sheet_entry.py", "sheet_form.py", "services.py", "preview.py", "views.py")
        ),
        root / "tournaments" / "rounds" / "dashboard.py",
        *(root / "templates" / "tournaments" / "manage").glob("*.html"),
    ]
    assert root / "tournaments" / "results" / "sheet_form.py" in files
    named = re.compile(r"daguai|xiaoluzi|shanghai_doudizhu|大怪|小路子|斗地主")
    found = [f"{path.name}:{n}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if named.search(line)]  # fmt: skip
    assert found == []
