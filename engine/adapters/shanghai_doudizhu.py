"""上海斗地主 behind the one interface of :mod:`engine.game`: the registry's ``shanghai_doudizhu``.

Four players, a landlord against three farmers chosen by bidding in every deal: no fixed sides.
Each seat has points, rating points (等级分) and landlord wins (deals it won as the landlord);
places go by points, then rating. All-pass deals (荒番) are dealt again and do not count as
played. The package calls the deals of a match ``deals``; here, as for every game, the option is
``deals_per_match``. ``base`` of :meth:`DoudizhuGame.new_match` sets the options' ``base``.
Escaping is leaving the table during a deal (an *active* escape).

A referee's score sheet of an offline table (:meth:`DoudizhuGame.score_sheet`) is JSON,
``{"first_dealer": 0, "deals": [...]}``, one object per deal, all-pass deals included
(``docs/shanghai_doudizhu.md``, *Score sheets*; every field in
:mod:`engine.shanghai_doudizhu.sheet`)::

    {"landlord": 0, "bid": 2, "winner": "landlord"}
    {"landlord": 1, "bid": 3, "head_bid": true, "open_hand": true, "report": "double_play",
     "marked_joker": true, "redeals": 1, "first_bidder": 1, "winner": "farmers"}
    {"all_pass": true}
    {"escape": {"seat": 2, "kind": "active", "during": "bidding"}, "bid": 1}
    {"leave": 3}

``report`` is none / play / no_play / double_play / double_no_play (``report_sets`` for more
than two sets under ``double_report=per_set``); ``redeals`` the all-pass deals right before the
deal (those entered as deals count by themselves); an escape's ``kind`` is disconnect /
timeouts / active, ``during`` bidding (``bid`` so far, no landlord) or play. Figures after each
deal: ``rating`` and ``landlord_wins``. Refusals read ``deal N: FIELD: why``.

>>> from engine.registry import get_game
>>> game = get_game("shanghai_doudizhu")
>>> state = game.new_match(seed=1, options=game.default_options())
>>> info = state.start_deal()
>>> (game.seat_count, game.side_of(0), info.waiting_setup, sorted(state.figures()))
(4, None, True, ['landlord_wins', 'rating'])
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.adapters.shanghai_doudizhu_options import option_specs
from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError
from engine.game import (
    END_REASONS,
    Bot,
    DealInfo,
    FigureSpec,
    Game,
    GameOptions,
    MatchState,
    OptionSpec,
    ReplayStep,
    ScoredSheet,
    SheetSpec,
    SystemPlays,
    Verdict,
    World,
)
from engine.search import SearchBot
from engine.shanghai_doudizhu import (
    DEFAULT_RULES,
    RULES_VERSION,
    SEAT_COUNT,
    Action,
    ActionKind,
    Deal,
    EscapeKind,
    HeuristicBot,
    Match,
    MatchEnd,
    Outcome,
    Phase,
    RandomBot,
    Record,
    Rules,
    replay,
    replay_match,
)
from engine.shanghai_doudizhu.explain import explain_selection
from engine.shanghai_doudizhu.messages import TEXTS
from engine.shanghai_doudizhu.record import replay_steps
from engine.shanghai_doudizhu.search import sample_world
from engine.shanghai_doudizhu.sheet import SHEET_SPEC, score_sheet
from engine.shanghai_doudizhu.table_ui import table_ui

__all__ = ["GAME", "DoudizhuGame", "DoudizhuMatchState", "DoudizhuOptions"]

_END_REASONS: dict[MatchEnd, str] = {
    MatchEnd.DEALS: "deals_played",
    MatchEnd.ESCAPE: "escape",
    MatchEnd.LEFT: "left",
}

_LANDLORD_WINS = (Outcome.LANDLORD, Outcome.REPORT_NO_PLAY)

#: Labels of the options, for forms.
_BIG = 10**9


@dataclass(frozen=True, slots=True)
class DoudizhuOptions:
    """The package's :class:`Rules` with the option of deals named as for every game."""

    rules: Rules = DEFAULT_RULES

    @property
    def deals_per_match(self) -> int:
        return self.rules.deals

    def to_json(self) -> dict[str, Any]:
        data = self.rules.to_json()
        data["deals_per_match"] = data.pop("deals")
        return data

    @classmethod
    def from_json(cls, data: Any) -> DoudizhuOptions:
        if not isinstance(data, dict):
            raise EngineError.of("common.options_object", data=data)
        if "deals" in data:
            raise EngineError("unknown rules options ['deals'] (use deals_per_match)")
        data = dict(data)
        if "deals_per_match" in data:
            data["deals"] = data.pop("deals_per_match")
        return cls(Rules.from_json(data))


def _figures(match: Match) -> dict[str, dict[str, int]]:
    wins = [0, 0, 0, 0]
    for deal in match.deals:
        r = deal.result
        if r is not None and r.outcome in _LANDLORD_WINS and r.landlord is not None:
            wins[r.landlord] += 1
    return {
        "rating": {str(s): v for s, v in enumerate(match.rating)},
        "landlord_wins": {str(s): v for s, v in enumerate(wins)},
    }


@dataclass(frozen=True, slots=True)
class FirstDeal:
    """A match's first deal dealt as another deal was (``DoudizhuGame.deal_setup``): its seed,
    荒番 factor and first bidder, and the hands, kitty and marked card of a hand-made deal."""

    seed: int | str
    huangfan: int
    first_bidder: int | None
    hands: tuple[tuple[Card, ...], ...] | None = None
    kitty: tuple[Card, ...] = ()
    marked: tuple[int, Card] | None = None

    @classmethod
    def from_json(cls, data: Any) -> FirstDeal:
        keys = {"seed", "huangfan", "first_bidder", "hands", "kitty", "marked"}
        if not isinstance(data, Mapping) or "seed" not in data or set(data) - keys:
            raise EngineError(f"a first deal is {{seed, huangfan, first_bidder}}, not {data!r}")
        seed, huangfan = data["seed"], data.get("huangfan", 0)
        first = data.get("first_bidder")
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise EngineError(f"a first deal's seed is a number or text, not {seed!r}")
        if isinstance(huangfan, bool) or not isinstance(huangfan, int) or huangfan < 0:
            raise EngineError(f"a first deal's 荒番 factor is 0 or more, not {huangfan!r}")
        if first is not None and (isinstance(first, bool) or first not in range(4)):
            raise EngineError(f"a first deal's first bidder is a seat 0-3, not {first!r}")
        hands = data.get("hands")
        if hands is None:
            return cls(seed, huangfan, first)
        if not isinstance(hands, list) or len(hands) != 4:
            raise EngineError(f"a first deal's hands are four card texts, not {hands!r}")
        marked = data.get("marked")
        mark = None
        if marked is not None:
            if not isinstance(marked, Mapping) or marked.get("seat") not in range(4):
                raise EngineError(f"a first deal's marked card is {{seat, card}}, not {marked!r}")
            cards = parse_cards(str(marked.get("card", "")))
            if len(cards) != 1:
                raise EngineError(f"a first deal's marked card is one card, not {marked!r}")
            mark = (int(marked["seat"]), cards[0])
        return cls(
            seed,
            huangfan,
            first,
            tuple(tuple(parse_cards(str(h))) for h in hands),
            tuple(parse_cards(str(data.get("kitty", "")))),
            mark,
        )


class DoudizhuMatchState:
    """A match of 上海斗地主 in play, as :class:`engine.game.MatchState`."""

    def __init__(self, match: Match, first: FirstDeal | None = None) -> None:
        self.match = match
        self.first = first

    @property
    def seed(self) -> int | str:
        return self.match.seed

    @property
    def base(self) -> int:
        return self.match.rules.base

    @property
    def options(self) -> DoudizhuOptions:
        return DoudizhuOptions(self.match.rules)

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def end_reason(self) -> str | None:
        end = self.match.end
        return None if end is None else _END_REASONS[end]

    @property
    def winner(self) -> str | None:
        """The seat alone in first place (points, then rating) once the match is over."""
        if not self.match.over:
            return None
        keys = list(zip(self.match.points, self.match.rating, strict=True))
        best = max(keys)
        firsts = [s for s, key in enumerate(keys) if key == best]
        return str(firsts[0]) if len(firsts) == 1 else None

    @property
    def points(self) -> list[int]:
        return list(self.match.points)

    @property
    def deals_started(self) -> int:
        return len(self.match.deals)

    @property
    def in_deal(self) -> bool:
        return self.match.deal is not None

    @property
    def left_seat(self) -> int | None:
        return self.match.left

    @property
    def deal(self) -> Deal | None:
        """The engine's deal being played (the game's own, for its bots)."""
        return self.match.deal

    def side_points(self) -> dict[str, int]:
        return {}

    def figures(self) -> dict[str, dict[str, int]]:
        return _figures(self.match)

    def _deal(self, number: int) -> Deal:
        if not 1 <= number <= len(self.match.deals):
            raise EngineError.of(
                "adapter.no_deal_number", number=number, dealt=len(self.match.deals)
            )
        return self.match.deals[number - 1]

    def start_deal(self) -> DealInfo:
        first = self.first if not self.match.deals else None
        if first is None:
            self.match.start_deal()
        else:
            try:
                deal = Deal(
                    seed=first.seed,
                    rules=self.match.rules,
                    huangfan=first.huangfan,
                    first_bidder=first.first_bidder,
                    hands=first.hands,
                    kitty=first.kitty,
                    marked=first.marked,
                )
            except EngineError as exc:
                raise EngineError(f"the first deal cannot be dealt: {exc}") from None
            self.match.deals.append(deal)
        return self.deal_info(len(self.match.deals))

    def deal_info(self, number: int) -> DealInfo:
        deal = self._deal(number)
        result = deal.result
        setup = {"first_bidder": deal.first_bidder, "huangfan": deal.huangfan}
        return DealInfo(
            number=number,
            dealer=deal.first_bidder,
            seed=deal.seed,
            level_rank=None,
            setup=setup,
            setup_detail={**setup, "landlord": deal.landlord, "bid": deal.bid},
            waiting_setup=deal.phase not in (Phase.PLAY, Phase.OVER),
            finish=(),
            actions=len(deal.actions),
            over=deal.over,
            result=None if result is None else result.to_json(),
            points=None if result is None else tuple(result.points),
        )

    def deal_actions(self, number: int) -> list[Action]:
        return list(self._deal(number).actions)

    def awaiting(self) -> tuple[int, ...]:
        deal = self.match.deal
        return () if deal is None else deal.awaiting()

    def legal_actions(self, seat: int) -> list[Action]:
        deal = self.match.deal
        return [] if deal is None else deal.legal_actions(seat)

    def system_action(self, seat: int) -> Action:
        deal = self.match.deal
        if deal is None:
            raise EngineError(f"no deal is being played: no system action for seat {seat}")
        return deal.system_action(seat)

    def apply(self, action: Any) -> None:
        if not isinstance(action, Action):
            raise EngineError(f"not an action of 上海斗地主: {action!r}")
        self.match.apply(action)

    def apply_logged(self, action: Any) -> None:
        if not isinstance(action, Action):
            raise EngineError(f"not an action of 上海斗地主: {action!r}")
        self.match.apply_logged(action)  # a version 1 log skipped a 报到 decision

    def timeout(self, seat: int) -> Action:
        return self.match.timeout(seat)

    def escape(self, seat: int) -> dict[str, Any]:
        if self.match.deal is None:
            return self.leave(seat)
        return self.match.escape(seat, EscapeKind.ACTIVE).to_json()

    def leave(self, seat: int) -> dict[str, Any]:
        self.match.leave(seat)
        return {"kind": "leave", "seat": seat, "points": [0, 0, 0, 0]}

    def results(self) -> list[dict[str, Any]]:
        return [d.result.to_json() for d in self.match.deals if d.result is not None]

    def public_view(self) -> dict[str, Any]:
        summary = self.match.to_json()
        del summary["seed"]  # the seed deals every hand: never public
        deal = self.match.deal
        return {
            **summary,
            "deal_number": len(self.match.deals) if deal is not None else None,
            "deal": None if deal is None else deal.public_view(),
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        view = self.public_view()
        deal = self.match.deal
        if deal is not None:
            view["deal"] = deal.private_view(seat)
        return view

    def deal_view(self, number: int, seat: int | None = None) -> dict[str, Any]:
        deal = self._deal(number)
        return deal.public_view() if seat is None else deal.private_view(seat)

    def hand_size(self, number: int, seat: int) -> int:
        return len(self._deal(number).hands[seat])

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        deal = self._deal(number)  # the deal's timeouts (in a row only when the option says so)
        rules = self.match.rules
        last = {a.seat: a.system for a in deal.actions}
        return tuple(
            SystemPlays(n, rules.timeouts_to_escape, rules.timeouts_in_a_row, last.get(s, False))
            for s, n in enumerate(deal.timeouts)
        )

    def deal_ordinal(self, number: int) -> int:
        self._deal(number)  # a 荒番 deal dealt again after nobody bid keeps its place
        before = self.match.deals[: number - 1]
        redealt = [d for d in before if d.result and d.result.outcome is Outcome.ALL_PASS]
        return number - len(redealt)

    def record(self, number: int, **labels: Any) -> dict[str, Any]:
        deal = self._deal(number)
        # a first deal dealt as another deal was stands alone: no match seed deals it
        match_seed = None if self.first is not None and number == 1 else self.match.seed
        return Record.from_deal(deal, number=number, match_seed=match_seed, **labels).to_json()

    def to_json(self) -> dict[str, Any]:
        return self.match.to_json()


class _Bot:
    def __init__(self, bot: HeuristicBot | RandomBot) -> None:
        self.bot = bot

    def act(self, state: Any, seat: int) -> Action:
        if not isinstance(state, DoudizhuMatchState):
            raise EngineError(f"a bot of 上海斗地主 plays only 上海斗地主, not {state!r}")
        deal = state.match.deal
        if deal is None:
            raise EngineError("no deal is being played")
        return self.bot.act(deal, seat)


def _read(data: Any) -> Record:
    return Record.loads(data) if isinstance(data, str) else Record.from_json(data)


class DoudizhuGame:
    """上海斗地主 as :class:`engine.game.Game`."""

    key: str = "shanghai_doudizhu"
    name_zh: str = "上海斗地主"
    name_en: str = "Shanghai Dou Dizhu"
    seat_count: int = SEAT_COUNT
    fixed_sides: bool = False
    sides: tuple[str, ...] = ()
    #: the default first, the cheapest last (simulations and filled seats use those two)
    bot_kinds: tuple[str, ...] = ("heuristic", "search", "random")
    end_reasons: tuple[str, ...] = END_REASONS
    figure_specs: tuple[FigureSpec, ...] = (
        FigureSpec("rating", "等级分", "rating points", "seat", -_BIG, _BIG, 0),
        FigureSpec("landlord_wins", "地主胜局", "landlord wins", "seat", 0, _BIG, 0),
    )
    score_sheets: bool = True
    sheet_spec: SheetSpec | None = SHEET_SPEC
    rules_version: str = RULES_VERSION

    def side_of(self, seat: int) -> str | None:
        if not isinstance(seat, int) or not 0 <= seat < self.seat_count:
            raise EngineError.of("common.seat_range", seat=seat, high=3)
        return None

    def side_seats(self, side: str) -> tuple[int, ...]:
        raise EngineError(f"上海斗地主 has no fixed sides (not {side!r}): the landlord changes")

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return option_specs()

    def default_options(self) -> DoudizhuOptions:
        return DoudizhuOptions()

    def options_from_json(self, data: Any) -> DoudizhuOptions:
        return DoudizhuOptions.from_json(data)

    def new_match(
        self,
        *,
        seed: int | str,
        options: Any,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> DoudizhuMatchState:
        if not isinstance(options, DoudizhuOptions):
            raise EngineError(f"not the options of 上海斗地主: {options!r}")
        rules = dataclasses.replace(options.rules, base=base)
        first = None if first_deal is None else FirstDeal.from_json(first_deal)
        return DoudizhuMatchState(Match(seed=seed, rules=rules), first)

    def deal_setup(self, data: Any) -> dict[str, Any]:
        """The deal's seed, 荒番 factor and first bidder (the hands, kitty and marked card of a
        hand-made deal)."""
        record = _read(data)
        replay(record)  # only a deal that replays is dealt again
        h = record.headers.to_json()
        return {k: h[k] for k in FirstDeal.__slots__ if k in h}

    def replay_steps(self, data: Any) -> tuple[ReplayStep, ...]:
        steps: list[ReplayStep] = []

        def seen(deal: Deal, action: Action | None) -> None:
            hands = tuple(format_cards(deal.hand(s)) for s in range(4))
            extra = {"kitty": format_cards(deal.kitty)}  # public in a replay, taken or not
            view = deal.public_view()
            steps.append(
                ReplayStep(None if action is None else action.to_json(), view, hands, extra)
            )

        replay_steps(_read(data), seen)
        return tuple(steps)

    def action_from_json(self, data: Any) -> Action:
        return Action.from_json(data)

    def seat_action(self, seat: int, kind: str, cards: str = "") -> Action:
        """A seated player's action; for ``bid`` the text is the bid (1-3), for ``open`` and
        ``fight`` it is ``yes`` or ``no``, for ``play`` and ``report`` the cards."""
        kinds = [k.value for k in ActionKind if k is not ActionKind.ESCAPE]
        if kind not in kinds:
            raise EngineError.of("common.unknown_action", kind=kind, known=", ".join(kinds))
        data: dict[str, Any] = {"kind": kind, "seat": seat}
        text = cards.strip()
        if kind == "bid":
            if text not in ("1", "2", "3"):
                raise EngineError.of("adapter.bid_value", text=text)
            data["value"] = int(text)
        elif kind in ("open", "fight"):
            if text not in ("yes", "no"):
                raise EngineError.of("adapter.yes_no", kind=kind, text=text)
            data["value"] = 1 if text == "yes" else 0
        elif text:
            data["cards"] = text
        return Action.from_json(data)

    def commutes(self, since: Sequence[Any], seat: int, kind: str) -> bool:
        return False  # one seat acts at a time: anything since changes what the seat saw

    def bot(self, kind: str, seed: int | str) -> Bot:
        if kind == "heuristic":
            return _Bot(HeuristicBot(seed=seed))
        if kind == "random":
            return _Bot(RandomBot(seed=seed))
        if kind == "search":
            return SearchBot(self, seed=seed)
        raise EngineError(f"unknown bot kind {kind!r} (use heuristic, search or random)")

    def sample_world(self, state: Any, seat: int, rng: random.Random) -> World:
        if not isinstance(state, DoudizhuMatchState):
            raise EngineError(f"not a match of 上海斗地主: {state!r}")
        deal = state.match.deal
        if deal is None:
            raise EngineError("no deal is being played")
        if seat not in range(4):
            raise EngineError(f"seat must be 0-3, not {seat!r}")
        return sample_world(deal, seat, random.Random(rng.getrandbits(64)))

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        """Check and score a referee's sheet (its JSON: the module docstring and
        :mod:`engine.shanghai_doudizhu.sheet`); ``base`` sets the options' ``base``."""
        if not isinstance(options, DoudizhuOptions):
            raise EngineError(f"not the options of 上海斗地主: {options!r}")
        return score_sheet(entry, rules=dataclasses.replace(options.rules, base=base))

    def read_record(self, data: Any) -> dict[str, Any]:
        return _read(data).to_json()

    def replay_record(self, data: Any) -> dict[str, Any]:
        deal = replay(_read(data))
        result = deal.result
        return {
            "finish": [],
            "over": deal.over,
            "actions": [a.to_json() for a in deal.actions],
            "result": None if result is None else result.to_json(),
            "points": None if result is None else list(result.points),
            "figures": None
            if result is None
            else {"rating": {str(s): v for s, v in enumerate(result.rating)}},
        }

    def replay_match(
        self, records: Sequence[Any], *, left: int | None = None
    ) -> DoudizhuMatchState:
        match = replay_match([_read(r) for r in records])
        if left is not None:
            match.leave(left)
        return DoudizhuMatchState(match)

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        """Whether ``cards`` make one of the seat's legal plays now, by ranks, whichever copies
        were selected (``view``: its private view of the deal; see
        :mod:`engine.shanghai_doudizhu.explain`)."""
        return explain_selection(view=view, cards=cards, english=english)

    def table_ui(self, *, chinese: bool = True) -> dict[str, Any]:
        """What the table and replay pages show of the game, in Chinese or English
        (:mod:`engine.table_ui`)."""
        return table_ui(chinese=chinese)

    def message_catalog(self) -> Mapping[str, tuple[str, str]]:
        """The game's error codes as people read them: code -> (Chinese, English)."""
        return TEXTS

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "seats": self.seat_count,
            "fixed_sides": self.fixed_sides,
            "sides": {},
            "options": [o.to_json() for o in self.option_specs()],
            "defaults": self.default_options().to_json(),
            "figures": [f.to_json() for f in self.figure_specs],
            "end_reasons": list(self.end_reasons),
            "bots": list(self.bot_kinds),
            "rules_version": self.rules_version,
            "score_sheets": self.score_sheets,
        }


GAME: Game = DoudizhuGame()


def _is_state(state: DoudizhuMatchState) -> MatchState:
    return state  # mypy checks here that the adapter's state is a MatchState


def _is_options(options: DoudizhuOptions) -> GameOptions:
    return options
