"""Settlement: the scoring table, slams, silver, escapes and leaving (pure functions)."""

from __future__ import annotations

import pytest

from engine.xiaoluzi.result import (
    CannotEscapeError,
    InvalidFinishError,
    Mode,
    deal_result,
    escape_result,
    leave_result,
)

NONE, DECLARED, COUNTERED = Mode.NONE, Mode.DECLARED, Mode.COUNTERED


# -- the scoring table -------------------------------------------------------------------------


def test_mode_none_pays_by_place():
    r = deal_result(NONE, [2, 0, 3], [8, 5, 8, 8])
    assert r.multipliers == (1, -2, 2, -1)
    assert r.finish == (2, 0, 3)
    assert not r.slam


def test_mode_none_accepts_the_fourth_place_too():
    assert deal_result(NONE, [2, 0, 3, 1], [8, 5, 8, 8]).multipliers == (1, -2, 2, -1)


def test_mode_none_has_no_slam_even_when_nobody_else_played():
    # seed 4a: 無全關這一説法
    r = deal_result(NONE, [0, 1, 2], [8, 8, 8, 0])
    assert not r.slam and r.multipliers == (2, 1, -1, -2)


def test_declared_declarer_out_first():
    r = deal_result(DECLARED, [1], [3, 8, 2, 1], declarer=1)
    assert r.multipliers == (-1, 3, -1, -1) and not r.slam


def test_declared_an_opponent_out_first_every_opponent_wins_one():
    r = deal_result(DECLARED, [3], [2, 4, 1, 8], declarer=1)
    assert r.multipliers == (1, -3, 1, 1) and not r.slam


def test_countered_declarer_out_first():
    r = deal_result(COUNTERED, [0], [8, 0, 2, 0], declarer=0, counter=2)
    assert r.multipliers == (4, 0, -4, 0) and not r.slam


def test_countered_counter_out_first():
    r = deal_result(COUNTERED, [2], [3, 0, 8, 0], declarer=0, counter=2)
    assert r.multipliers == (-4, 0, 4, 0) and not r.slam


def test_points_and_silver_use_the_same_multiplier():
    r = deal_result(DECLARED, [1], [3, 8, 2, 1], declarer=1, base_score=5, base_silver=100)
    assert r.points == (-5, 15, -5, -5)
    assert r.silver == (-100, 300, -100, -100)


@pytest.mark.parametrize(
    ("mode", "finish", "played", "roles"),
    [
        (NONE, [2, 0, 3], [8, 5, 8, 8], {}),
        (DECLARED, [1], [3, 8, 2, 1], {"declarer": 1}),
        (DECLARED, [1], [0, 8, 0, 0], {"declarer": 1}),
        (DECLARED, [3], [2, 1, 1, 8], {"declarer": 1}),
        (COUNTERED, [0], [8, 0, 1, 0], {"declarer": 0, "counter": 2}),
        (COUNTERED, [2], [0, 0, 8, 0], {"declarer": 0, "counter": 2}),
    ],
)
def test_both_ledgers_sum_to_zero(mode, finish, played, roles):
    r = deal_result(mode, finish, played, base_score=3, base_silver=7, **roles)
    assert sum(r.points) == 0 and sum(r.silver) == 0


# -- slams -------------------------------------------------------------------------------------


def test_three_opponents_slammed():
    # 三家全關: d out first, the three opponents played no card: d +6, each opponent -2
    r = deal_result(DECLARED, [0], [8, 0, 0, 0], declarer=0, base_score=1, base_silver=10)
    assert r.slam and r.multipliers == (6, -2, -2, -2)
    # [decided] each opponent loses 2Y silver (1*Y*2), not the seed's 3*Y*2
    assert r.silver == (60, -20, -20, -20)


def test_one_card_by_an_opponent_spares_the_slam():
    r = deal_result(DECLARED, [0], [8, 1, 0, 0], declarer=0)
    assert not r.slam and r.multipliers == (3, -1, -1, -1)


def test_declarer_slammed_after_one_card():
    # 宣牌方全關: an opponent out first and d played at most one card: d -6, opponents +2
    r = deal_result(DECLARED, [2], [1, 0, 8, 3], declarer=0)
    assert r.slam and r.multipliers == (-6, 2, 2, 2)


def test_declarer_who_played_two_cards_is_not_slammed():
    r = deal_result(DECLARED, [2], [2, 0, 8, 3], declarer=0)
    assert not r.slam and r.multipliers == (-3, 1, 1, 1)


def test_counter_slammed():
    # 反宣方全關: d out first and c played at most one card: d +8, c -8
    r = deal_result(COUNTERED, [1], [0, 8, 0, 1], declarer=1, counter=3)
    assert r.slam and r.multipliers == (0, 8, 0, -8)


def test_declarer_slammed_in_countered_with_zero_or_one_card():
    for n in (0, 1):
        r = deal_result(COUNTERED, [3], [0, n, 0, 8], declarer=1, counter=3)
        assert r.slam and r.multipliers == (0, -8, 0, 8)
    r = deal_result(COUNTERED, [3], [0, 2, 0, 8], declarer=1, counter=3)
    assert not r.slam and r.multipliers == (0, -4, 0, 4)


def test_slam_count_plays_counts_plays_not_cards():
    # [decided] option slam_count="plays": a declarer who led one pair and never played again
    played_plays = [1, 0, 3, 2]  # d made one play (say a pair); seat 2 went out in 3 plays
    r = deal_result(DECLARED, [2], played_plays, declarer=0, slam_count="plays")
    assert r.slam and r.multipliers == (-6, 2, 2, 2)
    # the same deal counted in cards (the pair is 2 cards) is no slam
    r = deal_result(DECLARED, [2], [2, 0, 8, 3], declarer=0)
    assert not r.slam


# -- malformed settlements ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "finish", "played", "roles"),
    [
        (NONE, [2, 0], [8, 5, 8, 0], {}),  # mode none ends at the third out
        (NONE, [2, 0, 0], [8, 5, 8, 0], {}),  # a seat twice
        (NONE, [2, 0, 4], [8, 5, 8, 0], {}),  # no seat 4
        (NONE, [2, 0, 3], [8, 5, 8, 8], {"declarer": 1}),  # mode none has no declarer
        (DECLARED, [1, 2], [3, 8, 8, 1], {"declarer": 1}),  # declared ends at the first out
        (DECLARED, [1], [3, 8, 2, 1], {}),  # no declarer
        (DECLARED, [1], [3, 7, 2, 1], {"declarer": 1}),  # out with 7 cards played
        (DECLARED, [1], [3, 8, 8, 1], {"declarer": 1}),  # 8 played but not out
        (DECLARED, [1], [3, 8, 2], {"declarer": 1}),  # three counts
        (DECLARED, [1], [3, 9, 2, 1], {"declarer": 1}),  # more than a hand
        (COUNTERED, [1], [8, 8, 0, 0], {"declarer": 0, "counter": 2}),  # a bystander out
        (COUNTERED, [0], [8, 1, 2, 0], {"declarer": 0, "counter": 2}),  # a bystander played
        (COUNTERED, [0], [8, 0, 2, 0], {"declarer": 0, "counter": 0}),  # one seat both roles
        (COUNTERED, [0], [8, 0, 2, 0], {"declarer": 0}),  # no counter
    ],
)
def test_impossible_settlements_are_refused(mode, finish, played, roles):
    with pytest.raises(InvalidFinishError):
        deal_result(mode, finish, played, **roles)


# -- escapes and leaving -----------------------------------------------------------------------


def test_escape_in_mode_none():
    assert escape_result(1, NONE, []).multipliers == (1, -6, 1, 1)


def test_escape_in_mode_none_first_place_keeps_its_two():
    assert escape_result(1, NONE, [3]).multipliers == (1, -6, 1, 2)
    assert escape_result(1, NONE, [3, 0]).multipliers == (1, -6, 1, 2)


def test_escape_by_the_declarer():
    assert escape_result(2, DECLARED, [], declarer=2).multipliers == (1, 1, -9, 1)


def test_escape_by_a_declared_opponent():
    # a declared opponent pays 6, not 3; d +3; the two other opponents 0
    assert escape_result(0, DECLARED, [], declarer=2).multipliers == (-6, 0, 3, 0)


def test_escape_in_countered():
    r = escape_result(1, COUNTERED, [], declarer=1, counter=3)
    assert r.multipliers == (0, -12, 0, 4)
    r = escape_result(3, COUNTERED, [], declarer=1, counter=3)
    assert r.multipliers == (0, 4, 0, -12)


def test_escape_amounts_scale_and_are_not_zero_sum():
    r = escape_result(2, DECLARED, [], declarer=2, base_score=2, base_silver=10)
    assert r.points == (2, 2, -18, 2) and r.silver == (10, 10, -90, 10)
    assert sum(r.points) != 0


def test_who_cannot_escape():
    with pytest.raises(CannotEscapeError, match="bystander"):
        escape_result(0, COUNTERED, [], declarer=1, counter=3)
    with pytest.raises(CannotEscapeError, match="out already"):
        escape_result(3, NONE, [3])
    with pytest.raises(CannotEscapeError, match="over"):
        escape_result(3, DECLARED, [1], declarer=1)
    with pytest.raises(CannotEscapeError, match="over"):
        escape_result(3, NONE, [0, 1, 2])


def test_escaping_never_pays():
    # each penalty is worse than the role's worst result from playing on, and than leaving (-3)
    worst_none = min(
        deal_result(NONE, f, [8 if s in f else 3 for s in range(4)]).multipliers[1]
        for f in ([0, 2, 3], [2, 3, 0], [3, 0, 2])
    )
    assert escape_result(1, NONE, []).multipliers[1] < min(worst_none, -3)
    worst_d = deal_result(DECLARED, [3], [1, 0, 0, 8], declarer=0).multipliers[0]
    assert escape_result(0, DECLARED, [], declarer=0).multipliers[0] < min(worst_d, -3)
    worst_opp = deal_result(DECLARED, [0], [8, 0, 0, 0], declarer=0).multipliers[1]
    assert escape_result(1, DECLARED, [], declarer=0).multipliers[1] < min(worst_opp, -3)
    worst_c = deal_result(COUNTERED, [0], [8, 0, 1, 0], declarer=0, counter=2).multipliers[2]
    assert escape_result(2, COUNTERED, [], declarer=0, counter=2).multipliers[2] < worst_c


def test_leaving_between_deals():
    r = leave_result(2, base_score=3, base_silver=5)
    assert r.multipliers == (1, 1, -3, 1)
    assert r.points == (3, 3, -9, 3) and r.silver == (5, 5, -15, 5)
    assert r.kind == "leave"
