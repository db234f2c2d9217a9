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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import GameBase, MatchStateBase
from engine.cards import Card, format_cards, parse_cards
from engine.duplicate import DealtDeal
from engine.errors import EngineError
from engine.game import (
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
from engine.shanghai_doudizhu.match import deal_seed
from engine.shanghai_doudizhu.messages import TEXTS
from engine.shanghai_doudizhu.options import option_specs
from engine.shanghai_doudizhu.record import replay_steps
from engine.shanghai_doudizhu.search import sample_world
from engine.shanghai_doudizhu.sheet import SHEET_SPEC, score_sheet
from engine.shanghai_doudizhu.table_ui import TERMS, UI

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


class DoudizhuMatchState(MatchStateBase[Match]):
    """A match of 上海斗地主 in play, as :class:`engine.game.MatchState`."""

    game_name = "上海斗地主"
    action_type = Action
    record_type = Record
    end_names = _END_REASONS

    @property
    def base(self) -> int:
        return self.match.rules.base

    @property
    def options(self) -> DoudizhuOptions:
        return DoudizhuOptions(self.match.rules)

    @property
    def winner(self) -> str | None:
        """The seat alone in first place (points, then rating) once the match is over."""
        if not self.match.over:
            return None
        keys = list(zip(self.match.points, self.match.rating, strict=True))
        best = max(keys)
        firsts = [s for s, key in enumerate(keys) if key == best]
        return str(firsts[0]) if len(firsts) == 1 else None

    def figures(self) -> dict[str, dict[str, int]]:
        return _figures(self.match)

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

    def apply_logged(self, action: Any) -> None:
        if not isinstance(action, Action):
            raise EngineError(f"not an action of 上海斗地主: {action!r}")
        self.match.apply_logged(action)  # a version 1 log skipped a 报到 decision

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


class DoudizhuGame(GameBase):
    """上海斗地主 as :class:`engine.game.Game`."""

    key = "shanghai_doudizhu"
    name_zh = "上海斗地主"
    name_en = "Shanghai Dou Dizhu"
    seat_count = SEAT_COUNT
    figure_specs: tuple[FigureSpec, ...] = (
        FigureSpec("rating", "等级分", "rating points", "seat", -_BIG, _BIG, 0),
        FigureSpec("landlord_wins", "地主胜局", "landlord wins", "seat", 0, _BIG, 0),
    )
    rules_version = RULES_VERSION
    sheet_spec: SheetSpec | None = SHEET_SPEC
    #: a world's points swing with its bombs (each doubles the deal): a mean of two worlds is
    #: mostly luck; and the search measured weaker with more time (docs/bots.md): 50 ms at most
    search_evidence: tuple[float, int] = (1.0, 4)
    search_ceiling_ms: float | None = 50.0
    #: all-pass deals (荒番) are dealt again and do not count: a board holds two spares
    duplicate_spares = 2

    cli_module = "engine.shanghai_doudizhu.cli"
    cli_description = "Luzi referee tools for 上海斗地主."

    state_type = DoudizhuMatchState
    action_type = Action
    record_type = Record
    options_type = DoudizhuOptions
    bot_types = {"heuristic": HeuristicBot, "random": RandomBot}
    messages = TEXTS
    table_terms = TERMS
    table_draws = UI
    no_sides_why = "the landlord changes"

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return option_specs()

    def new_match(
        self,
        *,
        seed: int | str,
        options: Any,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> DoudizhuMatchState:
        rules = dataclasses.replace(self._options(options).rules, base=base)
        first = None if first_deal is None else FirstDeal.from_json(first_deal)
        return DoudizhuMatchState(Match(seed=seed, rules=rules), first)

    def deal_setup(self, data: Any) -> dict[str, Any]:
        """The deal's seed, 荒番 factor and first bidder (the hands, kitty and marked card of a
        hand-made deal)."""
        record = self._read(data)
        replay(record)  # only a deal that replays is dealt again
        h = record.headers.to_json()
        return {k: h[k] for k in FirstDeal.__slots__ if k in h}

    def replay_step(self, deal: Deal, action: Action | None) -> ReplayStep:
        extra = {"kitty": format_cards(deal.kitty)}  # public in a replay, taken or not
        json = None if action is None else action.to_json()
        return ReplayStep(json, deal.public_view(), self.replay_hands(deal), extra)

    def replay_deal_steps(self, record: Record, seen: Any) -> Deal:
        return replay_steps(record, seen)

    def replay_deal(self, record: Record) -> Deal:
        return replay(record)

    def replay_figures(self, deal: Deal) -> dict[str, dict[str, int]] | None:
        result = deal.result
        if result is None:
            return None
        return {"rating": {str(s): v for s, v in enumerate(result.rating)}}

    def replay_record(self, data: Any) -> dict[str, Any]:
        replayed = super().replay_record(data)
        replayed["finish"] = []
        return replayed

    def replay_records(self, records: list[Record], *, left: int | None) -> Match:
        match = replay_match(records)
        if left is not None:
            match.leave(left)
        return match

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

    def deal_world(self, deal: Deal, seat: int, rng: random.Random) -> World:
        return sample_world(deal, seat, rng)

    def dealt_hands(self, match_seed: int, count: int) -> list[DealtDeal]:
        out = []
        for number in range(1, count + 1):
            text = deal_seed(match_seed, number)
            dz = Deal(seed=text)
            out.append(DealtDeal(number, text, tuple(tuple(h) for h in dz.hands), tuple(dz.kitty)))
        return out

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        """Check and score a referee's sheet (its JSON: the module docstring and
        :mod:`engine.shanghai_doudizhu.sheet`); ``base`` sets the options' ``base``."""
        rules = self._options(options).rules
        return score_sheet(entry, rules=dataclasses.replace(rules, base=base))

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        """Whether ``cards`` make one of the seat's legal plays now, by ranks, whichever copies
        were selected (``view``: its private view of the deal; see
        :mod:`engine.shanghai_doudizhu.explain`)."""
        return explain_selection(view=view, cards=cards, english=english)


GAME: Game = DoudizhuGame()


def _is_state(state: DoudizhuMatchState) -> MatchState:
    return state  # mypy checks here that the adapter's state is a MatchState


def _is_options(options: DoudizhuOptions) -> GameOptions:
    return options
