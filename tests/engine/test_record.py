"""Deal records: JSON round trips, replay re-checks every action, tampering is caught."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.cards import parse_cards
from engine.daguai.bots import HeuristicBot, make_bots, play_deal, play_match
from engine.daguai.deal import Action, Deal, Rules
from engine.daguai.match import Match
from engine.daguai.record import (
    Headers,
    Record,
    RecordError,
    ReplayError,
    match_records,
    replay,
    replay_match,
)
from engine.daguai.result import Levels


def played(seed: int = 3, **kw: object) -> Deal:
    deal = Deal(seed=seed, dealer=2, tributes=[(1, 2), (3, 4)], **kw)  # type: ignore[arg-type]
    play_deal(deal, make_bots(["heuristic", "random"] * 3, seed=seed))
    return deal


def test_record_round_trips_and_replays_to_the_same_result():
    deal = played()
    record = Record.from_deal(deal, event="Spring cup", round="2", table="7", seats=list("abcdef"))
    text = record.dumps(indent=2)
    data = json.loads(text)
    assert set(data) == {"headers", "actions", "result"}
    assert data["headers"]["game"] == "daguai" and data["headers"]["rules"] == "daguai-1"
    assert data["headers"]["event"] == "Spring cup" and data["headers"]["seats"][0] == "a"
    assert data["headers"]["tributes"] == [[1, 2], [3, 4]]
    again = Record.loads(text)
    assert again == record
    assert replay(again).result == deal.result
    assert replay(again).actions == deal.actions


def test_an_unfinished_deal_replays_to_its_current_state():
    deal = Deal(seed=1, dealer=0)
    bot = HeuristicBot()
    for _ in range(10):
        seat = deal.awaiting()[0]
        deal.apply(bot.act(deal, seat))
    record = Record.from_deal(deal)
    assert record.result is None
    rebuilt = replay(Record.loads(record.dumps()))
    assert rebuilt.public_view() == deal.public_view()
    assert rebuilt.private_view(deal.turn or 0) == deal.private_view(deal.turn or 0)


def test_a_tampered_action_is_rejected_naming_the_first_bad_action():
    record = Record.from_deal(played())
    actions = list(record.actions)
    i = next(k for k, a in enumerate(actions) if a.kind.value == "play" and k > 10)
    bad = actions[i]
    actions[i] = replace(bad, seat=(bad.seat + 1) % 6)
    with pytest.raises(ReplayError) as caught:
        replay(replace(record, actions=tuple(actions)))
    assert caught.value.index == i + 1 and caught.value.action == actions[i]
    assert f"action {i + 1} ({actions[i]}) is illegal" in str(caught.value)


def test_cards_not_in_hand_an_action_after_the_end_and_a_truncated_record_are_rejected():
    record = Record.from_deal(played())
    with pytest.raises(ReplayError, match="the deal is over"):
        replay(replace(record, actions=record.actions + (Action.pass_(0),)))
    with pytest.raises(ReplayError, match="don't end the deal"):
        replay(replace(record, actions=record.actions[:-1]))
    deal = Deal(seed=3, dealer=3)
    lead = deal.legal_actions(3)[0]
    foreign = next(c for c in parse_cards("2S 3S 4S 5S 6S 7S 8S 9S") if c not in deal.hand(3))
    with pytest.raises(ReplayError, match="does not hold"):
        replay(Record(Record.from_deal(deal).headers, (replace(lead, cards=(foreign,)),)))


def test_a_stored_result_that_differs_is_rejected():
    record = Record.from_deal(played())
    assert record.result is not None
    forged = dict(record.result, points={str(s): 100 for s in range(6)})
    with pytest.raises(ReplayError, match="points"):
        replay(replace(record, result=forged))


def test_a_forged_system_return_is_rejected():
    deal = Deal(seed=4, dealer=0, tributes=[(1, 0)])
    action = deal.timeout(0)
    record = Record.from_deal(deal)
    fresh = Deal(seed=4, dealer=0, tributes=[(1, 0)])
    other = next(c for c in fresh.hand(0) if c != action.cards[0])
    forged = replace(record, actions=(Action.return_(0, other, system=True),))
    with pytest.raises(ReplayError, match="the system plays"):
        replay(forged)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "header game"),
        ({"rules": "daguai-0"}, "header rules"),
        ({"dealer": 6}, "header dealer"),
        ({"levels": {"A": "1", "B": "2"}}, "header levels"),
        ({"options": {"lead_to": True}}, "header options"),
        ({"tributes": [[1]]}, "header tributes"),
        ({"seed": 1.5}, "header seed"),
        ({"seats": ["a"]}, "header seats"),
        ({"hands": ["3S"] * 5}, "header hands"),
        ({"tributes": [[1, 3]]}, "start no deal"),
    ],
)
def test_malformed_headers_are_rejected_with_the_header_named(change, message):
    data = Record.from_deal(Deal(seed=1)).to_json()
    data["headers"].update(change)
    with pytest.raises(RecordError, match=message):
        replay(Record.from_json(data))


def test_malformed_actions_and_json_are_rejected():
    data = Record.from_deal(Deal(seed=1)).to_json()
    data["actions"] = [{"kind": "play", "seat": 0, "cards": "3X"}]
    with pytest.raises(RecordError, match="action 1"):
        Record.from_json(data)
    data["actions"] = [{"kind": "jump", "seat": 0}]
    with pytest.raises(RecordError, match="action 1"):
        Record.from_json(data)
    with pytest.raises(RecordError, match="not JSON"):
        Record.loads("{")


def test_hand_made_deals_record_their_hands():
    hands = ["AS", "3S 4S", "KS", "7S 8S", "QS", "JS 5S"]
    deal = Deal(hands=[parse_cards(h) for h in hands], rules=Rules(lead_to_teammate=True))
    deal.apply(Action.parse("0 play AS"))
    record = Record.loads(Record.from_deal(deal).dumps())
    assert record.headers.hands is not None and record.headers.rules.lead_to_teammate
    assert replay(record).hand(1) == deal.hand(1)


def test_a_match_replays_from_its_deal_records():
    match = play_match(Match(seed=21, base=2), make_bots(["heuristic"] * 6, seed=1))
    records = [Record.loads(r.dumps()) for r in match_records(match, event="league")]
    assert [r.headers.number for r in records] == list(range(1, len(match.deals) + 1))
    again = replay_match(records)
    assert again.points == match.points and again.ladder == match.ladder
    forged = list(records)
    forged[1] = replace(forged[1], headers=replace(forged[1].headers, levels=Levels.parse("3,3")))
    with pytest.raises(ReplayError, match="deal 2: header levels"):
        replay_match(forged)
    left = replay_match(records[:1], left=3)
    assert left.over and left.left is not None


def test_headers_defaults_are_a_fresh_first_deal():
    h = Headers()
    assert Headers.from_json(h.to_json()) == h


def test_unknown_labels_are_refused():
    with pytest.raises(RecordError, match="unknown record labels"):
        Record.from_deal(Deal(seed=1), venue="pub")
