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

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
from engine.sheets import SheetColumn, SheetField, SheetSpec, seat_name, words

__all__ = ["GAME", "PACK", "ToyAction", "ToyDeal", "ToyGame", "ToyMatch", "ToyOptions"]

SEATS = range(4)
#: The 16 cards from lowest to highest: by rank, then suit (the order a timeout picks by).
PACK: tuple[str, ...] = tuple(f"{rank}{suit}" for rank in "1234" for suit in "abcd")
_ORDER = {card: i for i, card in enumerate(PACK)}
_LABELS = {"event", "round", "table", "seats"}


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

    def __init__(self, *, number: int, seed: int, dealer: int, base: int) -> None:
        pack = list(PACK)
        random.Random(seed).shuffle(pack)
        self.number, self.seed, self.dealer, self.base = number, seed, dealer, base
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
    """A match of 玩具牌 in play, as :class:`engine.game.MatchState`."""

    def __init__(
        self,
        *,
        seed: int | str,
        options: ToyOptions,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> None:
        self.seed, self.options, self.base = seed, options, _int(base, "base", 1)
        self.first: tuple[int, int] | None = None
        if first_deal is not None:  # {seed, dealer}: deal 1 dealt as another deal was
            if not isinstance(first_deal, Mapping) or set(first_deal) != {"seed", "dealer"}:
                raise EngineError(f"a first deal is {{seed, dealer}}, not {first_deal!r}")
            self.first = (
                _int(first_deal["seed"], "seed", 0),
                _seat(first_deal["dealer"], "dealer"),
            )
        self.deals: list[ToyDeal] = []
        self._results: list[dict[str, Any]] = []
        self._points, self._tricks = [0, 0, 0, 0], [0, 0, 0, 0]
        self.end_reason: str | None = None
        self.left_seat: int | None = None

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    @property
    def winner(self) -> str | None:
        """The seat alone with most points once the match is over."""
        firsts = [s for s in SEATS if self._points[s] == max(self._points)]
        return str(firsts[0]) if self.over and len(firsts) == 1 else None

    @property
    def points(self) -> list[int]:
        return list(self._points)

    @property
    def deals_started(self) -> int:
        return len(self.deals)

    @property
    def in_deal(self) -> bool:
        return bool(self.deals) and not self.deals[-1].over

    def side_points(self) -> dict[str, int]:
        return {}

    def figures(self) -> dict[str, dict[str, int]]:
        return {"tricks": {str(s): t for s, t in enumerate(self._tricks)}}

    def _deal(self, number: int) -> ToyDeal:
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
        self.deals.append(ToyDeal(number=number, seed=seed, dealer=dealer, base=self.base))
        return self.deal_info(number)

    def deal_info(self, number: int) -> DealInfo:
        deal = self._deal(number)
        result = deal.result
        points = None if result is None else tuple(result["points"])
        no_setup: dict[str, Any] = {}  # no tribute, no bidding: dealt, then played
        return DealInfo(
            number, deal.dealer, deal.seed, None, no_setup, no_setup, False, deal.finish,
            len(deal.actions), deal.over, result, points,
        )  # fmt: skip

    def deal_actions(self, number: int) -> list[ToyAction]:
        return list(self._deal(number).actions)

    def awaiting(self) -> tuple[int, ...]:
        turn = self.deals[-1].turn if self.deals else None
        return () if turn is None else (turn,)

    def legal_actions(self, seat: int) -> list[ToyAction]:
        return self.deals[-1].legal_actions(seat) if self.in_deal else []

    def system_action(self, seat: int) -> ToyAction:
        if not self.in_deal:
            raise EngineError(f"no deal is being played: no system action for seat {seat}")
        return self.deals[-1].system_action(seat)

    def apply(self, action: Any) -> None:
        if not isinstance(action, ToyAction):
            raise EngineError(f"not an action of 玩具牌: {action!r}")
        if not self.in_deal:
            raise IllegalActionError(f"{action.to_json()}: no deal is being played")
        deal = self.deals[-1]
        deal.apply(action)
        if deal.result is not None:
            self.settle(deal.number, deal.result, deal.tricks)

    def apply_logged(self, action: Any) -> None:
        self.apply(action)

    def settle(self, number: int, result: dict[str, Any], tricks: Sequence[int]) -> None:
        """Count the result of deal ``number`` (or of a leaving) and end the match if it ends."""
        self._results.append(result)
        self._points = [p + q for p, q in zip(self._points, result["points"], strict=True)]
        self._tricks = [t + u for t, u in zip(self._tricks, tricks, strict=True)]
        if result["outcome"] != "tricks":
            self.end_reason = result["outcome"]
        elif number >= self.options.deals_per_match:
            self.end_reason = "deals_played"

    def timeout(self, seat: int) -> ToyAction:
        action = self.system_action(seat)
        self.apply(action)
        return action

    def escape(self, seat: int) -> dict[str, Any]:
        if not self.in_deal:
            raise IllegalActionError(f"seat {seat} cannot escape: no deal is being played")
        self.apply(ToyAction("escape", _seat(seat)))
        return self._results[-1]

    def leave(self, seat: int) -> dict[str, Any]:
        _seat(seat)
        if self.over or self.in_deal:
            raise IllegalActionError(f"seat {seat} cannot leave: not between deals of a match")
        result = _gone_result("left", seat, self.base)
        self.settle(len(self.deals), result, (0, 0, 0, 0))
        self.left_seat = seat
        return result

    def results(self) -> list[dict[str, Any]]:
        return list(self._results)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, **self.public_view(), "deal": None}

    def public_view(self) -> dict[str, Any]:
        """The match (never its seed: it deals every hand) and its last deal's public view."""
        return {
            "game": "toy", "options": self.options.to_json(), "over": self.over,
            "end": self.end_reason, "left": self.left_seat, "points": self.points,
            "figures": self.figures(), "results": self.results(),
            "deal_number": len(self.deals) or None,
            "deal": self.deals[-1].public_view() if self.deals else None,
        }  # fmt: skip

    def private_view(self, seat: int) -> dict[str, Any]:
        view = self.public_view()
        if self.deals:
            view["deal"] = self.deals[-1].private_view(seat)
        return view

    def deal_view(self, number: int, seat: int | None = None) -> dict[str, Any]:
        deal = self._deal(number)
        return deal.public_view() if seat is None else deal.private_view(seat)

    def hand_size(self, number: int, seat: int) -> int:
        return len(self._deal(number).hands[_seat(seat)])

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        deal = self._deal(number)  # no limit: the system may play any number of turns
        last = {a.seat: a.system for a in deal.actions}
        return tuple(SystemPlays(0, 0, True, last.get(s, False)) for s in SEATS)

    def deal_ordinal(self, number: int) -> int:
        self._deal(number)
        return number

    def record(self, number: int, **labels: Any) -> dict[str, Any]:
        deal = self._deal(number)
        headers = {"game": "toy", "deal": number, "dealer": deal.dealer, "seed": deal.seed}
        alone = self.first is not None and number == 1  # dealt as another deal: no match seed
        headers |= {"match_seed": "" if alone else self.seed, "base": self.base}
        headers |= {"options": self.options.to_json(), **labels}
        actions = [a.to_json() for a in deal.actions]
        return {"headers": headers, "actions": actions, "result": deal.result}


class ToyBot:
    """``random`` plays any legal card, ``heuristic`` the highest; both seeded."""

    def __init__(self, kind: str, seed: int | str) -> None:
        self.kind, self.rng = kind, random.Random(seed)

    def act(self, state: MatchState, seat: int) -> ToyAction:
        legal = [a for a in state.legal_actions(seat) if isinstance(a, ToyAction)]
        if not legal:
            raise IllegalActionError(f"seat {seat} has no play of 玩具牌 now")
        return legal[-1] if self.kind == "heuristic" else self.rng.choice(legal)


class _ToyPolicy:
    """The heuristic of 玩具牌 on a deal (the highest card), for a search bot's rollouts."""

    def act(self, deal: ToyDeal, seat: int) -> ToyAction:
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
    if not isinstance(h, dict) or h.get("game") != "toy":
        raise EngineError(f"not a record of 玩具牌: headers {h!r}")
    unknown = set(h) - {"game", "deal", "dealer", "seed", "match_seed", "base", "options"}
    if unknown - _LABELS:
        raise EngineError(f"unknown headers {sorted(unknown - _LABELS)}")
    _int(h.get("deal"), "header deal", 1), _seat(h.get("dealer"), "header dealer")
    _int(h.get("seed"), "header seed", 0), _int(h.get("base"), "header base", 1)
    if not isinstance(h.get("match_seed"), int | str):
        raise EngineError(f"header match_seed: {h.get('match_seed')!r}")
    ToyOptions.from_json(h.get("options"))
    if not isinstance(data["actions"], list) or not isinstance(data["result"], dict | None):
        raise EngineError("a record's actions are a list, its result an object or null")
    actions = [ToyAction.from_json(a).to_json() for a in data["actions"]]
    return {"headers": dict(h), "actions": actions, "result": data["result"]}


def _replay_into(apply: Any, deal: ToyDeal, record: dict[str, Any], where: str) -> None:
    for index, action in enumerate(record["actions"], 1):
        try:
            apply(ToyAction.from_json(action))
        except EngineError as exc:
            raise IllegalActionError(f"{where}action {index}: {exc}") from None
    if deal.result != record["result"]:
        raise IllegalActionError(f"{where}stored result {record['result']} != {deal.result}")


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


def _form_deal(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """A deal of the sheet from one row of the site's form: the tricks per seat, an escape, or
    a seat leaving before the deal; ``None`` for a blank row."""
    if row.get("leave") is not None:
        return {"leave": row["leave"]}
    if row.get("escape") is not None:
        return {"escape": row["escape"]}
    tricks = row.get("tricks") or []
    if all(t is None for t in tricks):
        return None
    return {"tricks": [t or 0 for t in tricks]}


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
SHEET = SheetSpec(
    fields=(
        SheetField("tricks", "seat_numbers", "墩数：{name}", "Tricks: {name}", maximum=4),
        SheetField("escape", "seat", "逃跑", "Escaped (逃跑)"),
        SheetField("leave", "seat", "开局前离开", "Left before it"),
    ),
    form_deal=_form_deal,
    columns=(
        SheetColumn("墩数，{seat} 号座位", "Tricks, seat {seat}", per_seat=True),
        SheetColumn("逃跑／离开（座位号）", "Escape / leave (seat)"),
    ),
    first_dealer_zh="首局发牌（可不填）",
    first_dealer_en="First dealer (optional)",
    first_dealer_print_zh="首局发牌（座位号）",
    first_dealer_print_en="First dealer (seat)",
    help_zh="每局填写每人赢的墩数（共 4 墩），或谁逃跑、谁在开局前离开。",
    help_en="For each deal: the tricks each player won (4 in all), or who escaped or left.",
    print_help_zh="每局写每人赢的墩数。",
    print_help_en="Write the tricks each player won.",
    describe=_describe,
)


class ToyGame:
    """玩具牌 as :class:`engine.game.Game`."""

    key: str = "toy"
    name_zh: str = "玩具牌"
    name_en: str = "Toy"
    seat_count: int = 4
    fixed_sides: bool = False
    sides: tuple[str, ...] = ()
    bot_kinds: tuple[str, ...] = ("heuristic", "search", "random")
    end_reasons: tuple[str, ...] = END_REASONS
    figure_specs: tuple[FigureSpec, ...] = (
        FigureSpec("tricks", "墩数", "tricks", "seat", minimum=0, maximum=10**6, start=0),
    )
    score_sheets: bool = True
    sheet_spec: SheetSpec | None = SHEET

    def side_of(self, seat: int) -> str | None:
        _seat(seat)
        return None

    def side_seats(self, side: str) -> tuple[int, ...]:
        raise EngineError(f"玩具牌 has no sides (not {side!r}): every seat for itself")

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (OptionSpec("deals_per_match", "int", 2, "每场副数", "deals per match", 1),)

    def default_options(self) -> ToyOptions:
        return ToyOptions()

    def options_from_json(self, data: Any) -> ToyOptions:
        return ToyOptions.from_json(data)

    def new_match(
        self,
        *,
        seed: int | str,
        options: Any,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> ToyMatch:
        if not isinstance(options, ToyOptions):
            raise EngineError(f"not the options of 玩具牌: {options!r}")
        return ToyMatch(seed=seed, options=options, base=base, first_deal=first_deal)

    def deal_setup(self, data: Any) -> dict[str, Any]:
        self.replay_record(data)  # only a deal that replays is dealt again
        h = _read(data)["headers"]
        return {"seed": h["seed"], "dealer": h["dealer"]}

    def replay_steps(self, data: Any) -> tuple[ReplayStep, ...]:
        record = _read(data)
        h = record["headers"]
        deal = ToyDeal(number=h["deal"], seed=h["seed"], dealer=h["dealer"], base=h["base"])
        steps = [ReplayStep(None, deal.public_view(), tuple(" ".join(x) for x in deal.hands))]

        def apply(action: ToyAction) -> None:
            deal.apply(action)
            hands = tuple(" ".join(x) for x in deal.hands)
            steps.append(ReplayStep(action.to_json(), deal.public_view(), hands))

        _replay_into(apply, deal, record, "")
        return tuple(steps)

    def action_from_json(self, data: Any) -> ToyAction:
        return ToyAction.from_json(data)

    def seat_action(self, seat: int, kind: str, cards: str = "") -> ToyAction:
        if kind != "play":
            raise EngineError(f"Unknown action {kind!r}: use play.")
        return ToyAction("play", _seat(seat), _card(cards))

    def commutes(self, since: Sequence[Any], seat: int, kind: str) -> bool:
        return False  # one seat plays at a time

    def bot(self, kind: str, seed: int | str) -> ToyBot | SearchBot:
        if kind == "search":
            return SearchBot(self, seed=seed)
        if kind not in self.bot_kinds:
            raise EngineError(f"unknown bot kind {kind!r} (use heuristic, search or random)")
        return ToyBot(kind, seed)

    def sample_world(self, state: Any, seat: int, rng: random.Random) -> DealWorld[ToyDeal]:
        """The deal in play with the other hands dealt anew from the cards ``seat`` has not
        seen (the pack less its hand and the cards played), by the public counts."""
        if not isinstance(state, ToyMatch) or not state.in_deal:
            raise EngineError("no deal of 玩具牌 is being played")
        deal = state.deals[-1]
        played = {a.cards for a in deal.actions if a.kind == "play"}
        pool = [c for c in PACK if c not in played and c not in deal.hands[_seat(seat)]]
        counts = {s: len(deal.hands[s]) for s in SEATS if s != seat}
        dealt = deal_hidden(pool, counts, rng)
        hands = [
            list(deal.hands[s]) if s == seat else sorted(dealt[s], key=_ORDER.__getitem__)
            for s in SEATS
        ]
        return DealWorld(
            clone_deal(deal, hands=hands),
            _ToyPolicy(),
            points_of=lambda d: tuple((d.result or {})["points"]),
        )

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        """Score a referee's sheet: per deal ``tricks`` (per seat) or ``finish`` (the winner of
        each trick), or ``escape`` (a seat), or, last, ``leave`` (a seat, between deals)."""
        if not isinstance(entry, dict) or not isinstance(entry.get("deals"), list):
            raise EngineError(f"a score sheet is {{'first_dealer': S, 'deals': [...]}}: {entry!r}")
        first = _seat(entry.get("first_dealer", 0), "first_dealer")
        match = self.new_match(seed=0, options=options, base=base)
        deals: list[SheetDeal] = []
        figures = [match.figures()]
        for number, item in enumerate(entry["deals"], 1):
            where = f"deal {number}: "
            if not isinstance(item, dict) or set(item) - {"finish", "tricks", "escape", "leave"}:
                raise EngineError(f"{where}an entry has finish or tricks, escape, leave: {item!r}")
            if match.over:
                raise EngineError(f"{where}the match was over ({match.end_reason})")
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
            deals=tuple(deals),
            points=tuple(match.points),
            figures=tuple(figures),
            end_reason=match.end_reason,
            winner=match.winner,
            left=match.left_seat,
        )

    def read_record(self, data: Any) -> dict[str, Any]:
        return _read(data)

    def replay_record(self, data: Any) -> dict[str, Any]:
        record = _read(data)
        h = record["headers"]
        deal = ToyDeal(number=h["deal"], seed=h["seed"], dealer=h["dealer"], base=h["base"])
        _replay_into(deal.apply, deal, record, "")
        tricks = {"tricks": {str(s): t for s, t in enumerate(deal.tricks)}}
        return {
            "finish": list(deal.finish),
            "over": deal.over,
            "actions": [a.to_json() for a in deal.actions],
            "result": deal.result,
            "points": None if deal.result is None else list(deal.result["points"]),
            "figures": None if deal.result is None else tricks,
        }

    def replay_match(self, records: Sequence[Any], *, left: int | None = None) -> ToyMatch:
        parsed = [_read(r) for r in records]
        if not parsed:
            raise EngineError("a match needs at least one deal record")
        first = parsed[0]["headers"]
        options = ToyOptions.from_json(first["options"])
        match = ToyMatch(seed=first["match_seed"], options=options, base=first["base"])
        for number, record in enumerate(parsed, 1):
            h, where = record["headers"], f"deal {number}: "
            for name in ("match_seed", "base", "options"):
                if h[name] != first[name]:
                    raise IllegalActionError(f"{where}header {name} is not deal 1's")
            if match.over:
                raise IllegalActionError(f"{where}the match was over ({match.end_reason})")
            info = match.start_deal()
            if (h["deal"], h["dealer"], h["seed"]) != (number, info.dealer, info.seed):
                raise IllegalActionError(f"{where}not the deal the match deals next")
            _replay_into(match.apply, match.deals[-1], record, where)
        if left is not None:
            match.leave(left)
        return match

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        """Whether ``cards`` is one card of the hand to play now. ``view``: the seat's private
        view of the deal (``hand``, ``seat``, ``awaiting``) or the card room's (``my_turn``)."""
        selected = cards.split()
        if not selected:
            return Verdict(False, ("Select cards first."))
        if len(selected) > 1:
            return Verdict(False, ("Play exactly one card."))
        if selected[0] not in str(view.get("hand", "")).split():
            return Verdict(False, ("You do not hold %(cards)s."), {"cards": selected[0]})
        mine = view.get("my_turn", view.get("seat") in view.get("awaiting", []))
        if not mine:
            return Verdict(False, ("It is not your turn."))
        card = selected[0]
        return Verdict(True, ("You play %(cards)s."), {"cards": card}, "play", "single", card)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key, "name_zh": self.name_zh, "name_en": self.name_en,
            "seats": self.seat_count, "fixed_sides": self.fixed_sides, "sides": {},
            "options": [o.to_json() for o in self.option_specs()],
            "defaults": self.default_options().to_json(),
            "figures": [f.to_json() for f in self.figure_specs],
            "end_reasons": list(self.end_reasons), "bots": list(self.bot_kinds),
            "score_sheets": self.score_sheets,
        }  # fmt: skip


GAME: Game = ToyGame()
