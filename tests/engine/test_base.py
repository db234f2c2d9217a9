"""What every game shares is written once (issue 27): the base of the adapters (engine/base.py),
one record module and one error hierarchy, one command line over the registry, and the game's
own answers for duplicate dealing, search tuning and play to A, asked of the game, never by key.

A game the engine has never seen (a variant of the toy game of the tests, registered here) gets
all of it by being registered."""

from __future__ import annotations

import json
import random
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from engine import cli
from engine.base import GameBase
from engine.duplicate import DealtDeal, dealt_deals, duplicate_games, first_dealer
from engine.errors import EngineError, RecordError, ReplayError
from engine.record import read_leniently
from engine.registry import get_game, register, registered_keys, unregister
from engine.search import SearchBot
from tests.toygame import PACK, ToyDeal, ToyGame, deal_seed


class DuplicateToy(ToyGame):
    """The toy game with duplicate dealing, a search ceiling, stricter evidence, play to A, one
    spare deal per board and a verb of its own."""

    key = "duptoy"
    plays_to_a = True
    search_ceiling_ms = 7.0
    search_evidence = (2.0, 5)
    duplicate_spares = 1
    cli_module = "tests_duptoy_cli"
    cli_description = "Referee tools for 玩具牌."

    def dealt_hands(self, match_seed: int, count: int) -> list[DealtDeal]:
        out = []
        for number in range(1, count + 1):
            seed = deal_seed(match_seed, number)  # as its match deals deal ``number``
            deal = ToyDeal(number=number, seed=seed, dealer=(number - 1) % 4, base=1)
            out.append(DealtDeal(number, str(seed), tuple(tuple(h) for h in deal.hands)))
        return out

    def first_dealer(self, match_seed: int) -> int | None:
        return 0


def _register_cli() -> None:
    module: Any = types.ModuleType("tests_duptoy_cli")

    def count(args: Any) -> int:
        cli.emit(args, {"cards": len(PACK)}, f"{len(PACK)} cards")
        return 0

    def refuse(args: Any) -> int:
        raise cli.Refused("never")

    def register_verbs(sub: Any) -> None:
        verb = sub.add_parser("count", help="the cards of the pack")
        verb.add_argument("--json", action="store_true")
        verb.set_defaults(handler=count)
        sub.add_parser("refuse").set_defaults(handler=refuse, json=False)

    module.register = register_verbs
    sys.modules["tests_duptoy_cli"] = module


@pytest.fixture
def duptoy() -> Iterator[GameBase]:
    module: Any = types.ModuleType("tests_duptoy_game")
    module.GAME = DuplicateToy()
    sys.modules["tests_duptoy_game"] = module
    _register_cli()
    register("duptoy", "tests_duptoy_game")
    try:
        game = get_game("duptoy")
        assert isinstance(game, GameBase)
        yield game
    finally:
        unregister("duptoy")
        sys.modules.pop("tests_duptoy_game", None)
        sys.modules.pop("tests_duptoy_cli", None)
    assert "duptoy" not in registered_keys()


def test_a_registered_game_deals_duplicate_boards_by_its_own_members(duptoy: GameBase) -> None:
    assert "duptoy" in duplicate_games()
    assert "toy" not in duplicate_games()  # the toy game deals no duplicate boards
    deals = dealt_deals("duptoy", 5, 3)
    assert [d.number for d in deals] == [1, 2, 3]
    assert sorted(c for h in deals[0].hands for c in h) == sorted(PACK)
    assert first_dealer("duptoy", 5) == 0
    assert duptoy.duplicate_deals(4) == 5  # its one spare
    assert get_game("shanghai_doudizhu").duplicate_deals(4) == 6  # 荒番: two spares
    assert get_game("daguai").duplicate_deals(3) == 3
    with pytest.raises(EngineError, match="not known"):
        dealt_deals("bridge", 1, 1)


def test_the_search_bot_is_tuned_by_the_game(duptoy: GameBase) -> None:
    bot = SearchBot(duptoy, budget_ms=250)
    assert (bot.budget_ms, bot.margin, bot.min_worlds) == (7.0, 2.0, 5)
    doudizhu = SearchBot(get_game("shanghai_doudizhu"), budget_ms=250)
    assert (doudizhu.budget_ms, doudizhu.margin, doudizhu.min_worlds) == (50.0, 1.0, 4)
    assert SearchBot(get_game("xiaoluzi"), budget_ms=250).budget_ms == 250
    assert duptoy.plays_to_a and get_game("daguai").plays_to_a
    assert not get_game("xiaoluzi").plays_to_a


def test_the_command_line_offers_the_verbs_a_game_registers(
    duptoy: GameBase, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["count", "--game", "duptoy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"cards": 16}
    assert cli.main(["games", "--game=duptoy", "--json"]) == 0
    keys = [g["key"] for g in json.loads(capsys.readouterr().out)["games"]]
    assert "duptoy" in keys
    assert cli.main(["refuse", "--game", "duptoy"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "no: never\n" and captured.err == "luzi refuse: never\n"
    assert cli.main(["count"]) == 2  # 大怪路子, the default game, has no such verb
    assert "invalid choice" in capsys.readouterr().err
    assert cli.main(["count", "--game", "nosuch"]) == 2
    assert "unknown game 'nosuch'" in capsys.readouterr().err


def test_the_base_answers_the_shared_members(duptoy: GameBase) -> None:
    state = duptoy.new_match(seed=3, options=duptoy.default_options())
    state.start_deal()
    with pytest.raises(EngineError, match="no deal 2: 1 deals were dealt"):
        state.deal_view(2)
    with pytest.raises(EngineError, match="not an action of 玩具牌"):
        state.apply("play")
    with pytest.raises(EngineError, match="unknown bot kind 'genius'"):
        duptoy.bot("genius", 1)
    xiaoluzi = get_game("xiaoluzi")
    other = xiaoluzi.new_match(seed=1, options=xiaoluzi.default_options())
    with pytest.raises(EngineError, match="not a match of 玩具牌"):
        duptoy.sample_world(other, 0, random.Random(1))
    with pytest.raises(EngineError, match="seat must be 0-3"):
        duptoy.sample_world(state, 4, random.Random(1))
    listed = duptoy.to_json()
    assert listed["key"] == "duptoy" and listed["sides"] == {}


def test_every_game_raises_the_same_record_errors() -> None:
    from engine.daguai import record as daguai
    from engine.shanghai_doudizhu import record as doudizhu
    from engine.xiaoluzi import record as xiaoluzi

    assert daguai.RecordError is xiaoluzi.RecordError is doudizhu.RecordError is RecordError
    assert daguai.ReplayError is xiaoluzi.ReplayError is doudizhu.ReplayError is ReplayError
    for key in ("daguai", "xiaoluzi", "shanghai_doudizhu"):
        with pytest.raises(RecordError):
            get_game(key).read_record("not JSON")


def test_a_lenient_read_collects_every_problem() -> None:
    game = get_game("xiaoluzi")
    state = game.new_match(seed=2, options=game.default_options())
    state.start_deal()
    good = state.record(1)
    records, problems = read_leniently([good, {"headers": 3}, [], good], game.read_record)
    assert len(records) == 2
    assert [p.split(":")[0] for p in problems] == ["record 2", "record 3"]
