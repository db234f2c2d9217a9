"""A knockout match may be played "to A" when its game says so (Game.plays_to_a), not by a list
of game keys in tournaments/ (issue 27): a game the site has never seen may offer it too."""

from __future__ import annotations

import sys
import types
from typing import Any

from engine.registry import register, unregister
from tests.toygame import ToyGame
from tournaments import knockout


class ToAToy(ToyGame):
    key = "toatoy"
    plays_to_a = True


def test_play_to_a_is_asked_of_the_game() -> None:
    assert knockout.plays_to_a("daguai")
    assert not knockout.plays_to_a("xiaoluzi") and not knockout.plays_to_a("shanghai_doudizhu")
    module: Any = types.ModuleType("tests_toatoy_game")
    module.GAME = ToAToy()
    sys.modules["tests_toatoy_game"] = module
    register("toatoy", "tests_toatoy_game")
    try:
        assert knockout.plays_to_a("toatoy")
    finally:
        unregister("toatoy")
        sys.modules.pop("tests_toatoy_game", None)
