"""The values a deal of 小路子 is driven by: actions and the rules options.

Actions are frozen values that round-trip through JSON (``{"kind": "play", "seat": 3, "cards":
"9S BJ"}``) and text (``3 play 9S BJ``); :class:`Rules` holds the contract's options.

>>> Action.parse("2 declare")
Action.parse('2 declare')
>>> Rules.from_json(Rules(slam_count="plays").to_json()) == Rules(slam_count="plays")
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from engine.cards import Card, format_cards
from engine.errors import EngineError, InvalidNotationError
from engine.xiaoluzi.plays import parse_hand

__all__ = ["DEFAULT_RULES", "RULES_VERSION", "SEATS", "Action", "ActionKind", "Rules"]

#: The version of the rules contract this engine implements, written into every record.
RULES_VERSION = "xiaoluzi-1"

#: The four seats, in play order (seat s is followed by its 下家 s+1 mod 4).
SEATS: tuple[int, ...] = (0, 1, 2, 3)

#: The ways of counting what a player has played for a slam (全关).
SLAM_COUNTS = ("cards", "plays")


class ActionKind(enum.Enum):
    """What a seat does: answer the declaring or counter question, play, pass, or escape."""

    DECLARE = "declare"  # 宣
    NO_DECLARE = "no_declare"  # 不宣
    COUNTER = "counter"  # 反宣
    NO_COUNTER = "no_counter"  # 不反宣
    PLAY = "play"
    PASS = "pass"  # 不出
    ESCAPE = "escape"  # 逃跑

    @property
    def is_answer(self) -> bool:
        """Whether this answers the declaring or the counter question."""
        return self in _ANSWERS


_ANSWERS = frozenset(
    {ActionKind.DECLARE, ActionKind.NO_DECLARE, ActionKind.COUNTER, ActionKind.NO_COUNTER}
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of the rules contract (typed, never a string-keyed dict).

    ``base_score`` X and ``base_silver`` Y scale every settlement; ``deals_per_match``: deals in
    a match unless it ends earlier; ``system_actions_to_escape``: this many consecutive system
    leads and follows by one seat count as an escape (0 turns it off); ``joker_sevens``: 7H 7D SJ
    and the like are triples and fours of 7; ``first_lead_7h``: in mode none the first lead must
    hold 7H; ``slam_count``: a slam counts the ``"cards"`` or the ``"plays"`` a player made.
    """

    base_score: int = 1
    base_silver: int = 1
    deals_per_match: int = 4
    system_actions_to_escape: int = 3
    joker_sevens: bool = True
    first_lead_7h: bool = False
    slam_count: str = "cards"

    def __post_init__(self) -> None:
        for name in ("base_score", "base_silver", "deals_per_match"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise EngineError.of("options.positive", name=name, value=value)
        limit = self.system_actions_to_escape
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise EngineError.of("options.min", name="system_actions_to_escape", low=0, value=limit)
        for name in ("joker_sevens", "first_lead_7h"):
            if not isinstance(getattr(self, name), bool):
                raise EngineError.of("options.bool", name=name, value=getattr(self, name))
        if self.slam_count not in SLAM_COUNTS:
            raise EngineError.of("options.slam_count", value=self.slam_count)

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """The inverse of :meth:`to_json` (missing options take their defaults); raises
        :class:`EngineError` for an unknown or bad option."""
        if not isinstance(data, dict):
            raise EngineError.of("common.options_object", data=data)
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise EngineError.of("options.unknown", names=sorted(unknown))
        return cls(**data)


#: The default rules options.
DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat does; ``system`` marks an action the system took on a timeout.

    >>> Action.parse("3 play 9S BJ")
    Action.parse('3 play 9S BJ')
    >>> Action.from_json({"kind": "pass", "seat": 1, "system": True})
    Action.parse('1 pass (system)')
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
        """Pass (不出; only when following)."""
        return cls(ActionKind.PASS, seat, (), system)

    @classmethod
    def declare(cls, seat: int, yes: bool, system: bool = False) -> Action:
        """Answer the declaring question: 宣 (``yes``) or 不宣."""
        return cls(ActionKind.DECLARE if yes else ActionKind.NO_DECLARE, seat, (), system)

    @classmethod
    def counter(cls, seat: int, yes: bool, system: bool = False) -> Action:
        """Answer the counter question: 反宣 (``yes``) or 不反宣."""
        return cls(ActionKind.COUNTER if yes else ActionKind.NO_COUNTER, seat, (), system)

    @classmethod
    def escape(cls, seat: int) -> Action:
        """Leave the table during the deal (逃跑)."""
        return cls(ActionKind.ESCAPE, seat)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "play", "seat": 3, "cards": "9S BJ"}`` (``system: true`` when it is)."""
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
            raise InvalidNotationError.of("action.seat", high=3, seat=seat, data=data)
        text = data.get("cards", "")
        if not isinstance(text, str):
            raise InvalidNotationError.of("action.cards_string", value=text)
        system = data.get("system", False)
        if not isinstance(system, bool):
            raise InvalidNotationError.of("action.system_flag", value=system)
        cards = tuple(parse_hand(text))
        if kind is ActionKind.PLAY and not cards:
            raise InvalidNotationError.of("action.needs_cards", data=data)
        if kind is not ActionKind.PLAY and cards:
            raise InvalidNotationError.of("action.no_cards", kind=kind.value, data=data)
        return cls(kind, seat, cards, system)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``3 play 9S BJ``, ``1 pass``, ``0 declare``, ``2 no_counter``, ``1 escape``
        (``(system)`` last)."""
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
