"""Invariants over random deals and matches (hypothesis): cards, ends, zero-sum, replay, views."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import format_cards
from engine.daguai.bots import HeuristicBot, RandomBot
from engine.daguai.deal import ActionKind, Deal, Rules
from engine.daguai.match import Match
from engine.daguai.record import Record, ReplayError, match_records, replay, replay_match
from engine.daguai.result import DealResult
from tests.hypothesis_profiles import examples

FAST = settings(max_examples=examples(30), deadline=None)

#: A deal has 162 cards; each action plays, passes or returns: far fewer than this many.
MAX_ACTIONS = 2000


def keys(data: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            found.add(k)
            found |= keys(v)
    elif isinstance(data, list):
        for v in data:
            found |= keys(v)
    return found


def check_views(deal: Deal) -> None:
    public = deal.public_view()
    text = json.dumps(public)
    assert not {"hand", "hands", "legal"} & keys(public)
    for seat in range(6):
        hand = deal.hand(seat)
        if len(hand) >= 3:
            assert format_cards(hand) not in text


def drive(deal_or_match: Deal | Match, deal: Deal, rng: random.Random, timeouts: float) -> None:
    bots = [
        HeuristicBot(rng.random()) if rng.random() < 0.7 else RandomBot(rng.random())
        for _ in range(6)
    ]
    steps = 0
    while not deal.over:
        seat = deal.awaiting()[0]
        if rng.random() < timeouts:
            deal_or_match.timeout(seat)
        else:
            deal_or_match.apply(bots[seat].act(deal, seat))
        steps += 1
        assert steps < MAX_ACTIONS, "the deal does not end"
        assert deal.cards_accounted()
        if steps % 7 == 0:
            check_views(deal)


@FAST
@given(
    seed=st.integers(0, 2**32),
    dealer=st.integers(0, 5),
    payers=st.integers(0, 3),
    teammate=st.booleans(),
    timeouts=st.sampled_from([0.0, 0.05]),
)
def test_random_deals_keep_every_card_end_sum_to_zero_and_replay(
    seed: int, dealer: int, payers: int, teammate: bool, timeouts: float
) -> None:
    rng = random.Random(seed)
    team = [s for s in range(6) if s % 2 == dealer % 2 and s != dealer]
    receivers = ([dealer] + rng.sample(team, 2))[:payers]
    tributes = [((r + 1) % 6, r) for r in receivers]  # matching is result.py's business
    deal = Deal(seed=seed, dealer=dealer, tributes=tributes, rules=Rules(lead_to_teammate=teammate))
    assert sum(len(deal.hand(s)) for s in range(6)) == 162 and deal.cards_accounted()
    drive(deal, deal, rng, timeouts)
    result = deal.result
    assert result is not None
    if isinstance(result, DealResult):
        assert sum(result.points) == 0
        assert len(deal.pile) + sum(len(h) for h in deal.hands) == 162
    record = Record.loads(Record.from_deal(deal).dumps())
    again = replay(record)
    assert again.result == result and again.public_view() == deal.public_view()
    # tamper with one play or pass: give it to the next seat; the replay names exactly it
    turns = [
        i for i, a in enumerate(record.actions) if a.kind in (ActionKind.PLAY, ActionKind.PASS)
    ]
    i = turns[rng.randrange(len(turns))]
    bad = replace(record.actions[i], seat=(record.actions[i].seat + 1) % 6)
    tampered = replace(record, actions=record.actions[:i] + (bad,) + record.actions[i + 1 :])
    try:
        replay(tampered)
    except ReplayError as exc:
        assert exc.index == i + 1 and exc.action == bad
    else:
        raise AssertionError(f"tampered action {i + 1} was accepted")


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32), timeouts=st.sampled_from([0.0, 0.02]))
def test_random_matches_replay_from_their_records(seed: int, timeouts: float) -> None:
    rng = random.Random(seed)
    match = Match(seed=seed, base=rng.randint(1, 5))
    while not match.over:
        deal = match.start_deal()
        drive(match, deal, rng, timeouts)
    assert match.points == [sum(r.points[s] for r in match.results) for s in range(6)]
    if all(isinstance(r, DealResult) for r in match.results):
        assert sum(match.points) == 0
    again = replay_match([Record.loads(r.dumps()) for r in match_records(match)])
    assert again.points == match.points and again.end == match.end and again.ladder == match.ladder
