"""The plain values that cross the game interface (:mod:`engine.game`): a rules option as a form
offers it, a game's own figure, a deal in play, the system's plays for a seat, a scored offline
sheet and its deals, a replay step and a verdict on a selection of cards.

They are frozen dataclasses that hold JSON-ready values; :mod:`engine.game` re-exports every one
of them, and the rest of Luzi imports them from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DealInfo",
    "FigureSpec",
    "OptionSpec",
    "ReplayStep",
    "ScoredSheet",
    "SheetDeal",
    "SystemPlays",
    "Verdict",
]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rules option as a table or event form offers it: its JSON name, type and default.

    ``kind`` is ``"bool"``, ``"int"`` (at least ``minimum``) or ``"choice"`` (one of
    ``choices``). ``help_zh``/``help_en`` say what it does, for people; ``choice_labels`` names
    each choice in words, ``(value, Chinese, English)``, so that a form never shows a raw code.
    """

    name: str
    kind: str
    default: bool | int | str
    label_zh: str
    label_en: str
    minimum: int | None = None
    choices: tuple[str, ...] = ()
    help_zh: str = ""
    help_en: str = ""
    choice_labels: tuple[tuple[str, str, str], ...] = ()

    def label(self, *, chinese: bool = True) -> str:
        """The option's name in Chinese (the default) or English."""
        return self.label_zh if chinese else self.label_en

    def help(self, *, chinese: bool = True) -> str:
        """What the option does, in Chinese or English ("" if the game says nothing)."""
        return self.help_zh if chinese else self.help_en

    def choice_label(self, value: str, *, chinese: bool = True) -> str:
        """A choice in words (the value itself when the game names it no other way)."""
        for code, zh, en in self.choice_labels:
            if code == value:
                return zh if chinese else en
        return value

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "label_zh": self.label_zh,
            "label_en": self.label_en,
        }
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.choices:
            data["choices"] = list(self.choices)
        if self.help_zh or self.help_en:
            data["help_zh"] = self.help_zh
            data["help_en"] = self.help_en
        if self.choice_labels:
            data["choice_labels"] = {c: {"zh": zh, "en": en} for c, zh, en in self.choice_labels}
        return data


@dataclass(frozen=True, slots=True)
class FigureSpec:
    """A game-specific figure of a match that standings and tie-breaks read (大怪路子: the level).

    ``holder`` is ``"side"`` (one value per side) or ``"seat"`` (one per seat); values lie in
    ``minimum .. maximum``; ``labels`` names the values that are not written as the number
    (``14`` is ``"A"``). ``higher_is_better`` tells a standing which way to sort it.
    """

    key: str
    label_zh: str
    label_en: str
    holder: str
    minimum: int
    maximum: int
    start: int
    labels: Mapping[int, str] = field(default_factory=dict)
    higher_is_better: bool = True

    def label(self, value: int) -> str:
        """How a value is written: its label, else the number."""
        return self.labels.get(value, str(value))

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label_zh": self.label_zh,
            "label_en": self.label_en,
            "holder": self.holder,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "start": self.start,
            "labels": {str(k): v for k, v in sorted(self.labels.items())},
            "higher_is_better": self.higher_is_better,
        }


@dataclass(frozen=True, slots=True)
class DealInfo:
    """What a card room stores of one deal of a match in play.

    ``level_rank`` is the figure the deal is played at, when the game has one (大怪路子: the
    dealer side's level), else ``None``; ``setup`` is what the deal started from besides its seed
    (tribute, a landlord's bid...), as JSON; ``waiting_setup`` says the deal waits for that setup
    (returns of tribute, bids) rather than for plays. ``setup`` is what anyone may see once the
    deal is dealt, ``setup_detail`` what the card room keeps of it as the deal goes on (大怪路子:
    the tribute cards and the returns). ``result`` and ``points`` are set once the
    deal is over.
    """

    number: int
    dealer: int
    seed: int | str
    level_rank: int | None
    setup: dict[str, Any]
    setup_detail: dict[str, Any]
    waiting_setup: bool
    finish: tuple[int, ...]
    actions: int
    over: bool
    result: dict[str, Any] | None
    points: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class SystemPlays:
    """What the system has played for one seat (托管) and what the rules allow before it counts as
    an escape, in one deal: ``used`` system actions that count, ``limit`` (0: no limit),
    ``in_a_row`` whether a play of the seat's own starts the count again, ``last`` whether the
    system took the seat's last action of the deal.

    >>> SystemPlays(used=4, limit=5, in_a_row=False, last=True).left
    1
    """

    used: int
    limit: int
    in_a_row: bool
    last: bool

    @property
    def left(self) -> int | None:
        """How many more system actions the seat may have before it is an escape (None: no
        limit); 0 once the limit is reached."""
        return None if not self.limit else max(0, self.limit - self.used)

    @property
    def reached(self) -> bool:
        """Whether the system's actions reached the limit (the seat escaped by them)."""
        return bool(self.limit) and self.used >= self.limit

    def to_json(self) -> dict[str, Any]:
        return {
            "used": self.used,
            "limit": self.limit,
            "left": self.left,
            "in_a_row": self.in_a_row,
            "last": self.last,
            "reached": self.reached,
        }


@dataclass(frozen=True, slots=True)
class SheetDeal:
    """One deal of a scored sheet: its number, dealer, the figure it was played at, its result
    (JSON), the finishing order and the points per seat."""

    number: int
    dealer: int
    level_rank: int | None
    result: dict[str, Any]
    finish: tuple[int, ...]
    points: tuple[int, ...]
    escape: int | None = None


@dataclass(frozen=True, slots=True)
class ScoredSheet:
    """An offline match scored from a referee's entries: each deal, points per seat, the match's
    figures after each deal, how it ended, who won and who left."""

    deals: tuple[SheetDeal, ...]
    points: tuple[int, ...]
    figures: tuple[dict[str, dict[str, int]], ...]
    end_reason: str | None
    winner: str | None
    left: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": [
                {"number": d.number, "dealer": d.dealer, "result": d.result} for d in self.deals
            ],
            "points": {str(s): p for s, p in enumerate(self.points)},
            "figures": list(self.figures),
            "end": self.end_reason,
            "winner": self.winner,
            "left": self.left,
        }


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a finished deal's replay, every hand face up.

    Step 0 is the deal as dealt (``action`` is ``None``); step ``n`` is the deal right after its
    ``n``-th action (the action's JSON). ``view`` is the deal's public view then, ``hands`` every
    seat's hand then (card text, seat order) and ``extra`` other cards of the deal, by name
    (上海斗地主's ``kitty``, in the landlord's hand once taken).
    """

    action: dict[str, Any] | None
    view: dict[str, Any]
    hands: tuple[str, ...]
    extra: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "view": self.view,
            "hands": list(self.hands),
            "extra": dict(self.extra),
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a selection of cards may be sent now, and why (for people).

    ``message`` is an English message id, ``params`` its ``%(name)s`` values: the caller
    translates the id and fills it in. ``kind`` is the action it makes when ``ok``.
    """

    ok: bool
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    kind: str = ""
    play_type: str = ""
    cards: str = ""
