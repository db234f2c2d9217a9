"""对墩 (Pairs): a tiny trick game of two sides of two, for tests only (issue 27).

The platform has never named it: it proves that a fixed-sides team game reaches every part of a
team event through the registry alone. Register it with ``LUZI_EXTRA_GAMES=pairs=tests.pairsgame``.

Rules. A pack of 16 cards, J Q K A in four suits (``JS`` .. ``AC``), four cards each, dealt from
the deal's seed alone. Seats 0 and 2 are side A, seats 1 and 3 side B. Deal ``n`` is dealt by
seat ``n - 1`` (mod 4), who leads the first trick. Each seat in turn plays any card; the highest
rank wins the trick (the earlier play on a tie) and leads the next. After four tricks the side
with more tricks scores +1 × base at each of its seats and the other −1 × base; 2 : 2 scores 0.
An escape (逃跑) during a deal costs each seat of the escaping side −2 × base (+2 × base to each
seat of the other) and ends the match; leaving between deals −1 × base (+1 × base) and ends it.
A timeout plays the seat's lowest card. ``finish`` is empty until the deal ends, then one seat
per trick won (sorted). No referee's score sheet (``score_sheets`` is false).

>>> state = GAME.new_match(seed=1, options=GAME.default_options())
>>> info = state.start_deal()
>>> (info.dealer, state.awaiting(), GAME.side_seats("B"), state.figures()["tricks"]["3"])
(0, (0,), (1, 3), 0)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import GameBase
from engine.cards import Card, Rank, Suit
from engine.duplicate import DealtDeal
from engine.errors import EngineError, IllegalActionError
from engine.game import (
    END_REASONS,
    DealInfo,
    FigureSpec,
    Game,
    MatchState,
    OptionSpec,
    ReplayStep,
    ScoredSheet,
    SheetDeal,
    SystemPlays,
    Verdict,
)
from engine.sampling import deal_hidden
from engine.search import DealWorld, SearchBot, clone_deal
from engine.sheets import Fields, seat_name, sheet_deals, words
from tests.sheet_helpers import tricks_sheet

SEATS = range(4)
KEY = "pairs"
#: The 16 cards, lowest first (by rank, then suit): a timeout plays the first it holds.
PACK: tuple[str, ...] = tuple(str(Card(Rank(r), Suit(s))) for r in range(11, 15) for s in range(4))
_ORDER = {card: i for i, card in enumerate(PACK)}
_HEADERS = {"game", "deal", "dealer", "seed", "match_seed", "base", "options"}
_LABELS = {"event", "round", "table", "seats"}


def side_of(seat: int) -> str:
    return "AB"[_seat(seat) % 2]


def _seat(value: Any, what: str = "seat") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in SEATS:
        raise EngineError(f"{what} must be a seat 0-3, not {value!r}")
    return value


def _int(value: Any, what: str, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise EngineError(f"{what} must be a whole number of at least {minimum}, not {value!r}")
    return value


def _card(text: Any) -> str:
    card = text.strip().upper() if isinstance(text, str) else None
    if card not in _ORDER:
        raise EngineError(f"not a card of 对墩 (J, Q, K, A of S H D C): {text!r}")
    return card


def _result(
    outcome: str, tricks: Sequence[int], base: int, seat: int | None = None
) -> dict[str, Any]:
    """A played deal (the side with more tricks +1/−1 × base a seat), an escape (−2/+2) or a
    leaving (−1/+1)."""
    if outcome == "tricks":
        a = tricks[0] + tricks[2] - tricks[1] - tricks[3]
        won = "" if a == 0 else "A" if a > 0 else "B"
        points = [0 if not won else base if side_of(s) == won else -base for s in SEATS]
        return {"outcome": outcome, "tricks": list(tricks), "side": won, "points": points}
    cost = (2 if outcome == "escape" else 1) * base
    points = [-cost if s % 2 == (seat or 0) % 2 else cost for s in SEATS]
    return {"outcome": outcome, "seat": seat, "points": points}


@dataclass(frozen=True, slots=True)
class PairsOptions:
    deals_per_match: int = 2

    def __post_init__(self) -> None:
        _int(self.deals_per_match, "deals_per_match", 1)

    def to_json(self) -> dict[str, Any]:
        return {"deals_per_match": self.deals_per_match}

    @classmethod
    def from_json(cls, data: Any) -> PairsOptions:
        if not isinstance(data, dict) or set(data) - {"deals_per_match"}:
            raise EngineError(f"the options of 对墩 are {{deals_per_match}}, not {data!r}")
        return cls(data.get("deals_per_match", 2))


@dataclass(frozen=True, slots=True)
class PairsAction:
    """``play`` one card, or ``escape``; ``system`` marks a play made on a timeout."""

    kind: str
    seat: int
    cards: str = ""
    system: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.kind == "play":
            data["cards"] = self.cards
        return data | ({"system": True} if self.system else {})

    @classmethod
    def from_json(cls, data: Any) -> PairsAction:
        if not isinstance(data, dict) or data.get("kind") not in ("play", "escape"):
            raise EngineError(f"not an action of 对墩: {data!r}")
        seat, system = _seat(data.get("seat")), data.get("system", False)
        if data["kind"] == "escape":
            return cls("escape", seat)
        if not isinstance(system, bool):
            raise EngineError(f"system must be true or false: {data!r}")
        return cls("play", seat, _card(data.get("cards")), system)


def deal_seed(match_seed: int | str, number: int) -> int:
    return random.Random(f"{KEY}:{match_seed}:{number}").getrandbits(63)


def deal_hands(seed: int) -> list[list[str]]:
    pack = list(PACK)
    random.Random(seed).shuffle(pack)
    return [sorted(pack[4 * s : 4 * s + 4], key=_ORDER.__getitem__) for s in SEATS]


class PairsDeal:
    """One deal, changed only by :meth:`apply`."""

    def __init__(self, *, number: int, seed: int, dealer: int, base: int) -> None:
        self.number, self.seed, self.dealer, self.base = number, seed, dealer, base
        self.hands = deal_hands(seed)
        self.leader, self.trick, self.winners = dealer, list[PairsAction](), list[int]()
        self.actions: list[PairsAction] = []
        self.result: dict[str, Any] | None = None

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def turn(self) -> int | None:
        return None if self.over else (self.leader + len(self.trick)) % 4

    @property
    def tricks(self) -> list[int]:
        return [self.winners.count(s) for s in SEATS]

    @property
    def finish(self) -> tuple[int, ...]:
        played = self.result is not None and self.result["outcome"] == "tricks"
        return tuple(sorted(self.winners)) if played else ()

    def awaiting(self) -> tuple[int, ...]:
        return () if self.turn is None else (self.turn,)

    def legal_actions(self, seat: int) -> list[PairsAction]:
        mine = _seat(seat) == self.turn
        return [PairsAction("play", seat, c) for c in self.hands[seat]] if mine else []

    def system_action(self, seat: int) -> PairsAction:
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} does not play now (turn: {self.turn})")
        return PairsAction("play", seat, legal[0].cards, system=True)

    def apply(self, action: PairsAction) -> None:
        if self.over:
            raise IllegalActionError(f"{action.to_json()}: deal {self.number} is over")
        if action.kind == "escape":
            self.actions.append(action)
            self.result = _result("escape", (), self.base, action.seat)
            return
        if action.seat != self.turn or action.cards not in self.hands[action.seat]:
            raise IllegalActionError(f"{action.to_json()}: not a play of seat {self.turn}")
        self.hands[action.seat].remove(action.cards)
        self.actions.append(action)
        self.trick.append(action)
        if len(self.trick) == 4:
            ranks = [_ORDER[a.cards] // 4 for a in self.trick]
            self.leader = self.trick[ranks.index(max(ranks))].seat
            self.winners.append(self.leader)
            self.trick = []
            if len(self.winners) == 4:
                self.result = _result("tricks", self.tricks, self.base)

    def public_view(self) -> dict[str, Any]:
        return {
            "number": self.number, "phase": "over" if self.over else "play",
            "dealer": self.dealer, "leader": self.leader, "turn": self.turn,
            "awaiting": [] if self.turn is None else [self.turn],
            "counts": [len(h) for h in self.hands],
            "trick": {"actions": [a.to_json() for a in self.trick], "current": None},
            "tricks": self.tricks, "finish": list(self.finish), "moves": len(self.actions),
            "result": self.result,
        }  # fmt: skip

    def private_view(self, seat: int) -> dict[str, Any]:
        view = self.public_view() | {"seat": _seat(seat), "tributes": []}
        view["hand"] = " ".join(self.hands[seat])
        view["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        return view


class PairsMatch:
    """A match of 对墩 in play, as :class:`engine.game.MatchState`."""

    def __init__(self, *, seed: int | str, options: PairsOptions, base: int = 1) -> None:
        self.seed, self.options, self.base = seed, options, _int(base, "base", 1)
        self.first: tuple[int, int] | None = None  # (seed, dealer) of a deal dealt again
        self.deals: list[PairsDeal] = []
        self._results: list[dict[str, Any]] = []
        self._points, self._tricks = [0, 0, 0, 0], [0, 0, 0, 0]
        self.end_reason: str | None = None
        self.left_seat: int | None = None

    over = property(lambda self: self.end_reason is not None)
    points = property(lambda self: list(self._points))
    deals_started = property(lambda self: len(self.deals))
    in_deal = property(lambda self: bool(self.deals) and not self.deals[-1].over)

    @property
    def winner(self) -> str | None:
        a, b = self.side_points().values()
        return None if not self.over or a == b else "A" if a > b else "B"

    def side_points(self) -> dict[str, int]:
        return {"A": self._points[0] + self._points[2], "B": self._points[1] + self._points[3]}

    def figures(self) -> dict[str, dict[str, int]]:
        return {"tricks": {str(s): t for s, t in enumerate(self._tricks)}}

    def _deal(self, number: int) -> PairsDeal:
        if not isinstance(number, int) or not 1 <= number <= len(self.deals):
            raise EngineError(f"no deal {number!r}: {len(self.deals)} deals were dealt")
        return self.deals[number - 1]

    def start_deal(self) -> DealInfo:
        if self.over or self.in_deal:
            raise IllegalActionError("the match is over" if self.over else "a deal is on")
        number = len(self.deals) + 1
        seed, dealer = deal_seed(self.seed, number), (number - 1) % 4
        if self.first is not None and number == 1:
            seed, dealer = self.first
        self.deals.append(PairsDeal(number=number, seed=seed, dealer=dealer, base=self.base))
        return self.deal_info(number)

    def deal_info(self, number: int) -> DealInfo:
        deal = self._deal(number)
        points = None if deal.result is None else tuple(deal.result["points"])
        return DealInfo(
            number, deal.dealer, deal.seed, None, {}, {}, False, deal.finish,
            len(deal.actions), deal.over, deal.result, points,
        )  # fmt: skip

    def deal_actions(self, number: int) -> list[PairsAction]:
        return list(self._deal(number).actions)

    def awaiting(self) -> tuple[int, ...]:
        turn = self.deals[-1].turn if self.deals else None
        return () if turn is None else (turn,)

    def legal_actions(self, seat: int) -> list[PairsAction]:
        return self.deals[-1].legal_actions(seat) if self.in_deal else []

    def system_action(self, seat: int) -> PairsAction:
        if not self.in_deal:
            raise EngineError(f"no deal is being played: no system action for seat {seat}")
        return self.deals[-1].system_action(seat)

    def apply(self, action: Any) -> None:
        if not isinstance(action, PairsAction):
            raise EngineError(f"not an action of 对墩: {action!r}")
        if not self.in_deal:
            raise IllegalActionError(f"{action.to_json()}: no deal is being played")
        deal = self.deals[-1]
        deal.apply(action)
        if deal.result is not None:
            self._settle(deal.number, deal.result, deal.tricks)

    apply_logged = apply

    def _settle(self, number: int, result: dict[str, Any], tricks: Sequence[int]) -> None:
        self._results.append(result)
        self._points = [p + q for p, q in zip(self._points, result["points"], strict=True)]
        self._tricks = [t + u for t, u in zip(self._tricks, tricks, strict=True)]
        if result["outcome"] != "tricks":
            self.end_reason = result["outcome"]
        elif number >= self.options.deals_per_match:
            self.end_reason = "deals_played"

    def timeout(self, seat: int) -> PairsAction:
        action = self.system_action(seat)
        self.apply(action)
        return action

    def escape(self, seat: int) -> dict[str, Any]:
        if not self.in_deal:
            raise IllegalActionError(f"seat {seat} cannot escape: no deal is being played")
        self.apply(PairsAction("escape", _seat(seat)))
        return self._results[-1]

    def leave(self, seat: int) -> dict[str, Any]:
        if self.over or self.in_deal:
            raise IllegalActionError(f"seat {seat} cannot leave: not between deals of a match")
        result = _result("left", (), self.base, _seat(seat))
        self._settle(len(self.deals), result, (0, 0, 0, 0))
        self.left_seat = seat
        return result

    def results(self) -> list[dict[str, Any]]:
        return list(self._results)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, **self.public_view(), "deal": None}

    def public_view(self) -> dict[str, Any]:
        return {
            "game": KEY, "options": self.options.to_json(), "over": self.over,
            "end": self.end_reason, "left": self.left_seat, "points": self.points,
            "figures": self.figures(), "results": self.results(),
            "deal_number": len(self.deals) or None,
            "deal": self.deals[-1].public_view() if self.deals else None,
        }  # fmt: skip

    def private_view(self, seat: int) -> dict[str, Any]:
        view = self.public_view()
        return view | ({"deal": self.deals[-1].private_view(seat)} if self.deals else {})

    def deal_view(self, number: int, seat: int | None = None) -> dict[str, Any]:
        deal = self._deal(number)
        return deal.public_view() if seat is None else deal.private_view(seat)

    def hand_size(self, number: int, seat: int) -> int:
        return len(self._deal(number).hands[_seat(seat)])

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        last = {a.seat: a.system for a in self._deal(number).actions}
        return tuple(SystemPlays(0, 0, True, last.get(s, False)) for s in SEATS)

    def deal_ordinal(self, number: int) -> int:
        return self._deal(number).number

    def record(self, number: int, **labels: Any) -> dict[str, Any]:
        deal = self._deal(number)
        alone = self.first is not None and number == 1  # dealt as another deal: no match seed
        headers = {"game": KEY, "deal": number, "dealer": deal.dealer, "seed": deal.seed}
        headers |= {"match_seed": "" if alone else self.seed, "base": self.base}
        headers |= {"options": self.options.to_json(), **labels}
        actions = [a.to_json() for a in deal.actions]
        return {"headers": headers, "actions": actions, "result": deal.result}


class PairsBot:
    """``random`` plays any legal card, ``heuristic`` the highest; both seeded."""

    def __init__(self, kind: str, seed: int | str) -> None:
        self.kind, self.rng = kind, random.Random(seed)

    def act(self, state: MatchState, seat: int) -> PairsAction:
        legal = [a for a in state.legal_actions(seat) if isinstance(a, PairsAction)]
        if not legal:
            raise IllegalActionError(f"seat {seat} has no play of 对墩 now")
        return legal[-1] if self.kind == "heuristic" else self.rng.choice(legal)


class _Policy:
    def act(self, deal: PairsDeal, seat: int) -> PairsAction:
        return deal.legal_actions(seat)[-1]


def _read(data: Any) -> dict[str, Any]:
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError:
            raise EngineError(f"a record is JSON: {data[:40]!r}") from None
    if not isinstance(data, dict) or set(data) != {"headers", "actions", "result"}:
        raise EngineError("a record is an object of headers, actions and result")
    h = data["headers"]
    if not isinstance(h, dict) or h.get("game") != KEY or set(h) - _HEADERS - _LABELS:
        raise EngineError(f"not the headers of a record of 对墩: {h!r}")
    _int(h.get("deal"), "header deal", 1), _seat(h.get("dealer"), "header dealer")
    _int(h.get("seed"), "header seed", 0), _int(h.get("base"), "header base", 1)
    PairsOptions.from_json(h.get("options"))
    if not isinstance(data["actions"], list) or not isinstance(data["result"], dict | None):
        raise EngineError("a record's actions are a list, its result an object or null")
    actions = [PairsAction.from_json(a).to_json() for a in data["actions"]]
    return {"headers": dict(h), "actions": actions, "result": data["result"]}


def _replay(record: dict[str, Any], deal: PairsDeal | None = None, apply: Any = None) -> PairsDeal:
    """Replay ``record`` into ``deal`` (a new one by default) through ``apply``, checking every
    action and the stored result."""
    h = record["headers"]
    deal = deal or PairsDeal(number=h["deal"], seed=h["seed"], dealer=h["dealer"], base=h["base"])
    where = f"deal {h['deal']}: "
    for index, action in enumerate(record["actions"], 1):
        try:
            (apply or deal.apply)(PairsAction.from_json(action))
        except EngineError as exc:
            raise IllegalActionError(f"{where}action {index}: {exc}") from None
    if deal.result != record["result"]:
        raise IllegalActionError(f"{where}stored result {record['result']} != {deal.result}")
    return deal


# == the score sheet of an offline table ===========================================================


def _describe(
    result: Mapping[str, Any], seats: Sequence[str], sides: Mapping[str, str], english: bool
) -> str:
    """A deal in words, by the sides' names at the table (the teams'): which side took more
    tricks, or who escaped."""
    if result.get("outcome") == "escape":
        name = seat_name(seats, result.get("seat"))
        return words(english, "{name}逃跑", "{name} escaped (逃跑)", name=name)
    side = result.get("side")
    if not side:
        return words(english, "墩数相同：不计分", "A tie on tricks: nobody scores")
    tricks = list(result.get("tricks") or [0, 0, 0, 0])
    won = sum(tricks[s] for s in SEATS if side_of(s) == side)
    name = sides.get(side, side)
    return words(english, "{name}赢 {won} 墩", "{name} won {won} tricks of 4", name=name, won=won)


#: 对墩's score sheet: the tricks each seat won, or an escape, or a leaving.
SHEET = tricks_sheet(
    describe=_describe,
    print_help_zh="每局写每人赢的墩数；1、3 号座位一方，2、4 号座位一方。",
    print_help_en="Write the tricks each player won; seats 1, 3 are one side, 2, 4 the other.",
)


def _refused(row: Fields, name: str, why: str) -> EngineError:
    return row.located(EngineError(why), name)


def score_pairs_sheet(entry: Any, options: PairsOptions, base: int) -> ScoredSheet:
    """Score a referee's sheet: per deal ``tricks`` (per seat, 4 in all) or ``escape`` (a seat),
    or, last, ``leave`` (a seat, between deals); ``first_dealer`` (0 by default) deals deal 1."""
    head, rows = sheet_deals(entry, {"first_dealer"})
    first = head.integer("first_dealer", low=0, high=3, default=0)
    match = PairsMatch(seed=0, options=options, base=base)
    deals: list[SheetDeal] = []
    figures = [match.figures()]
    for number, row in enumerate(rows, 1):
        row.only({"tricks", "escape", "leave"})
        if match.over:
            row.ended(match.end_reason or "")
        if row.has("leave"):
            for other in ("escape", "tricks"):
                if row.has(other):
                    raise _refused(row, other, "a seat leaving between deals plays no deal")
            match.leave(row.seat("leave"))
            continue
        escape = row.optional_seat("escape")
        if escape is not None:
            if row.has("tricks"):
                raise _refused(row, "tricks", "an escaped deal counts no tricks")
            tricks: tuple[int, ...] = (0, 0, 0, 0)
            result = _result("escape", (), base, escape)
        else:
            counts = row.counts("tricks", 4)
            if counts is None:
                row.refuse("tricks", "sheet.missing")
            if sum(counts) != 4:
                raise _refused(row, "tricks", f"the tricks add up to {sum(counts)}, not 4")
            tricks, result = counts, _result("tricks", counts, base)
        match._settle(number, result, tricks)
        figures.append(match.figures())
        finish = tuple(s for s in SEATS for _ in range(tricks[s]))
        dealer, points = (first + number - 1) % 4, tuple(result["points"])
        deals.append(SheetDeal(number, dealer, None, result, finish, points, escape))
    return ScoredSheet(
        tuple(deals), tuple(match.points), tuple(figures), match.end_reason, match.winner,
        match.left_seat,
    )  # fmt: skip


class PairsGame(GameBase):
    """对墩 as :class:`engine.game.Game`."""

    key, name_zh, name_en, seat_count = KEY, "对墩", "Pairs", 4
    fixed_sides, sides = True, ("A", "B")
    bot_kinds = ("heuristic", "search", "random")
    end_reasons = END_REASONS
    figure_specs = (FigureSpec("tricks", "墩数", "tricks", "seat", 0, 10**6, 0),)
    score_sheets, sheet_spec = True, SHEET

    def side_of(self, seat: int) -> str:
        return side_of(seat)

    def side_seats(self, side: str) -> tuple[int, ...]:
        if side not in self.sides:
            raise EngineError(f"对墩 has the sides A and B, not {side!r}")
        return tuple(s for s in SEATS if side_of(s) == side)

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (OptionSpec("deals_per_match", "int", 2, "每场副数", "deals per match", 1),)

    def default_options(self) -> PairsOptions:
        return PairsOptions()

    def options_from_json(self, data: Any) -> PairsOptions:
        return PairsOptions.from_json(data)

    def new_match(
        self, *, seed: int | str, options: Any, base: int = 1, first_deal: Any = None
    ) -> PairsMatch:
        if not isinstance(options, PairsOptions):
            raise EngineError(f"not the options of 对墩: {options!r}")
        match = PairsMatch(seed=seed, options=options, base=base)
        if first_deal is not None:
            if not isinstance(first_deal, Mapping) or set(first_deal) != {"seed", "dealer"}:
                raise EngineError(f"a first deal is {{seed, dealer}}, not {first_deal!r}")
            match.first = (_int(first_deal["seed"], "seed", 0), _seat(first_deal["dealer"]))
        return match

    def dealt_hands(self, match_seed: int, count: int) -> list[DealtDeal]:
        """The hands of a match's first ``count`` deals (a duplicate round's deal sheets)."""
        seeds = [deal_seed(match_seed, n) for n in range(1, count + 1)]
        return [
            DealtDeal(n, str(s), tuple(tuple(map(Card.parse, h)) for h in deal_hands(s)))
            for n, s in enumerate(seeds, 1)
        ]

    def deal_setup(self, data: Any) -> dict[str, Any]:
        self.replay_record(data)
        h = _read(data)["headers"]
        return {"seed": h["seed"], "dealer": h["dealer"]}

    def action_from_json(self, data: Any) -> PairsAction:
        return PairsAction.from_json(data)

    def seat_action(self, seat: int, kind: str, cards: str = "") -> PairsAction:
        if kind != "play":
            raise EngineError(f"Unknown action {kind!r}: use play.")
        return PairsAction("play", _seat(seat), _card(cards))

    def commutes(self, since: Sequence[Any], seat: int, kind: str) -> bool:
        return False

    def bot(self, kind: str, seed: int | str) -> PairsBot | SearchBot:
        if kind not in self.bot_kinds:
            raise EngineError(f"unknown bot kind {kind!r} (use heuristic, search or random)")
        return SearchBot(self, seed=seed) if kind == "search" else PairsBot(kind, seed)

    def sample_world(self, state: Any, seat: int, rng: random.Random) -> DealWorld[PairsDeal]:
        if not isinstance(state, PairsMatch) or not state.in_deal:
            raise EngineError("no deal of 对墩 is being played")
        deal = state.deals[-1]
        played = {a.cards for a in deal.actions}
        pool = [c for c in PACK if c not in played and c not in deal.hands[_seat(seat)]]
        dealt = deal_hidden(pool, {s: len(deal.hands[s]) for s in SEATS if s != seat}, rng)
        hands = [
            list(deal.hands[s]) if s == seat else sorted(dealt[s], key=_ORDER.__getitem__)
            for s in SEATS
        ]
        points = lambda d: tuple((d.result or {})["points"])  # noqa: E731
        return DealWorld(clone_deal(deal, hands=hands), _Policy(), points_of=points)

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        if not isinstance(options, PairsOptions):
            raise EngineError(f"not the options of 对墩: {options!r}")
        return score_pairs_sheet(entry, options, _int(base, "base", 1))

    def read_record(self, data: Any) -> dict[str, Any]:
        return _read(data)

    def replay_record(self, data: Any) -> dict[str, Any]:
        deal = _replay(_read(data))
        return {
            "finish": list(deal.finish), "over": deal.over,
            "actions": [a.to_json() for a in deal.actions], "result": deal.result,
            "points": None if deal.result is None else list(deal.result["points"]),
            "figures": {"tricks": {str(s): t for s, t in enumerate(deal.tricks)}},
        }  # fmt: skip

    def replay_steps(self, data: Any) -> tuple[ReplayStep, ...]:
        record = _read(data)
        h = record["headers"]
        shadow = PairsDeal(number=h["deal"], seed=h["seed"], dealer=h["dealer"], base=h["base"])
        steps = [ReplayStep(None, shadow.public_view(), tuple(map(" ".join, shadow.hands)))]

        def apply(action: PairsAction) -> None:
            shadow.apply(action)
            hands = tuple(map(" ".join, shadow.hands))
            steps.append(ReplayStep(action.to_json(), shadow.public_view(), hands))

        _replay(record, shadow, apply)
        return tuple(steps)

    def replay_match(self, records: Sequence[Any], *, left: int | None = None) -> PairsMatch:
        parsed = [_read(r) for r in records]
        if not parsed:
            raise EngineError("a match needs at least one deal record")
        first = parsed[0]["headers"]
        options = PairsOptions.from_json(first["options"])
        match = PairsMatch(seed=first["match_seed"], options=options, base=first["base"])
        for number, record in enumerate(parsed, 1):
            h, where = record["headers"], f"deal {number}: "
            if any(h[k] != first[k] for k in ("match_seed", "base", "options")) or match.over:
                raise IllegalActionError(f"{where}not a deal of deal 1's match")
            info = match.start_deal()
            if (h["deal"], h["dealer"], h["seed"]) != (number, info.dealer, info.seed):
                raise IllegalActionError(f"{where}not the deal the match deals next")
            _replay(record, match.deals[-1], match.apply)
        if left is not None:
            match.leave(left)
        return match

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        selected = cards.split()
        if len(selected) != 1:
            return Verdict(False, "Play exactly one card." if selected else "Select cards first.")
        card = selected[0].upper()
        if card not in str(view.get("hand", "")).split():
            return Verdict(False, "You do not hold %(cards)s.", {"cards": card})
        if not view.get("my_turn", view.get("seat") in view.get("awaiting", [])):
            return Verdict(False, "It is not your turn.")
        return Verdict(True, "You play %(cards)s.", {"cards": card}, "play", "single", card)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key, "name_zh": self.name_zh, "name_en": self.name_en,
            "seats": self.seat_count, "fixed_sides": self.fixed_sides,
            "sides": {s: list(self.side_seats(s)) for s in self.sides},
            "options": [o.to_json() for o in self.option_specs()],
            "defaults": self.default_options().to_json(),
            "figures": [f.to_json() for f in self.figure_specs],
            "end_reasons": list(self.end_reasons), "bots": list(self.bot_kinds),
            "score_sheets": self.score_sheets,
        }  # fmt: skip


GAME: Game = PairsGame()
