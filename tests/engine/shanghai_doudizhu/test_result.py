"""Settlement: every row and example of *Result and scoring*, escapes and rating."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.shanghai_doudizhu.result import (
    EscapeKind,
    Factors,
    Outcome,
    all_pass_result,
    deal_result,
    escape_result,
    farmer_amount,
)
from engine.shanghai_doudizhu.rules import (
    DoubleReport,
    EscapeRounding,
    ReportLossRating,
    Rules,
)

WIN, LOSS, NO_PLAY = Outcome.LANDLORD, Outcome.FARMERS, Outcome.REPORT_NO_PLAY


def test_example_plain_bid_2_landlord_wins() -> None:
    r = deal_result(0, WIN, Factors(bid=2))
    assert r.points == (6, -2, -2, -2) and r.rating == (3, -1, -1, -1)


def test_example_head_bid_open_hand_win_and_loss() -> None:
    f = Factors(bid=3, head=True, open=True)
    assert deal_result(0, WIN, f).points == (24, -8, -8, -8)
    assert deal_result(0, LOSS, f).points == (-18, 6, 6, 6)


def test_example_everything_doubled() -> None:
    f = Factors(bid=3, head=True, open=True, huangfan=1, marked_joker=True, reported=2, fight=True)
    assert farmer_amount(f, True) == 128
    assert deal_result(2, WIN, f).points == (-128, -128, 384, -128)


def test_head_bid_ratio_only_on_a_landlord_win() -> None:
    f = Factors(bid=3, head=True)
    assert farmer_amount(f, True) == 4 and farmer_amount(f, False) == 3


def test_loss_keeps_every_factor_but_head() -> None:
    f = Factors(bid=2, huangfan=1, marked_joker=True)
    assert farmer_amount(f, False) == 8


def test_base_multiplies() -> None:
    assert deal_result(1, WIN, Factors(base=5, bid=1)).points == (-5, 15, -5, -5)


def test_report_no_play_drops_open_hand_factor() -> None:
    f = Factors(bid=3, head=True, open=True, reported=1, fight=False)
    assert farmer_amount(f, True) == 4
    r = deal_result(3, NO_PLAY, f)
    assert r.points == (-4, -4, -4, 12) and r.rating == (-1, -1, -1, 3) and r.winner == "landlord"


def test_double_report_no_play_is_x2() -> None:
    assert farmer_amount(Factors(bid=1, reported=2, fight=False), True) == 2
    assert farmer_amount(Factors(bid=1, reported=3, fight=False), True) == 2  # no 三报到


def test_report_fight_win_x2_double_x4() -> None:
    assert farmer_amount(Factors(bid=2, reported=1, fight=True), True) == 4
    assert farmer_amount(Factors(bid=2, reported=2, fight=True), True) == 8


def test_report_fight_lost_scores_zero_but_moves_rating() -> None:
    r = deal_result(0, LOSS, Factors(bid=2, reported=1, fight=True))
    assert r.points == (0, 0, 0, 0) and r.rating == (-3, 1, 1, 1)
    void = Rules(report_loss_rating=ReportLossRating.VOID)
    assert deal_result(0, LOSS, Factors(bid=2, reported=1, fight=True), void).rating == (0,) * 4


def test_double_report_per_set_option() -> None:
    rules = Rules(double_report=DoubleReport.PER_SET)
    assert farmer_amount(Factors(bid=1, reported=3, fight=True), True, rules) == 6
    assert farmer_amount(Factors(bid=1, reported=3, fight=False), True, rules) == 3


def test_every_settled_deal_sums_to_zero() -> None:
    for outcome in (WIN, LOSS):
        for f in (Factors(bid=1), Factors(bid=3, head=True, open=True, huangfan=2)):
            assert sum(deal_result(1, outcome, f).points) == 0


def test_all_pass_scores_nothing() -> None:
    r = all_pass_result()
    assert r.points == (0,) * 4 and r.rating == (0,) * 4 and not r.played


def test_escape_farmer_pays_everyone_what_they_would_win() -> None:
    # landlord seat 0 bid 2: the landlord would win 6, each farmer 2
    r = escape_result(1, EscapeKind.DISCONNECT, 0, Factors(bid=2))
    assert r.points == (6, -10, 2, 2) and r.rating == (3, -1, 1, 1)
    assert escape_result(1, EscapeKind.TIMEOUTS, 0, Factors(bid=2)).points == (6, -10, 2, 2)


def test_escape_active_costs_a_tenth_more_rounded_up_once() -> None:
    r = escape_result(1, EscapeKind.ACTIVE, 0, Factors(bid=2))
    assert r.points == (6, -11, 2, 2)  # 10 * 1.1 = 11
    assert escape_result(0, EscapeKind.ACTIVE, 0, Factors(bid=1)).points == (-4, 1, 1, 1)
    half = Rules(active_escape_rounding=EscapeRounding.HALF_UP)
    assert escape_result(0, EscapeKind.ACTIVE, 0, Factors(bid=1), half).points == (-3, 1, 1, 1)


def test_escape_landlord_pays_farmers_their_win() -> None:
    r = escape_result(0, EscapeKind.DISCONNECT, 0, Factors(bid=3, head=True, open=True))
    assert r.points == (-18, 6, 6, 6) and r.rating == (-3, 1, 1, 1)


def test_escape_after_report_fight_farmers_win_nothing() -> None:
    f = Factors(bid=1, reported=1, fight=True)
    assert escape_result(0, EscapeKind.DISCONNECT, 0, f).points == (0, 0, 0, 0)
    assert escape_result(1, EscapeKind.DISCONNECT, 0, f).points == (6, -6, 0, 0)


def test_escape_before_the_landlord_is_fixed() -> None:
    r = escape_result(2, EscapeKind.DISCONNECT, None, Factors(bid=0, huangfan=1))
    assert r.points == (2, 2, -6, 2) and r.rating == (1, 1, -3, 1)
    assert escape_result(2, EscapeKind.DISCONNECT, None, Factors(bid=2)).points == (2, 2, -6, 2)


def test_factors_are_checked() -> None:
    with pytest.raises(EngineError):
        Factors(bid=2, head=True)
    with pytest.raises(EngineError):
        Factors(bid=1, open=True)
