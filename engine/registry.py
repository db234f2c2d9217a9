"""The registry of games (after OpenSpiel's ``load_game`` and ``registered_names``).

A game is registered by key with the module that holds it: the module is imported the first time
the game is asked for, and its ``GAME`` object is the game (:class:`engine.game.Game`). Adding a
game is adding an engine package with such a module and one line here.

>>> [g.key for g in registered_games()][:1], get_game("daguai").name_zh
(['daguai'], '大怪路子')
"""

from __future__ import annotations

import importlib
from typing import cast

from engine.game import Game, UnknownGameError

__all__ = ["DEFAULT_GAME", "get_game", "register", "registered_games", "registered_keys"]

#: The game of a table, match or record that names none (everything stored before there were
#: several games).
DEFAULT_GAME = "daguai"

#: Game key -> the module whose ``GAME`` is the game.
_MODULES: dict[str, str] = {
    "daguai": "engine.daguai.game",
    "xiaoluzi": "engine.xiaoluzi.game",
    "shanghai_doudizhu": "engine.shanghai_doudizhu.game",
}

_loaded: dict[str, Game] = {}


def register(key: str, module: str) -> None:
    """Register the game ``key`` held by ``module`` (its ``GAME``), replacing an earlier one."""
    if not key or not key.isidentifier():
        raise ValueError(f"a game key is an identifier, not {key!r}")
    _MODULES[key] = module
    _loaded.pop(key, None)


def unregister(key: str) -> None:
    """Forget the game ``key`` (for tests that register a game of their own)."""
    _MODULES.pop(key, None)
    _loaded.pop(key, None)


def registered_keys() -> tuple[str, ...]:
    """The keys of the registered games, in registration order."""
    return tuple(_MODULES)


def get_game(key: str | None = None) -> Game:
    """The game registered as ``key`` (``None`` or ``""``: the default game).

    Raises :class:`engine.game.UnknownGameError` for a key that names no game.
    """
    key = key or DEFAULT_GAME
    game = _loaded.get(key)
    if game is not None:
        return game
    module = _MODULES.get(key)
    if module is None:
        known = ", ".join(_MODULES)
        raise UnknownGameError(f"unknown game {key!r} (known: {known})")
    game = cast(Game, importlib.import_module(module).GAME)
    if game.key != key:
        raise UnknownGameError(f"module {module} holds the game {game.key!r}, not {key!r}")
    _loaded[key] = game
    return game


def registered_games() -> list[Game]:
    """Every registered game, in registration order."""
    return [get_game(key) for key in _MODULES]
