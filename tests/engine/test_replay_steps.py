"""The step-by-step replay (``Game.replay_steps``) and a first deal dealt as another deal was
(``Game.deal_setup`` and ``new_match(first_deal=...)``), through the one interface, for every
registered game and the toy game of the tests."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.game import Game, MatchState
from engine.registry import registered_games
from tests.hypothesis_profiles import examples
from tests.toygame import GAME as TOY

GAMES: list[Game] = [*registered_games(), TOY]
IDS = [g.key for g in GAMES]


def play_out(game: Game, state: MatchState, seed: str) -> MatchState:
    """Heuristic bots play ``state`` to its end through the interface only."""
    bots = [game.bot(game.bot_kinds[0], f"{seed}:{s}") for s in range(game.seat_count)]
    while not state.over:
        if not state.in_deal:
            state.start_deal()
        while state.in_deal:
            for seat in state.awaiting():
                state.apply(bots[seat].act(state, seat))
                if not state.in_deal:
                    break
    return state


def records_of(game: Game, seed: int, deals: int = 2) -> list[dict[str, Any]]:
    options = game.options_from_json({**game.default_options().to_json(), "deals_per_match": deals})
    state = play_out(game, game.new_match(seed=seed, options=options), str(seed))
    return [state.record(n) for n in range(1, state.deals_started + 1)]


def cards(text: str) -> Counter[str]:
    return Counter(text.split())


def public(view: dict[str, Any]) -> dict[str, Any]:
    """A replay step's view without what only a replay shows (大怪路子's tribute cards)."""
    tributes = view.get("tributes")
    if not tributes:
        return view
    hidden = [{k: v for k, v in t.items() if k not in ("card", "return")} for t in tributes]
    return {**view, "tributes": hidden}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [3, 11])
def test_every_step_is_the_engines_state_after_that_many_actions(game: Game, seed: int) -> None:
    """Step n of a deal is what the engine's own match shows after the deal's first n actions
    (the match replayed through the interface: every deal before it, then this one action by
    action): the action, the public view of the deal and every seat's hand."""
    options = game.options_from_json({**game.default_options().to_json(), "deals_per_match": 3})
    played = play_out(game, game.new_match(seed=seed, options=options), str(seed))
    twin = game.new_match(seed=seed, options=options)
    for number in range(1, played.deals_started + 1):
        record = played.record(number)
        steps = game.replay_steps(json.dumps(record))
        assert len(steps) == len(record["actions"]) + 1
        assert steps[0].action is None
        assert [s.action for s in steps[1:]] == record["actions"]
        assert steps[-1].view["result"] == game.replay_record(record)["result"] == record["result"]
        twin.start_deal()
        for i, step in enumerate(steps):
            if i:
                twin.apply(game.action_from_json(record["actions"][i - 1]))
            assert public(step.view) == twin.deal_view(number), f"deal {number} step {i}"
            for seat in range(game.seat_count):
                hand = twin.deal_view(number, seat)["hand"]
                assert cards(hand) == cards(step.hands[seat]), f"step {i} seat {seat}"
        for before, after in zip(steps, steps[1:], strict=False):
            action = after.action
            assert action is not None
            if action["kind"] != "play":
                continue
            seat = action["seat"]
            assert cards(before.hands[seat]) - cards(after.hands[seat]) == cards(action["cards"])
            others = [o for o in range(game.seat_count) if o != seat]
            assert all(before.hands[o] == after.hands[o] for o in others)
    assert twin.points == played.points


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_bad_record_is_an_engine_error(game: Game) -> None:
    record = records_of(game, 5, deals=1)[0]
    broken = {**record, "actions": record["actions"][::-1]}
    with pytest.raises(EngineError):
        game.replay_steps(broken)
    with pytest.raises(EngineError):
        game.replay_steps("not json")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [2, 9])
def test_a_first_deal_holds_the_cards_of_the_deal_it_was_set_up_from(game: Game, seed: int) -> None:
    """Every seat holds, when play begins, the cards it held when play began in the original
    (大怪路子: after 进贡 and 还贡), and the new deal's record replays standing alone."""
    for record in records_of(game, seed, deals=3):
        steps = game.replay_steps(record)
        begun = next(
            (s for s in steps if s.view.get("phase") not in ("return", "tribute")), steps[0]
        )
        options = game.options_from_json({**game.default_options().to_json(), "deals_per_match": 1})
        state = game.new_match(
            seed=seed + 1000,
            options=options,
            base=record["headers"].get("base", 1),
            first_deal=json.loads(json.dumps(game.deal_setup(record))),
        )
        state.start_deal()
        for seat in range(game.seat_count):
            assert cards(state.deal_view(1, seat)["hand"]) == cards(begun.hands[seat])
        play_out(game, state, "again")
        again = state.record(1)
        assert game.replay_record(again)["result"] == again["result"]
        assert len(game.replay_steps(again)) == len(again["actions"]) + 1


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_malformed_first_deal_is_refused(game: Game) -> None:
    for bad in ({}, {"seed": True}, {"seed": 1, "nonsense": 2}, ["seed"]):
        with pytest.raises(EngineError):
            game.new_match(seed=1, options=game.default_options(), first_deal=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**62))
def test_no_card_appears_or_vanishes_between_steps(game: Game, seed: int) -> None:
    """At every step, the hands and the cards played so far are the cards dealt: every card is
    in one hand or on the table (a kitty the landlord took is in the landlord's hand)."""
    record = records_of(game, seed, deals=1)[0]
    steps = game.replay_steps(record)
    kitty = cards(steps[0].extra.get("kitty", ""))
    dealt = sum((cards(h) for h in steps[0].hands), Counter()) + kitty
    played: Counter[str] = Counter()
    for step in steps:
        action = step.action or {}
        if action.get("kind") == "play":
            played += cards(action["cards"])
        held = sum((cards(h) for h in step.hands), Counter()) + played
        assert held in (dealt, dealt - kitty)
