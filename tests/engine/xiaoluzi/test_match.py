"""Matches: N deals, running totals of points and silver, places, escapes and leaving."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.xiaoluzi.actions import Action, Rules
from engine.xiaoluzi.bots import HeuristicBot, RandomBot, play_match
from engine.xiaoluzi.match import Match, MatchEnd, places
from engine.xiaoluzi.result import CannotEscapeError, DealResult, EscapeResult

BOTS = [HeuristicBot(seed=s) for s in range(4)]


def finish(match: Match) -> None:
    """Let the bots play the match's current deal to its end, through the match."""
    deal = match.deal
    assert deal is not None
    while deal.turn is not None:
        match.apply(BOTS[deal.turn].act(deal, deal.turn))


def test_a_match_has_four_deals_by_default_and_totals_both_ledgers():
    match = play_match(Match(seed=3), BOTS)
    assert match.end is MatchEnd.DEALS and len(match.deals) == 4 and match.deals_played == 4
    assert match.points == [sum(r.points[s] for r in match.results) for s in range(4)]
    assert match.silver == [sum(r.silver[s] for r in match.results) for s in range(4)]
    assert sum(match.points) == 0 and sum(match.silver) == 0
    with pytest.raises(IllegalActionError, match="over"):
        match.start_deal()


def test_option_deals_per_match_and_the_bases():
    rules = Rules(deals_per_match=2, base_score=3, base_silver=10)
    match = play_match(Match(seed=5, rules=rules), BOTS)
    assert len(match.deals) == 2
    for result in match.results:
        assert result.points == tuple(3 * m for m in result.multipliers)
        assert result.silver == tuple(10 * m for m in result.multipliers)


def test_every_deal_starts_with_the_declaring_round_from_its_7h_holder():
    match = Match(seed=8)
    for _ in range(4):
        deal = match.start_deal()
        assert deal.phase.value == "declare" and deal.turn == deal.holder_7h
        finish(match)


def test_a_match_is_deterministic_given_its_seed():
    a = play_match(Match(seed="x"), [RandomBot(seed=s) for s in range(4)])
    b = play_match(Match(seed="x"), [RandomBot(seed=s) for s in range(4)])
    assert [d.actions for d in a.deals] == [d.actions for d in b.deals]
    assert a.points == b.points


def test_places_by_points_then_silver_ties_share():
    assert places([3, 3, -3, -3], [3, 5, -4, -4]) == [2, 1, 3, 3]
    assert places([0, 0, 0, 0], [0, 0, 0, 0]) == [1, 1, 1, 1]
    assert places([2, -1, 1, -2], [0, 0, 0, 0]) == [1, 3, 2, 4]


def test_an_escape_ends_the_match():
    match = Match(seed=1)
    deal = match.start_deal()
    match.apply(Action.declare(deal.holder_7h, False))
    result = match.escape((deal.holder_7h + 2) % 4)
    assert isinstance(result, EscapeResult) and match.end is MatchEnd.ESCAPE
    assert match.points == list(result.points)


def test_leaving_between_deals():
    match = Match(seed=1)
    match.start_deal()
    finish(match)
    before = list(match.points)
    result = match.leave(2)
    assert result is not None and result.kind == "leave"
    assert match.end is MatchEnd.LEFT
    assert match.points == [before[s] + (-3 if s == 2 else 1) for s in range(4)]


def test_a_bystander_who_leaves_is_settled_as_leaving_once_the_deal_is_over():
    match = Match(seed=2, rules=Rules(deals_per_match=3))
    deal = match.start_deal()
    h = deal.holder_7h
    match.apply(Action.declare(h, True))
    match.apply(Action.counter((h + 1) % 4, True))
    bystander = deal.bystanders[0]
    with pytest.raises(CannotEscapeError):
        match.escape(bystander)
    assert match.leave(bystander) is None and not match.over
    with pytest.raises(CannotEscapeError, match="escape"):
        match.leave(h)  # the declarer acts in the deal: leaving is an escape
    finish(match)
    assert match.end is MatchEnd.LEFT
    assert isinstance(match.results[0], DealResult)
    assert match.left is not None and match.left.seat == bystander
    assert match.results[1].multipliers == tuple(-3 if s == bystander else 1 for s in range(4))


def test_leaving_during_the_last_deal_costs_nothing():
    match = Match(seed=2, rules=Rules(deals_per_match=1))
    deal = match.start_deal()
    h = deal.holder_7h
    match.apply(Action.declare(h, True))
    match.apply(Action.counter((h + 1) % 4, True))
    match.leave(deal.bystanders[0])
    finish(match)
    assert match.end is MatchEnd.DEALS and match.left is None and len(match.results) == 1


def test_the_public_view_hides_the_seed_and_the_hands():
    match = Match(seed=4)
    match.start_deal()
    view = match.public_view()
    assert "seed" not in view and view["deal"] is not None and "hand" not in view["deal"]
    assert "hand" in match.private_view(0)["deal"]


def test_nobody_leaves_a_match_that_is_over():
    match = play_match(Match(seed=3, rules=Rules(deals_per_match=1)), BOTS)
    with pytest.raises(IllegalActionError, match="over"):
        match.leave(0)


def test_the_engine_never_caps_a_loss():
    rules = Rules(deals_per_match=2, base_score=1000, base_silver=10**6)
    match = play_match(Match(seed=6, rules=rules), BOTS)
    assert min(match.silver) <= -(10**6)  # amounts only: no purse, no cap
