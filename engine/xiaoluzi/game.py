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
from collections.abc import Mapping
from typing import Any

from engine.base import GameBase, MatchStateBase
from engine.cards import format_cards
from engine.duplicate import DealtDeal
from engine.errors import EngineError
from engine.game import (
    DealInfo,
    FigureSpec,
    Game,
    MatchState,
    OptionSpec,
    ScoredSheet,
    SheetSpec,
    SystemPlays,
    Verdict,
    World,
)
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
from engine.xiaoluzi.deal import deal_hands
from engine.xiaoluzi.explain import explain_selection
from engine.xiaoluzi.messages import TEXTS
from engine.xiaoluzi.record import replay_steps
from engine.xiaoluzi.search import sample_world
from engine.xiaoluzi.sheet import SHEET_SPEC, match_figures, score_sheet
from engine.xiaoluzi.table_ui import TERMS, UI

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


class XiaoluziMatchState(MatchStateBase[Match]):
    """A match of 小路子 in play, as :class:`engine.game.MatchState`."""

    game_name = "小路子"
    action_type = Action
    record_type = Record
    end_names = _END_REASONS

    @property
    def base(self) -> int:
        return self.match.rules.base_score

    @property
    def options(self) -> Rules:
        return self.match.rules

    @property
    def winner(self) -> str | None:
        """The seat alone in first place (points, then silver) once the match is over."""
        if not self.match.over:
            return None
        firsts = [s for s, place in enumerate(self.match.places()) if place == 1]
        return str(firsts[0]) if len(firsts) == 1 else None

    def figures(self) -> dict[str, dict[str, int]]:
        return match_figures(self.match.silver, self.match.results)

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

    def leave(self, seat: int) -> dict[str, Any]:
        result = self.match.leave(seat)
        if result is None:  # out of the deal being played: settled when it ends
            return {"kind": "leave", "seat": seat, "deferred": True}
        return result.to_json()

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        deal = self._deal(number)  # consecutive system actions within the deal
        limit = self.match.rules.system_actions_to_escape
        return tuple(SystemPlays(n, limit, True, n > 0) for n in deal.streaks)


class XiaoluziGame(GameBase):
    """小路子 as :class:`engine.game.Game`."""

    key = "xiaoluzi"
    name_zh = "小路子"
    name_en = "Xiao Lu Zi"
    seat_count = SEAT_COUNT
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
    rules_version = RULES_VERSION
    sheet_spec: SheetSpec | None = SHEET_SPEC

    cli_module = "engine.xiaoluzi.cli"
    cli_description = "Referee tools for 小路子 (--game xiaoluzi)."

    state_type = XiaoluziMatchState
    action_type = Action
    record_type = Record
    options_type = Rules
    bot_types = {"heuristic": HeuristicBot, "random": RandomBot}
    messages = TEXTS
    table_terms = TERMS
    table_draws = UI

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

    def new_match(
        self,
        *,
        seed: int | str,
        options: Any,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> XiaoluziMatchState:
        rules = self._options(options)
        first = None if first_deal is None else _first_deal(first_deal)
        return XiaoluziMatchState(
            Match(seed=seed, rules=dataclasses.replace(rules, base_score=base)), first
        )

    def deal_setup(self, data: Any) -> dict[str, Any]:
        """The deal's seed (its hands too when it was hand-made)."""
        record = self._read(data)
        replay(record)  # only a deal that replays is dealt again
        setup: dict[str, Any] = {"seed": record.headers.seed}
        if record.headers.hand_made and record.headers.hands is not None:
            setup["hands"] = [format_cards(h) for h in record.headers.hands]
        return setup

    def replay_deal_steps(self, record: Record, seen: Any) -> Deal:
        return replay_steps(record, seen)

    def replay_deal(self, record: Record) -> Deal:
        return replay(record)

    def replay_figures(self, deal: Deal) -> dict[str, dict[str, int]] | None:
        return None if deal.result is None else match_figures(deal.result.silver, [deal.result])

    def replay_records(self, records: list[Record], *, left: int | None) -> Match:
        return replay_match(records, left=left)

    def seat_action(self, seat: int, kind: str, cards: str = "") -> Action:
        if kind == ActionKind.ESCAPE.value or kind not in {k.value for k in ActionKind}:
            known = ", ".join(k.value for k in ActionKind if k is not ActionKind.ESCAPE)
            raise EngineError.of("common.unknown_action", kind=kind, known=known)
        return Action.from_json({"kind": kind, "seat": seat, "cards": cards})

    def deal_world(self, deal: Deal, seat: int, rng: random.Random) -> World:
        return sample_world(deal, seat, rng)

    def dealt_hands(self, match_seed: int, count: int) -> list[DealtDeal]:
        rng = random.Random(match_seed)
        out = []
        for number in range(1, count + 1):
            seed = rng.getrandbits(63)
            out.append(DealtDeal(number, str(seed), tuple(tuple(h) for h in deal_hands(seed))))
        return out

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        """Check and score a referee's sheet (its JSON: :mod:`engine.xiaoluzi.sheet`);
        ``base`` sets the options' ``base_score``, the silver is the options' ``base_silver``."""
        rules = self._options(options)
        return score_sheet(entry, rules=dataclasses.replace(rules, base_score=base))

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        """Whether ``cards`` make one of the seat's legal plays now, and why not in words
        (``view``: its private view of the deal; see :mod:`engine.xiaoluzi.explain`)."""
        return explain_selection(view=view, cards=cards, english=english)


GAME: Game = XiaoluziGame()


def _is_state(state: XiaoluziMatchState) -> MatchState:
    return state  # mypy checks here that the adapter's state is a MatchState
