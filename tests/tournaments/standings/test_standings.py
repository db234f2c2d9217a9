"""The pure standings module: team order and tie-breaks, players, units, a meet's placement
points."""

from __future__ import annotations

import doctest

import pytest

from tournaments.draw import teams as pairing
from tournaments.standings import ranking as standings
from tournaments.standings.ranking import (
    MatchResult,
    PlayerFigures,
    meet_standings,
    player_standings,
    team_standings,
    unit_standings,
)


@pytest.mark.parametrize("module", [pairing, standings])
def test_doctests(module) -> None:
    assert doctest.testmod(module).failed == 0


def _row(rows, team):
    return next(r for r in rows if r.team == team)


def test_points_then_wins_then_highest_level() -> None:
    results = [
        MatchResult(1, 2, 6, -6, level_a=4, winner="A"),
        MatchResult(3, 4, 6, -6, level_a=3, winner="A"),
        MatchResult(5, 6, 0, 0, winner=""),
    ]
    rows = team_standings([1, 2, 3, 4, 5, 6], results)
    assert [r.team for r in rows] == [1, 3, 5, 6, 2, 4]
    assert _row(rows, 1).highest_level == 4 and _row(rows, 1).levels_gained == 2
    assert _row(rows, 5).draws == 1 and _row(rows, 2).losses == 1


def test_a_bye_adds_its_points_and_a_win() -> None:
    rows = team_standings([1, 2, 3], [MatchResult(1, 2, 2, -2, winner="A")], byes=[3], bye_points=2)
    row = _row(rows, 3)
    assert (row.points, row.wins, row.byes, row.played) == (2, 1, 1, 0)
    # Teams 1 and 3 are level on points, wins and level; 1's opponent scored -2, 3 had none.
    assert [r.team for r in rows] == [3, 1, 2]
    tied = team_standings(
        [1, 2, 3], [MatchResult(1, 2, 2, -2, winner="A")], byes=[3], bye_points=2, tie_breaks=[]
    )
    assert tied[0].rank == tied[1].rank == 1 and tied[0].tied


def test_matches_still_playing_count_points_but_no_result() -> None:
    rows = team_standings([1, 2], [MatchResult(1, 2, 3, -3, winner="", finished=False)])
    assert _row(rows, 1).points == 3 and _row(rows, 1).played == 0 and _row(rows, 1).draws == 0


def test_head_to_head_and_levels_gained_break_a_tie_between_two_teams() -> None:
    results = [
        MatchResult(1, 2, 6, -6, winner="A"),  # 1 beats 2
        MatchResult(3, 1, 6, -6, winner="A"),
        MatchResult(2, 4, 6, -6, level_a=6, winner="A"),  # 2 climbs higher
    ]
    # 1 and 2: 0 points, 1 win each, highest level 2 vs 6 -> 2 ahead on the primary order.
    rows = team_standings([1, 2, 3, 4], results)
    assert [r.team for r in rows][:3] == [3, 2, 1]
    # Same levels: the order of tie-breaks decides.
    flat = [
        MatchResult(1, 2, 6, -6, winner="A"),
        MatchResult(3, 1, 6, -6, winner="A"),
        MatchResult(2, 4, 6, -6, winner="A"),
        MatchResult(4, 3, 0, 0, winner=""),
    ]
    by_h2h = team_standings([2, 1, 3, 4], flat, tie_breaks=["head_to_head"])
    assert [r.team for r in by_h2h if r.team in (1, 2)] == [1, 2]
    assert _row(by_h2h, 1).head_to_head == 1 and _row(by_h2h, 1).rank < _row(by_h2h, 2).rank
    by_opp = team_standings([1, 2, 3, 4], flat, tie_breaks=["opponents_points", "head_to_head"])
    # 1 met 2 (0) and 3 (6); 2 met 1 (0) and 4 (-6): 1 is ahead on opponents' points.
    assert _row(by_opp, 1).opponents_points == 6 and _row(by_opp, 2).opponents_points == -6
    assert _row(by_opp, 1).rank < _row(by_opp, 2).rank
    none = team_standings([2, 1, 3, 4], flat, tie_breaks=[])
    assert _row(none, 1).rank == _row(none, 2).rank and _row(none, 1).tied


def test_unknown_tie_break_is_refused() -> None:
    with pytest.raises(ValueError, match="coin_toss"):
        team_standings([1], [], tie_breaks=["coin_toss"])


def test_players_by_points_then_average_place() -> None:
    rows = player_standings(
        [
            PlayerFigures(1, 10, points=6, deals=3, places=9.0, tributes_paid=1),
            PlayerFigures(2, 10, points=6, deals=3, places=6.0, tributes_received=2),
            PlayerFigures(3, 11, points=-6, deals=3, places=12.0),
            PlayerFigures(4, 11),
        ]
    )
    assert [(r.rank, r.player) for r in rows] == [(1, 2), (2, 1), (3, 4), (4, 3)]
    assert rows[0].average_place == 2.0 and rows[0].tributes_received == 2
    assert rows[2].average_place is None


def test_units_sum_their_teams() -> None:
    rows = team_standings(
        [1, 2, 3, 4],
        [MatchResult(1, 2, 6, -6, winner="A"), MatchResult(3, 4, 3, -3, winner="A")],
    )
    units = unit_standings(rows, {1: 100, 2: 200, 3: 200, 4: None})
    assert [(u.unit, u.points, u.teams, u.wins, u.best_rank) for u in units] == [
        (100, 6, 1, 1, 1),
        (200, -3, 2, 1, 2),
    ]


def test_meet_placement_points_with_shared_places() -> None:
    leaderboard = meet_standings(
        {
            1: [(1, 10), (2, 20), (3, 30), (4, 10)],
            2: [(1, 20), (1, 30), (3, 10), (4, None)],
        },
        [7, 5, 4, 3, 2, 1],
    )
    points = {m.unit: m.points for m in leaderboard}
    assert points == {10: 7 + 3 + 4, 20: 5 + 6, 30: 4 + 6}
    assert [m.unit for m in leaderboard] == [10, 20, 30]
    assert leaderboard[0].places == ((1, 1), (1, 4), (2, 3))


@pytest.mark.django_db
def test_meet_placement_points_are_validated() -> None:
    from django.core.exceptions import ValidationError

    from tests.tournaments.factories import MeetFactory

    meet = MeetFactory.build(placement_points=[7, "five"])
    with pytest.raises(ValidationError, match=r"\[7, 5, 4, 3, 2, 1\]"):
        meet.clean()
    meet.placement_points = [7, 5, 4]
    meet.clean()
