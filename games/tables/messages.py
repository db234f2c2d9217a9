"""The engine's refusals in the user's language.

The engine raises :class:`engine.errors.EngineError` with a stable ``code``, ``params`` and
``where`` (the deal and field of a referee's sheet), and English text for the command line. The
site says the same by code: :data:`MESSAGES` maps each code to a translatable format with named
params; card params read as cards (红桃2, 大怪), seats as the players' names when the caller knows
them. A code missing here falls back to the engine's English message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from engine.errors import EngineError
from engine.game import Game
from engine.registry import get_game, registered_keys
from games.tables.seats import seat_number

__all__ = ["MESSAGES", "cards_text", "engine_message", "game_catalog"]

#: The site's own words for the engine's codes that no one game owns (any game's actions,
#: options and cards; referees' sheets): error code -> the translatable format of its message
#: (``%(name)s`` params). A game's own codes come from its catalog (``Game.message_catalog``).
SITE_MESSAGES: dict[str, Promise] = {
    # any game
    "common.seat_range": _l("There is no seat %(seat)s."),
    "common.unknown_action": _l("This game has no action %(kind)s."),
    "common.no_deal": _l("No deal is being played."),
    "common.options_object": _l("The rule options are not valid."),
    "options.unknown": _l("Unknown rule options %(names)s."),
    "options.bool": _l("%(name)s must be yes or no, not %(value)s."),
    "options.int": _l("%(name)s must be a whole number, not %(value)s."),
    "options.positive": _l("%(name)s must be a whole number of 1 or more, not %(value)s."),
    "options.min": _l("%(name)s must be %(low)s or more, not %(value)s."),
    "options.choice": _l("%(name)s must be one of %(allowed)s, not %(value)s."),
    "options.type": _l("%(name)s is not valid: %(value)s."),
    "options.percent": _l("%(name)s must be a whole number of %(low)s or more, not %(value)s."),
    "options.slam_count": _l("slam_count must be cards or plays, not %(value)s."),
    "action.object": _l("An action is an object with its kind."),
    "action.unknown_keys": _l("An action has no fields %(keys)s."),
    "action.unknown_kind": _l("There is no action %(kind)s."),
    "action.seat": _l("There is no seat %(seat)s."),
    "action.cards_string": _l("The cards are written as text, not %(value)s."),
    "action.system_flag": _l("system is true or false, not %(value)s."),
    "action.no_cards": _l("This action takes no cards."),
    "action.needs_cards": _l("A play needs cards."),
    "action.value_int": _l("The value must be a whole number, not %(value)s."),
    "action.bid": _l("A bid (叫分) is 1, 2 or 3."),
    "action.choice_value": _l("Answer yes or no."),
    "action.no_value": _l("This action takes no value."),
    "action.text": _l("An action is written SEAT KIND [CARDS], not %(text)s."),
    "cards.unknown_token": _l("%(token)s is no card."),
    "cards.unknown_token_in": _l("%(token)s is no card."),
    "cards.unknown_rank": _l("%(token)s is no rank."),
    # any referee's sheet
    "sheet.object": _l("The score sheet is not valid."),
    "sheet.deals_list": _l("The deals are not a list."),
    "sheet.deal_object": _l("The deal is not valid."),
    "sheet.unknown_field": _l("unknown field."),
    "sheet.missing": _l("missing."),
    "sheet.number_range": _l("must be a number %(low)s-%(high)s, not %(value)s."),
    "sheet.number_min": _l("must be a number %(low)s or more, not %(value)s."),
    "sheet.seat_missing": _l("missing: choose a player."),
    "sheet.seat": _l("must be a player's seat, not %(value)s."),
    "sheet.flag": _l("must be yes or no, not %(value)s."),
    "sheet.choice_missing": _l("missing: one of %(choices)s."),
    "sheet.choice": _l("must be one of %(choices)s, not %(value)s."),
    "sheet.seat_list": _l("must be a list of players, not %(value)s."),
    "sheet.seat_in_list": _l("%(seat)s is not a seat."),
    "sheet.seat_twice": _l("a player appears twice."),
    "sheet.four_counts": _l("must be four numbers, one per player."),
    "sheet.count_range": _l("each count is 0-%(high)s, not %(value)s."),
    "sheet.match_ended": _l("The match had already ended (%(end)s)."),
}


class CatalogText:
    """One code of a game's catalog, in the active language when it is shown (``str``)."""

    __slots__ = ("chinese", "english")

    def __init__(self, chinese: str, english: str) -> None:
        self.chinese = chinese
        self.english = english

    def __str__(self) -> str:
        return self.chinese if (get_language() or "").startswith("zh") else self.english

    def __repr__(self) -> str:
        return f"CatalogText({self.chinese!r}, {self.english!r})"


def game_catalog(game: Game) -> Mapping[str, tuple[str, str]]:
    """The catalog of ``game``'s own codes, code -> (Chinese, English) (``Game.message_catalog``;
    a game that has none: empty, and its codes fall back to the engine's English)."""
    return game.message_catalog()


def _catalogs() -> dict[str, CatalogText]:
    texts: dict[str, CatalogText] = {}
    for key in registered_keys():
        for code, (chinese, english) in game_catalog(get_game(key)).items():
            texts.setdefault(code, CatalogText(chinese, english))
    return texts


class _Messages(Mapping[str, "Promise | CatalogText"]):
    """Every code the site can say: its own words, then each registered game's catalog (read
    anew, so that a game registered at run time brings its words with it)."""

    def _all(self) -> dict[str, Promise | CatalogText]:
        return {**_catalogs(), **SITE_MESSAGES}

    def __getitem__(self, code: str) -> Promise | CatalogText:
        text = SITE_MESSAGES.get(code)
        return text if text is not None else _catalogs()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: Error code -> its text for people in the active language (``str()`` of it): the site's own
#: words and every registered game's catalog. The codes are the engine's
#: (``engine.errors.message_codes()``); a test checks every one is here.
MESSAGES: Mapping[str, Promise | CatalogText] = _Messages()

#: Field names of referees' sheets (the JSON keys, which English pages show as they are), as the
#: Chinese form labels them.
FIELDS: dict[str, Promise] = {
    "deals": pgettext_lazy("sheet field", "deals"),
    "finish": pgettext_lazy("sheet field", "finish"),
    "escape": pgettext_lazy("sheet field", "escape"),
    "escape.seat": pgettext_lazy("sheet field", "escape.seat"),
    "escape.kind": pgettext_lazy("sheet field", "escape.kind"),
    "escape.during": pgettext_lazy("sheet field", "escape.during"),
    "leave": pgettext_lazy("sheet field", "leave"),
    "mode": pgettext_lazy("sheet field", "mode"),
    "declarer": pgettext_lazy("sheet field", "declarer"),
    "counter": pgettext_lazy("sheet field", "counter"),
    "played": pgettext_lazy("sheet field", "played"),
    "slam": pgettext_lazy("sheet field", "slam"),
    "holder_7h": pgettext_lazy("sheet field", "holder_7h"),
    "bid": pgettext_lazy("sheet field", "bid"),
    "landlord": pgettext_lazy("sheet field", "landlord"),
    "winner": pgettext_lazy("sheet field", "winner"),
    "redeals": pgettext_lazy("sheet field", "redeals"),
    "head_bid": pgettext_lazy("sheet field", "head_bid"),
    "open_hand": pgettext_lazy("sheet field", "open_hand"),
    "report": pgettext_lazy("sheet field", "report"),
    "report_sets": pgettext_lazy("sheet field", "report_sets"),
    "first_bidder": pgettext_lazy("sheet field", "first_bidder"),
    "first_dealer": pgettext_lazy("sheet field", "first_dealer"),
    "marked_joker": pgettext_lazy("sheet field", "marked_joker"),
    "all_pass": pgettext_lazy("sheet field", "all_pass"),
    "bombs": pgettext_lazy("sheet field", "bombs"),
}

#: Params that hold cards (engine tokens such as ``2H SJ``).
_CARD_PARAMS = frozenset({"cards", "card", "current", "sets"})
#: Params that hold a seat, or a list of seats.
_SEAT_PARAMS = frozenset({"seat", "expected", "given"})
_SEATS_PARAMS = frozenset({"order", "finish", "out"})

_SUITS: dict[str, Promise] = {
    "S": _l("%(rank)s♠"),
    "H": _l("%(rank)s♥"),
    "D": _l("%(rank)s♦"),
    "C": _l("%(rank)s♣"),
}
_CARD = re.compile(r"(?<![\w])(?:(10|[2-9JQKA])([SHDC])|([BS])J)(?![\w])")


def cards_text(text: str) -> str:
    """Card tokens in ``text`` as the site names cards: ``2H SJ`` -> ``红桃2 小怪`` (``2♥ 小怪``
    in English; 大怪 and 小怪 keep their Chinese names)."""

    def name(match: re.Match[str]) -> str:
        rank, suit, joker = match.groups()
        if joker:
            return str(_("大怪") if joker == "B" else _("小怪"))
        return str(_SUITS[suit]) % {"rank": rank}

    return _CARD.sub(name, text)


def _seat(value: Any, names: Sequence[str] | None) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        if names is not None and 0 <= value < len(names):
            return names[value]
        return _("seat %(n)s") % {"n": seat_number(value)}
    return _value(value)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _shown(params: dict[str, Any], names: Sequence[str] | None) -> dict[str, str]:
    shown: dict[str, str] = {}
    for key, value in params.items():
        if key in _CARD_PARAMS and isinstance(value, str):
            shown[key] = cards_text(value)
        elif key in _SEAT_PARAMS:
            shown[key] = _seat(value, names)
        elif key in _SEATS_PARAMS and isinstance(value, list | tuple):
            shown[key] = "、".join(_seat(s, names) for s in value) or _("nobody")
        elif key == "field":
            shown[key] = str(FIELDS.get(str(value), str(value)))
        else:
            shown[key] = _value(value)
    return shown


def _where(where: tuple[tuple[str, Any], ...]) -> list[str]:
    parts: list[str] = []
    for kind, value in where:
        if kind == "deal":
            parts.append(_("deal %(n)s") % {"n": value})
        elif kind == "sheet":
            parts.append(_("score sheet"))
        else:
            parts.append(str(FIELDS.get(str(value), str(value))))
    return parts


def engine_message(error: EngineError, *, seat_names: Sequence[str] | None = None) -> str:
    """``error`` in the active language: its code's translated format with its params (cards
    as cards, seats as ``seat_names`` when given), after where it happened (``第 2 副：叫分：``);
    the engine's English message for a code this table does not know."""
    try:
        text = MESSAGES[error.code]
    except KeyError:
        return str(error)
    try:
        message = str(text) % _shown(error.params, seat_names)
    except (KeyError, TypeError, ValueError):
        return str(error)
    parts = _where(error.where)
    if not parts:
        return message
    separator = pgettext("between the places of a refusal", ": ")
    return _("%(where)s: %(message)s") % {"where": separator.join(parts), "message": message}
