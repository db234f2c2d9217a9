"""A knockout match may be played "to A" when its game says so (Game.plays_to_a), not by a list
of game keys in tournaments/ (issue 27): a game the site has never seen may offer it too."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from engine.registry import register, unregister
from tests.toygame import ToyGame
from tournaments.knockout import services as knockout


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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("zh-hans", "小路子没有过A：比赛按副数打完。"), ("en", "小路子 has no play to A (过A)")],
)
def test_a_game_without_play_to_a_is_refused_in_its_own_name(language: str, words: str) -> None:
    """The refusal named 大怪路子 whatever the game; it now names the event's game, in words."""
    from django.contrib.auth import get_user_model
    from django.utils import translation

    from config.exceptions import ApplicationError
    from tests.tournaments.factories import EventFactory
    from tournaments.events import staff as services

    event = EventFactory(game="xiaoluzi")
    user = get_user_model().objects.create_user("ref", password="x")
    services.event_organizer_add(event=event, user=user)
    with translation.override(language), pytest.raises(ApplicationError) as refused:
        knockout.knockout_break(event=event, size=4, to_a=True, user=user)
    assert words in str(refused.value)
