"""Matches: dealers, levels and tribute from deal to deal, passing A, escapes, leaving, points."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.daguai.bots import HeuristicBot, RandomBot, play_match
from engine.daguai.deal import Action, Rules
from engine.daguai.match import Match, MatchEnd, deal_seeds
from engine.daguai.result import DealResult, Levels, Team
from engine.errors import IllegalActionError


def bots(seed: int = 0) -> list[HeuristicBot | RandomBot]:
    return [HeuristicBot(seed) if s % 2 else RandomBot(seed + s) for s in range(6)]


def test_first_deal_random_dealer_from_the_seed_no_tribute_both_teams_at_2():
    dealers = {Match(seed=s).next_dealer for s in range(40)}
    assert dealers == set(range(6))
    match = Match(seed=11)
    deal = match.start_deal()
    assert deal.dealer == Match(seed=11).next_dealer == deal_seeds(11, 1)[0]
    assert deal.seed == deal_seeds(11, 1)[1][0]
    assert deal.tributes == () and str(deal.levels) == "2,2"


def test_each_deal_follows_the_previous_result():
    for seed in range(4):
        match = play_match(Match(seed=seed), bots(seed))
        assert match.over
        for before, after in zip(match.deals, match.deals[1:], strict=False):
            result = before.result
            assert isinstance(result, DealResult)
            assert after.dealer == result.next_dealer
            assert after.levels == result.levels
            assert after.level == result.levels[Team.of(result.next_dealer)]
            assert tuple((t.payer, t.receiver) for t in after.tributes) == result.tributes
        assert match.ladder[0] == Levels() and len(match.ladder) == len(match.deals) + 1
        assert match.points == [sum(r.points[s] for r in match.results) for s in range(6)]
        assert sum(match.points) == 0


def test_a_match_is_three_deals_by_default_and_configurable():
    match = play_match(Match(seed=3), bots())
    assert len(match.deals) == 3 and match.end is MatchEnd.DEALS
    match = play_match(Match(seed=3, rules=Rules(deals_per_match=5)), bots())
    assert len(match.deals) == 5
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.start_deal()


def _one_deal_to_pass_a(match: Match) -> None:
    # seat 1 deals (seed 1), team B at level A: B goes out 1st, 2nd, 3rd with its aces
    assert match.next_dealer == 1
    hands = ["3S 4S", "AS", "3H 4H", "AH", "3D 4D", "AD"]
    match.start_deal(hands=[parse_cards(h) for h in hands])
    for text in (
        "1 play AS", "2 pass", "3 pass", "4 pass", "5 pass", "0 pass",
        "2 play 3H", "3 play AH", "4 pass", "5 pass", "0 pass", "2 pass",
        "4 play 3D", "5 play AD",
    ):  # fmt: skip
        match.apply(Action.parse(text))


def test_passing_a_ends_the_match_and_the_dealer_team_wins_it():
    match = Match(seed=1)
    match.levels = Levels.parse("2,A")
    _one_deal_to_pass_a(match)
    assert match.over and match.end is MatchEnd.PASSED_A and match.winner is Team.B
    assert match.results[-1].points == (-6, 6, -6, 6, -6, 6)
    assert match.team_points() == {Team.A: -18, Team.B: 18}


def test_winning_as_dealer_below_a_goes_up_one_level():
    match = Match(seed=1)
    match.levels = Levels.parse("2,Q")
    _one_deal_to_pass_a(match)
    assert not match.over and str(match.levels) == "2,K" and match.next_dealer == 1
    assert [str(lv) for lv in match.ladder] == ["2,2", "2,K"]  # the ladder records every deal


def test_escape_during_a_deal_ends_the_match_with_the_escape_points():
    match = Match(seed=4, base=10)
    match.start_deal()
    result = match.escape(2)
    assert result.during_deal and result.points == (0, 10, -180, 10, 0, 10)
    assert match.over and match.end is MatchEnd.ESCAPE
    assert match.points == [0, 10, -180, 10, 0, 10]
    with pytest.raises(IllegalActionError):
        match.start_deal()


def test_leaving_between_deals_before_the_match_is_played():
    match = Match(seed=4)
    play_match_one = match.start_deal()
    bot = bots()
    while not play_match_one.over:
        seat = play_match_one.awaiting()[0]
        match.apply(bot[seat].act(play_match_one, seat))
    before = list(match.points)
    result = match.leave(5)
    assert not result.during_deal and result.points == (1, 0, 1, 0, 1, -3)
    assert match.points == [b + p for b, p in zip(before, result.points, strict=True)]
    assert match.over and match.end is MatchEnd.LEFT and match.deals_played == 1


def test_leave_is_only_between_deals_and_escape_picks_the_right_one():
    match = Match(seed=4)
    match.start_deal()
    with pytest.raises(IllegalActionError, match="that is an escape"):
        match.leave(0)
    match = Match(seed=4)
    assert not match.escape(0).during_deal  # before the first deal: leaving between deals


def test_timeouts_through_the_match_and_five_system_plays_escape():
    match = Match(seed=8)
    deal = match.start_deal()
    seat = deal.dealer
    actions = []
    while not match.over:
        turn = deal.awaiting()[0]
        if turn == seat:
            actions.append(match.timeout(turn))
        else:
            match.apply(HeuristicBot().act(deal, turn))
    assert all(a.system and a.seat == seat for a in actions) and len(actions) == 5
    assert match.end is MatchEnd.ESCAPE and match.points[seat] == -18


def test_actions_between_deals_are_refused():
    match = Match(seed=2)
    with pytest.raises(IllegalActionError, match="no deal is being played"):
        match.apply(Action.pass_(0))
    assert match.legal_actions(0) == []
    match.start_deal()
    with pytest.raises(IllegalActionError, match="a deal is being played"):
        match.start_deal()


def test_match_summary_is_json():
    import json

    match = play_match(Match(seed=6), bots())
    data = json.loads(json.dumps(match.to_json()))
    assert data["end"] in ("deals", "passed_a") and len(data["results"]) == len(match.deals)
    assert set(data["team_points"]) == {"A", "B"}


def test_match_views_show_the_deal_and_only_ones_own_hand():
    import json

    match = Match(seed=9)
    assert match.public_view()["deal"] is None
    deal = match.start_deal()
    public = match.public_view()
    assert public["deal_number"] == 1 and "hand" not in public["deal"]
    assert " ".join(map(str, deal.hand(0))) not in json.dumps(public)
    private = match.private_view(deal.dealer)
    assert private["deal"]["hand"] == " ".join(map(str, deal.hand(deal.dealer)))
    assert private["deal"]["legal"]
