"""The values a deal is driven by: actions (play, pass, return, escape) and the rules options.

Actions are frozen values that round-trip through JSON (``{"kind": "play", "seat": 3,
"cards": "3H 3S"}``) and text (``3 play 3H 3S``); :class:`Rules` holds the contract's options.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, format_cards, parse_cards
from engine.daguai.result import SEATS
from engine.errors import EngineError, InvalidNotationError

__all__ = ["DEFAULT_RULES", "RULES_VERSION", "Action", "ActionKind", "Rules"]

#: The version of the rules contract this engine implements, written into every record.
RULES_VERSION = "daguai-1"


class ActionKind(enum.Enum):
    """What a seat does: play cards, pass, return a tribute card, or escape (leave the table)."""

    PLAY = "play"
    PASS = "pass"
    RETURN = "return"
    ESCAPE = "escape"


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of the rules contract (typed, never a string-keyed dict).

    ``lead_to_teammate``: when the winner of a trick has gone out, the lead goes to their next
    teammate still holding cards instead of the next player still holding cards.
    ``system_play_limit``: this many consecutive system plays by one seat count as an escape
    (0 turns it off). ``deals_per_match``: deals in a match unless it ends earlier.
    """

    lead_to_teammate: bool = False
    system_play_limit: int = 5
    deals_per_match: int = 3

    def __post_init__(self) -> None:
        if self.system_play_limit < 0:
            raise EngineError.of(
                "options.min", name="system_play_limit", low=0, value=self.system_play_limit
            )
        if self.deals_per_match < 1:
            raise EngineError.of(
                "options.min", name="deals_per_match", low=1, value=self.deals_per_match
            )

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object."""
        return {
            "lead_to_teammate": self.lead_to_teammate,
            "system_play_limit": self.system_play_limit,
            "deals_per_match": self.deals_per_match,
        }

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """The inverse of :meth:`to_json`; raises :class:`EngineError` for a bad option."""
        if not isinstance(data, dict):
            raise EngineError.of("common.options_object", data=data)
        unknown = set(data) - set(cls().to_json())
        if unknown:
            raise EngineError.of("options.unknown", names=sorted(unknown))
        lead = data.get("lead_to_teammate", False)
        limit = data.get("system_play_limit", 5)
        deals = data.get("deals_per_match", 3)
        if not isinstance(lead, bool):
            raise EngineError.of("options.bool", name="lead_to_teammate", value=lead)
        for name, value in (("system_play_limit", limit), ("deals_per_match", deals)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise EngineError.of("options.int", name=name, value=value)
        return cls(lead, limit, deals)


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat does; ``system`` marks an action the system made on a timeout.

    >>> Action.parse("3 play 3H 3S")
    Action.parse('3 play 3H 3S')
    >>> Action.from_json({"kind": "return", "seat": 2, "cards": "5H", "system": True})
    Action.parse('2 return 5H (system)')
    """

    kind: ActionKind
    seat: int
    cards: tuple[Card, ...] = ()
    system: bool = False

    @classmethod
    def play(cls, seat: int, cards: Iterable[Card], system: bool = False) -> Action:
        """Play ``cards``."""
        return cls(ActionKind.PLAY, seat, tuple(cards), system)

    @classmethod
    def pass_(cls, seat: int, system: bool = False) -> Action:
        """Pass (only when following)."""
        return cls(ActionKind.PASS, seat, (), system)

    @classmethod
    def return_(cls, seat: int, card: Card, system: bool = False) -> Action:
        """Return ``card`` to the seat that paid tribute to ``seat``."""
        return cls(ActionKind.RETURN, seat, (card,), system)

    @classmethod
    def escape(cls, seat: int) -> Action:
        """Leave the table during the deal."""
        return cls(ActionKind.ESCAPE, seat)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "play", "seat": 3, "cards": "3H 3S"}`` (``system: true`` when it is)."""
        data: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.cards:
            data["cards"] = format_cards(self.cards)
        if self.system:
            data["system"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """The inverse of :meth:`to_json`; raises :class:`InvalidNotationError` for bad input."""
        if not isinstance(data, dict):
            raise InvalidNotationError.of("action.object", data=data)
        unknown = set(data) - {"kind", "seat", "cards", "system"}
        if unknown:
            raise InvalidNotationError.of("action.unknown_keys", keys=sorted(unknown), data=data)
        try:
            kind = ActionKind(data.get("kind"))
        except ValueError:
            raise InvalidNotationError.of("action.unknown_kind", kind=data.get("kind")) from None
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
            raise InvalidNotationError.of("action.seat", high=5, seat=seat, data=data)
        text = data.get("cards", "")
        if not isinstance(text, str):
            raise InvalidNotationError.of("action.cards_string", value=text)
        system = data.get("system", False)
        if not isinstance(system, bool):
            raise InvalidNotationError.of("action.system_flag", value=system)
        cards = tuple(parse_cards(text))
        if kind in (ActionKind.PASS, ActionKind.ESCAPE) and cards:
            raise InvalidNotationError.of("action.no_cards", kind=kind.value, data=data)
        return cls(kind, seat, cards, system)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``3 play 3H 3S``, ``4 pass``, ``2 return 5H``, ``1 escape`` (``(system)`` last)."""
        words = text.split()
        system = bool(words) and words[-1] == "(system)"
        if system:
            words = words[:-1]
        if len(words) < 2 or not words[0].isdigit():
            raise InvalidNotationError.of("action.text", text=text)
        data: dict[str, Any] = {"seat": int(words[0]), "kind": words[1], "system": system}
        if len(words) > 2:
            data["cards"] = " ".join(words[2:])
        return cls.from_json(data)

    def __str__(self) -> str:
        text = f"{self.seat} {self.kind.value}"
        if self.cards:
            text += " " + format_cards(self.cards)
        return text + (" (system)" if self.system else "")

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


#: The default rules options.
DEFAULT_RULES = Rules()
