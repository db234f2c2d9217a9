"""Records (the same JSON form as 大怪路子's), replay that re-checks every action, and the
invariants of bot-played deals (hypothesis)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalActionError
from engine.xiaoluzi.actions import Action, Rules
from engine.xiaoluzi.bots import HeuristicBot, RandomBot, make_bots, play_deal, play_match
from engine.xiaoluzi.deal import Deal
from engine.xiaoluzi.match import Match
from engine.xiaoluzi.record import (
    Record,
    RecordError,
    ReplayError,
    match_json,
    match_records,
    replay,
    replay_match,
)
from engine.xiaoluzi.result import DealResult, EscapeResult, Mode
from tests.hypothesis_profiles import examples

FAST = settings(max_examples=examples(40), deadline=None)

rules_strategy = st.builds(
    Rules,
    base_score=st.integers(1, 5),
    base_silver=st.integers(1, 50),
    joker_sevens=st.booleans(),
    first_lead_7h=st.booleans(),
    slam_count=st.sampled_from(["cards", "plays"]),
)


def bot_deal(seed: int, kind: str = "heuristic", rules: Rules | None = None) -> Deal:
    deal = Deal(seed=seed, rules=rules or Rules())
    play_deal(deal, make_bots([kind] * 4, seed=seed))
    return deal


def test_the_json_form_is_daguais():
    deal = bot_deal(5)
    data = Record.from_deal(deal, event="club night", seats=["a", "b", "c", "d"]).to_json()
    assert set(data) == {"headers", "actions", "result"}
    h = data["headers"]
    assert h["game"] == "xiaoluzi" and h["rules"] == "xiaoluzi-1"
    assert h["options"] == Rules().to_json() and h["seats"] == ["a", "b", "c", "d"]
    assert len(h["hands"]) == 4  # a record stores the four hands
    assert data["actions"][0]["seat"] == deal.holder_7h
    assert data["actions"][0]["kind"] in ("declare", "no_declare")
    assert deal.result is not None and data["result"] == deal.result.to_json()


def test_records_round_trip_and_replay():
    deal = bot_deal(9, "random")
    record = Record.from_deal(deal)
    again = Record.loads(record.dumps())
    assert again == record
    replayed = replay(again)
    assert replayed.actions == deal.actions and replayed.result == deal.result
    assert replayed.hands == deal.hands


def test_a_hand_made_deal_replays_from_its_hands():
    hands = [
        "7H 8S 8H 9S 10S JS QS KS",
        "7D 8D 9H 10H JH QH KH AH",
        "8C 9D 10D JD QD KD AS AD",
        "9C 10C JC QC KC AC SJ BJ",
    ]
    deal = Deal(hands=hands)
    play_deal(deal, [HeuristicBot(seed=s) for s in range(4)])
    assert replay(Record.from_deal(deal)).result == deal.result


def test_an_illegal_action_is_named_with_its_index():
    deal = bot_deal(12)
    record = Record.from_deal(deal)
    actions = list(record.actions)
    i = next(i for i, a in enumerate(actions) if a.kind.value == "play")
    actions[i] = Action.pass_(actions[i].seat)  # the leader passes
    with pytest.raises(ReplayError) as err:
        replay(replace(record, actions=tuple(actions)))
    assert err.value.index == i + 1 and f"action {i + 1}" in str(err.value)


def test_a_stored_result_that_differs_is_rejected():
    deal = bot_deal(12)
    record = Record.from_deal(deal)
    assert record.result is not None
    bad = dict(record.result, points=[9, 9, 9, 9])
    with pytest.raises(ReplayError, match="points"):
        replay(replace(record, result=bad))
    with pytest.raises(ReplayError, match="don't end the deal"):
        replay(replace(record, actions=record.actions[:3]))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda h: h.update(game="daguai"), "game"),
        (lambda h: h.update(rules="xiaoluzi-0"), "rules"),
        (lambda h: h.update(options={"nope": 1}), "options"),
        (lambda h: h.update(options={"base_score": 0}), "options"),
        (lambda h: h.update(seats=["a"]), "seats"),
        (lambda h: h.update(hands=["7S"] * 4), "hands"),
        (lambda h: h.update(seed=True), "seed"),
    ],
)
def test_malformed_headers_are_record_errors(change, match):
    data = Record.from_deal(bot_deal(1)).to_json()
    change(data["headers"])
    with pytest.raises(RecordError, match=match):
        Record.from_json(data)


def test_malformed_records():
    with pytest.raises(RecordError):
        Record.loads("{")
    with pytest.raises(RecordError):
        Record.from_json([])
    data = Record.from_deal(bot_deal(1)).to_json()
    data["actions"][0] = {"kind": "jump", "seat": 0}
    with pytest.raises(RecordError, match="action 1"):
        Record.from_json(data)


def test_match_records_replay():
    match = play_match(Match(seed=77), [RandomBot(seed=s) for s in range(4)])
    records = [Record.from_json(r.to_json()) for r in match_records(match)]
    again = replay_match(records)
    assert again.points == match.points and again.silver == match.silver
    assert again.end == match.end
    data = match_json(match)
    assert set(data) == {"deals", "left"} and len(data["deals"]) == len(match.deals)


def test_a_match_record_with_another_seed_is_rejected():
    match = play_match(Match(seed=77), [RandomBot(seed=s) for s in range(4)])
    records = match_records(match)
    bad = replace(records[1], headers=replace(records[1].headers, seed=1))
    with pytest.raises(ReplayError, match="seed"):
        replay_match([records[0], bad, *records[2:]])


# -- properties --------------------------------------------------------------------------------


@FAST
@given(
    seed=st.integers(0, 10**6), kind=st.sampled_from(["heuristic", "random"]), rules=rules_strategy
)
def test_replay_reproduces_bot_deals(seed, kind, rules):
    deal = bot_deal(seed, kind, rules)
    record = Record.loads(Record.from_deal(deal).dumps())
    again = replay(record)
    assert again.actions == deal.actions
    assert again.result == deal.result


@FAST
@given(
    seed=st.integers(0, 10**6), kind=st.sampled_from(["heuristic", "random"]), rules=rules_strategy
)
def test_every_settled_deal_sums_to_zero_in_both_ledgers(seed, kind, rules):
    deal = bot_deal(seed, kind, rules)
    result = deal.result
    assert isinstance(result, DealResult)  # bots never escape
    assert sum(result.points) == 0 and sum(result.silver) == 0
    assert result.points == tuple(rules.base_score * m for m in result.multipliers)
    assert result.silver == tuple(rules.base_silver * m for m in result.multipliers)
    assert deal.cards_accounted()


@FAST
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["heuristic", "random"]))
def test_each_mode_ends_as_the_contract_says(seed, kind):
    deal = bot_deal(seed, kind)
    result = deal.result
    assert isinstance(result, DealResult)
    counts = [len(h) for h in deal.hands]
    if deal.mode is Mode.NONE:
        assert len(deal.finish) == 4 and counts[deal.finish[3]] > 0
        assert sorted(result.multipliers) == [-2, -1, 1, 2]
        assert deal.leader == deal.holder_7h
    else:
        assert len(deal.finish) == 1 and sum(1 for c in counts if c) == 3
        assert deal.leader == (deal.declarer if deal.mode is Mode.DECLARED else deal.counter)
    for s in deal.bystanders:
        assert counts[s] == 8
        assert all(a.seat != s for a in deal.actions if not a.kind.is_answer)


@FAST
@given(seed=st.integers(0, 10**6))
def test_views_never_show_a_hidden_card_during_a_deal(seed):
    deal = Deal(seed=seed)
    bots = make_bots(["random"] * 4, seed=seed)
    while deal.turn is not None:
        public = json.dumps(deal.public_view())
        tokens = set(public.replace('"', " ").replace(",", " ").split())
        for s in range(4):
            assert not tokens & {str(c) for c in deal.hands[s]}
        private = json.dumps(deal.private_view(deal.turn)).replace('"', " ")
        others = {str(c) for s in range(4) if s != deal.turn for c in deal.hands[s]}
        assert not set(private.split()) & others
        deal.apply(bots[deal.turn].act(deal, deal.turn))


@FAST
@given(seed=st.integers(0, 10**6), data=st.data())
def test_escapes_and_timeouts_replay_too(seed, data):
    deal = Deal(seed=seed)
    bots = make_bots(["random"] * 4, seed=seed)
    while deal.turn is not None:
        choice = data.draw(st.sampled_from(["bot", "bot", "bot", "timeout", "escape"]))
        if choice == "timeout":
            deal.timeout(deal.turn)
        elif choice == "escape":
            seat = data.draw(st.integers(0, 3))
            if deal.can_escape(seat):
                deal.escape(seat)
            else:
                with pytest.raises(IllegalActionError):
                    deal.escape(seat)
        else:
            deal.apply(bots[deal.turn].act(deal, deal.turn))
    again = replay(Record.loads(Record.from_deal(deal).dumps()))
    assert again.result == deal.result
    if isinstance(deal.result, DealResult):
        assert sum(deal.result.points) == 0
    else:
        assert isinstance(deal.result, EscapeResult)
