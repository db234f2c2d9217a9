"""Deal records of 小路子 after PGN, in the same JSON form as 大怪路子's.

A record is ``{"headers": {...}, "actions": [...], "result": {...}}``. The headers name the game
(``xiaoluzi``), the rules version and options, the event/round/table labels, the deal's number,
the four seats' names, the seed and the four hands (``hand_made: true`` when they were given rather
than dealt by the seed); ``result`` is the stored result, which a replay must reproduce. Replaying
re-checks the hands against the seed, every action, and raises :class:`ReplayError` naming the
first bad one. A match is ``{"deals": [record, ...], "left": seat or null}``.

>>> from engine.xiaoluzi.bots import HeuristicBot, play_deal
>>> deal = Deal(seed=5)
>>> _ = play_deal(deal, [HeuristicBot(seed=s) for s in range(4)])
>>> record = Record.from_deal(deal, event="club night")
>>> Record.loads(record.dumps()) == record, replay(record).result == deal.result
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine import record as records
from engine.cards import Card, format_cards
from engine.errors import EngineError
from engine.record import RecordBase, RecordError, ReplayError, apply_all, check_result
from engine.xiaoluzi.actions import DEFAULT_RULES, RULES_VERSION, Action, Rules
from engine.xiaoluzi.deal import Deal
from engine.xiaoluzi.match import Match
from engine.xiaoluzi.plays import check_cards, parse_hand
from engine.xiaoluzi.result import HAND_SIZE

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
GAME = "xiaoluzi"


@dataclass(frozen=True, slots=True)
class Headers:
    """What a deal starts from, and the labels of where it was played.

    ``hand_made``: the hands were given, not dealt by the seed (only such a record's hands are
    taken as given; any other record's hands must be the ones its seed deals).
    """

    seed: int | str = 0
    rules: Rules = DEFAULT_RULES
    hands: tuple[tuple[Card, ...], ...] | None = None
    event: str = ""
    round: str = ""
    table: str = ""
    number: int = 1
    seats: tuple[str, ...] = ("", "", "", "")
    match_seed: int | str | None = None
    game: str = GAME
    rules_version: str = RULES_VERSION
    hand_made: bool = False

    def to_json(self) -> dict[str, Any]:
        """The headers as a JSON object."""
        data: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules_version,
            "options": self.rules.to_json(),
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "deal": self.number,
            "seats": list(self.seats),
            "seed": self.seed,
            "match_seed": self.match_seed,
        }
        if self.hands is not None:
            data["hands"] = [format_cards(h) for h in self.hands]
        if self.hand_made:
            data["hand_made"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> Headers:
        """Read headers; raises :class:`RecordError` naming the header that is wrong."""
        if not isinstance(data, dict):
            raise RecordError(f"headers must be an object, not {type(data).__name__}")
        if data.get("game") != GAME:
            raise RecordError(f"header game: {data.get('game')!r} is not a {GAME} record")
        if data.get("rules") != RULES_VERSION:
            raise RecordError(
                f"header rules: version {data.get('rules')!r} is not {RULES_VERSION!r}"
            )
        try:
            rules = Rules.from_json(data.get("options", {}))
        except (EngineError, TypeError) as exc:
            raise RecordError(f"header options: {exc}") from None
        seed = data.get("seed", 0)
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise RecordError(f"header seed: {seed!r} is neither a number nor a string")
        match_seed = data.get("match_seed")
        if match_seed is not None and (
            not isinstance(match_seed, (int, str)) or isinstance(match_seed, bool)
        ):
            raise RecordError(f"header match_seed: {match_seed!r} is neither a number nor a string")
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
        number = data.get("deal", 1)
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise RecordError(f"header deal: {number!r} is not a deal number (1 or more)")
        hands = data.get("hands")
        parsed: tuple[tuple[Card, ...], ...] | None = None
        if hands is not None:
            if (
                not isinstance(hands, list)
                or len(hands) != 4
                or not all(isinstance(h, str) for h in hands)
            ):
                raise RecordError(f"header hands: {hands!r} is not four lists of cards")
            try:
                parsed = tuple(tuple(parse_hand(h)) for h in hands)
                check_cards([c for h in parsed for c in h], " / ".join(hands))
            except EngineError as exc:
                raise RecordError(f"header hands: {exc}") from None
            sizes = [len(h) for h in parsed]
            if any(n != HAND_SIZE for n in sizes):
                raise RecordError(f"header hands: every hand has {HAND_SIZE} cards, not {sizes}")
        hand_made = data.get("hand_made", False)
        if not isinstance(hand_made, bool):
            raise RecordError(f"header hand_made: {hand_made!r} is not true or false")
        if hand_made and parsed is None:
            raise RecordError("header hand_made: a hand-made deal's record needs its hands")
        return cls(
            seed=seed,
            rules=rules,
            hands=parsed,
            event=labels["event"],
            round=labels["round"],
            table=labels["table"],
            number=number,
            seats=tuple(seats),
            match_seed=match_seed,
            hand_made=hand_made,
        )


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
        unknown = set(labels) - {"event", "round", "table", "number", "seats", "match_seed"}
        if unknown:
            raise RecordError(f"unknown record labels {sorted(unknown)}")
        if "seats" in labels:
            labels["seats"] = tuple(labels["seats"])
        headers = replace(
            Headers(
                seed=deal.seed, rules=deal.rules, hands=deal.initial_hands, hand_made=deal.hand_made
            ),
            **labels,
        )
        result = None if deal.result is None else deal.result.to_json()
        return cls(headers, tuple(deal.actions), result)

    def new_deal(self) -> Deal:
        """The deal as the headers start it, before any action: from the stored hands of a
        hand-made deal, else from the seed, whose hands must be the stored ones; a deal that
        names its match (``match_seed``) must be that match's deal of its number.

        Raises :class:`RecordError` when the headers start no deal and :class:`ReplayError`
        when the stored hands are not what the seed deals or the deal is not the match's.
        """
        h = self.headers
        if h.match_seed is not None:
            _check_match_deal(h)
        try:
            deal = Deal(seed=h.seed, rules=h.rules, hands=h.hands if h.hand_made else None)
        except EngineError as exc:
            raise RecordError(f"the headers start no deal: {exc}") from None
        _check_hands(deal, h)
        return deal


def _check_match_deal(headers: Headers) -> None:
    """Raise :class:`ReplayError` unless the deal is the one its match deals as its number."""
    number, rules = headers.number, headers.rules
    if headers.hand_made:
        raise ReplayError("a hand-made deal is not one a match deals from its seed")
    if number > rules.deals_per_match:
        raise ReplayError(
            f"header deal is {number}, past the match's {rules.deals_per_match} deals"
        )
    match = Match(seed=headers.match_seed if headers.match_seed is not None else 0, rules=rules)
    seed = 0
    for _ in range(number):
        seed = match.next_seed()
    if headers.seed != seed:
        raise ReplayError(
            f"header seed is {headers.seed!r} but match {headers.match_seed!r} deals deal "
            f"{number} from seed {seed!r}"
        )


def _check_hands(deal: Deal, headers: Headers, where: str = "") -> None:
    """Raise :class:`ReplayError` when the record's hands are not the ones ``deal`` was dealt."""
    if headers.hands is None:
        return
    for seat, (stored, dealt) in enumerate(zip(headers.hands, deal.initial_hands, strict=True)):
        if sorted(stored) != sorted(dealt):
            raise ReplayError(
                f"{where}header hands: seat {seat} holds {format_cards(sorted(stored))!r} in the "
                f"record, but seed {headers.seed!r} deals it {format_cards(dealt)!r}"
            )


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


def match_json(match: Match, **labels: Any) -> dict[str, Any]:
    """A match record: ``{"deals": [...], "left": seat or null}``."""
    return {
        "deals": [r.to_json() for r in match_records(match, **labels)],
        "left": None if match.left is None else match.left.seat,
    }


def replay_match(records: Sequence[Record], *, left: int | None = None) -> Match:
    """Replay a match from its deal records (and a seat that left after them, if one did).

    Each deal must be the one the match deals: numbered in order, the match's seed, the seed and
    the options the match gives it, and the hands that seed deals (a match deals every hand, so a
    hand-made record never chains).
    """
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
        if h.number != number:
            raise ReplayError(f"{where}header deal is {h.number!r}, not {number}")
        if h.match_seed != first.match_seed:
            raise ReplayError(
                f"{where}header match_seed is {h.match_seed!r}, not deal 1's {first.match_seed!r}"
            )
        if h.hand_made:
            raise ReplayError(f"{where}a hand-made deal is not one the match deals from its seed")
        try:
            deal = match.start_deal()
        except EngineError as exc:
            raise RecordError(f"{where}the headers start no deal: {exc}") from None
        for name in ("seed", "rules"):
            if getattr(h, name) != getattr(deal, name):
                raise ReplayError(
                    f"{where}header {name} is {getattr(h, name)!r} but the match deals "
                    f"{getattr(deal, name)!r}"
                )
        _check_hands(deal, h, where)
        apply_all(record.actions, match.apply, where)
        check_result(deal, record.result, where)
    if left is not None:
        if match.over:
            raise ReplayError(f"seat {left} left after the match was over")
        match.leave(left)
    return match


__all__ += ["match_json"]
