"""Deal records after PGN: headers and the ordered actions; everything else is rebuilt by replay.

The same JSON form as 大怪路子's: ``{"headers": {...}, "actions": [...], "result": {...}}``. The
headers name the game (``shanghai_doudizhu``) and rules version with its options, the labels
(event, round, table, deal number, seats), the seed, the match seed, the 荒番 factor and the
first bidder the match gave the deal (and the hands, kitty and marked card of a hand-made deal).
Replaying re-checks every action and raises :class:`ReplayError` naming the first bad one.

>>> from engine.shanghai_doudizhu.bots import HeuristicBot, play_deal
>>> deal = Deal(seed=5)
>>> _ = play_deal(deal, [HeuristicBot()] * 4)
>>> record = Record.from_deal(deal, event="club night")
>>> Record.loads(record.dumps()) == record, replay(record).result == deal.result
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine import record as records
from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError
from engine.record import RecordBase, RecordError, ReplayError, apply_all, check_result
from engine.shanghai_doudizhu.actions import Action
from engine.shanghai_doudizhu.deal import Deal
from engine.shanghai_doudizhu.match import Match
from engine.shanghai_doudizhu.result import MAX_HUANGFAN, SEATS
from engine.shanghai_doudizhu.rules import DEFAULT_RULES, RULES_VERSION, RULES_VERSIONS, Rules

__all__ = [
    "GAME",
    "Headers",
    "Record",
    "RecordError",
    "ReplayError",
    "match_records",
    "replay",
    "replay_match",
    "replay_steps",
]

#: The game's key: named in every record's headers and on the command line (``--game``).
GAME = "shanghai_doudizhu"


@dataclass(frozen=True, slots=True)
class Headers:
    """What a deal starts from, and the labels of where it was played."""

    seed: int | str = 0
    rules: Rules = DEFAULT_RULES
    huangfan: int = 0
    first_bidder: int | None = None
    event: str = ""
    round: str = ""
    table: str = ""
    number: int = 1
    seats: tuple[str, ...] = ("", "", "", "")
    match_seed: int | str | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    kitty: tuple[Card, ...] = ()
    marked: tuple[int, Card] | None = None
    version: str = RULES_VERSION

    def to_json(self) -> dict[str, Any]:
        """The headers as a JSON object (``hands``, ``kitty``, ``marked`` only when hand-made)."""
        data: dict[str, Any] = {
            "game": GAME,
            "rules": self.version,
            "options": self.rules.to_json(),
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "deal": self.number,
            "seats": list(self.seats),
            "base": self.rules.base,
            "seed": self.seed,
            "match_seed": self.match_seed,
            "huangfan": self.huangfan,
            "first_bidder": self.first_bidder,
        }
        if self.hands is not None:
            data["hands"] = [format_cards(h) for h in self.hands]
            data["kitty"] = format_cards(self.kitty)
            if self.marked is not None:
                data["marked"] = {"seat": self.marked[0], "card": str(self.marked[1])}
        return data

    @classmethod
    def from_json(cls, data: Any) -> Headers:
        """Read headers; raises :class:`RecordError` naming the header that is wrong."""
        if not isinstance(data, dict):
            raise RecordError(f"headers must be an object, not {type(data).__name__}")
        if data.get("game") != GAME:
            raise RecordError(f"header game: {data.get('game')!r} is not a {GAME} record")
        version = data.get("rules")
        if version not in RULES_VERSIONS:
            raise RecordError(
                f"header rules: version {version!r} is not one of {', '.join(RULES_VERSIONS)}"
            )
        try:
            rules = Rules.from_json(data.get("options", {}))
        except EngineError as exc:
            raise RecordError(f"header options: {exc}") from None
        if "base" in data and data["base"] != rules.base:
            raise RecordError(f"header base: {data['base']!r} differs from the options' base")
        seed = data.get("seed", 0)
        for name, value, optional in (
            ("seed", seed, False),
            ("match_seed", data.get("match_seed"), True),
        ):
            if optional and value is None:
                continue
            if not isinstance(value, (int, str)) or isinstance(value, bool):
                raise RecordError(f"header {name}: {value!r} is neither a number nor a string")
        huangfan = _int(data, "huangfan", 0)
        if not 0 <= huangfan <= MAX_HUANGFAN:
            raise RecordError(f"header huangfan: {huangfan} is not 0 to {MAX_HUANGFAN}")
        first = data.get("first_bidder")
        if first is not None and not _is_seat(first):
            raise RecordError(f"header first_bidder: {first!r} is not a seat (0-3) or null")
        seats = data.get("seats", [""] * 4)
        if (
            not isinstance(seats, list)
            or len(seats) != 4
            or not all(isinstance(s, str) for s in seats)
        ):
            raise RecordError(f"header seats: {seats!r} is not four names")
        labels = {}
        for key in ("event", "round", "table"):
            value = data.get(key, "")
            if not isinstance(value, str):
                raise RecordError(f"header {key}: {value!r} is not a string")
            labels[key] = value
        hands, kitty, marked = _hand_made(data)
        return cls(
            seed=seed,
            rules=rules,
            huangfan=huangfan,
            first_bidder=first,
            event=labels["event"],
            round=labels["round"],
            table=labels["table"],
            number=_int(data, "deal", 1),
            seats=tuple(seats),
            match_seed=data.get("match_seed"),
            hands=hands,
            kitty=kitty,
            marked=marked,
            version=version,
        )


def _hand_made(
    data: dict[str, Any],
) -> tuple[tuple[tuple[Card, ...], ...] | None, tuple[Card, ...], tuple[int, Card] | None]:
    hands = data.get("hands")
    if hands is None:
        return None, (), None
    if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, str) for h in hands):
        raise RecordError(f"header hands: {hands!r} is not four lists of cards")
    kitty = data.get("kitty", "")
    if not isinstance(kitty, str):
        raise RecordError(f"header kitty: {kitty!r} is not a list of cards")
    try:
        parsed = tuple(tuple(parse_cards(h)) for h in hands)
        parsed_kitty = tuple(parse_cards(kitty))
    except EngineError as exc:
        raise RecordError(f"header hands: {exc}") from None
    raw = data.get("marked")
    marked: tuple[int, Card] | None = None
    if raw is not None:
        if not isinstance(raw, dict) or not _is_seat(raw.get("seat")):
            raise RecordError(f"header marked: {raw!r} is not {{seat, card}}")
        try:
            marked = (raw["seat"], Card.parse(str(raw.get("card", ""))))
        except EngineError as exc:
            raise RecordError(f"header marked: {exc}") from None
    return parsed, parsed_kitty, marked


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in SEATS


def _int(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"header {key}: {value!r} is not an integer")
    return value


@dataclass(frozen=True, slots=True)
class Record(RecordBase):
    """A deal record: headers, the ordered actions, and the stored result (``None`` while the
    deal is being played)."""

    headers_type: ClassVar[type[Headers]] = Headers
    action_type: ClassVar[type[Action]] = Action

    headers: Headers
    actions: tuple[Action, ...] = ()
    result: dict[str, Any] | None = None

    @classmethod
    def from_deal(cls, deal: Deal, **labels: Any) -> Record:
        """The record of ``deal`` so far; ``labels`` are further headers (event, round, table,
        number, seats, match_seed)."""
        headers = Headers(
            seed=deal.seed,
            rules=deal.rules,
            huangfan=deal.huangfan,
            first_bidder=deal.given_first_bidder,
            hands=deal.initial_hands if deal.hand_made else None,
            kitty=deal.kitty if deal.hand_made else (),
            marked=(deal.marked_seat, deal.marked_card) if deal.hand_made else None,
            version=deal.rules_version,
        )
        if "seats" in labels:
            labels["seats"] = tuple(labels["seats"])
        unknown = set(labels) - {"event", "round", "table", "number", "seats", "match_seed"}
        if unknown:
            raise RecordError(f"unknown record labels {sorted(unknown)}")
        headers = replace(headers, **labels)
        result = None if deal.result is None else deal.result.to_json()
        return cls(headers, tuple(deal.actions), result)

    def new_deal(self) -> Deal:
        """The deal as the headers start it, before any action."""
        h = self.headers
        try:
            return Deal(
                seed=h.seed,
                rules=h.rules,
                huangfan=h.huangfan,
                first_bidder=h.first_bidder,
                hands=h.hands,
                kitty=h.kitty,
                marked=h.marked,
                rules_version=h.version,
            )
        except EngineError as exc:
            raise RecordError(f"the headers start no deal: {exc}") from None


def replay(record: Record) -> Deal:
    """Replay a record, checking every action and the stored result; returns the deal.

    Raises :class:`ReplayError` naming the first bad action (or the result that differs) and
    :class:`RecordError` when the headers start no deal.
    """
    deal: Deal = records.replay(record)
    return deal


def replay_steps(record: Record, seen: Callable[[Deal, Action | None], None]) -> Deal:
    """Replay a record as :func:`replay` does, calling ``seen(deal, None)`` on the deal as dealt
    and ``seen(deal, action)`` right after each action (a step-by-step viewer's snapshots)."""
    deal: Deal = records.replay_steps(record, seen)
    return deal


def match_records(match: Match, **labels: Any) -> list[Record]:
    """The records of every deal of ``match`` (all-pass deals included, numbered 1, 2, ...)."""
    return [
        Record.from_deal(deal, number=i, match_seed=match.seed, **labels)
        for i, deal in enumerate(match.deals, 1)
    ]


def replay_match(records: Sequence[Record]) -> Match:
    """Replay a match from its deal records; each must be the deal the match deals (same seed,
    options, 荒番 factor and first bidder)."""
    if not records:
        raise RecordError("a match needs at least one deal record")
    first = records[0].headers
    if first.match_seed is None:
        raise RecordError("header match_seed: the first deal names no match seed")
    match = Match(seed=first.match_seed, rules=first.rules)
    for number, record in enumerate(records, 1):
        where = f"deal {number}: "
        h = record.headers
        if match.over:
            raise ReplayError(f"{where}the match was over ({match.end.value if match.end else ''})")
        deal = match.start_deal(
            hands=h.hands, kitty=h.kitty, marked=h.marked, rules_version=h.version
        )
        expected = Record.from_deal(deal).headers
        for name in ("seed", "rules", "huangfan", "first_bidder"):
            if getattr(h, name) != getattr(expected, name):
                raise ReplayError(
                    f"{where}header {name} is {getattr(h, name)!r} but the match deals "
                    f"{getattr(expected, name)!r}"
                )
        apply_all(record.actions, match.apply, where)
        check_result(deal, record.result, where)
    return match
