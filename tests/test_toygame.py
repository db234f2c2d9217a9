"""玩具牌 (tests/toygame.py), a toy game registered by tests only, plays through the one
interface of engine.game exactly as the real games do (issue 12): engine level, no Django."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, IllegalActionError
from engine.game import Game
from engine.registry import get_game, register, registered_keys, unregister
from tests.engine import test_registry as contract
from tests.hypothesis_profiles import examples
from tests.toygame import PACK, ToyAction, ToyDeal, deal_points

CARD = re.compile(r"\b[1-4][a-d]\b")
play_out: Callable[..., Any] = contract.play_out  # bots of one kind play a whole match


@pytest.fixture
def game() -> Iterator[Game]:
    register("toy", "tests.toygame")
    try:
        yield get_game("toy")
    finally:
        unregister("toy")
    assert "toy" not in registered_keys()


# -- the checks every registered game passes (tests/engine/test_registry.py) ---------------------
# All but those written for the real games' notation (``pass``, ``9H``): see the toy's own below.

CONTRACT = [
    contract.test_every_game_describes_itself,
    contract.test_options_round_trip_and_bad_options_are_refused,
    contract.test_a_match_plays_through_the_interface_and_replays,
    contract.test_a_changed_record_does_not_replay,
    contract.test_views_hide_every_hand_but_the_seats_own,
    contract.test_system_actions_and_timeouts,
    contract.test_escape_and_leaving_end_the_match,
    contract.test_score_sheets_score_what_was_played,
    contract.test_every_game_and_its_match_have_every_member_of_the_interface,
]


@pytest.mark.parametrize("check", CONTRACT, ids=[c.__name__ for c in CONTRACT])
def test_the_toy_passes_the_registry_checks_of_the_real_games(game: Game, check: Any) -> None:
    check(game)


def test_the_toy_describes_itself(game: Game) -> None:
    assert (game.key, game.name_zh, game.name_en, game.seat_count) == ("toy", "玩具牌", "Toy", 4)
    assert not game.fixed_sides and game.side_of(3) is None and game.score_sheets
    with pytest.raises(EngineError, match="no sides"):
        game.side_seats("A")
    (figure,) = game.figure_specs
    assert (figure.key, figure.holder, figure.start) == ("tricks", "seat", 0)
    assert game.options_from_json({"deals_per_match": 3}).deals_per_match == 3
    listed = game.to_json()
    assert listed["defaults"] == {"deals_per_match": 2} and listed["score_sheets"] is True
    with pytest.raises(EngineError, match="unknown bot kind"):
        game.bot("genius", 1)


# -- the rules -----------------------------------------------------------------------------------


def deal_of(*hands: str, dealer: int = 0, base: int = 1) -> ToyDeal:
    """A deal with the hands given (tests only: a match always deals from its seed)."""
    deal = ToyDeal(number=1, seed=0, dealer=dealer, base=base)
    deal.hands = [h.split() for h in hands]
    assert sorted(c for h in deal.hands for c in h) == sorted(PACK)
    return deal


def play(deal: ToyDeal, cards: str) -> None:
    for card in cards.split():
        assert deal.turn is not None
        deal.apply(ToyAction("play", deal.turn, card))


def test_the_highest_rank_wins_the_trick_and_the_earlier_play_a_tie() -> None:
    deal = deal_of("1a 2a 3a 4a", "1b 2b 3b 4b", "1c 2c 3c 4c", "1d 2d 3d 4d", dealer=1)
    play(deal, "3b 3c 1d 2a")  # seats 1 2 3 0: the 3s tie, seat 1 played first
    assert deal.winners == [1] and deal.leader == 1 and deal.turn == 1
    play(deal, "1b 1c 4d 4a")  # 4d (seat 3) before 4a (seat 0)
    assert deal.winners == [1, 3] and deal.turn == 3
    with pytest.raises(IllegalActionError, match="seat 3 plays"):
        deal.apply(ToyAction("play", 0, "1a"))
    with pytest.raises(IllegalActionError, match="does not hold it"):
        deal.apply(ToyAction("play", 3, "4d"))  # played already
    assert not deal.finish  # nobody goes out before the end
    play(deal, "3d 1a 2b 2c  2d 3a 4b 4c")
    assert deal.winners == [1, 3, 3, 1] and deal.over
    assert deal.result == {"outcome": "tricks", "tricks": [0, 2, 0, 2], "points": [0, 0, 0, 0]}
    assert deal.finish == (1, 1, 3, 3)
    with pytest.raises(IllegalActionError, match="is over"):
        deal.apply(ToyAction("play", 1, "4b"))


def test_points_of_a_deal() -> None:
    assert deal_points([4, 0, 0, 0], 1) == (3, -1, -1, -1)
    assert deal_points([1, 3, 0, 0], 5) == (-5, 15, -5, -5)
    assert deal_points([1, 1, 1, 1], 1) == (0, 0, 0, 0)


def test_a_timeout_plays_the_lowest_card(game: Game) -> None:
    state = game.new_match(seed=7, options=game.default_options())
    state.start_deal()
    seat = state.awaiting()[0]
    hand = state.deal_view(1, seat)["hand"].split()
    action = state.timeout(seat)
    assert action.to_json() == {"kind": "play", "seat": seat, "cards": hand[0], "system": True}
    assert hand[0] == min(hand, key=PACK.index)
    assert state.deal_view(1)["streaks"][seat] == 1


def test_an_escape_and_a_leaving_cost_and_end_the_match(game: Game) -> None:
    options = game.options_from_json({"deals_per_match": 3})
    state = game.new_match(seed=1, options=options, base=2)
    state.start_deal()
    assert state.escape(2) == {"outcome": "escape", "seat": 2, "points": [4, 4, -12, 4]}
    assert state.over and state.end_reason == "escape" and state.winner is None
    assert state.deal_actions(1)[-1].to_json() == {"kind": "escape", "seat": 2}
    with pytest.raises(IllegalActionError):
        state.escape(1)
    state = play_out(game, seed=3)  # two deals
    assert state.end_reason == "deals_played"
    with pytest.raises(IllegalActionError, match="cannot leave"):
        state.leave(0)
    state = game.new_match(seed=1, options=options)
    _play_deal(game, state, "heuristic")
    before = state.points
    assert state.leave(1) == {"outcome": "left", "seat": 1, "points": [1, -3, 1, 1]}
    assert state.points == [b + p for b, p in zip(before, [1, -3, 1, 1], strict=True)]
    assert (state.end_reason, state.left_seat) == ("left", 1)
    assert state.results()[-1]["outcome"] == "left"
    records = [state.record(1)]
    assert game.replay_match(records, left=1).points == state.points


def test_seated_players_play_one_card_and_never_escape(game: Game) -> None:
    assert game.seat_action(1, "play", " 3a ").to_json() == {
        "kind": "play",
        "seat": 1,
        "cards": "3a",
    }
    for kind, cards in (("escape", ""), ("pass", ""), ("play", "9H"), ("play", "3a 4a")):
        with pytest.raises(EngineError):
            game.seat_action(1, kind, cards)
    with pytest.raises(EngineError):
        game.seat_action(4, "play", "3a")
    assert not game.commutes([], 0, "play")
    # as the card room stores and rebuilds them: every column, cards empty for an escape
    stored = {"kind": "escape", "seat": 2, "cards": "", "system": False}
    assert game.action_from_json(stored) == ToyAction("escape", 2)
    bad: Any
    for bad in ({"kind": "escape", "seat": 2, "system": True}, {"kind": "play", "seat": 0}, []):
        with pytest.raises(EngineError):
            game.action_from_json(bad)


def test_a_selection_is_explained_from_either_view(game: Game) -> None:
    state = game.new_match(seed=4, options=game.default_options())
    state.start_deal()
    seat = state.awaiting()[0]
    view = state.deal_view(1, seat)
    card = view["hand"].split()[1]
    verdict = game.explain_selection(view=view, cards=card)
    assert verdict.ok and (verdict.kind, verdict.cards) == ("play", card)
    assert {"kind": "play", "seat": seat, "cards": card} in view["legal"]
    other = state.deal_view(1, (seat + 1) % 4)
    assert game.explain_selection(view=other, cards=other["hand"].split()[0]).message == (
        "It is not your turn."
    )
    assert not game.explain_selection(view=view, cards="").ok
    assert not game.explain_selection(view=view, cards=view["hand"]).ok  # four cards
    room = {"hand": view["hand"], "level": "2", "current": None, "my_turn": True}
    assert game.explain_selection(view=room, cards=card).ok
    assert not game.explain_selection(view={**room, "my_turn": False}, cards=card).ok


# -- many deals through the interface ------------------------------------------------------------


def _play_deal(game: Game, state: Any, kind: str, seed: int = 0) -> None:
    state.start_deal()
    bots = [game.bot(kind, f"{seed}:{s}") for s in range(4)]
    while state.in_deal:
        (seat,) = state.awaiting()
        _check_views(state)
        state.apply(bots[seat].act(state, seat))


def _check_views(state: Any) -> None:
    """No card of any hand shows in the public view; a private view shows its own hand only."""
    number = state.deals_started
    hands = [set(state.deal_view(number, s)["hand"].split()) for s in range(4)]
    public = json.dumps(state.public_view())
    assert '"hand"' not in public and '"seed"' not in public
    assert not set(CARD.findall(public)) & set().union(*hands)
    for seat in range(4):
        mine = set(CARD.findall(json.dumps(state.private_view(seat))))
        assert not mine & (set().union(*hands) - hands[seat])
        legal = state.legal_actions(seat)
        assert {a.cards for a in legal} == (hands[seat] if seat in state.awaiting() else set())


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_many_matches_end_sum_to_zero_and_replay(game: Game, kind: str) -> None:
    options = game.options_from_json({"deals_per_match": 3})
    for seed in range(40):
        state = game.new_match(seed=seed, options=options, base=1 + seed % 3)
        while not state.over:
            _play_deal(game, state, kind, seed)
            info = state.deal_info(state.deals_started)
            assert info.over and len(info.finish) == 4 and sum(info.points or [1]) == 0
        assert state.deals_started == 3 and sum(state.points) == 0
        figures = state.figures()["tricks"]
        assert sum(figures.values()) == 12 and set(figures) == {"0", "1", "2", "3"}
        records = [json.dumps(state.record(n, event="e")) for n in range(1, 4)]
        for number, text in enumerate(records, 1):
            replayed = game.replay_record(text)
            assert tuple(replayed["points"]) == state.deal_info(number).points
        again = game.replay_match(records)
        assert (again.points, again.figures(), again.winner) == (
            state.points,
            state.figures(),
            state.winner,
        )


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**63 - 1), st.lists(st.integers(0, 20), max_size=40))
def test_any_course_of_a_match_sums_to_zero_and_replays(seed: int, moves: list[int]) -> None:
    """Plays, timeouts, escapes and a leaving in any order: points always sum to zero and the
    records replay the match."""
    register("toy", "tests.toygame")
    try:
        game = get_game("toy")
        state = game.new_match(seed=seed, options=game.options_from_json({"deals_per_match": 4}))
        for move in moves:
            if state.over:
                break
            if not state.in_deal:
                state.start_deal() if move else state.leave(seed % 4)
                continue
            (seat,) = state.awaiting()
            if move == 0:
                state.escape((seat + move) % 4)
            elif move < 4:
                state.timeout(seat)
            else:
                legal = state.legal_actions(seat)
                state.apply(legal[move % len(legal)])
            assert sum(state.points) == 0
        assert sum(state.points) == 0
        if state.deals_started:
            records = [state.record(n) for n in range(1, state.deals_started + 1)]
            again = game.replay_match(records, left=state.left_seat)
            assert (again.points, again.over, again.end_reason) == (
                state.points,
                state.over,
                state.end_reason,
            )
    finally:
        unregister("toy")


def test_bots_are_deterministic_given_a_seed(game: Game) -> None:
    def actions(kind: str, seed: int) -> list[dict[str, Any]]:
        state = game.new_match(seed=5, options=game.default_options())
        _play_deal(game, state, kind, seed)
        return [a.to_json() for a in state.deal_actions(1)]

    assert actions("random", 1) == actions("random", 1)
    assert any(actions("random", 1) != actions("random", s) for s in range(2, 8))
    heuristic = actions("heuristic", 1)
    assert heuristic == actions("heuristic", 2)  # it plays the highest card: no chance
    state = game.new_match(seed=5, options=game.default_options())
    state.start_deal()
    (seat,) = state.awaiting()
    hand = state.deal_view(1, seat)["hand"].split()
    assert heuristic[0]["cards"] == max(hand, key=PACK.index)
    idle = (seat + 1) % 4
    with pytest.raises(IllegalActionError):
        game.bot("random", 1).act(state, idle)


def test_a_record_is_replayed_action_by_action(game: Game) -> None:
    state = play_out(game, seed=9)
    record = state.record(1, table="t1", seats=["a", "b", "c", "d"])
    headers = record["headers"]
    assert {k: headers[k] for k in ("game", "deal", "match_seed", "table")} == {
        "game": "toy",
        "deal": 1,
        "match_seed": 9,
        "table": "t1",
    }
    assert isinstance(headers["seed"], int) and headers["seed"] == state.deal_info(1).seed
    swapped = json.loads(json.dumps(record))
    swapped["actions"][0]["cards"], swapped["actions"][1]["cards"] = (
        record["actions"][1]["cards"],
        record["actions"][0]["cards"],
    )
    with pytest.raises(IllegalActionError, match="action 1"):
        game.replay_record(swapped)
    changed = {**record, "result": {**record["result"], "points": [9, -3, -3, -3]}}
    with pytest.raises(IllegalActionError, match="stored result"):
        game.replay_record(changed)
    for bad in ({**record, "headers": {**headers, "game": "daguai"}}, {"headers": headers}):
        with pytest.raises(EngineError):
            game.read_record(bad)
    second = state.record(2)
    with pytest.raises(IllegalActionError, match="deal 1"):
        game.replay_match([second, record])
    with pytest.raises(EngineError):
        game.replay_match([])


# -- a referee's score sheet ---------------------------------------------------------------------


def test_a_score_sheet_scores_what_was_played(game: Game) -> None:
    options = game.options_from_json({"deals_per_match": 3})
    state = game.new_match(seed=12, options=options, base=2)
    _play_deal(game, state, "random")
    _play_deal(game, state, "random")
    state.start_deal()
    state.escape(0)
    by_tricks, by_finish = [], []
    for number in range(1, 4):
        result = state.deal_info(number).result
        assert result is not None
        if result["outcome"] == "escape":
            by_tricks.append({"escape": result["seat"]})
            by_finish.append({"finish": [], "escape": result["seat"], "leave": None})
        else:
            by_tricks.append({"tricks": result["tricks"]})
            by_finish.append({"finish": list(state.deal_info(number).finish)})
    for deals in (by_tricks, by_finish):
        sheet = game.score_sheet({"first_dealer": 0, "deals": deals}, options=options, base=2)
        assert list(sheet.points) == state.points and sheet.end_reason == "escape"
        assert [d.result for d in sheet.deals] == state.results()
        assert [d.finish for d in sheet.deals] == [state.deal_info(n).finish for n in (1, 2, 3)]
        assert sheet.figures[0] == {"tricks": dict.fromkeys("0123", 0)}
        assert sheet.figures[-1] == state.figures() and sheet.winner == state.winner
        json.dumps(sheet.to_json())


def test_a_score_sheet_with_a_leaving(game: Game) -> None:
    options = game.default_options()
    deals = [{"tricks": [1, 3, 0, 0]}, {"finish": [], "escape": None, "leave": 0}]
    sheet = game.score_sheet({"first_dealer": 2, "deals": deals}, options=options)
    assert [d.dealer for d in sheet.deals] == [2]
    assert list(sheet.points) == [-1 - 3, 3 + 1, -1 + 1, -1 + 1]
    assert (sheet.end_reason, sheet.left, sheet.winner) == ("left", 0, "1")


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        ([{"tricks": [4, 0, 0, 0]}, {"tricks": [2, 1, 0, 0]}], "deal 2: the tricks add up to 3"),
        ([{"tricks": [5, 0, 0, -1]}], "deal 1: a seat wins 0-4 tricks"),
        ([{"tricks": [4, 0, 0]}], "deal 1: tricks are 4 numbers"),
        ([{"finish": [0, 1, 2, 4]}], "deal 1: a trick's winner must be a seat"),
        ([{"finish": [0, 1, 2]}], "deal 1: finish names the winner of each of 4 tricks"),
        ([{"tricks": [4, 0, 0, 0], "finish": [0, 0, 0, 0]}], "deal 1: give tricks or finish"),
        ([{"tricks": [4, 0, 0, 0], "bogus": 1}], "deal 1: an entry has"),
        ([{"tricks": [1, 1, 1, 1], "escape": 2}], "deal 1: an escaped deal counts no tricks"),
        ([{"escape": 2}, {"tricks": [1, 1, 1, 1]}], "deal 2: the match was over"),
        ([{"leave": 1, "tricks": [4, 0, 0, 0]}], "deal 1: a seat leaving"),
        ([{"leave": 7}], "deal 1: leave must be a seat"),
        ([{"tricks": [4, 0, 0, 0]}] * 3, "deal 3: the match was over"),
    ],
)
def test_a_bad_score_sheet_is_refused_naming_the_deal(
    game: Game, deals: list[Any], message: str
) -> None:
    with pytest.raises(EngineError, match=message):
        game.score_sheet({"first_dealer": 0, "deals": deals}, options=game.default_options())


def test_a_score_sheet_must_be_an_object_of_deals(game: Game) -> None:
    bad: Any
    for bad in ([], {"deals": "x"}, {"first_dealer": 4, "deals": []}):
        with pytest.raises(EngineError):
            game.score_sheet(bad, options=game.default_options())
