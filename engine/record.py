"""Deal records for every game, written once: headers and the ordered actions, read strictly for
live play and replay, leniently for an import that reports every problem at once.

A record is ``{"headers": {...}, "actions": [...], "result": {...} | null}``. A game's record
class (``engine/<game>/record.py``) extends :class:`RecordBase` with its ``Headers`` (what
starts the deal: seed, dealer, options...) and its action type, and says how the headers start a
deal (``new_deal``); reading and writing the JSON, replaying the actions with every one checked,
and comparing the stored result with the replayed one are here. Every game raises the same two
errors (:mod:`engine.errors`): :class:`RecordError` (a record that cannot be read) and
:class:`ReplayError` (one whose actions break the rules or whose result is not what they give).

>>> read_leniently([{"headers": {}}, "not a record"], lambda data: data["headers"])
([{}], ['record 2: a record is an object, not str'])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol, Self, TypeVar

from engine.errors import EngineError, IllegalActionError, RecordError, ReplayError

__all__ = [
    "RecordBase",
    "RecordError",
    "ReplayError",
    "apply_all",
    "as_json",
    "check_result",
    "read_leniently",
    "replay",
    "replay_steps",
]


class _Json(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class _Deal(Protocol):
    @property
    def actions(self) -> Sequence[Any]: ...

    @property
    def result(self) -> Any: ...

    def apply(self, action: Any) -> None: ...


class _Record(Protocol):
    @property
    def actions(self) -> Sequence[Any]: ...

    @property
    def result(self) -> dict[str, Any] | None: ...

    def new_deal(self) -> Any: ...


R = TypeVar("R")


class RecordBase:
    """The JSON of a deal record; a game's frozen dataclass ``Record(headers, actions, result)``
    extends it and sets ``headers_type`` and ``action_type`` (each with ``from_json``)."""

    __slots__ = ()

    headers_type: ClassVar[Any] = None
    action_type: ClassVar[Any] = None

    headers: Any
    actions: tuple[Any, ...]
    result: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        """``{"headers": ..., "actions": [...], "result": ...}``."""
        return {
            "headers": self.headers.to_json(),
            "actions": [a.to_json() for a in self.actions],
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Read a record; raises :class:`RecordError` for anything malformed."""
        if not isinstance(data, dict):
            raise RecordError(f"a record is an object, not {type(data).__name__}")
        unknown = set(data) - {"headers", "actions", "result"}
        if unknown:
            raise RecordError(f"unknown record keys {sorted(unknown)}")
        headers = cls.headers_type.from_json(data.get("headers"))
        raw = data.get("actions", [])
        if not isinstance(raw, list):
            raise RecordError("actions must be a list")
        actions = []
        for i, item in enumerate(raw, 1):
            try:
                actions.append(cls.action_type.from_json(item))
            except EngineError as exc:
                raise RecordError(f"action {i}: {exc}") from None
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError(f"result must be an object or null, not {result!r}")
        return cls(headers, tuple(actions), result)  # type: ignore[call-arg]

    def dumps(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=indent)

    @classmethod
    def loads(cls, text: str) -> Self:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return cls.from_json(data)


def as_json(value: Any) -> dict[str, Any]:
    """A result (or headers...) as JSON: the object's ``to_json()``, or the dict it already is."""
    if isinstance(value, dict):
        return value
    data: dict[str, Any] = value.to_json()
    return data


def apply_all(actions: Sequence[Any], apply: Callable[[Any], Any], where: str = "") -> None:
    """Apply ``actions`` one by one (strict: the first the rules refuse is a :class:`ReplayError`
    naming it, 1-based, prefixed by ``where``)."""
    for i, action in enumerate(actions, 1):
        try:
            apply(action)
        except IllegalActionError as exc:
            reason = str(exc).removeprefix(f"{action}: ")
            raise ReplayError(
                f"{where}action {i} ({action}) is illegal: {reason}", index=i, action=action
            ) from None


def check_result(deal: _Deal, stored: dict[str, Any] | None, where: str = "") -> None:
    """Raise :class:`ReplayError` when the record's ``stored`` result is not the replayed
    deal's (the first key that differs, by name); a record without a result passes."""
    if stored is None:
        return
    if deal.result is None:
        raise ReplayError(
            f"{where}the record has a result but its {len(deal.actions)} actions don't end the deal"
        )
    replayed = as_json(deal.result)
    if replayed != stored:
        missing = object()
        key = min(
            str(k)
            for k in set(replayed) | set(stored)
            if replayed.get(k, missing) != stored.get(k, missing)
        )
        in_record = repr(stored[key]) if key in stored else "missing"
        when_replayed = repr(replayed[key]) if key in replayed else "missing"
        raise ReplayError(
            f"{where}the stored result differs from the replay: {key} is {in_record} "
            f"in the record but {when_replayed} when replayed"
        )


def replay(record: _Record) -> Any:
    """Replay a record, checking every action and the stored result; returns the deal.

    Raises :class:`ReplayError` naming the first bad action (or the result that differs) and
    :class:`RecordError` when the headers start no deal.
    """
    deal = record.new_deal()
    apply_all(record.actions, deal.apply)
    check_result(deal, record.result)
    return deal


def replay_steps(record: _Record, seen: Callable[[Any, Any], None]) -> Any:
    """Replay a record as :func:`replay` does, calling ``seen(deal, None)`` on the deal as dealt
    and ``seen(deal, action)`` right after each action (a step-by-step viewer's snapshots)."""
    deal = record.new_deal()
    seen(deal, None)

    def apply(action: Any) -> None:
        deal.apply(action)
        seen(deal, action)

    apply_all(record.actions, apply)
    check_result(deal, record.result)
    return deal


def read_leniently(items: Sequence[Any], read: Callable[[Any], R]) -> tuple[list[R], list[str]]:
    """Read every item with ``read`` (a game's ``Record.from_json`` or a replay), keeping those
    that read and collecting a problem per item that does not (``record N: why``), for an import
    that reports all its problems at once rather than stopping at the first."""
    good: list[R] = []
    problems: list[str] = []
    for number, item in enumerate(items, 1):
        try:
            good.append(read(item))
        except EngineError as exc:
            problems.append(f"record {number}: {exc}")
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"record {number}: {_why(item, exc)}")
    return good, problems


def _why(item: Any, exc: Exception) -> str:
    if not isinstance(item, dict):
        return f"a record is an object, not {type(item).__name__}"
    return f"not a record ({type(exc).__name__}: {exc})"
