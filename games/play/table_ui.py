"""A game's table description for the table and replay pages (``Game.table_ui``).

The page's words are the site's own (``games.tables.views.table_strings``) with the game's ``terms``
over them; what the page draws of the game (its roles, facts, result words, buttons, pass rule)
is the rest of the description, served in the page's config as ``ui`` and read by
``static/games/describe.js``. A game that describes nothing gets ``engine.table_ui.DEFAULTS``
(``engine.base.GameBase``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language

from engine.game import Game

__all__ = ["game_table_ui", "page_words"]


def _chinese() -> bool:
    return (get_language() or "").startswith("zh")


def game_table_ui(game: Game) -> dict[str, Any]:
    """``game``'s table description in the request's language (``terms`` included)."""
    return dict(game.table_ui(chinese=_chinese()))


def page_words(site: Mapping[str, Any], terms: Mapping[str, Any]) -> dict[str, Any]:
    """The page's words: the site's with the game's ``terms`` over them (a group of words, such
    as ``kinds`` or ``endReasons``, takes the game's words beside the site's)."""
    words = dict(site)
    for key, value in terms.items():
        mine = words.get(key)
        if isinstance(mine, Mapping) and isinstance(value, Mapping):
            words[key] = {**mine, **value}
        else:
            words[key] = value
    return words
