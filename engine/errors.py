"""The engine's errors: a small hierarchy under :class:`ValueError`, each with a stable code.

An error carries a ``code`` (a stable string such as ``"daguai.not_your_turn"``), ``params`` (the
values its message names) and ``where`` (the deal and field of a sheet it is about). Its English
message is built from the code's registered format (:func:`register_messages`), so the command
line keeps printing English while the site translates by code.

>>> error = IllegalActionError.of("common.seat_range", seat=7, high=5)
>>> str(error), error.code, error.params
('seat must be 0-5, not 7', 'common.seat_range', {'seat': 7, 'high': 5})
>>> str(error.within(deal=2))
'deal 2: seat must be 0-5, not 7'
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Self

__all__ = [
    "MESSAGES",
    "CannotEscapeError",
    "EngineError",
    "IllegalActionError",
    "InvalidFinishError",
    "InvalidNotationError",
    "InvalidPlayError",
    "RecordError",
    "ReplayError",
    "message_codes",
    "register_messages",
]

#: Error code -> English format (``str.format`` with the error's named params). Every code an
#: engine package raises is registered here when the package is imported.
MESSAGES: dict[str, str] = {}


def register_messages(messages: Mapping[str, str]) -> None:
    """Register error codes and their English formats; a code keeps one format."""
    for code, text in messages.items():
        if MESSAGES.get(code, text) != text:
            raise ValueError(f"error code {code!r} registered twice with different texts")
        MESSAGES[code] = text


def message_codes() -> frozenset[str]:
    """Every registered error code (of the packages imported so far)."""
    return frozenset(MESSAGES)


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English message of ``code`` with ``params``."""
    return MESSAGES[code].format(**params)


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input.

    ``code`` is empty for an error raised with a bare message (not yet given a code).
    """

    code: str
    params: dict[str, Any]
    where: tuple[tuple[str, Any], ...]

    def __init__(
        self,
        message: str | None = None,
        /,
        *,
        code: str = "",
        params: Mapping[str, Any] | None = None,
        where: tuple[tuple[str, Any], ...] = (),
    ) -> None:
        self.code = code
        self.params = dict(params or {})
        self.where = where
        if message is None:
            message = english(code, self.params)
        self.reason = message  # the message without where it happened
        super().__init__(_located(where, message))

    @classmethod
    def of(cls, code: str, /, **params: Any) -> Self:
        """The error of ``code`` (a registered code) with ``params``."""
        return cls(code=code, params=params)

    def within(self, **where: Any) -> Self:
        """This error, said of a place: ``deal=2``, ``field="bid"`` or ``sheet=True``; outer
        places first (``within(deal=2)`` of an error ``within(field="bid")``: ``deal 2: bid:``)."""
        located = copy.copy(self)
        located.where = tuple(where.items()) + self.where
        located.args = (_located(located.where, self.reason),)
        return located


def _located(where: tuple[tuple[str, Any], ...], message: str) -> str:
    parts = []
    for kind, value in where:
        if kind == "deal":
            parts.append(f"deal {value}")
        elif kind == "sheet":
            parts.append("sheet")
        else:
            parts.append(str(value))
    return ": ".join([*parts, message])


class InvalidNotationError(EngineError):
    """A card, rank or play written in a notation the engine cannot read."""


class InvalidPlayError(EngineError):
    """Cards that make no play (for example ``3H 4H``, or four cards)."""


class IllegalActionError(EngineError):
    """An action that the rules do not allow in the current state."""


class CannotEscapeError(IllegalActionError):
    """A seat that cannot escape now: out already, a bystander, or the deal is over."""


class InvalidFinishError(EngineError):
    """A finishing order, a count of cards played or roles that no deal can have (a seat twice,
    a deal not ended, seats after its end)."""


class RecordError(EngineError):
    """A record that cannot be read: bad JSON, a missing or malformed header, a bad action."""


class ReplayError(IllegalActionError):
    """A record whose actions break the rules or whose stored result is not what they give.

    ``index`` is the 1-based number of the first bad action (``None`` when the actions are all
    legal but the result differs), ``action`` that action.
    """

    def __init__(self, message: str, *, index: int | None = None, action: Any = None) -> None:
        super().__init__(message)
        self.index = index
        self.action = action


register_messages(
    {
        "common.seat_range": "seat must be 0-{high}, not {seat!r}",
        "common.unknown_action": "Unknown action {kind!r}: use {known}.",
        "common.no_deal": "no deal is being played",
        "common.options_object": "rules options must be an object, not {data!r}",
        "options.unknown": "unknown rules options {names}",
        "options.bool": "{name} must be true or false, not {value!r}",
        "options.int": "{name} must be an integer, not {value!r}",
        "options.positive": "{name} must be a positive integer, not {value!r}",
        "options.min": "{name} must be {low} or more, not {value!r}",
        "options.choice": "{name} must be one of {allowed}, not {value!r}",
        "options.type": "{name} must be a {kind}, not {value!r}",
        "options.percent": "{name} must be an integer of {low} or more, not {value!r}",
        "options.slam_count": "slam_count must be 'cards' or 'plays', not {value!r}",
        "action.object": "an action is an object, not {data!r}",
        "action.unknown_keys": "unknown action keys {keys} in {data!r}",
        "action.unknown_kind": "unknown action kind {kind!r}",
        "action.seat": "seat must be 0-{high}, not {seat!r} in {data!r}",
        "action.cards_string": "cards must be a string, not {value!r}",
        "action.system_flag": "system must be true or false, not {value!r}",
        "action.no_cards": "a {kind} has no cards: {data!r}",
        "action.needs_cards": "a play needs cards: {data!r}",
        "action.value_int": "value must be an integer, not {value!r} in {data!r}",
        "action.bid": "a bid is 1, 2 or 3, not {value!r}",
        "action.choice_value": "a {kind} is 1 (yes) or 0 (no), not {value!r}",
        "action.no_value": "a {kind} has no value: {data!r}",
        "action.text": "an action is 'SEAT KIND [CARDS]', not {text!r}",
        "cards.unknown_token": "unknown card token {token!r}",
        "cards.unknown_token_in": "unknown card token {token!r} in {text!r}",
        "cards.unknown_rank": "unknown rank {token!r}",
    }
)
