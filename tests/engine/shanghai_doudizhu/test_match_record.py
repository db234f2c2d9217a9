"""Matches (荒番 modes, rotation, totals), records and replay, bots."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.shanghai_doudizhu import GAME, SEAT_COUNT
from engine.shanghai_doudizhu.actions import Action
from engine.shanghai_doudizhu.bots import HeuristicBot, RandomBot, play_deal, play_match
from engine.shanghai_doudizhu.deal import Deal
from engine.shanghai_doudizhu.match import Match, MatchEnd
from engine.shanghai_doudizhu.record import (
    Record,
    RecordError,
    ReplayError,
    match_records,
    replay,
    replay_match,
)
from engine.shanghai_doudizhu.result import EscapeKind, Outcome
from engine.shanghai_doudizhu.rules import FirstBidder, Huangfan, Rules
from tests.hypothesis_profiles import examples


def all_pass(match: Match) -> None:
    deal = match.start_deal()
    for _ in range(4):
        match.apply(Action.pass_(deal.turn or 0))


def bid_and_escape(match: Match) -> Deal:
    deal = match.start_deal()
    match.apply(Action.bid(deal.turn or 0, 1))
    match.escape(deal.turn or 0, EscapeKind.DISCONNECT)
    return deal


def test_public_names() -> None:
    assert GAME == "shanghai_doudizhu" and SEAT_COUNT == 4


def test_huangfan_flag_applies_once_and_does_not_stack() -> None:
    match = Match(seed=1)
    all_pass(match)
    all_pass(match)
    assert match.huangfan() == 1 and match.played == 0
    deal = match.start_deal()
    assert deal.huangfan == 1
    bots = [HeuristicBot(seed=s) for s in range(4)]
    while not deal.over:
        match.apply(bots[deal.turn or 0].act(deal, deal.turn or 0))
    if deal.result is not None and deal.result.played:
        assert match.huangfan() == 0


def test_huangfan_multiply_and_queue() -> None:
    match = Match(seed=1, rules=Rules(huangfan=Huangfan.MULTIPLY))
    all_pass(match)
    all_pass(match)
    assert match.huangfan() == 2
    queue = Match(seed=1, rules=Rules(huangfan=Huangfan.QUEUE))
    all_pass(queue)
    all_pass(queue)
    assert queue.huangfan() == 1
    bid_and_escape(queue)  # an escape-ended deal counts as played and uses one
    assert queue.pending == 1 and queue.huangfan() == 1 and queue.over


def test_escape_clears_the_flag_and_ends_the_match() -> None:
    match = Match(seed=2)
    all_pass(match)
    deal = bid_and_escape(match)
    assert deal.huangfan == 1 and match.huangfan() == 0
    assert match.end is MatchEnd.ESCAPE and match.played == 1
    with pytest.raises(EngineError, match="over"):
        match.start_deal()


def test_rotate_first_bidder_counts_all_pass_deals() -> None:
    match = Match(seed=3, rules=Rules(first_bidder=FirstBidder.ROTATE))
    all_pass(match)
    first = match.deals[0].first_bidder
    deal = match.start_deal()
    assert deal.first_bidder == (first + 1) % 4 and deal.marked_card in deal.hands[deal.turn or 0]


def test_match_of_n_deals_with_running_totals() -> None:
    match = play_match(Match(seed=4, rules=Rules(deals=3)), [HeuristicBot(s) for s in range(4)])
    assert match.end is MatchEnd.DEALS and match.played == 3
    played = [d.result for d in match.deals if d.result is not None and d.result.played]
    assert len(played) == 3
    assert match.points == [sum(r.points[s] for r in played) for s in range(4)]
    assert match.rating == [sum(r.rating[s] for r in played) for s in range(4)]
    assert sum(match.points) == 0


def test_record_round_trip_and_replay() -> None:
    deal = Deal(seed=11)
    play_deal(deal, [HeuristicBot(s) for s in range(4)])
    record = Record.from_deal(deal, event="e", seats=["a", "b", "c", "d"])
    data = json.loads(record.dumps())
    assert data["headers"]["game"] == "shanghai_doudizhu" and set(data) == {
        "headers",
        "actions",
        "result",
    }
    again = Record.loads(record.dumps())
    assert again == record
    assert replay(again).result == deal.result


def test_replay_rejects_a_bad_action_and_a_wrong_result() -> None:
    deal = Deal(seed=12)
    play_deal(deal, [HeuristicBot(s) for s in range(4)])
    data = Record.from_deal(deal).to_json()
    data["actions"][0] = {"kind": "bid", "seat": (data["actions"][0]["seat"] + 1) % 4, "value": 1}
    with pytest.raises(ReplayError, match="action 1 .* is illegal: not seat"):
        replay(Record.from_json(data))
    data = Record.from_deal(deal).to_json()
    data["result"]["points"] = [1, 2, 3, -6]
    with pytest.raises(ReplayError, match="points"):
        replay(Record.from_json(data))


def test_record_errors() -> None:
    with pytest.raises(RecordError, match="game"):
        Record.from_json({"headers": {"game": "daguai"}, "actions": []})
    with pytest.raises(RecordError, match="not JSON"):
        Record.loads("{")
    good = Record.from_deal(Deal(seed=1)).to_json()
    good["headers"]["options"]["huangfan"] = "twice"
    with pytest.raises(RecordError, match="huangfan"):
        Record.from_json(good)


def test_hand_made_deal_record_round_trip() -> None:
    from .helpers import rig

    deal = rig({0: "3S SJ SJ BJ BJ"}, marked=(0, "3S"))
    play_deal(deal, [HeuristicBot(s) for s in range(4)])
    record = Record.loads(Record.from_deal(deal).dumps())
    assert record.headers.hands is not None and replay(record).result == deal.result


def test_match_records_replay() -> None:
    match = play_match(Match(seed=5), [HeuristicBot(s) for s in range(4)])
    records = [Record.loads(r.dumps()) for r in match_records(match)]
    again = replay_match(records)
    assert again.points == match.points and again.rating == match.rating


def test_bots_are_deterministic_and_heuristic_farmer_never_overtakes_partner() -> None:
    def run(seed: int) -> list[str]:
        deal = Deal(seed=seed)
        bots = [HeuristicBot(s) for s in range(4)]
        actions = []
        while not deal.over:
            seat = deal.turn or 0
            action = bots[seat].act(deal, seat)
            if deal.current is not None and deal.is_farmer(seat):
                winner = deal.current_seat or 0
                if deal.is_farmer(winner):
                    assert action.kind.value == "pass"
            deal.apply(action)
            actions.append(str(action))
        return actions

    assert run(21) == run(21)


def test_heuristic_bot_bids_declares_report_and_keeps_bombs() -> None:
    from .helpers import rig

    deal = rig({0: "3H 3S SJ SJ BJ BJ 7S 7S 7H 7H 7D 7D 7C"}, marked=(0, "3H"))
    bot = HeuristicBot()
    actions = []
    while deal.turn == 0 and deal.current is None and len(actions) < 5:
        action = bot.act(deal, 0)
        actions.append(str(action))
        deal.apply(action)
    assert actions[0] == "0 bid 3"  # a strong hand bids 3 (头撂)
    assert actions[2] == "0 report 7S 7S 7H 7H 7D 7D 7C SJ SJ BJ BJ"  # both sets: 双报到
    assert actions[3] == "0 fight yes"
    lead = deal.current
    assert lead is not None and not lead.is_bomb
    assert not any(c.rank == 7 or c.is_joker for c in lead.cards)  # bombs are kept


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_settled_deals_sum_to_zero_and_replay_exactly(seed: int, random_bots: bool) -> None:
    deal = Deal(seed=seed)
    bots = [RandomBot(seed + s) if random_bots else HeuristicBot(seed + s) for s in range(4)]
    result = play_deal(deal, bots)
    assert deal.cards_accounted()
    if result.outcome is not Outcome.ESCAPE:
        assert sum(result.points) == 0
    record = Record.loads(Record.from_deal(deal).dumps())
    again = replay(record)
    assert again.result == deal.result and again.actions == deal.actions


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 3), max_size=6))
def test_deals_with_timeouts_and_escapes_replay(seed: int, interrupts: list[int]) -> None:
    deal = Deal(seed=seed)
    bots = [RandomBot(seed + s) for s in range(4)]
    step = 0
    while not deal.over:
        step += 1
        if interrupts and step % 7 == 0:
            kind = interrupts.pop()
            if kind == 3:
                deal.escape(step % 4, EscapeKind.ACTIVE)
                break
            deal.timeout()
            continue
        seat = deal.turn or 0
        deal.apply(bots[seat].act(deal, seat))
    assert deal.cards_accounted() and deal.result is not None
    again = replay(Record.loads(Record.from_deal(deal).dumps()))
    assert again.result == deal.result


def test_leaving_between_deals_is_no_escape_but_ends_the_match() -> None:
    match = Match(seed=6)
    all_pass(match)
    match.leave(2)
    assert match.end is MatchEnd.LEFT and match.points == [0, 0, 0, 0] and match.left == 2
    during = Match(seed=6)
    during.start_deal()
    with pytest.raises(EngineError, match="escape"):
        during.leave(1)


def test_timeout_names_the_awaited_seat() -> None:
    match = Match(seed=7)
    deal = match.start_deal()
    other = ((deal.turn or 0) + 1) % 4
    with pytest.raises(EngineError, match=f"no action of seat {other}"):
        match.timeout(other)
    assert match.timeout(deal.turn).system


def test_a_timeouts_escape_replays_from_its_system_actions() -> None:
    deal = Deal(seed=31)
    seat = deal.turn or 0
    while not deal.over:
        if deal.turn == seat:
            deal.timeout()
        else:
            turn = deal.turn or 0
            deal.apply(HeuristicBot(turn).act(deal, turn))
    assert deal.result is not None
    again = replay(Record.loads(Record.from_deal(deal).dumps()))
    assert again.result == deal.result
    assert deal.result.outcome is Outcome.ESCAPE  # the first bidder passes, then times out
    assert deal.result.escaper == seat and deal.result.escape_kind is EscapeKind.TIMEOUTS
