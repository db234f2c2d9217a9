"""What a seat does in a deal of 上海斗地主, as frozen values that round-trip through JSON and text.

``bid`` (1, 2 or 3), ``pass`` (a bidding PASS or a pass in the play), ``open`` (摊打 yes/no),
``report`` (the declared 报到 sets' cards; none = no 报到), ``fight`` (打 yes / 不打 no), ``play``
and ``escape`` (disconnect, timeouts, active).

>>> Action.parse("0 bid 3")
Action.parse('0 bid 3')
>>> Action.from_json({"kind": "fight", "seat": 1, "value": 0, "system": True})
Action.parse('1 fight no (system)')
>>> str(Action.from_json(Action.escape_(2, EscapeKind.ACTIVE).to_json()))
'2 escape active'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError, InvalidNotationError
from engine.shanghai_doudizhu.result import SEATS, EscapeKind

__all__ = ["Action", "ActionKind"]


class ActionKind(enum.Enum):
    """The kinds of action."""

    BID = "bid"
    PASS = "pass"
    OPEN = "open"
    REPORT = "report"
    FIGHT = "fight"
    PLAY = "play"
    ESCAPE = "escape"


_YES_NO = {"yes": 1, "no": 0}
_CHOICES = (ActionKind.OPEN, ActionKind.FIGHT)


@dataclass(frozen=True, slots=True)
class Action:
    """One action of ``seat``; ``value`` is the bid (1..3) or the choice (1 yes, 0 no),
    ``cards`` the cards played or declared, ``escape`` the escape's kind; ``system`` marks an
    action the system took on a timeout."""

    kind: ActionKind
    seat: int
    value: int = 0
    cards: tuple[Card, ...] = ()
    escape: EscapeKind | None = None
    system: bool = False

    def __post_init__(self) -> None:
        """Refuse an action no record could hold; raises :class:`InvalidNotationError`."""
        kind = self.kind
        if not isinstance(kind, ActionKind):
            raise InvalidNotationError(f"unknown action kind {kind!r}")
        value = self.value
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidNotationError(f"value must be an integer, not {value!r}")
        if kind is ActionKind.BID:
            if value not in (1, 2, 3):
                raise InvalidNotationError.of("action.bid", value=value)
        elif kind in _CHOICES:
            if value not in (0, 1):
                raise InvalidNotationError.of("action.choice_value", kind=kind.value, value=value)
        elif value != 0:
            raise InvalidNotationError(f"a {kind.value} has no value, not {value!r}")
        if self.cards and kind not in (ActionKind.PLAY, ActionKind.REPORT):
            raise InvalidNotationError(f"a {kind.value} has no cards")
        if kind is ActionKind.PLAY and not self.cards:
            raise InvalidNotationError("a play needs cards")
        if (kind is ActionKind.ESCAPE) != (self.escape is not None):
            raise InvalidNotationError(
                "an escape names its kind (disconnect, timeouts or active); no other action does"
            )
        if self.system and kind is ActionKind.ESCAPE:
            raise InvalidNotationError("an escape is never a system action")

    @classmethod
    def bid(cls, seat: int, value: int, system: bool = False) -> Action:
        """Bid ``value`` (1, 2 or 3)."""
        return cls(ActionKind.BID, seat, value, system=system)

    @classmethod
    def pass_(cls, seat: int, system: bool = False) -> Action:
        """Pass: a bidding PASS, or not playing on the trick."""
        return cls(ActionKind.PASS, seat, system=system)

    @classmethod
    def open(cls, seat: int, yes: bool, system: bool = False) -> Action:
        """摊打 (``yes``) or not."""
        return cls(ActionKind.OPEN, seat, int(yes), system=system)

    @classmethod
    def report(cls, seat: int, cards: Iterable[Card] = (), system: bool = False) -> Action:
        """Declare the 报到 sets made of ``cards`` (none: no 报到)."""
        return cls(ActionKind.REPORT, seat, cards=tuple(cards), system=system)

    @classmethod
    def fight(cls, seat: int, yes: bool, system: bool = False) -> Action:
        """打 (``yes``) or 不打 after a 报到."""
        return cls(ActionKind.FIGHT, seat, int(yes), system=system)

    @classmethod
    def play(cls, seat: int, cards: Iterable[Card], system: bool = False) -> Action:
        """Play ``cards``."""
        return cls(ActionKind.PLAY, seat, cards=tuple(cards), system=system)

    @classmethod
    def escape_(cls, seat: int, kind: EscapeKind) -> Action:
        """``seat`` counts as escaped (``kind`` says why)."""
        return cls(ActionKind.ESCAPE, seat, escape=kind)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "bid", "seat": 0, "value": 2}``, ``{"kind": "play", "seat": 1, "cards":
        "3H 3S"}`` (``system: true`` when it is)."""
        data: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.kind is ActionKind.BID or self.kind in _CHOICES:
            data["value"] = self.value
        if self.kind in (ActionKind.PLAY, ActionKind.REPORT):
            data["cards"] = format_cards(self.cards)
        if self.escape is not None:
            data["escape"] = self.escape.value
        if self.system:
            data["system"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """The inverse of :meth:`to_json`; raises :class:`InvalidNotationError` for bad input."""
        if not isinstance(data, dict):
            raise InvalidNotationError.of("action.object", data=data)
        unknown = set(data) - {"kind", "seat", "value", "cards", "escape", "system"}
        if unknown:
            raise InvalidNotationError.of("action.unknown_keys", keys=sorted(unknown), data=data)
        try:
            kind = ActionKind(data.get("kind"))
        except ValueError:
            raise InvalidNotationError.of("action.unknown_kind", kind=data.get("kind")) from None
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
            raise InvalidNotationError.of("action.seat", high=3, seat=seat, data=data)
        value = data.get("value", 0)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidNotationError.of("action.value_int", value=value, data=data)
        if kind is ActionKind.BID and value not in (1, 2, 3):
            raise InvalidNotationError.of("action.bid", value=value)
        if kind in _CHOICES and value not in (0, 1):
            raise InvalidNotationError.of("action.choice_value", kind=kind.value, value=value)
        if kind not in _CHOICES and kind is not ActionKind.BID and "value" in data:
            raise InvalidNotationError.of("action.no_value", kind=kind.value, data=data)
        text = data.get("cards", "")
        if not isinstance(text, str):
            raise InvalidNotationError.of("action.cards_string", value=text)
        try:
            cards = tuple(parse_cards(text))
        except EngineError as exc:
            raise InvalidNotationError(str(exc), code=exc.code, params=exc.params) from None
        if cards and kind not in (ActionKind.PLAY, ActionKind.REPORT):
            raise InvalidNotationError.of("action.no_cards", kind=kind.value, data=data)
        if kind is ActionKind.PLAY and not cards:
            raise InvalidNotationError.of("action.needs_cards", data=data)
        escape: EscapeKind | None = None
        if kind is ActionKind.ESCAPE:
            try:
                escape = EscapeKind(data.get("escape"))
            except ValueError:
                raise InvalidNotationError(
                    f"an escape is disconnect, timeouts or active, not {data.get('escape')!r}"
                ) from None
        elif "escape" in data:
            raise InvalidNotationError(f"a {kind.value} has no escape kind: {data!r}")
        system = data.get("system", False)
        if not isinstance(system, bool):
            raise InvalidNotationError.of("action.system_flag", value=system)
        if system and kind is ActionKind.ESCAPE:
            raise InvalidNotationError("an escape is never a system action")
        return cls(kind, seat, value, cards, escape, system)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``0 bid 3``, ``1 pass``, ``0 open yes``, ``0 report SJ SJ BJ BJ``, ``0 fight no``,
        ``2 play 3H 3S``, ``3 escape active`` (``(system)`` last)."""
        words = text.split()
        system = bool(words) and words[-1] == "(system)"
        if system:
            words = words[:-1]
        if len(words) < 2 or not words[0].isdigit():
            raise InvalidNotationError(f"an action is 'SEAT KIND [ARGS]', not {text!r}")
        kind, rest = words[1], words[2:]
        data: dict[str, Any] = {"seat": int(words[0]), "kind": kind, "system": system}
        if kind == "bid":
            if len(rest) != 1 or not rest[0].isdigit():
                raise InvalidNotationError(f"a bid is 'SEAT bid 1|2|3', not {text!r}")
            data["value"] = int(rest[0])
        elif kind in ("open", "fight"):
            if len(rest) != 1 or rest[0] not in _YES_NO:
                raise InvalidNotationError(f"'SEAT {kind} yes|no', not {text!r}")
            data["value"] = _YES_NO[rest[0]]
        elif kind == "escape":
            if len(rest) != 1:
                raise InvalidNotationError(
                    f"'SEAT escape disconnect|timeouts|active', not {text!r}"
                )
            data["escape"] = rest[0]
        elif rest:
            data["cards"] = " ".join(rest)
        return cls.from_json(data)

    def __str__(self) -> str:
        text = f"{self.seat} {self.kind.value}"
        if self.kind is ActionKind.BID:
            text += f" {self.value}"
        elif self.kind in _CHOICES:
            text += " yes" if self.value else " no"
        elif self.cards:
            text += " " + format_cards(self.cards)
        elif self.escape is not None:
            text += " " + self.escape.value
        return text + (" (system)" if self.system else "")

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"
