"""Deal records after PGN: headers and the ordered actions; everything else is rebuilt by replay.

A record is JSON: ``{"headers": {...}, "actions": [...], "result": {...}}``. The headers name the
game and rules version with its options, the event/round/table labels, the seats, the levels,
the dealer, the base score, the seed (and the tribute pairs and system-play streaks the deal
starts with); ``result`` is the stored result, which a replay must reproduce. Replaying
re-checks every action and raises :class:`ReplayError` naming the first bad one.

>>> from engine.daguai.bots import HeuristicBot, play_deal
>>> deal = Deal(seed=5, dealer=1)
>>> _ = play_deal(deal, [HeuristicBot()] * 6)
>>> record = Record.from_deal(deal, event="club night")
>>> Record.loads(record.dumps()) == record, replay(record).result == deal.result
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from engine import record as records
from engine.cards import Card, format_cards, parse_cards
from engine.daguai.deal import DEFAULT_RULES, RULES_VERSION, START_LEVELS, Action, Deal, Rules
from engine.daguai.match import Match
from engine.daguai.result import SEATS, Levels
from engine.errors import EngineError
from engine.record import RecordBase, RecordError, ReplayError, apply_all, check_result

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

#: The game named in every record's headers.
GAME = "daguai"


@dataclass(frozen=True, slots=True)
class Headers:
    """What a deal starts from, and the labels of where it was played."""

    seed: int | str = 0
    dealer: int = 0
    levels: Levels = START_LEVELS
    tributes: tuple[tuple[int, int], ...] = ()
    base: int = 1
    rules: Rules = DEFAULT_RULES
    streaks: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    event: str = ""
    round: str = ""
    table: str = ""
    number: int = 1
    seats: tuple[str, ...] = ("", "", "", "", "", "")
    match_seed: int | str | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    game: str = GAME
    rules_version: str = RULES_VERSION

    def to_json(self) -> dict[str, Any]:
        """The headers as a JSON object (``hands`` only for a hand-made deal)."""
        data: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules_version,
            "options": self.rules.to_json(),
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "deal": self.number,
            "seats": list(self.seats),
            "levels": self.levels.to_json(),
            "dealer": self.dealer,
            "base": self.base,
            "seed": self.seed,
            "match_seed": self.match_seed,
            "tributes": [list(t) for t in self.tributes],
            "streaks": list(self.streaks),
        }
        if self.hands is not None:
            data["hands"] = [format_cards(h) for h in self.hands]
        return data

    @classmethod
    def from_json(cls, data: Any) -> Headers:
        """Read headers; raises :class:`RecordError` naming the header that is wrong."""
        if not isinstance(data, dict):
            raise RecordError(f"headers must be an object, not {type(data).__name__}")
        game = data.get("game")
        if game != GAME:
            raise RecordError(f"header game: {game!r} is not a {GAME} record")
        version = data.get("rules")
        if version != RULES_VERSION:
            raise RecordError(f"header rules: version {version!r} is not {RULES_VERSION!r}")
        try:
            rules = Rules.from_json(data.get("options", {}))
        except EngineError as exc:
            raise RecordError(f"header options: {exc}") from None
        try:
            levels = Levels.from_json(data.get("levels"))
        except EngineError as exc:
            raise RecordError(f"header levels: {exc}") from None
        dealer = _int(data, "dealer", 0)
        if dealer not in SEATS:
            raise RecordError(f"header dealer: {dealer} is not a seat (0-5)")
        base = _int(data, "base", 1)
        if base < 0:
            raise RecordError(f"header base: {base} is negative")
        seed = data.get("seed", 0)
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise RecordError(f"header seed: {seed!r} is neither a number nor a string")
        match_seed = data.get("match_seed")
        if match_seed is not None and (
            not isinstance(match_seed, (int, str)) or isinstance(match_seed, bool)
        ):
            raise RecordError(f"header match_seed: {match_seed!r} is neither a number nor a string")
        tributes = data.get("tributes", [])
        if not isinstance(tributes, list) or not all(
            isinstance(t, list) and len(t) == 2 and all(_is_seat(s) for s in t) for t in tributes
        ):
            raise RecordError(f"header tributes: {tributes!r} is not a list of [payer, receiver]")
        streaks = data.get("streaks", [0] * 6)
        if (
            not isinstance(streaks, list)
            or len(streaks) != 6
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in streaks)
        ):
            raise RecordError(f"header streaks: {streaks!r} is not six counts")
        seats = data.get("seats", [""] * 6)
        if (
            not isinstance(seats, list)
            or len(seats) != 6
            or not all(isinstance(s, str) for s in seats)
        ):
            raise RecordError(f"header seats: {seats!r} is not six names")
        labels = {}
        for key in ("event", "round", "table"):
            value = data.get(key, "")
            if not isinstance(value, str):
                raise RecordError(f"header {key}: {value!r} is not a string")
            labels[key] = value
        hands = data.get("hands")
        parsed_hands: tuple[tuple[Card, ...], ...] | None = None
        if hands is not None:
            if (
                not isinstance(hands, list)
                or len(hands) != 6
                or not all(isinstance(h, str) for h in hands)
            ):
                raise RecordError(f"header hands: {hands!r} is not six lists of cards")
            try:
                parsed_hands = tuple(tuple(parse_cards(h)) for h in hands)
            except EngineError as exc:
                raise RecordError(f"header hands: {exc}") from None
        return cls(
            seed=seed,
            dealer=dealer,
            levels=levels,
            tributes=tuple((t[0], t[1]) for t in tributes),
            base=base,
            rules=rules,
            streaks=tuple(streaks),
            event=labels["event"],
            round=labels["round"],
            table=labels["table"],
            number=_int(data, "deal", 1),
            seats=tuple(seats),
            match_seed=match_seed,
            hands=parsed_hands,
        )


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
    result: dict[str, Any] | None = field(default=None, compare=True)

    @classmethod
    def from_deal(cls, deal: Deal, **labels: Any) -> Record:
        """The record of ``deal`` so far; ``labels`` are further headers (event, round, table,
        number, seats, match_seed)."""
        headers = Headers(
            seed=deal.seed,
            dealer=deal.dealer,
            levels=deal.levels,
            tributes=tuple((t.payer, t.receiver) for t in deal.tributes),
            base=deal.base,
            rules=deal.rules,
            streaks=deal.start_streaks,
            hands=deal.initial_hands if deal.hand_made else None,
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
                dealer=h.dealer,
                levels=h.levels,
                tributes=h.tributes,
                rules=h.rules,
                base=h.base,
                hands=h.hands,
                streaks=h.streaks,
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
    """The records of every deal of ``match`` (numbered 1, 2, ...; with the match's seed)."""
    return [
        Record.from_deal(deal, number=i, match_seed=match.seed, **labels)
        for i, deal in enumerate(match.deals, 1)
    ]


def replay_match(records: Sequence[Record], *, left: int | None = None) -> Match:
    """Replay a match from its deal records (and a seat that left after them, if one did).

    Each deal must be the one the match deals: same seed, dealer, levels, tribute and options.
    """
    if not records:
        raise RecordError("a match needs at least one deal record")
    first = records[0].headers
    if first.match_seed is None:
        raise RecordError("header match_seed: the first deal names no match seed")
    match = Match(seed=first.match_seed, rules=first.rules, base=first.base)
    for number, record in enumerate(records, 1):
        where = f"deal {number}: "
        h = record.headers
        if match.over:
            raise ReplayError(f"{where}the match was over ({match.end.value if match.end else ''})")
        deal = match.start_deal(hands=h.hands)
        expected = Record.from_deal(deal).headers
        for name in ("seed", "dealer", "levels", "tributes", "rules", "base", "streaks"):
            if getattr(h, name) != getattr(expected, name):
                raise ReplayError(
                    f"{where}header {name} is {getattr(h, name)!r} but the match deals "
                    f"{getattr(expected, name)!r}"
                )
        apply_all(record.actions, match.apply, where)
        check_result(deal, record.result, where)
    if left is not None:
        match.leave(left)
    return match
