"""玩具牌 (Toy): a tiny four-seat trick game, for tests only (issue 12).

It proves that everything above engine/ reaches a game through the registry alone: register it
with ``engine.registry.register("toy", "tests.toygame")`` and forget it with ``unregister``.

Rules. A pack of 16 cards, ranks 1-4 in suits a-d, written ``3a``; four cards each, dealt from
the deal's seed. Deal ``n`` is dealt by seat ``n - 1`` (mod 4), who leads the first trick. Each
seat in turn plays any card; the highest rank wins the trick (the earlier play on a tie) and
leads the next. After four tricks the seat alone with most tricks scores +3 × base and the
others −1 × base; when several share the most, everyone scores 0. An escape (逃跑) during a deal
costs −6 × base (+2 × base to each other seat) and ends the match; leaving between deals
−3 × base (+1 × base each) and ends it. A timeout plays the seat's lowest card. Nobody goes out
of a deal: its ``finish`` is empty until it ends, then one seat per trick won (sorted), which is
also how a referee's score sheet enters a deal (or as ``tricks`` per seat).

>>> state = GAME.new_match(seed=1, options=GAME.default_options())
>>> info = state.start_deal()
>>> (info.dealer, state.awaiting(), state.hand_size(1, 0), state.figures()["tricks"]["3"])
(0, (0,), 4, 0)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine import record as engine_record
from engine.base import GameBase, MatchStateBase
from engine.errors import EngineError, IllegalActionError, RecordError, ReplayError
from engine.game import (
    END_REASONS,
    DealInfo,
    FigureSpec,
    Game,
    OptionSpec,
    ScoredSheet,
    SheetDeal,
    SystemPlays,
    Verdict,
    World,
)
from engine.record import RecordBase, apply_all, check_result
from engine.sampling import deal_hidden
from engine.search import DealWorld, clone_deal
from engine.sheets import seat_name, words
from tests.sheet_helpers import tricks_sheet

__all__ = ["GAME", "PACK", "ToyAction", "ToyDeal", "ToyGame", "ToyMatch", "ToyOptions"]

# == the rules: what is 玩具牌's own ==============================================================

SEATS = range(4)
#: The 16 cards from lowest to highest: by rank, then suit (the order a timeout picks by).
PACK: tuple[str, ...] = tuple(f"{rank}{suit}" for rank in "1234" for suit in "abcd")
_ORDER = {card: i for i, card in enumerate(PACK)}
_LABELS = ("event", "round", "table", "seats")


def _seat(value: Any, what: str = "seat") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in SEATS:
        raise EngineError(f"{what} must be a seat 0-3, not {value!r}")
    return value


def _card(text: Any) -> str:
    if not isinstance(text, str) or text.strip() not in _ORDER:
        raise EngineError(f"not a card of 玩具牌 (1a .. 4d): {text!r}")
    return text.strip()


def _int(value: Any, what: str, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise EngineError(f"{what} must be a whole number of at least {minimum}, not {value!r}")
    return value


def deal_points(tricks: Sequence[int], base: int) -> tuple[int, ...]:
    """Points of a played deal from the tricks per seat: +3/−1 for a lone top, else all 0.

    >>> deal_points([2, 1, 1, 0], 2), deal_points([2, 2, 0, 0], 1)
    ((6, -2, -2, -2), (0, 0, 0, 0))
    """
    top = max(tricks)
    if list(tricks).count(top) > 1:
        return (0, 0, 0, 0)
    return tuple(3 * base if t == top else -base for t in tricks)


def _tricks_result(tricks: Sequence[int], base: int) -> dict[str, Any]:
    return {"outcome": "tricks", "tricks": list(tricks), "points": list(deal_points(tricks, base))}


def _gone_result(outcome: str, seat: int, base: int) -> dict[str, Any]:
    """An escape (−6/+2 × base) or a leaving between deals (−3/+1 × base)."""
    cost = (2 if outcome == "escape" else 1) * base
    points = [-3 * cost if s == seat else cost for s in SEATS]
    return {"outcome": outcome, "seat": seat, "points": points}


@dataclass(frozen=True, slots=True)
class ToyOptions:
    """The options of 玩具牌: only how many deals a match has."""

    deals_per_match: int = 2

    def __post_init__(self) -> None:
        _int(self.deals_per_match, "deals_per_match", 1)

    def to_json(self) -> dict[str, Any]:
        return {"deals_per_match": self.deals_per_match}

    @classmethod
    def from_json(cls, data: Any) -> ToyOptions:
        """Options from JSON; raises EngineError for unknown names and bad values."""
        if not isinstance(data, dict):
            raise EngineError(f"options are an object, not {data!r}")
        unknown = set(data) - {"deals_per_match"}
        if unknown:
            raise EngineError(f"unknown options of 玩具牌: {sorted(unknown)}")
        return cls(data.get("deals_per_match", 2))


@dataclass(frozen=True, slots=True)
class ToyAction:
    """``play`` one card, or ``escape``; ``system`` marks a play made on a timeout."""

    kind: str
    seat: int
    cards: str = ""
    system: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.kind == "play":
            data["cards"] = self.cards
        if self.system:
            data["system"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> ToyAction:
        """An action from JSON (``cards`` empty for an escape); raises EngineError."""
        if not isinstance(data, dict) or data.get("kind") not in ("play", "escape"):
            raise EngineError(f"not an action of 玩具牌: {data!r}")
        seat, system = _seat(data.get("seat")), data.get("system", False)
        if not isinstance(system, bool) or (system and data["kind"] == "escape"):
            raise EngineError(f"system must be true or false (never for an escape): {data!r}")
        if data["kind"] == "escape":
            if data.get("cards", ""):
                raise EngineError(f"an escape has no cards: {data!r}")
            return cls("escape", seat)
        return cls("play", seat, _card(data.get("cards")), system)


class ToyDeal:
    """One deal: the one mutable state of 玩具牌, changed only by :meth:`apply`."""

    def __init__(
        self, *, number: int, seed: int, dealer: int, base: int, options: ToyOptions | None = None
    ) -> None:
        pack = list(PACK)
        random.Random(seed).shuffle(pack)
        self.number, self.seed, self.dealer, self.base = number, seed, dealer, base
        self.options = options or ToyOptions()
        self.hands = [sorted(pack[4 * s : 4 * s + 4], key=_ORDER.__getitem__) for s in SEATS]
        self.leader = dealer
        self.trick: list[ToyAction] = []
        self.winners: list[int] = []  # the winner of each trick, in order
        self.actions: list[ToyAction] = []
        self.streaks = [0, 0, 0, 0]  # consecutive system plays per seat
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
        """Nobody goes out during the deal; at its end, one seat per trick won (sorted)."""
        played = self.result is not None and self.result["outcome"] == "tricks"
        return tuple(sorted(self.winners)) if played else ()

    def awaiting(self) -> tuple[int, ...]:
        return () if self.turn is None else (self.turn,)

    def legal_actions(self, seat: int) -> list[ToyAction]:
        """Every card of ``seat``'s hand when it is its turn, else nothing."""
        _seat(seat)
        return [ToyAction("play", seat, c) for c in self.hands[seat]] if seat == self.turn else []

    def system_action(self, seat: int) -> ToyAction:
        """The play of a timeout: the lowest card; IllegalActionError when not ``seat``'s turn."""
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} does not play now (turn: {self.turn})")
        return ToyAction("play", seat, legal[0].cards, system=True)

    def apply(self, action: ToyAction) -> None:
        """Apply ``action``; raises IllegalActionError naming it when the rules refuse it."""
        if self.over:
            raise IllegalActionError(f"{action.to_json()}: deal {self.number} is over")
        if action.kind == "escape":
            self.actions.append(action)
            self.result = _gone_result("escape", action.seat, self.base)
            return
        if action.seat != self.turn or action.cards not in self.hands[action.seat]:
            why = "does not hold it" if action.seat == self.turn else f"seat {self.turn} plays"
            raise IllegalActionError(f"{action.to_json()}: {why}")
        self.hands[action.seat].remove(action.cards)
        self.streaks[action.seat] = self.streaks[action.seat] + 1 if action.system else 0
        self.actions.append(action)
        self.trick.append(action)
        if len(self.trick) == 4:
            ranks = [int(a.cards[0]) for a in self.trick]
            self.leader = self.trick[ranks.index(max(ranks))].seat  # earlier play wins ties
            self.winners.append(self.leader)
            self.trick = []
            if len(self.winners) == 4:
                self.result = _tricks_result(self.tricks, self.base)

    def public_view(self) -> dict[str, Any]:
        """What everyone sees: turns, the trick on the table, tricks won; never a hand."""
        return {
            "number": self.number, "phase": "over" if self.over else "play",
            "dealer": self.dealer, "leader": self.leader, "turn": self.turn,
            "awaiting": [] if self.turn is None else [self.turn],
            "counts": [len(h) for h in self.hands],
            "trick": {"actions": [a.to_json() for a in self.trick], "current": None},
            "winners": list(self.winners), "tricks": self.tricks, "finish": list(self.finish),
            "streaks": list(self.streaks), "moves": len(self.actions), "result": self.result,
        }  # fmt: skip

    def private_view(self, seat: int) -> dict[str, Any]:
        """The public view with ``seat``'s hand and legal actions (and no tributes)."""
        view = self.public_view()
        view["seat"] = _seat(seat)
        view["hand"] = " ".join(self.hands[seat])
        view["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        view["tributes"] = []
        return view


def deal_seed(match_seed: int | str, number: int) -> int:
    """The seed deal ``number`` of a match is dealt from (63 bits: a card room stores it)."""
    return random.Random(f"toy:{match_seed}:{number}").getrandbits(63)


class ToyMatch:
    """The deals of a match one after the other, its points, tricks and end."""

    def __init__(
        self, *, seed: int | str, options: ToyOptions, base: int = 1, first: Any = None
    ) -> None:
        self.seed, self.options, self.base = seed, options, _int(base, "base", 1)
        self.first: tuple[int, int] | None = first  # deal 1 dealt as another deal was
        self.deals: list[ToyDeal] = []
        self.results: list[dict[str, Any]] = []
        self.points, self.tricks = [0, 0, 0, 0], [0, 0, 0, 0]
        self.end: str | None = None
        self.left: int | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def deal(self) -> ToyDeal | None:
        return self.deals[-1] if self.deals and not self.deals[-1].over else None

    @property
    def winner(self) -> str | None:
        """The seat alone with most points once the match is over."""
        firsts = [s for s in SEATS if self.points[s] == max(self.points)]
        return str(firsts[0]) if self.over and len(firsts) == 1 else None

    def figures(self) -> dict[str, dict[str, int]]:
        return {"tricks": {str(s): t for s, t in enumerate(self.tricks)}}

    def start_deal(self) -> ToyDeal:
        if self.over or self.deal is not None:
            raise IllegalActionError("the match is over" if self.over else "a deal is on")
        number = len(self.deals) + 1
        seed, dealer = deal_seed(self.seed, number), (number - 1) % 4
        if self.first is not None and number == 1:
            seed, dealer = self.first
        deal = ToyDeal(
            number=number, seed=seed, dealer=dealer, base=self.base, options=self.options
        )
        self.deals.append(deal)
        return deal

    def apply(self, action: ToyAction) -> None:
        deal = self.deal
        if deal is None:
            raise IllegalActionError(f"{action.to_json()}: no deal is being played")
        deal.apply(action)
        if deal.result is not None:
            self.settle(deal.number, deal.result, deal.tricks)

    def settle(self, number: int, result: dict[str, Any], tricks: Sequence[int]) -> None:
        """Count the result of deal ``number`` (or of a leaving) and end the match if it ends."""
        self.results.append(result)
        self.points = [p + q for p, q in zip(self.points, result["points"], strict=True)]
        self.tricks = [t + u for t, u in zip(self.tricks, tricks, strict=True)]
        if result["outcome"] != "tricks":
            self.end = result["outcome"]
        elif number >= self.options.deals_per_match:
            self.end = "deals_played"

    def timeout(self, seat: int) -> ToyAction:
        deal = self.deal
        if deal is None:
            raise EngineError(f"no deal is being played: no system action for seat {seat}")
        action = deal.system_action(seat)
        self.apply(action)
        return action

    def escape(self, seat: int) -> dict[str, Any]:
        if self.deal is None:
            raise IllegalActionError(f"seat {seat} cannot escape: no deal is being played")
        self.apply(ToyAction("escape", _seat(seat)))
        return self.results[-1]

    def leave(self, seat: int) -> dict[str, Any]:
        _seat(seat)
        if self.over or self.deal is not None:
            raise IllegalActionError(f"seat {seat} cannot leave: not between deals of a match")
        result = _gone_result("left", seat, self.base)
        self.settle(len(self.deals), result, (0, 0, 0, 0))
        self.left = seat
        return result

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, **self.public_view(), "deal": None}

    def public_view(self) -> dict[str, Any]:
        """The match (never its seed: it deals every hand) and its last deal's public view."""
        return {
            "game": "toy", "options": self.options.to_json(), "over": self.over,
            "end": self.end, "left": self.left, "points": list(self.points),
            "figures": self.figures(), "results": list(self.results),
            "deal_number": len(self.deals) or None,
            "deal": self.deals[-1].public_view() if self.deals else None,
        }  # fmt: skip

    def private_view(self, seat: int) -> dict[str, Any]:
        view = self.public_view()
        if self.deals:
            view["deal"] = self.deals[-1].private_view(seat)
        return view


class ToyBot:
    """``random`` plays any legal card, ``heuristic`` the highest; both seeded."""

    def __init__(self, kind: str, seed: int | str) -> None:
        self.kind, self.rng = kind, random.Random(seed)

    def act(self, deal: ToyDeal, seat: int) -> ToyAction:
        legal = deal.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} has no play of 玩具牌 now")
        return legal[-1] if self.kind == "heuristic" else self.rng.choice(legal)


def _sheet_tricks(item: dict[str, Any], where: str) -> tuple[int, ...]:
    """Tricks per seat from ``tricks`` (per seat) or ``finish`` (one seat per trick won)."""
    if item.get("finish") and item.get("tricks"):
        raise EngineError(f"{where}give tricks or finish, not both")
    if item.get("finish"):
        finish = item["finish"]
        if not isinstance(finish, list) or len(finish) != 4:
            raise EngineError(f"{where}finish names the winner of each of 4 tricks: {finish!r}")
        winners = [_seat(s, f"{where}a trick's winner") for s in finish]
        return tuple(winners.count(s) for s in SEATS)
    tricks = item.get("tricks")
    if not isinstance(tricks, list) or len(tricks) != 4:
        raise EngineError(f"{where}tricks are 4 numbers, one per seat, not {tricks!r}")
    for t in tricks:
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= 4:
            raise EngineError(f"{where}a seat wins 0-4 tricks, not {t!r}")
    if sum(tricks) != 4:
        raise EngineError(f"{where}the tricks add up to {sum(tricks)}, not 4")
    return tuple(tricks)


def _describe(
    result: Mapping[str, Any], seats: Sequence[str], sides: Mapping[str, str], english: bool
) -> str:
    """A deal in words: who took the most tricks, or who escaped."""
    if result.get("outcome") == "escape":
        name = seat_name(seats, result.get("seat"))
        return words(english, "{name}逃跑", "{name} escaped (逃跑)", name=name)
    tricks = list(result.get("tricks") or [])
    best = [s for s, t in enumerate(tricks) if tricks and t == max(tricks)]
    if len(best) != 1:
        return words(english, "墩数相同：不计分", "A tie on tricks: nobody scores")
    name = seat_name(seats, best[0])
    return words(english, "{name}墩数最多", "{name} took the most tricks", name=name)


#: 玩具牌's score sheet: the tricks each seat won, or an escape, or a leaving.
SHEET = tricks_sheet(
    describe=_describe,
    print_help_zh="每局写每人赢的墩数。",
    print_help_en="Write the tricks each player won.",
)


def score_toy_sheet(entry: Any, options: ToyOptions, base: int) -> ScoredSheet:
    """Score a referee's sheet: per deal ``tricks`` (per seat) or ``finish`` (the winner of
    each trick), or ``escape`` (a seat), or, last, ``leave`` (a seat, between deals)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("deals"), list):
        raise EngineError(f"a score sheet is {{'first_dealer': S, 'deals': [...]}}: {entry!r}")
    first = _seat(entry.get("first_dealer", 0), "first_dealer")
    match = ToyMatch(seed=0, options=options, base=base)
    deals: list[SheetDeal] = []
    figures = [match.figures()]
    for number, item in enumerate(entry["deals"], 1):
        where = f"deal {number}: "
        if not isinstance(item, dict) or set(item) - {"finish", "tricks", "escape", "leave"}:
            raise EngineError(f"{where}an entry has finish or tricks, escape, leave: {item!r}")
        if match.over:
            raise EngineError(f"{where}the match was over ({match.end})")
        escape, leave = item.get("escape"), item.get("leave")
        played = bool(item.get("finish") or item.get("tricks"))
        if leave is not None:
            if escape is not None or played:
                raise EngineError(f"{where}a seat leaving between deals plays no deal")
            match.leave(_seat(leave, f"{where}leave"))
            continue
        if escape is not None:
            if played:
                raise EngineError(f"{where}an escaped deal counts no tricks")
            result = _gone_result("escape", _seat(escape, f"{where}escape"), base)
            tricks: tuple[int, ...] = (0, 0, 0, 0)
        else:
            tricks = _sheet_tricks(item, where)
            result = _tricks_result(tricks, base)
        match.settle(number, result, tricks)
        figures.append(match.figures())
        finish = tuple(s for s in SEATS for _ in range(tricks[s]))
        dealer, points = (first + number - 1) % 4, tuple(result["points"])
        deals.append(SheetDeal(number, dealer, None, result, finish, points, escape))
    return ScoredSheet(
        tuple(deals), tuple(match.points), tuple(figures), match.end, match.winner, match.left
    )


def explain(view: Mapping[str, Any], cards: str) -> Verdict:
    """Whether ``cards`` is one card of the hand to play now. ``view``: the seat's private
    view of the deal (``hand``, ``seat``, ``awaiting``) or the card room's (``my_turn``)."""
    selected = cards.split()
    if not selected:
        return Verdict(False, "Select cards first.")
    if len(selected) > 1:
        return Verdict(False, "Play exactly one card.")
    if selected[0] not in str(view.get("hand", "")).split():
        return Verdict(False, "You do not hold %(cards)s.", {"cards": selected[0]})
    if not view.get("my_turn", view.get("seat") in view.get("awaiting", [])):
        return Verdict(False, "It is not your turn.")
    card = selected[0]
    return Verdict(True, "You play %(cards)s.", {"cards": card}, "play", "single", card)


# == the glue: 玩具牌 behind engine.game, on engine.base and engine.record =========================


@dataclass(frozen=True, slots=True)
class ToyHeaders:
    """What starts a deal of a record: its number, dealer, seed, the match's seed, base, options
    (and the card room's labels)."""

    deal: int
    dealer: int
    seed: int
    match_seed: int | str
    base: int
    options: ToyOptions
    labels: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        h = {"game": "toy", "deal": self.deal, "dealer": self.dealer, "seed": self.seed}
        h |= {"match_seed": self.match_seed, "base": self.base}
        return h | {"options": self.options.to_json(), **self.labels}

    @classmethod
    def from_json(cls, h: Any) -> ToyHeaders:
        if not isinstance(h, dict) or h.get("game") != "toy":
            raise RecordError(f"not a record of 玩具牌: headers {h!r}")
        unknown = set(h) - {"game", "deal", "dealer", "seed", "match_seed", "base", "options"}
        if unknown - set(_LABELS):
            raise RecordError(f"unknown headers {sorted(unknown - set(_LABELS))}")
        if not isinstance(h.get("match_seed"), int | str):
            raise RecordError(f"header match_seed: {h.get('match_seed')!r}")
        return cls(
            _int(h.get("deal"), "header deal", 1), _seat(h.get("dealer"), "header dealer"),
            _int(h.get("seed"), "header seed", 0), h["match_seed"],
            _int(h.get("base"), "header base", 1), ToyOptions.from_json(h.get("options")),
            {k: h[k] for k in _LABELS if k in h},
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ToyRecord(RecordBase):
    headers_type: ClassVar[type[ToyHeaders]] = ToyHeaders
    action_type: ClassVar[type[ToyAction]] = ToyAction

    headers: ToyHeaders
    actions: tuple[ToyAction, ...] = ()
    result: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, data: Any) -> ToyRecord:
        if not isinstance(data, dict) or set(data) != {"headers", "actions", "result"}:
            raise RecordError("a record is an object of headers, actions and result")
        return super(ToyRecord, cls).from_json(data)

    @classmethod
    def from_deal(cls, deal: ToyDeal, *, number: int, match_seed: Any, **labels: Any) -> ToyRecord:
        seed = "" if match_seed is None else match_seed  # dealt as another deal: no match seed
        h = ToyHeaders(number, deal.dealer, deal.seed, seed, deal.base, deal.options, labels)
        return cls(h, tuple(deal.actions), deal.result)

    def new_deal(self) -> ToyDeal:
        h = self.headers
        return ToyDeal(number=h.deal, seed=h.seed, dealer=h.dealer, base=h.base, options=h.options)


class ToyState(MatchStateBase[ToyMatch]):
    """A match of 玩具牌 in play, as :class:`engine.game.MatchState`."""

    game_name, action_type, record_type = "玩具牌", ToyAction, ToyRecord
    end_names = {reason: reason for reason in END_REASONS}

    @property
    def base(self) -> int:
        return self.match.base

    @property
    def options(self) -> ToyOptions:
        return self.match.options

    @property
    def winner(self) -> str | None:
        return self.match.winner

    def figures(self) -> dict[str, dict[str, int]]:
        return self.match.figures()

    def start_deal(self) -> DealInfo:
        return self.deal_info(self.match.start_deal().number)

    def deal_info(self, number: int) -> DealInfo:
        deal: ToyDeal = self._deal(number)
        result = deal.result
        points = None if result is None else tuple(result["points"])
        no_setup: dict[str, Any] = {}  # no tribute, no bidding: dealt, then played
        return DealInfo(
            number, deal.dealer, deal.seed, None, no_setup, no_setup, False, deal.finish,
            len(deal.actions), deal.over, result, points,
        )  # fmt: skip

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        deal = self._deal(number)  # no limit: the system may play any number of turns
        last = {a.seat: a.system for a in deal.actions}
        return tuple(SystemPlays(0, 0, True, last.get(s, False)) for s in SEATS)


class ToyGame(GameBase):
    """玩具牌 as :class:`engine.game.Game`."""

    key, name_zh, name_en, seat_count = "toy", "玩具牌", "Toy", 4
    figure_specs = (FigureSpec("tricks", "墩数", "tricks", "seat", 0, 10**6, 0),)
    no_sides_why = "no sides: every seat for itself"
    state_type, action_type, record_type, options_type = ToyState, ToyAction, ToyRecord, ToyOptions
    bot_types = {k: functools.partial(ToyBot, k) for k in ("heuristic", "random")}
    sheet_spec = SHEET

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (OptionSpec("deals_per_match", "int", 2, "每场副数", "deals per match", 1),)

    def new_match(
        self, *, seed: int | str, options: Any, base: int = 1, first_deal: Any = None
    ) -> ToyState:
        first = None
        if first_deal is not None:  # {seed, dealer}: deal 1 dealt as another deal was
            if not isinstance(first_deal, Mapping) or set(first_deal) != {"seed", "dealer"}:
                raise EngineError(f"a first deal is {{seed, dealer}}, not {first_deal!r}")
            first = (_int(first_deal["seed"], "seed", 0), _seat(first_deal["dealer"], "dealer"))
        match = ToyMatch(seed=seed, options=self._options(options), base=base, first=first)
        return ToyState(match, first)

    def deal_setup(self, data: Any) -> dict[str, Any]:
        deal = self.replay_deal(self._read(data))  # only a deal that replays is dealt again
        return {"seed": deal.seed, "dealer": deal.dealer}

    def seat_action(self, seat: int, kind: str, cards: str = "") -> ToyAction:
        if kind != "play":
            raise EngineError(f"Unknown action {kind!r}: use play.")
        return ToyAction("play", _seat(seat), _card(cards))

    def deal_world(self, deal: ToyDeal, seat: int, rng: random.Random) -> World:
        """The deal in play with the other hands dealt anew from the cards ``seat`` has not
        seen (the pack less its hand and the cards played), by the public counts."""
        played = {a.cards for a in deal.actions if a.kind == "play"}
        pool = [c for c in PACK if c not in played and c not in deal.hands[seat]]
        dealt = deal_hidden(pool, {s: len(deal.hands[s]) for s in SEATS if s != seat}, rng)
        hands = [deal.hands[s] if s == seat else sorted(dealt[s], key=PACK.index) for s in SEATS]
        world = clone_deal(deal, hands=[list(h) for h in hands])
        policy = ToyBot("heuristic", 0)  # the highest card, for the rollouts
        return DealWorld(world, policy, points_of=lambda d: tuple((d.result or {})["points"]))

    def replay_hands(self, deal: ToyDeal) -> tuple[str, ...]:
        return tuple(" ".join(hand) for hand in deal.hands)

    def replay_deal_steps(self, record: ToyRecord, seen: Any) -> ToyDeal:
        return engine_record.replay_steps(record, seen)  # type: ignore[no-any-return]

    def replay_deal(self, record: ToyRecord) -> ToyDeal:
        return engine_record.replay(record)  # type: ignore[no-any-return]

    def replay_figures(self, deal: ToyDeal) -> dict[str, dict[str, int]]:
        return {"tricks": {str(s): t for s, t in enumerate(deal.tricks)}}

    def replay_records(self, records: list[ToyRecord], *, left: int | None) -> ToyMatch:
        if not records:
            raise RecordError("a match needs at least one deal record")
        first = records[0].headers
        match = ToyMatch(seed=first.match_seed, options=first.options, base=first.base)
        for number, record in enumerate(records, 1):
            h, where = record.headers, f"deal {number}: "
            for name in ("match_seed", "base", "options"):
                if getattr(h, name) != getattr(first, name):
                    raise ReplayError(f"{where}header {name} is not deal 1's")
            if match.over:
                raise ReplayError(f"{where}the match was over ({match.end})")
            deal = match.start_deal()
            if (h.deal, h.dealer, h.seed) != (number, deal.dealer, deal.seed):
                raise ReplayError(f"{where}not the deal the match deals next")
            apply_all(record.actions, match.apply, where)
            check_result(deal, record.result, where)
        if left is not None:
            match.leave(left)
        return match

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        return score_toy_sheet(entry, self._options(options), base)

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        return explain(view, cards)


GAME: Game = ToyGame()
