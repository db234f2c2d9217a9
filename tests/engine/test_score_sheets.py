"""Referee score sheets of 小路子 and 上海斗地主 (issue 16): the contracts' numbers, the refusals
(naming the deal and the field), zero sums, and the same numbers as ``luzi score``."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.errors import EngineError
from engine.registry import get_game
from tests.hypothesis_profiles import examples

XL = get_game("xiaoluzi")
DDZ = get_game("shanghai_doudizhu")

# parts of deals that many rows share
CTR = {"mode": "countered", "declarer": 0, "counter": 1}
D0 = {"mode": "declared", "declarer": 0}
D2 = {"mode": "declared", "declarer": 2}
L1 = {"landlord": 0, "bid": 1}
L3 = {"landlord": 0, "bid": 3}
HEAD = {**L3, "head_bid": True, "winner": "landlord"}


def xl(*deals: dict[str, Any], base: int = 1, **options: Any) -> Any:
    rules = dataclasses.replace(XL.default_options(), **options)
    return XL.score_sheet({"deals": list(deals)}, options=rules, base=base)


def ddz(*deals: dict[str, Any], base: int = 1, **options: Any) -> Any:
    rules = DDZ.options_from_json(options)
    return DDZ.score_sheet({"deals": list(deals)}, options=rules, base=base)


def refused(score: Any, deals: list[dict[str, Any]], where: str, **options: Any) -> str:
    with pytest.raises(EngineError) as caught:
        score(*deals, **options)
    message = str(caught.value)
    assert message.startswith(where), message
    return message


# -- 小路子: the contract's tables -------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "points"),
    [
        # mode none: 1st +2, 2nd +1, 3rd −1, 4th −2
        ({"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]}, (-1, 1, -2, 2)),
        ({"mode": "none", "finish": [3, 1, 0, 2]}, (-1, 1, -2, 2)),
        # declared: d out first +3, each opponent −1; an opponent out first: d −3, each +1
        ({**D2, "finish": [2], "played": [3, 1, 8, 2]}, (-1, -1, 3, -1)),
        ({**D2, "finish": [0], "played": [8, 1, 4, 2]}, (1, 1, -3, 1)),
        # countered: the one out first +4, the other −4, bystanders 0
        ({**CTR, "finish": [0], "played": [8, 3, 0, 0]}, (4, -4, 0, 0)),
        ({**CTR, "finish": [1]}, (-4, 4, 0, 0)),
        # slams double every multiplier (三家全关, 宣牌方全关, 反宣方全关)
        ({**D2, "finish": [2], "played": [0, 0, 8, 0]}, (-2, -2, 6, -2)),
        ({**D2, "finish": [2], "slam": True}, (-2, -2, 6, -2)),
        ({**D2, "finish": [1], "played": [2, 8, 1, 3]}, (2, 2, -6, 2)),
        ({**D2, "finish": [1], "slam": True}, (2, 2, -6, 2)),
        ({**CTR, "finish": [0], "played": [8, 1, 0, 0]}, (8, -8, 0, 0)),
        ({**CTR, "finish": [1], "played": [0, 8, 0, 0]}, (-8, 8, 0, 0)),
        ({**CTR, "finish": [1], "slam": True}, (-8, 8, 0, 0)),
    ],
)  # fmt: skip
def test_xiaoluzi_deals_score_as_the_contract(
    deal: dict[str, Any], points: tuple[int, ...]
) -> None:
    sheet = xl(deal)
    assert sheet.points == points == sheet.deals[0].points
    slam = abs(max(points, key=abs)) in (6, 8)
    # 宣牌成功: the declarer or counter-declarer who went out first; 全关: the seats a slam won
    made = deal["finish"][0] if deal["mode"] != "none" else None
    made = made if made in (deal.get("declarer"), deal.get("counter")) else None
    assert sheet.figures[-1] == {
        "silver": {str(s): p for s, p in enumerate(points)},
        "declared_won": {str(s): int(s == made) for s in range(4)},
        "slams": {str(s): int(slam and p > 0) for s, p in enumerate(points)},
    }
    assert sheet.deals[0].result["slam"] is slam
    assert sheet.end_reason is None and sheet.winner is None


def test_xiaoluzi_base_score_and_base_silver_scale_both_ledgers() -> None:
    # result.py's example: X = 2, Y = 5
    sheet = xl({"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]}, base=2, base_silver=5)
    assert sheet.points == (-2, 2, -4, 4)
    assert sheet.figures[-1]["silver"] == {"0": -5, "1": 5, "2": -10, "3": 10}


@pytest.mark.parametrize(
    ("deal", "points"),
    [
        ({"mode": "none", "finish": [], "escape": 1}, (1, -6, 1, 1)),
        ({"mode": "none", "finish": [3], "escape": 1}, (1, -6, 1, 2)),
        ({"mode": "declared", "declarer": 2, "escape": 2}, (1, 1, -9, 1)),
        ({"mode": "declared", "declarer": 2, "escape": 0}, (-6, 0, 3, 0)),
        ({"mode": "countered", "declarer": 0, "counter": 3, "escape": 3}, (4, 0, 0, -12)),
    ],
)
def test_xiaoluzi_escapes_score_as_the_contract_and_end_the_match(
    deal: dict[str, Any], points: tuple[int, ...]
) -> None:
    sheet = xl({"mode": "none", "finish": [0, 1, 2]}, deal)
    assert sheet.deals[1].points == points and sheet.deals[1].escape == deal["escape"]
    assert sheet.deals[1].result["kind"] == "escape"
    assert sheet.end_reason == "escape" and sheet.left is None
    refused(xl, [{"mode": "none", "finish": [0, 1, 2]}, deal, {"leave": 0}], "deal 3: ")


def test_xiaoluzi_leaving_between_deals_costs_three_and_ends_the_match() -> None:
    sheet = xl({"mode": "none", "finish": [0, 1, 2]}, {"leave": 2}, base=3)
    assert sheet.points == (2 * 3 + 3, 1 * 3 + 3, -1 * 3 - 9, -2 * 3 + 3)
    assert sheet.left == 2 and sheet.end_reason == "left" and len(sheet.deals) == 1
    assert sheet.figures[-1]["silver"] == {"0": 3, "1": 2, "2": -4, "3": -1}
    assert len(sheet.figures) == 3  # the start, deal 1, the leaving


def test_xiaoluzi_a_match_of_four_deals_ends_and_has_a_winner() -> None:
    deal = {"mode": "declared", "declarer": 1, "finish": [1]}
    sheet = xl(deal, deal, {"mode": "none", "finish": [0, 1, 2]}, deal)
    assert sheet.end_reason == "deals_played" and sheet.winner == "1"
    assert sheet.points == (-1, 10, -4, -5)
    assert [d.number for d in sheet.deals] == [1, 2, 3, 4]
    assert [d.dealer for d in sheet.deals] == [1, 1, 0, 1]  # the declarer without holder_7h
    assert (
        refused(xl, [deal] * 5, "deal 5: ") == "deal 5: the match has already ended (deals_played)"
    )
    json.dumps(sheet.to_json())


def test_xiaoluzi_the_slam_flag_alone_leaves_played_unknown() -> None:
    sheet = xl({"mode": "declared", "declarer": 0, "finish": [0], "slam": True, "holder_7h": 3})
    assert sheet.deals[0].result["played"] is None and sheet.deals[0].dealer == 3


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"mode": "bogus", "finish": [0, 1, 2]}, "mode"),
        ({"finish": [0, 1, 2]}, "mode"),
        ({"mode": "none", "declarer": 0, "finish": [0, 1, 2]}, "declarer"),
        ({"mode": "declared", "finish": [0]}, "declarer"),
        ({"mode": "declared", "declarer": 4, "finish": [0]}, "declarer"),
        ({"mode": "declared", "declarer": 0, "counter": 1, "finish": [0]}, "counter"),
        ({"mode": "countered", "declarer": 0, "finish": [0]}, "counter"),
        ({"mode": "countered", "declarer": 0, "counter": 0, "finish": [0]}, "counter"),
        ({"mode": "none", "finish": [0, 1, 1]}, "finish"),  # a seat twice
        ({"mode": "none", "finish": [0, 1]}, "finish"),
        ({"mode": "none", "finish": [0, 1, 5]}, "finish"),
        ({"mode": "declared", "declarer": 0, "finish": [0, 1]}, "finish"),
        ({**CTR, "finish": [2]}, "finish"),  # bystander
        ({"mode": "none", "finish": [0, 1, 2], "slam": True}, "slam"),
        ({**D0, "finish": [0], "played": [8, 1, 0, 0], "slam": True}, "slam"),
        ({**D0, "finish": [0], "played": [8, 0, 0, 0], "slam": False}, "slam"),
        ({**D0, "finish": [0], "played": [7, 0, 0, 0]}, "played"),
        ({**D0, "finish": [0], "played": [8, 0, 0]}, "played"),
        ({**D0, "finish": [0], "played": [8, 9, 0, 0]}, "played"),
        ({**CTR, "finish": [0], "played": [8, 1, 2, 0]}, "played"),
        ({"mode": "none", "finish": [0, 1, 2], "slam": "yes"}, "slam"),
        ({"mode": "none", "finish": [0, 1, 2], "holder_7h": -1}, "holder_7h"),
        ({"mode": "none", "finish": [0, 1, 2], "bid": 1}, "bid"),
        ({"mode": "none", "finish": [0, 1, 2], "escape": 3}, "finish"),  # the deal was over
        ({"mode": "none", "finish": [0], "escape": 0}, "escape"),  # out already
        ({**CTR, "escape": 2}, "escape"),  # bystander
        ({"mode": "declared", "declarer": 0, "escape": 1, "played": [0, 0, 0, 0]}, "played"),
        ({"mode": "none", "escape": 9}, "escape"),
        ({"leave": 1, "mode": "none"}, "mode"),
        ({"leave": 7}, "leave"),
    ],
)  # fmt: skip
def test_xiaoluzi_refusals_name_the_deal_and_the_field(deal: dict[str, Any], field: str) -> None:
    refused(xl, [{"mode": "none", "finish": [0, 1, 2]}, deal], f"deal 2: {field}: ")


# -- 上海斗地主: the contract's examples ------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "points", "rating"),
    [
        # plain bid 2, landlord wins: +6/−2
        ({"landlord": 0, "bid": 2, "winner": "landlord"}, (6, -2, -2, -2), (3, -1, -1, -1)),
        ({"landlord": 1, "bid": 2, "winner": "farmers"}, (2, -6, 2, 2), (1, -3, 1, 1)),
        # 头撂 + 摊打: landlord wins f = 4·2 = 8 (+24), loses f = 3·2 = 6 (−18)
        ({"landlord": 0, "bid": 3, "head_bid": True, "open_hand": True, "winner": "landlord"},
         (24, -8, -8, -8), (3, -1, -1, -1)),
        ({"landlord": 1, "bid": 3, "head_bid": True, "open_hand": True, "winner": "farmers"},
         (6, -18, 6, 6), (1, -3, 1, 1)),
        # 荒番 + 标记王 + 头撂 + 摊打 + 双报到 打, landlord wins: f = 4·2^3·4 = 128 (+384)
        ({"landlord": 2, "bid": 3, "head_bid": True, "open_hand": True, "marked_joker": True,
          "report": "double_play", "redeals": 1, "winner": "landlord"},
         (-128, -128, 384, -128), (-1, -1, 3, -1)),
        # 报到 不打: no 摊打 factor; 双报到 ×2
        ({"landlord": 0, "bid": 3, "head_bid": True, "open_hand": True, "report": "no_play",
          "winner": "landlord"}, (12, -4, -4, -4), (3, -1, -1, -1)),
        ({"landlord": 0, "bid": 1, "report": "double_no_play", "winner": "landlord"},
         (6, -2, -2, -2), (3, -1, -1, -1)),
        # 报到 打 lost: all 0, rating moves
        ({"landlord": 3, "bid": 2, "report": "play", "winner": "farmers"}, (0, 0, 0, 0),
         (1, 1, 1, -3)),
    ],
)  # fmt: skip
def test_doudizhu_deals_score_as_the_contract(
    deal: dict[str, Any], points: tuple[int, ...], rating: tuple[int, ...]
) -> None:
    sheet = ddz(deal)
    assert sheet.points == points == sheet.deals[0].points
    assert sheet.figures[-1]["rating"] == {str(s): r for s, r in enumerate(rating)}
    wins = sheet.figures[-1]["landlord_wins"]
    assert sum(wins.values()) == (1 if deal["winner"] == "landlord" else 0)


def test_doudizhu_a_lost_report_moves_no_rating_under_void() -> None:
    deal = {"landlord": 3, "bid": 2, "report": "play", "winner": "farmers"}
    sheet = ddz(deal, report_loss_rating="void")
    assert sheet.figures[-1]["rating"] == {"0": 0, "1": 0, "2": 0, "3": 0}


def test_doudizhu_all_pass_deals_double_the_next_played_deal_by_the_option() -> None:
    plain = {"landlord": 0, "bid": 1, "winner": "landlord"}
    passes = [{"all_pass": True, "marked_joker": True}, {"all_pass": True}]
    flag = ddz(*passes, plain, plain)
    assert [d.points[0] for d in flag.deals] == [0, 0, 6, 3]  # 荒番 once, then cleared
    assert [d.result["outcome"] for d in flag.deals[:2]] == ["all_pass", "all_pass"]
    assert flag.figures[1] == flag.figures[0]  # an all-pass deal moves nothing
    assert [d.points[0] for d in ddz(*passes, plain, plain, huangfan="multiply").deals] == [
        0,
        0,
        12,
        3,
    ]
    assert [d.points[0] for d in ddz(*passes, plain, plain, huangfan="queue").deals] == [0, 0, 6, 6]
    # redeals: the all-pass deals the sheet does not list, or the count of those it lists
    assert ddz({**plain, "redeals": 2}, huangfan="multiply").points[0] == 12
    assert ddz(*passes, {**plain, "redeals": 2}, huangfan="multiply").points[0] == 12
    refused(ddz, [*passes, {**plain, "redeals": 1}], "deal 3: redeals: ")
    # all-pass deals do not count toward the match's deals
    sheet = ddz(*passes, plain, plain, plain, {"all_pass": True}, plain)
    assert sheet.end_reason == "deals_played" and sheet.winner == "0"
    assert sheet.figures[-1]["landlord_wins"] == {"0": 4, "1": 0, "2": 0, "3": 0}


@pytest.mark.parametrize(
    ("deal", "points", "rating"),
    [
        # before the landlord: each other +b·g·2^(H+J), the escaper pays the sum (×1.1 if active)
        ({"escape": {"seat": 2, "kind": "active", "during": "bidding"}, "bid": 1},
         (1, 1, -4, 1), (1, 1, -3, 1)),
        ({"escape": {"seat": 2, "kind": "disconnect", "during": "bidding"}},
         (1, 1, -3, 1), (1, 1, -3, 1)),
        ({"escape": {"seat": 0, "kind": "timeouts", "during": "bidding"}, "bid": 2,
          "marked_joker": True}, (-12, 4, 4, 4), (-3, 1, 1, 1)),
        # in play: each other gets what his side would win; a farmer's W is 0 after 报到 打
        ({"escape": {"seat": 1, "kind": "disconnect", "during": "play"}, "landlord": 0, "bid": 2},
         (6, -10, 2, 2), (3, -1, 1, 1)),
        ({"escape": {"seat": 0, "kind": "active", "during": "play"}, "landlord": 0, "bid": 3,
          "head_bid": True}, (-10, 3, 3, 3), (-3, 1, 1, 1)),
        ({"escape": {"seat": 1, "kind": "timeouts", "during": "play"}, "landlord": 0, "bid": 1,
          "report": "play"}, (6, -6, 0, 0), (3, -1, 1, 1)),
    ],
)  # fmt: skip
def test_doudizhu_escapes_score_as_the_contract_and_end_the_match(
    deal: dict[str, Any], points: tuple[int, ...], rating: tuple[int, ...]
) -> None:
    sheet = ddz(deal)
    assert sheet.points == points and sheet.deals[0].escape == deal["escape"]["seat"]
    assert sheet.figures[-1]["rating"] == {str(s): r for s, r in enumerate(rating)}
    assert sheet.end_reason == "escape"
    refused(ddz, [deal, {"all_pass": True}], "deal 2: ")


def test_doudizhu_leaving_between_deals_scores_nothing_and_ends_the_match() -> None:
    sheet = ddz({"landlord": 0, "bid": 1, "winner": "farmers"}, {"leave": 3})
    assert sheet.points == (-3, 1, 1, 1) and sheet.left == 3 and sheet.end_reason == "left"
    assert len(sheet.deals) == 1 and len(sheet.figures) == 2


def test_doudizhu_the_first_bidder_is_the_dealer_and_rotates_under_the_option() -> None:
    deal = {"landlord": 0, "bid": 1, "winner": "farmers"}
    sheet = DDZ.score_sheet(
        {"first_dealer": 2, "deals": [deal, {"all_pass": True}, deal]},
        options=DDZ.options_from_json({"first_bidder": "rotate"}),
    )
    assert [d.dealer for d in sheet.deals] == [2, 3, 0]
    with pytest.raises(EngineError, match="^deal 2: first_bidder: .*seat 3, not 1$"):
        DDZ.score_sheet(
            {"first_dealer": 2, "deals": [deal, {**deal, "first_bidder": 1}]},
            options=DDZ.options_from_json({"first_bidder": "rotate"}),
        )
    assert [d.dealer for d in ddz({**deal, "first_bidder": 3}, deal).deals] == [3, 0]


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"landlord": 4, "bid": 1, "winner": "landlord"}, "landlord"),  # a bad seat
        ({"bid": 1, "winner": "landlord"}, "landlord"),
        ({"landlord": 0, "bid": 4, "winner": "landlord"}, "bid"),
        ({"landlord": 0, "bid": 0, "winner": "landlord"}, "bid"),
        ({"landlord": 0, "winner": "landlord"}, "bid"),
        ({"landlord": 0, "bid": 1}, "winner"),
        ({"landlord": 0, "bid": 1, "winner": "draw"}, "winner"),
        ({"landlord": 0, "bid": 2, "head_bid": True, "winner": "landlord"}, "head_bid"),
        ({"landlord": 0, "bid": 3, "open_hand": True, "winner": "landlord"}, "open_hand"),
        ({"landlord": 0, "bid": 3, "report": "triple", "winner": "landlord"}, "report"),
        ({"landlord": 0, "bid": 3, "report": "no_play", "winner": "farmers"}, "winner"),
        ({**L3, "report": "play", "report_sets": 2, "winner": "farmers"}, "report_sets"),
        ({"landlord": 0, "bid": 3, "marked_joker": 1, "winner": "landlord"}, "marked_joker"),
        ({"landlord": 0, "bid": 3, "redeals": -1, "winner": "landlord"}, "redeals"),
        ({**HEAD, "first_bidder": 1}, "first_bidder"),
        ({**L3, "first_bidder": 0, "winner": "landlord"}, "head_bid"),  # the first bidder's 3
        ({"landlord": 0, "bid": 3, "winner": "landlord", "all_pass": True}, "all_pass"),
        ({"landlord": 0, "bid": 3, "winner": "landlord", "finish": [0]}, "finish"),
        ({"all_pass": True, "bid": 1}, "bid"),
        ({"all_pass": True, "redeals": 1}, "redeals"),
        ({"escape": 2}, "escape"),
        ({"escape": {"seat": 4, "kind": "active", "during": "play"}, **L1}, "escape.seat"),
        ({"escape": {"seat": 1, "kind": "quit", "during": "play"}, **L1}, "escape.kind"),
        ({"escape": {"seat": 1, "kind": "active", "during": "dinner"}}, "escape.during"),
        ({"escape": {"seat": 1, "kind": "active"}}, "escape.during"),
        ({"escape": {"seat": 1, "kind": "active", "during": "bidding", "x": 1}}, "escape.x"),
        ({"escape": {"seat": 1, "kind": "active", "during": "bidding"}, "landlord": 0}, "landlord"),
        ({"escape": {"seat": 1, "kind": "active", "during": "bidding"}, "bid": 3}, "bid"),
        ({"escape": {"seat": 1, "kind": "active", "during": "play"}, "bid": 2}, "landlord"),
        ({"escape": {"seat": 1, "kind": "active", "during": "play"}, "landlord": 0, "bid": 1,
          "report": "no_play"}, "report"),
        ({"leave": 0, "bid": 1}, "bid"),
        ({"leave": "0"}, "leave"),
    ],
)  # fmt: skip
def test_doudizhu_refusals_name_the_deal_and_the_field(deal: dict[str, Any], field: str) -> None:
    refused(ddz, [{"landlord": 1, "bid": 1, "winner": "farmers"}, deal], f"deal 2: {field}: ")


@pytest.mark.parametrize("game", [XL, DDZ], ids=lambda g: g.key)
@pytest.mark.parametrize(
    ("sheet", "start"),
    [
        ([], "sheet: "),
        ({"deals": {}}, "sheet: deals: "),
        ({"deals": [], "dealer": 0}, "sheet: dealer: "),
        ({"deals": [], "first_dealer": 6}, "sheet: first_dealer: "),
        ({"deals": ["x"]}, "deal 1: "),
    ],
)
def test_a_malformed_sheet_is_refused(game: Any, sheet: Any, start: str) -> None:
    with pytest.raises(EngineError) as caught:
        game.score_sheet(sheet, options=game.default_options())
    assert str(caught.value).startswith(start)


def test_options_of_another_game_are_refused() -> None:
    with pytest.raises(EngineError, match="not the options of"):
        XL.score_sheet({"deals": []}, options=DDZ.default_options())
    with pytest.raises(EngineError, match="not the options of"):
        DDZ.score_sheet({"deals": []}, options=XL.default_options())


# -- the same numbers as ``luzi score`` / ``luzi escape`` ------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("deal", "argv"),
    [
        ({"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]},
         ["--mode", "none", "--finish", "3,1,0", "--cards-played", "8,8,5,8"]),
        ({**D2, "finish": [1], "played": [2, 8, 1, 3]},
         ["--mode", "declared", "--declarer", "2", "--finish", "1", "--cards-played", "2,8,1,3"]),
        ({**CTR, "finish": [0], "played": [8, 1, 0, 0]},
         ["--mode", "countered", "--declarer", "0", "--counter", "1", "--finish", "0",
          "--cards-played", "8,1,0,0"]),
    ],
)  # fmt: skip
def test_xiaoluzi_a_sheet_scores_as_luzi_score(
    capsys: pytest.CaptureFixture[str], deal: dict[str, Any], argv: list[str]
) -> None:
    sheet = xl(deal, base=3, base_silver=7)
    out = cli(capsys, "score", "--game", "xiaoluzi", *argv, "--base", "3", "--silver", "7")
    assert list(sheet.points) == out["points"] == sheet.deals[0].result["points"]
    assert list(sheet.figures[-1]["silver"].values()) == out["silver"]
    assert sheet.deals[0].result["slam"] == out["slam"]


def test_xiaoluzi_an_escape_and_a_leaving_score_as_luzi_escape(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheet = xl({"mode": "none", "finish": [3], "escape": 1}, base=2)
    out = cli(capsys, "escape", "--game", "xiaoluzi", "--seat", "1", "--mode", "none",
              "--finish", "3", "--base", "2")  # fmt: skip
    assert list(sheet.points) == out["points"]
    sheet = xl({"leave": 0}, base=2)
    out = cli(
        capsys, "escape", "--game", "xiaoluzi", "--seat", "0", "--between-deals", "--base", "2"
    )
    assert list(sheet.points) == out["points"]


@pytest.mark.parametrize(
    ("deal", "argv"),
    [
        ({"landlord": 0, "bid": 2, "winner": "landlord"},
         ["--landlord", "0", "--bid", "2", "--winner", "landlord"]),
        ({"landlord": 2, "bid": 3, "head_bid": True, "open_hand": True, "marked_joker": True,
          "report": "double_play", "redeals": 1, "winner": "landlord"},
         ["--landlord", "2", "--bid", "3", "--head-bid", "--open-hand", "--marked-joker",
          "--report", "double_play", "--redeals", "1", "--winner", "landlord"]),
        ({"landlord": 1, "bid": 3, "report": "no_play", "winner": "landlord"},
         ["--landlord", "1", "--bid", "3", "--report", "no_play", "--winner", "landlord"]),
        ({"landlord": 3, "bid": 1, "redeals": 3, "winner": "farmers"},
         ["--landlord", "3", "--bid", "1", "--redeals", "3", "--winner", "farmers"]),
    ],
)  # fmt: skip
def test_doudizhu_a_sheet_scores_as_luzi_score(
    capsys: pytest.CaptureFixture[str], deal: dict[str, Any], argv: list[str]
) -> None:
    sheet = ddz(deal, base=5)
    out = cli(capsys, "score", "--game", "shanghai_doudizhu", *argv, "--base", "5")
    assert list(sheet.points) == out["points"] and sheet.deals[0].result == out["result"]
    assert list(sheet.figures[-1]["rating"].values()) == out["rating"]


@pytest.mark.parametrize(
    ("deal", "argv"),
    [
        ({"escape": {"seat": 2, "kind": "active", "during": "bidding"}, "bid": 2},
         ["--seat", "2", "--kind", "active", "--bid", "2"]),
        ({"escape": {"seat": 0, "kind": "disconnect", "during": "play"}, "landlord": 0, "bid": 3,
          "head_bid": True, "open_hand": True, "report": "play"},
         ["--seat", "0", "--kind", "disconnect", "--landlord", "0", "--bid", "3", "--head-bid",
          "--open-hand", "--report", "play"]),
    ],
)  # fmt: skip
def test_doudizhu_an_escape_scores_as_luzi_escape(
    capsys: pytest.CaptureFixture[str], deal: dict[str, Any], argv: list[str]
) -> None:
    sheet = ddz(deal, base=2)
    out = cli(capsys, "escape", "--game", "shanghai_doudizhu", *argv, "--base", "2")
    assert list(sheet.points) == out["points"] and sheet.deals[0].result == out["result"]


# -- every deal sums to zero, escapes aside -------------------------------------------------

SEAT = st.integers(0, 3)


@st.composite
def xiaoluzi_deals(draw: st.DrawFn) -> dict[str, Any]:
    mode = draw(st.sampled_from(["none", "declared", "countered"]))
    order = draw(st.permutations(range(4)))
    if mode == "none":
        return {"mode": mode, "finish": list(order[: draw(st.integers(3, 4))])}
    declarer, counter = order[0], order[1]
    deal: dict[str, Any] = {"mode": mode, "declarer": declarer}
    if mode == "countered":
        deal["counter"] = counter
        first = draw(st.sampled_from([declarer, counter]))
    else:
        first = draw(SEAT)
    deal["finish"] = [first]
    deal["slam"] = draw(st.booleans())
    return deal


@st.composite
def doudizhu_deals(draw: st.DrawFn) -> dict[str, Any]:
    bid = draw(st.integers(1, 3))
    head = bid == 3 and draw(st.booleans())
    report = draw(st.sampled_from(["none", "play", "no_play", "double_play", "double_no_play"]))
    return {
        "landlord": draw(SEAT),
        "bid": bid,
        "head_bid": head,
        "open_hand": head and draw(st.booleans()),
        "report": report,
        "marked_joker": draw(st.booleans()),
        "redeals": draw(st.integers(0, 3)),
        "winner": "landlord"
        if "no_play" in report
        else draw(st.sampled_from(["landlord", "farmers"])),
    }


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(xiaoluzi_deals(), min_size=1, max_size=4), st.integers(1, 5))
def test_xiaoluzi_every_deal_sums_to_zero(deals: list[dict[str, Any]], base: int) -> None:
    sheet = xl(*deals, base=base, base_silver=base + 1)
    assert all(sum(d.points) == 0 for d in sheet.deals)
    assert sum(sheet.points) == 0 and sum(sheet.figures[-1]["silver"].values()) == 0


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(doudizhu_deals(), min_size=1, max_size=4),
    st.sampled_from(["flag", "multiply", "queue"]),
)
def test_doudizhu_every_deal_sums_to_zero(deals: list[dict[str, Any]], huangfan: str) -> None:
    sheet = ddz(*deals, huangfan=huangfan)
    assert all(sum(d.points) == 0 for d in sheet.deals) and sum(sheet.points) == 0
    assert sum(sheet.figures[-1]["landlord_wins"].values()) <= len(deals)


@settings(max_examples=examples(40), deadline=None)
@given(SEAT, st.sampled_from(["disconnect", "timeouts", "active"]), st.integers(0, 2))
def test_doudizhu_an_escape_costs_the_escaper_what_the_others_win(
    seat: int, kind: str, bid: int
) -> None:
    sheet = ddz({"escape": {"seat": seat, "kind": kind, "during": "bidding"}, "bid": bid})
    others = sum(p for s, p in enumerate(sheet.points) if s != seat)
    assert -sheet.points[seat] >= others > 0
    assert (-sheet.points[seat] > others) is (kind == "active")


# -- a match played online, written on a sheet, scores the same ------------------------------


def sheet_deal(key: str, info: Any) -> dict[str, Any]:
    """What the referee writes for a deal played online (its result JSON and dealer)."""
    r = info.result
    if key == "xiaoluzi":
        deal = {"mode": r["mode"], "declarer": r["declarer"], "counter": r["counter"]}
        deal.update(finish=r["finish"], holder_7h=info.dealer)
        if r["kind"] == "escape":
            return {**deal, "escape": r["seat"]}
        return {**deal, "played": r["played"]}
    f = r["factors"]
    if r["outcome"] == "all_pass":
        return {"all_pass": True, "marked_joker": f["marked_joker"], "first_bidder": info.dealer}
    deal = {"marked_joker": f["marked_joker"], "first_bidder": info.dealer, "bid": f["bid"]}
    if r["landlord"] is not None:
        report = "none"
        if f["fight"] is not None and f["reported"]:
            report = ("double_" if f["reported"] > 1 else "") + ("" if f["fight"] else "no_")
            report += "play"
        deal.update(landlord=r["landlord"], head_bid=f["head_bid"], open_hand=f["open_hand"])
        deal.update(report=report)
        if f["reported"] > 1:
            deal["report_sets"] = f["reported"]
    if r["outcome"] != "escape":
        return {**deal, "winner": r["winner"]}
    during = "bidding" if r["landlord"] is None else "play"
    return {**deal, "escape": {"seat": r["escaper"], "kind": r["escape_kind"], "during": during}}


@pytest.mark.parametrize("game", [XL, DDZ], ids=lambda g: g.key)
@pytest.mark.parametrize("seed", range(8))
def test_a_match_played_online_scores_the_same_on_a_sheet(game: Any, seed: int) -> None:
    state = game.new_match(seed=seed, options=game.default_options(), base=1 + seed % 3)
    bots = [game.bot("heuristic", f"{seed}:{s}") for s in range(4)]
    escape_at = (seed % 4, 2 + seed) if seed % 2 else None  # (deal, actions) of an escape
    while not state.over:
        info = state.start_deal()
        while state.in_deal:
            seat = state.awaiting()[0]
            if escape_at == (info.number, len(state.deal_actions(info.number))):
                state.escape(seat)
                break
            state.apply(bots[seat].act(state, seat))
    deals = [sheet_deal(game.key, state.deal_info(n)) for n in range(1, state.deals_started + 1)]
    sheet = game.score_sheet({"deals": deals}, options=state.options, base=state.base)
    assert list(sheet.points) == list(state.points)
    assert [d.result for d in sheet.deals] == state.results()
    assert [d.dealer for d in sheet.deals] == [
        state.deal_info(n).dealer for n in range(1, state.deals_started + 1)
    ]
    assert sheet.figures[-1] == state.figures()
    assert (sheet.end_reason, sheet.winner) == (state.end_reason, state.winner)
