"""小路子 behind the one interface of :mod:`engine.game`: the registry's ``xiaoluzi``.

Four players each for themselves: no fixed sides (the declarer and the counter change per deal),
points and silver per seat, places by points then silver. The figures per seat: silver,
declarations made (宣牌成功) and slams won (全关), counted over the match. The base score is the
card room's (``base`` of :meth:`XiaoluziGame.new_match` sets the options' ``base_score``).

A referee's score sheet of an offline table (:meth:`XiaoluziGame.score_sheet`) is JSON,
``{"first_dealer": 0, "deals": [...]}``, one object per deal (``docs/xiaoluzi.md``, *Score
sheets*; every field in :mod:`engine.xiaoluzi.sheet`)::

    {"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]}
    {"mode": "declared", "declarer": 2, "finish": [2], "slam": true}
    {"mode": "countered", "declarer": 0, "counter": 1, "finish": [0], "played": [8, 1, 0, 0]}
    {"mode": "declared", "declarer": 2, "finish": [], "escape": 0}
    {"leave": 3}

``mode`` none / declared / countered, ``declarer`` and ``counter`` as the mode has them,
``finish`` the seats in the order they went out, ``played`` the cards played per seat or else
``slam`` (both: they must agree), ``holder_7h`` optional (the deal's dealer); ``escape`` the
escaping seat with the seats already out in ``finish``; ``leave`` a seat leaving between deals.
Each deal's figures are the running silver (``{"silver": {"0": ..}}``), the declarations
made (``declared_won``, 宣牌成功) and the slams won (``slams``, 全关) per seat, after the start,
each deal and a leaving. Refusals read ``deal N: FIELD: why``.

>>> from engine.registry import get_game
>>> game = get_game("xiaoluzi")
>>> state = game.new_match(seed=1, options=game.default_options())
>>> info = state.start_deal()
>>> (game.seat_count, game.side_of(3), info.waiting_setup, state.figures()["silver"]["0"])
(4, None, True, 0)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import format_cards
from engine.errors import EngineError
from engine.game import (
    END_REASONS,
    Bot,
    DealInfo,
    FigureSpec,
    Game,
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
from engine.xiaoluzi import (
    DEFAULT_RULES,
    RULES_VERSION,
    SEAT_COUNT,
    Action,
    ActionKind,
    Deal,
    HeuristicBot,
    Match,
    MatchEnd,
    Phase,
    RandomBot,
    Record,
    Rules,
    replay,
    replay_match,
)
from engine.xiaoluzi.actions import SEATS
from engine.xiaoluzi.explain import explain_selection
from engine.xiaoluzi.messages import TEXTS
from engine.xiaoluzi.record import replay_steps
from engine.xiaoluzi.search import sample_world
from engine.xiaoluzi.sheet import SHEET_SPEC, match_figures, score_sheet
from engine.xiaoluzi.table_ui import table_ui

__all__ = ["GAME", "XiaoluziGame", "XiaoluziMatchState"]

_END_REASONS: dict[MatchEnd, str] = {
    MatchEnd.DEALS: "deals_played",
    MatchEnd.ESCAPE: "escape",
    MatchEnd.LEFT: "left",
}

#: Labels of the options, for forms.
_LABELS: dict[str, tuple[str, str]] = {
    "base_score": ("底分", "base score"),
    "base_silver": ("底银", "base silver"),
    "deals_per_match": ("每场副数", "deals per match"),
    "system_actions_to_escape": ("托管次数上限", "system actions to escape"),
    "joker_sevens": ("王当七", "jokers as sevens"),
    "first_lead_7h": ("首出带红桃七", "first lead holds 7H"),
    "slam_count": ("关牌计法", "slam counts"),
}

#: What each option does, for people (Chinese, English).
_HELP: dict[str, tuple[str, str]] = {
    "base_score": ("每一项得分乘以底分。", "Every settlement's points are multiplied by it."),
    "base_silver": ("每一项银子乘以底银。", "Every settlement's silver is multiplied by it."),
    "deals_per_match": (
        "每场比赛打的副数（可能提前结束）。",
        "Deals in a match, unless it ends earlier.",
    ),
    "system_actions_to_escape": (
        "一名玩家连续这么多次由系统代出即算逃跑（0：不限）。",
        "This many system leads and follows in a row by one player count as an escape (0: off).",
    ),
    "joker_sevens": (
        "王可以与红桃七、方块七组成三张七、四张七。",
        "Jokers may join 7H and 7D as triples and fours of 7.",
    ),
    "first_lead_7h": (
        "无人宣牌时，首出的牌必须含红桃七。",
        "When nobody declares, the first lead must hold 7H.",
    ),
    "slam_count": (
        "判断关牌时数出牌的张数，还是出牌的手数。",
        "A slam counts the cards a player played, or the plays they made.",
    ),
}

_SLAM_LABELS = (("cards", "按张数", "by cards"), ("plays", "按手数", "by plays"))

_SILVER = 10**9


def _first_deal(data: Any) -> tuple[int | str, tuple[str, ...] | None]:
    """A first deal dealt as another deal was (``XiaoluziGame.deal_setup``): its seed, and its
    hands when the deal was hand-made."""
    if not isinstance(data, Mapping) or "seed" not in data or set(data) - {"seed", "hands"}:
        raise EngineError(f"a first deal is {{seed[, hands]}}, not {data!r}")
    seed, hands = data["seed"], data.get("hands")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise EngineError(f"a first deal's seed is a number or text, not {seed!r}")
    if hands is not None and (not isinstance(hands, list) or len(hands) != SEAT_COUNT):
        raise EngineError(f"a first deal's hands are four card texts, not {hands!r}")
    return seed, None if hands is None else tuple(str(h) for h in hands)


class XiaoluziMatchState:
    """A match of 小路子 in play, as :class:`engine.game.MatchState`."""

    def __init__(
        self, match: Match, first: tuple[int | str, tuple[str, ...] | None] | None = None
    ) -> None:
        self.match = match
        self.first = first

    @property
    def seed(self) -> int | str:
        return self.match.seed

    @property
    def base(self) -> int:
        return self.match.rules.base_score

    @property
    def options(self) -> Rules:
        return self.match.rules

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def end_reason(self) -> str | None:
        end = self.match.end
        return None if end is None else _END_REASONS[end]

    @property
    def winner(self) -> str | None:
        """The seat alone in first place (points, then silver) once the match is over."""
        if not self.match.over:
            return None
        firsts = [s for s, place in enumerate(self.match.places()) if place == 1]
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
        left = self.match.left
        return None if left is None else left.seat

    @property
    def deal(self) -> Deal | None:
        """The engine's deal being played (the game's own, for its bots)."""
        return self.match.deal

    def side_points(self) -> dict[str, int]:
        return {}

    def figures(self) -> dict[str, dict[str, int]]:
        return match_figures(self.match.silver, self.match.results)

    def _deal(self, number: int) -> Deal:
        if not 1 <= number <= len(self.match.deals):
            raise EngineError.of(
                "adapter.no_deal_number", number=number, dealt=len(self.match.deals)
            )
        return self.match.deals[number - 1]

    def start_deal(self) -> DealInfo:
        if self.first is not None and not self.match.deals:
            if self.match.over:
                raise EngineError("the match is over")
            seed, hands = self.first
            try:
                self.match.deals.append(Deal(seed=seed, rules=self.match.rules, hands=hands))
            except EngineError as exc:
                raise EngineError(f"the first deal cannot be dealt: {exc}") from None
        else:
            self.match.start_deal()
        return self.deal_info(len(self.match.deals))

    def deal_info(self, number: int) -> DealInfo:
        deal = self._deal(number)
        result = deal.result
        roles: dict[str, Any] = {"mode": None, "declarer": deal.declarer, "counter": deal.counter}
        if deal.phase in (Phase.PLAY, Phase.OVER):
            roles["mode"] = deal.mode.value
        return DealInfo(
            number=number,
            dealer=deal.holder_7h,
            seed=deal.seed,
            level_rank=None,
            setup={"holder_7h": deal.holder_7h},
            setup_detail={"holder_7h": deal.holder_7h, **roles},
            waiting_setup=deal.phase in (Phase.DECLARE, Phase.COUNTER),
            finish=tuple(deal.finish),
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
        return self.match.legal_actions(seat)

    def system_action(self, seat: int) -> Action:
        deal = self.match.deal
        if deal is None:
            raise EngineError(f"no deal is being played: no system action for seat {seat}")
        return deal.system_action(seat)

    def apply(self, action: Any) -> None:
        if not isinstance(action, Action):
            raise EngineError(f"not an action of 小路子: {action!r}")
        self.match.apply(action)

    def apply_logged(self, action: Any) -> None:
        self.apply(action)  # every log of the game holds what its rules' one version logs

    def timeout(self, seat: int) -> Action:
        return self.match.timeout(seat)

    def escape(self, seat: int) -> dict[str, Any]:
        return self.match.escape(seat).to_json()

    def leave(self, seat: int) -> dict[str, Any]:
        result = self.match.leave(seat)
        if result is None:  # out of the deal being played: settled when it ends
            return {"kind": "leave", "seat": seat, "deferred": True}
        return result.to_json()

    def results(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.match.results]

    def public_view(self) -> dict[str, Any]:
        return self.match.public_view()

    def private_view(self, seat: int) -> dict[str, Any]:
        return self.match.private_view(seat)

    def deal_view(self, number: int, seat: int | None = None) -> dict[str, Any]:
        deal = self._deal(number)
        return deal.public_view() if seat is None else deal.private_view(seat)

    def hand_size(self, number: int, seat: int) -> int:
        return len(self._deal(number).hands[seat])

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        deal = self._deal(number)  # consecutive system actions within the deal
        limit = self.match.rules.system_actions_to_escape
        return tuple(SystemPlays(n, limit, True, n > 0) for n in deal.streaks)

    def deal_ordinal(self, number: int) -> int:
        self._deal(number)
        return number

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
        if not isinstance(state, XiaoluziMatchState):
            raise EngineError(f"a bot of 小路子 plays only 小路子, not {state!r}")
        deal = state.match.deal
        if deal is None:
            raise EngineError("no deal is being played")
        return self.bot.act(deal, seat)


def _read(data: Any) -> Record:
    return Record.loads(data) if isinstance(data, str) else Record.from_json(data)


class XiaoluziGame:
    """小路子 as :class:`engine.game.Game`."""

    key: str = "xiaoluzi"
    name_zh: str = "小路子"
    name_en: str = "Xiao Lu Zi"
    seat_count: int = SEAT_COUNT
    fixed_sides: bool = False
    sides: tuple[str, ...] = ()
    #: the default first, the cheapest last (simulations and filled seats use those two)
    bot_kinds: tuple[str, ...] = ("heuristic", "search", "random")
    end_reasons: tuple[str, ...] = END_REASONS
    #: in the standings' tie-break order after the points (``docs/xiaoluzi.md``, *Figures*)
    figure_specs: tuple[FigureSpec, ...] = (
        FigureSpec(
            key="silver",
            label_zh="银子",
            label_en="silver",
            holder="seat",
            minimum=-_SILVER,
            maximum=_SILVER,
            start=0,
        ),
        FigureSpec(
            key="declared_won",
            label_zh="宣牌成功",
            label_en="declarations made",
            holder="seat",
            minimum=0,
            maximum=_SILVER,
            start=0,
        ),
        FigureSpec(
            key="slams",
            label_zh="全关",
            label_en="slams won",
            holder="seat",
            minimum=0,
            maximum=_SILVER,
            start=0,
        ),
    )
    score_sheets: bool = True
    sheet_spec: SheetSpec | None = SHEET_SPEC
    rules_version: str = RULES_VERSION

    def side_of(self, seat: int) -> str | None:
        if not isinstance(seat, int) or not 0 <= seat < self.seat_count:
            raise EngineError.of("common.seat_range", seat=seat, high=3)
        return None

    def side_seats(self, side: str) -> tuple[int, ...]:
        raise EngineError(f"小路子 has no fixed sides (not {side!r}): every player for themselves")

    def option_specs(self) -> tuple[OptionSpec, ...]:
        specs = []
        for f in dataclasses.fields(Rules):
            default = getattr(DEFAULT_RULES, f.name)
            zh, en = _LABELS.get(f.name, (f.name, f.name.replace("_", " ")))
            help_zh, help_en = _HELP.get(f.name, ("", ""))
            if isinstance(default, bool):
                specs.append(
                    OptionSpec(f.name, "bool", default, zh, en, help_zh=help_zh, help_en=help_en)
                )
            elif isinstance(default, int):
                low = 0 if f.name == "system_actions_to_escape" else 1
                specs.append(
                    OptionSpec(
                        f.name, "int", default, zh, en, low, help_zh=help_zh, help_en=help_en
                    )
                )
            else:
                choices = tuple(code for code, _zh, _en in _SLAM_LABELS)
                specs.append(
                    OptionSpec(
                        f.name,
                        "choice",
                        default,
                        zh,
                        en,
                        None,
                        choices,
                        help_zh=help_zh,
                        help_en=help_en,
                        choice_labels=_SLAM_LABELS,
                    )
                )
        return tuple(specs)

    def default_options(self) -> Rules:
        return DEFAULT_RULES

    def options_from_json(self, data: Any) -> Rules:
        return Rules.from_json(data)

    def new_match(
        self,
        *,
        seed: int | str,
        options: Any,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> XiaoluziMatchState:
        if not isinstance(options, Rules):
            raise EngineError(f"not the options of 小路子: {options!r}")
        first = None if first_deal is None else _first_deal(first_deal)
        return XiaoluziMatchState(
            Match(seed=seed, rules=dataclasses.replace(options, base_score=base)), first
        )

    def deal_setup(self, data: Any) -> dict[str, Any]:
        """The deal's seed (its hands too when it was hand-made)."""
        record = _read(data)
        replay(record)  # only a deal that replays is dealt again
        setup: dict[str, Any] = {"seed": record.headers.seed}
        if record.headers.hand_made and record.headers.hands is not None:
            setup["hands"] = [format_cards(h) for h in record.headers.hands]
        return setup

    def replay_steps(self, data: Any) -> tuple[ReplayStep, ...]:
        steps: list[ReplayStep] = []

        def seen(deal: Deal, action: Action | None) -> None:
            hands = tuple(format_cards(deal.hand(s)) for s in SEATS)
            view = deal.public_view()
            steps.append(ReplayStep(None if action is None else action.to_json(), view, hands))

        replay_steps(_read(data), seen)
        return tuple(steps)

    def action_from_json(self, data: Any) -> Action:
        return Action.from_json(data)

    def seat_action(self, seat: int, kind: str, cards: str = "") -> Action:
        if kind == ActionKind.ESCAPE.value or kind not in {k.value for k in ActionKind}:
            known = ", ".join(k.value for k in ActionKind if k is not ActionKind.ESCAPE)
            raise EngineError.of("common.unknown_action", kind=kind, known=known)
        return Action.from_json({"kind": kind, "seat": seat, "cards": cards})

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
        if not isinstance(state, XiaoluziMatchState):
            raise EngineError(f"not a match of 小路子: {state!r}")
        deal = state.match.deal
        if deal is None:
            raise EngineError("no deal is being played")
        if seat not in range(4):
            raise EngineError(f"seat must be 0-3, not {seat!r}")
        return sample_world(deal, seat, random.Random(rng.getrandbits(64)))

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        """Check and score a referee's sheet (its JSON: :mod:`engine.xiaoluzi.sheet`);
        ``base`` sets the options' ``base_score``, the silver is the options' ``base_silver``."""
        if not isinstance(options, Rules):
            raise EngineError(f"not the options of 小路子: {options!r}")
        return score_sheet(entry, rules=dataclasses.replace(options, base_score=base))

    def read_record(self, data: Any) -> dict[str, Any]:
        return _read(data).to_json()

    def replay_record(self, data: Any) -> dict[str, Any]:
        deal = replay(_read(data))
        result = deal.result
        return {
            "finish": list(deal.finish),
            "over": deal.over,
            "actions": [a.to_json() for a in deal.actions],
            "result": None if result is None else result.to_json(),
            "points": None if result is None else list(result.points),
            "figures": None if result is None else match_figures(result.silver, [result]),
        }

    def replay_match(
        self, records: Sequence[Any], *, left: int | None = None
    ) -> XiaoluziMatchState:
        return XiaoluziMatchState(replay_match([_read(r) for r in records], left=left))

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        """Whether ``cards`` make one of the seat's legal plays now, and why not in words
        (``view``: its private view of the deal; see :mod:`engine.xiaoluzi.explain`)."""
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


GAME: Game = XiaoluziGame()


def _is_state(state: XiaoluziMatchState) -> MatchState:
    return state  # mypy checks here that the adapter's state is a MatchState
