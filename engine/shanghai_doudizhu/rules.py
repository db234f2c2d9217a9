"""The typed options of the 上海斗地主 rules contract (``docs/shanghai_doudizhu.md``, *Options*).

>>> Rules.from_json(Rules(huangfan=Huangfan.QUEUE).to_json()) == Rules(huangfan=Huangfan.QUEUE)
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

from engine.errors import EngineError

__all__ = [
    "DEFAULT_RULES",
    "RULES_VERSION",
    "RULES_VERSIONS",
    "RULES_VERSION_1",
    "DoubleReport",
    "EscapeRounding",
    "FirstBidder",
    "Huangfan",
    "ReportLossRating",
    "Rules",
]

#: The version of the rules contract this engine implements, written into every record.
#: Version 2: the landlord always has the 报到 decision (declaring nothing is then his only
#: choice without a set), except after 摊打 without a set, where everyone sees there is none.
RULES_VERSION = "shanghai_doudizhu-2"

#: Version 1 skipped the 报到 decision when the landlord held no set, so its ``report`` phase
#: told every watcher that he held one; its records are still read, and replayed as they were.
RULES_VERSION_1 = "shanghai_doudizhu-1"

#: The versions a record may name.
RULES_VERSIONS = (RULES_VERSION, RULES_VERSION_1)


class FirstBidder(enum.Enum):
    """Who bids first: the holder of the marked card, or the seat after last deal's first bidder."""

    MARKED_CARD = "marked_card"
    ROTATE = "rotate"


class Huangfan(enum.Enum):
    """How all-pass deals (荒番) double the next played deal: once, per all-pass deal, or queued."""

    FLAG = "flag"
    MULTIPLY = "multiply"
    QUEUE = "queue"


class DoubleReport(enum.Enum):
    """双报到: one more ×2 than 报到 (``x2``), or ×n per declared set (``per_set``)."""

    X2 = "x2"
    PER_SET = "per_set"


class EscapeRounding(enum.Enum):
    """How the active escape's ×1.1 is rounded: up, or half up."""

    CEIL = "ceil"
    HALF_UP = "half_up"


class ReportLossRating(enum.Enum):
    """Whether a 报到 打 lost by play moves rating (``normal``) or not (``void``)."""

    NORMAL = "normal"
    VOID = "void"


_ENUMS: dict[str, type[enum.Enum]] = {
    "first_bidder": FirstBidder,
    "huangfan": Huangfan,
    "double_report": DoubleReport,
    "active_escape_rounding": EscapeRounding,
    "report_loss_rating": ReportLossRating,
}
_POSITIVE = ("base", "turn_seconds", "disconnect_seconds", "timeouts_to_escape", "deals")


@dataclass(frozen=True, slots=True)
class Rules:
    """The contract's options, defaults first (never a string-keyed dict)."""

    base: int = 1
    first_bidder: FirstBidder = FirstBidder.MARKED_CARD
    huangfan: Huangfan = Huangfan.FLAG
    double_report: DoubleReport = DoubleReport.X2
    turn_seconds: int = 30
    disconnect_seconds: int = 180
    timeouts_to_escape: int = 5
    deals: int = 4
    timeouts_in_a_row: bool = False
    active_escape_percent: int = 110
    active_escape_rounding: EscapeRounding = EscapeRounding.CEIL
    report_loss_rating: ReportLossRating = ReportLossRating.NORMAL

    def __post_init__(self) -> None:
        for name in _POSITIVE:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise EngineError.of("options.positive", name=name, value=value)
        pct = self.active_escape_percent
        if not isinstance(pct, int) or isinstance(pct, bool) or pct < 100:
            raise EngineError.of(
                "options.percent", name="active_escape_percent", low=100, value=pct
            )
        if not isinstance(self.timeouts_in_a_row, bool):
            raise EngineError.of(
                "options.bool", name="timeouts_in_a_row", value=self.timeouts_in_a_row
            )
        for name, kind in _ENUMS.items():
            if not isinstance(getattr(self, name), kind):
                raise EngineError.of(
                    "options.type", name=name, kind=kind.__name__, value=getattr(self, name)
                )

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object (enums by their values)."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = value.value if isinstance(value, enum.Enum) else value
        return data

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """The inverse of :meth:`to_json` (missing options take their defaults); raises
        :class:`EngineError` naming a bad or unknown option."""
        if not isinstance(data, dict):
            raise EngineError.of("common.options_object", data=data)
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise EngineError.of("options.unknown", names=sorted(unknown))
        values: dict[str, Any] = {}
        for name, raw in data.items():
            kind = _ENUMS.get(name)
            if kind is None:
                values[name] = raw
                continue
            try:
                values[name] = kind(raw)
            except ValueError:
                allowed = ", ".join(str(m.value) for m in kind)
                raise EngineError.of(
                    "options.choice", name=name, allowed=allowed, value=raw
                ) from None
        return cls(**values)


#: The default options.
DEFAULT_RULES = Rules()
