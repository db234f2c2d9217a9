"""Deal results: seeds/000 六 (cases 1-8, receivers), 七, 九, 十; seeds/001 escapes."""

from __future__ import annotations

import pytest

from engine.cards import Rank
from engine.daguai.result import (
    InvalidFinishError,
    Levels,
    Outcome,
    Team,
    deal_result,
    escape_result,
    leave_result,
    match_tributes,
)
from engine.errors import EngineError

# Team 甲 = A (seats 0, 2, 4) is the dealer team in the seed's cases; team 乙 = B (seats 1, 3, 5).
A_DEALS = {"dealer_team": Team.A, "levels": Levels.parse("5,9")}


def test_case_1_dealer_team_first_second_third_all_three_pay():
    r = deal_result([0, 2, 4], **A_DEALS)
    assert r.outcome is Outcome.WIN and r.winner is Team.A
    assert r.payers == (1, 3, 5) and r.receivers == (0, 2, 4)
    assert r.multiplier == 6
    assert str(r.levels) == "6,9"  # 甲升级
    assert r.next_dealer == 0


def test_case_2_dealer_team_first_two_opponents_fifth_sixth_pay():
    r = deal_result([0, 1, 2, 4], **A_DEALS)
    assert r.winner is Team.A and r.payers == (3, 5) and r.multiplier == 3
    assert r.receivers == (0, 2)
    assert str(r.levels) == "6,9"


def test_case_3_dealer_team_first_one_opponent_sixth_pays():
    r = deal_result([0, 1, 2, 3, 4], **A_DEALS)
    assert r.winner is Team.A and r.payers == (5,) and r.receivers == (0,) and r.multiplier == 1
    assert r.tributes == ((5, 0),)
    assert str(r.levels) == "6,9"


def test_case_4_dealer_team_first_and_sixth_is_a_draw_dealer_stays_no_level():
    r = deal_result([0, 1, 3, 2, 5], **A_DEALS)
    assert r.outcome is Outcome.DRAW and r.winner is None
    assert r.payers == () and r.tributes == () and r.multiplier == 0
    assert r.points == (0,) * 6
    assert Team.of(r.next_dealer) is Team.A  # 甲组仍是庄家
    assert str(r.levels) == "5,9"  # 但不升级


def test_case_5_other_team_first_and_sixth_is_a_draw_other_team_deals_next():
    r = deal_result([1, 0, 2, 3, 4], **A_DEALS)
    assert r.outcome is Outcome.DRAW and r.points == (0,) * 6
    assert r.next_dealer == 1 and Team.of(r.next_dealer) is Team.B  # 乙组成为庄家方
    assert str(r.levels) == "5,9"


def test_case_6_other_team_first_dealer_team_sixth_pays_no_level_up():
    r = deal_result([1, 0, 3, 2, 5], **A_DEALS)
    assert r.winner is Team.B and r.payers == (4,) and r.receivers == (1,) and r.multiplier == 1
    assert r.next_dealer == 1
    assert str(r.levels) == "5,9"  # a winning non-dealer team becomes dealer without going up


def test_case_7_other_team_first_dealer_team_fifth_sixth_pay():
    r = deal_result([1, 0, 3, 5], **A_DEALS)
    assert r.winner is Team.B and r.payers == (2, 4) and r.receivers == (1, 3)
    assert r.multiplier == 3
    assert str(r.levels) == "5,9"


def test_case_8_other_team_first_second_third_dealer_team_all_pay():
    r = deal_result([1, 3, 5], **A_DEALS)
    assert r.winner is Team.B and r.payers == (0, 2, 4) and r.multiplier == 6
    assert r.tributes == ((0, 1), (2, 3), (4, 5))
    assert r.next_dealer == 1 and str(r.levels) == "5,9"


def test_receivers_one_payer_is_winning_teams_first_finisher():
    r = deal_result([3, 0, 5, 2, 1], **A_DEALS)
    assert r.payers == (4,) and r.receivers == (3,)


def test_receivers_two_payers_are_first_and_second_of_the_winning_team_only():
    # B's 1st and 2nd finishers are 3rd and... overall places 1 and 3: seats 3 and 5.
    r = deal_result([3, 0, 5, 1], **A_DEALS)
    assert r.payers == (2, 4) and r.receivers == (3, 5)
    assert r.tributes == ((2, 3), (4, 5))


def test_matching_three_payers_each_pays_the_next_seat():
    assert match_tributes([1, 3, 5], [4, 0, 2]) == ((1, 2), (3, 4), (5, 0))
    assert match_tributes([0, 2, 4], [5, 3, 1]) == ((0, 1), (2, 3), (4, 5))


def test_matching_smallest_forward_distance_first():
    # payers 3, 5, receivers 0 (1st), 2: 5->0 is 1 step, so 3 pays 2 (5 steps), not 0 (3 steps).
    assert match_tributes([3, 5], [0, 2]) == ((3, 2), (5, 0))
    assert match_tributes([3, 5], [2, 0]) == ((3, 2), (5, 0))
    # payers 0 and 2, receivers 3 and 5: 2->3 is 1 step, then 0->5.
    assert match_tributes([0, 2], [5, 3]) == ((0, 5), (2, 3))
    assert match_tributes([4], [1]) == ((4, 1),)


def test_rule_7_only_a_winning_dealer_team_goes_up_one_level_however_many_pay():
    for finish in ([0, 2, 4], [0, 1, 2, 4], [0, 1, 2, 3, 4]):
        assert (
            str(deal_result(finish, dealer_team=Team.A, levels=Levels.parse("2,2")).levels) == "3,2"
        )
    for finish in ([1, 3, 5], [1, 0, 3, 5], [1, 0, 3, 2, 5]):
        r = deal_result(finish, dealer_team=Team.B, levels=Levels.parse("2,K"))
        assert str(r.levels) == "2,A" and not r.passed_a
    # dealer team loses: no level changes, the winners deal next
    r = deal_result([1, 3, 5], dealer_team=Team.A, levels=Levels.parse("7,3"))
    assert str(r.levels) == "7,3" and Team.of(r.next_dealer) is Team.B


def test_rule_9_win_or_draw_by_first_out_and_unfinished():
    assert deal_result([4, 2, 0], **A_DEALS).outcome is Outcome.WIN
    assert deal_result([5, 0, 2, 4], **A_DEALS).outcome is Outcome.DRAW
    assert deal_result([2, 1, 3, 4, 5], **A_DEALS).outcome is Outcome.DRAW
    assert deal_result([2, 1, 3, 5], **A_DEALS).outcome is Outcome.DRAW
    assert deal_result([5, 0, 1, 2, 3], **A_DEALS).outcome is Outcome.WIN


@pytest.mark.parametrize(
    ("finish", "mult"),
    [([0, 2, 4], 6), ([0, 1, 2, 4], 3), ([0, 1, 2, 3, 4], 1), ([0, 1, 3, 5], 0)],
)
def test_rule_10_points_by_tribute_count_zero_sum(finish, mult):
    r = deal_result(finish, dealer_team=Team.A, levels=Levels(), base=5)
    assert r.multiplier == mult
    assert r.points == tuple((mult * 5 if s % 2 == 0 else -mult * 5) for s in range(6))
    assert sum(r.points) == 0


def test_passing_a_dealer_team_wins_at_ace():
    r = deal_result([1, 3, 5], dealer_team=Team.B, levels=Levels.parse("K,A"))
    assert r.passed_a and str(r.levels) == "K,A"
    # a non-dealer team winning at A does not pass A
    r = deal_result([1, 3, 5], dealer_team=Team.A, levels=Levels.parse("K,A"))
    assert not r.passed_a
    # a draw at A does not pass A
    r = deal_result([1, 0, 2, 4], dealer_team=Team.B, levels=Levels.parse("K,A"))
    assert not r.passed_a and r.outcome is Outcome.DRAW


@pytest.mark.parametrize(
    "finish",
    [[], [0, 2], [0, 0, 2, 4], [0, 2, 4, 1], [0, 1, 2, 3], [6, 2, 4, 0], [1, 3, 5, 0], [-1]],
)
def test_impossible_finishing_orders_are_rejected(finish):
    with pytest.raises(InvalidFinishError):
        deal_result(finish, **A_DEALS)


def test_levels_notation():
    assert Levels.parse("10,A") == Levels(Rank.TEN, Rank.ACE)
    assert Levels.from_json(Levels.parse("J,2").to_json()) == Levels.parse("J,2")
    for bad in ("2", "2,3,4", "1,2", "SJ,2", "B,2"):
        with pytest.raises(EngineError):
            Levels.parse(bad)


# seeds/001 逃跑处理
def test_escape_opponents_hold_first_and_second_get_3b():
    assert escape_result(1, [0, 2], base=2).points == (6, -36, 6, 0, 6, 0)


def test_escape_opponents_hold_first_get_2b():
    assert escape_result(4, [3]).points == (0, 2, 0, 2, -18, 2)
    assert escape_result(1, [0, 3]).points == (2, -18, 2, 0, 2, 0)
    assert escape_result(1, [0]).points == (2, -18, 2, 0, 2, 0)


def test_escape_otherwise_opponents_get_1b():
    assert escape_result(1, []).points == (1, -18, 1, 0, 1, 0)
    assert escape_result(4, [2, 1]).points == (0, 1, 0, 1, -18, 1)
    assert escape_result(4, [2, 1, 3]).points == (0, 1, 0, 1, -18, 1)
    # a seat that has already gone out cannot escape (issue 12)
    with pytest.raises(InvalidFinishError, match="already gone out"):
        escape_result(0, [0, 1])


def test_escape_after_the_deal_ended_is_not_during_a_deal():
    with pytest.raises(InvalidFinishError):
        escape_result(1, [0, 2, 4])


def test_leaving_between_deals_minus_3b_opponents_plus_1b():
    assert leave_result(0, base=10).points == (-30, 10, 0, 10, 0, 10)
