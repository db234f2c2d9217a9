"""Review of the 小路子 engine against its contract (docs/xiaoluzi.md): each test is named after the
contract line it checks, and was written failing before the fix it names."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, format_cards
from engine.cli import main
from engine.xiaoluzi.actions import ActionKind
from engine.xiaoluzi.bots import HeuristicBot, make_bots, play_deal, play_match
from engine.xiaoluzi.deal import Deal, Phase, deal_hands
from engine.xiaoluzi.match import Match
from engine.xiaoluzi.record import (
    Headers,
    Record,
    RecordError,
    ReplayError,
    match_json,
    match_records,
    replay,
    replay_match,
)
from tests.hypothesis_profiles import examples

HAND_MADE = [
    "7H 8S 8H 9S 10S JS QS KS",
    "7D 8D 9H 10H JH QH KH AH",
    "8C 9D 10D JD QD KD AS AD",
    "9C 10C JC QC KC AC SJ BJ",
]


def _swap_unplayed(record: Record) -> Record:
    """The record with one card still held at its end swapped between two seats' dealt hands:
    the actions stay legal, only the hands are no longer what the seed dealt."""
    deal = replay(record)
    a, b = [s for s in range(4) if deal.hands[s]][:2]
    ca, cb = deal.hands[a][0], deal.hands[b][0]
    assert record.headers.hands is not None
    hands = [list(h) for h in record.headers.hands]
    hands[a][hands[a].index(ca)] = cb
    hands[b][hands[b].index(cb)] = ca
    forged = tuple(tuple(h) for h in hands)
    return replace(record, headers=replace(record.headers, hands=forged))


# -- Table: "the engine shuffles with its injected RNG and gives each seat 8 cards; a record stores
#    the four hands" -- the stored hands must be the ones the seed dealt (a forged record was
#    accepted: replay_match checked each deal's seed, never that the hands matched it)


def test_table_a_record_stores_the_hands_its_seed_deals_a_match_replay_rejects_other_hands():
    match = play_match(Match(seed=7), make_bots(["random"] * 4, seed=7))
    records = match_records(match)
    forged = _swap_unplayed(records[0])
    assert forged.headers.hands != records[0].headers.hands
    with pytest.raises(ReplayError, match="deal 1: header hands"):
        replay_match([forged, *records[1:]])
    # the genuine records still replay to the same totals
    assert replay_match(records).points == match.points


def _deal_ending_with_two_hands_held() -> Deal:
    for seed in range(100):
        deal = Deal(seed=seed)
        play_deal(deal, make_bots(["heuristic"] * 4, seed=seed))
        if sum(1 for h in deal.hands if h) >= 2:
            return deal
    raise AssertionError("no deal of 100 ended with two hands held")


def test_table_a_record_stores_the_hands_its_seed_deals_a_deal_replay_rejects_other_hands():
    deal = _deal_ending_with_two_hands_held()
    record = Record.from_deal(deal)
    assert record.headers.hands == tuple(tuple(h) for h in deal_hands(deal.seed))
    with pytest.raises(ReplayError, match="header hands"):
        replay(_swap_unplayed(record))
    with pytest.raises(ReplayError, match="header hands"):
        replay(Record.loads(_swap_unplayed(record).dumps()))


def test_table_a_hand_made_deal_is_marked_so_and_replays_from_its_hands_alone():
    deal = Deal(hands=HAND_MADE)
    play_deal(deal, [HeuristicBot(seed=s) for s in range(4)])
    data = Record.from_deal(deal).to_json()
    assert data["headers"]["hand_made"] is True
    assert replay(Record.from_json(data)).result == deal.result
    # a seeded deal's record says nothing of it (the JSON form is unchanged)
    seeded = Deal(seed=3)
    play_deal(seeded, make_bots(["random"] * 4, seed=3))
    assert "hand_made" not in Record.from_deal(seeded).to_json()["headers"]


def test_table_a_hand_made_record_needs_its_hands_and_a_boolean_mark():
    data = Record.from_deal(Deal(hands=HAND_MADE)).to_json()
    del data["headers"]["hands"]
    with pytest.raises(RecordError, match="hand_made"):
        Record.from_json(data)
    data = Record.from_deal(Deal(hands=HAND_MADE)).to_json()
    data["headers"]["hand_made"] = "yes"
    with pytest.raises(RecordError, match="hand_made"):
        Record.from_json(data)


def test_table_a_match_deals_every_hand_from_its_seed_so_a_hand_made_record_does_not_chain():
    match = play_match(Match(seed=11), make_bots(["random"] * 4, seed=11))
    records = match_records(match)
    first = records[0]
    marked = replace(first, headers=replace(first.headers, hand_made=True))
    with pytest.raises(ReplayError, match="deal 1: .*hand-made"):
        replay_match([marked, *records[1:]])


def test_table_the_cli_rejects_a_forged_match_record_with_exit_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    match = play_match(Match(seed=7), make_bots(["random"] * 4, seed=7))
    data = match_json(match)
    data["deals"][0] = _swap_unplayed(Record.from_json(data["deals"][0])).to_json()
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code = main(["replay", "--game", "xiaoluzi", "--json", str(path)])
    out, err = capsys.readouterr()
    assert code == 1 and json.loads(out)["ok"] is False and "header hands" in err


# -- Records: a match record's deals are that match's deals 1, 2, ... in order


def test_records_each_deal_of_a_match_record_names_the_match_seed_and_its_number():
    match = play_match(Match(seed=21), make_bots(["random"] * 4, seed=21))
    records = match_records(match)
    assert len(records) >= 2
    other = replace(records[1], headers=replace(records[1].headers, match_seed=22))
    with pytest.raises(ReplayError, match="deal 2: header match_seed"):
        replay_match([records[0], other, *records[2:]])
    renumbered = replace(records[1], headers=replace(records[1].headers, number=5))
    with pytest.raises(ReplayError, match="deal 2: header deal"):
        replay_match([records[0], renumbered, *records[2:]])


# -- Referee CLI: "2 malformed input (one line on stderr, never a traceback)"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([argv[0], "--game", "xiaoluzi", "--json", *argv[1:]])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_malformed_input_a_deeply_nested_json_file_is_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(path))
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "nested" in err


def _headers_json(**changes: Any) -> dict[str, Any]:
    return replace(Headers(hands=tuple(tuple(h) for h in deal_hands(0))), **changes).to_json()


def test_records_hands_at_the_wrong_seats_are_refused_and_hands_not_the_pack_are_malformed():
    data = {"headers": _headers_json(), "actions": []}
    hands = data["headers"]["hands"]
    hands[0], hands[1] = hands[1], hands[0]  # the seed's cards, at the wrong seats
    with pytest.raises(ReplayError, match="header hands"):
        replay(Record.from_json(data))
    seven: list[Card] = [Card.parse("7H")]
    data["headers"]["hands"] = [format_cards(seven)] * 4
    with pytest.raises(RecordError):
        Record.from_json(data)


def test_records_a_match_records_left_is_a_seat_0_3_not_a_float(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    match = Match(seed=3)
    deal, bots = match.start_deal(), make_bots(["random"] * 4, seed=3)
    while deal.turn is not None:
        match.apply(bots[deal.turn].act(deal, deal.turn))
    assert not match.over
    data = match_json(match)
    data["left"] = 1.0
    path = tmp_path / "left.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(path))
    assert code == 2 and out == "" and "left" in err
    data["left"] = 1
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = _run(capsys, "replay", str(path))
    assert code == 0 and json.loads(out)["match"]["end"] == "left"


# -- checked and right: "A trick" and "Who leads" against an oracle written from the contract


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), timeouts=st.integers(0, 20))
def test_a_trick_every_turn_and_every_trick_end_follow_the_contract(seed: int, timeouts: int):
    """In play order the next active player still holding cards acts; a trick ends exactly when
    every other active player still holding cards has passed since the last play, and its winner
    leads (or, when out, the next active holder from its seat)."""
    deal = Deal(seed=seed)
    bots = make_bots(["random"] * 4, seed=seed)
    rng = random.Random(seed)
    passes, last = 0, -1
    while deal.turn is not None:
        seat = deal.turn
        act = bots[seat].act(deal, seat)
        if deal.phase is Phase.PLAY and rng.randrange(20) < timeouts:
            act = deal.system_action(seat)
        deal.apply(act)
        if deal.over:
            break
        if deal.phase is not Phase.PLAY or act.kind.is_answer:
            continue
        holders = [s for s in deal.active if deal.hands[s]]
        if act.kind is ActionKind.PLAY:
            passes, last = 0, seat
        else:
            passes += 1
        if deal.current is None:  # the trick just ended: all other holders passed
            assert passes == sum(1 for s in holders if s != last)
            assert deal.last_trick is not None and deal.last_trick[0] == last
            nxt = last if deal.hands[last] else _next_in(holders, last)
            assert deal.turn == nxt
            passes = 0
        else:
            assert passes < sum(1 for s in holders if s != last)
            assert deal.turn == _next_in(holders, seat)
    for action in deal.actions:
        assert action.seat not in deal.bystanders or action.kind.is_answer


def _next_in(holders: list[int], seat: int) -> int:
    return next((seat + k) % 4 for k in (1, 2, 3) if (seat + k) % 4 in holders)


# -- Records: a deal record that names its match is checked against that match on its own too
#    (a deal dealt by a seed of one's choosing, labelled as a match's deal, replayed alone)


def test_records_a_match_deals_record_replayed_alone_must_have_the_seed_the_match_gives_it():
    match = play_match(Match(seed=31), make_bots(["random"] * 4, seed=31))
    for record in match_records(match):
        assert replay(record).result is not None  # the genuine deals replay alone
    chosen = Deal(seed=123)
    play_deal(chosen, make_bots(["heuristic"] * 4, seed=123))
    forged = Record.from_deal(chosen, number=2, match_seed=31)
    with pytest.raises(ReplayError, match="header seed"):
        replay(forged)
    with pytest.raises(ReplayError, match="header seed"):
        replay(Record.loads(forged.dumps()))


def test_records_a_match_deals_record_is_never_hand_made_and_within_the_match():
    made = Deal(hands=HAND_MADE)
    play_deal(made, [HeuristicBot(seed=s) for s in range(4)])
    with pytest.raises(ReplayError, match="hand-made"):
        replay(Record.from_deal(made, number=1, match_seed=31))
    match = play_match(Match(seed=31), make_bots(["random"] * 4, seed=31))
    last = match_records(match)[-1]
    beyond = replace(last, headers=replace(last.headers, number=5))  # 4 deals a match
    with pytest.raises(ReplayError, match="header deal"):
        replay(beyond)
