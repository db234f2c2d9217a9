"""A player who has already gone out of a deal cannot escape during it (issue 12)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.daguai import Deal, HeuristicBot, Match
from engine.daguai.result import InvalidFinishError, escape_result
from engine.errors import IllegalActionError


def test_escape_result_refuses_a_seat_that_has_gone_out():
    with pytest.raises(InvalidFinishError, match="seat 1 has already gone out"):
        escape_result(1, [1])
    with pytest.raises(InvalidFinishError, match="seat 2 has already gone out"):
        escape_result(2, [0, 2])
    assert escape_result(1, [0, 2]).points == (3, -18, 3, 0, 3, 0)


def test_luzi_escape_of_a_seat_gone_out_exits_2_with_one_line():
    out = subprocess.run(
        [sys.executable, "-m", "engine", "escape", "--seat", "1", "--finish", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "luzi escape: error: seat 1 has already gone out"
    )


def _deal_with_a_seat_out(match: Match | None = None) -> tuple[Deal, int]:
    deal = match.start_deal() if match is not None else Deal(seed=4, dealer=0)
    bots = [HeuristicBot(seed=s) for s in range(6)]
    while not deal.finish:
        seat = deal.awaiting()[0]
        action = bots[seat].act(deal, seat)
        if match is not None:
            match.apply(action)
        else:
            deal.apply(action)
    assert not deal.over
    return deal, deal.finish[0]


def test_a_deal_refuses_the_escape_of_a_seat_that_has_gone_out_and_goes_on():
    deal, out = _deal_with_a_seat_out()
    moves = len(deal.actions)
    with pytest.raises(IllegalActionError, match=f"seat {out} has already gone out"):
        deal.escape(out)
    assert not deal.over and len(deal.actions) == moves and deal.result is None
    still = next(s for s in range(6) if s not in deal.finish)
    assert deal.escape(still).seat == still


def test_a_match_refuses_it_too():
    match = Match(seed=9)
    deal, out = _deal_with_a_seat_out(match)
    with pytest.raises(IllegalActionError, match="already gone out"):
        match.escape(out)
    assert not match.over and match.deal is deal and match.points == [0] * 6
