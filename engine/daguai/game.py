"""大怪路子 behind the one interface of :mod:`engine.game`: the registry's ``daguai``.

Rules that the card room used to decide itself live here: the side of a seat (by parity), the
match winner (the side that passed A, else the side with more points once the match is over),
the level ladder's labels and limits, the explanation of a selection of cards, and the checks of
a referee's score sheet.

>>> from engine.registry import get_game
>>> game = get_game("daguai")
>>> state = game.new_match(seed=1, options=game.default_options())
>>> info = state.start_deal()
>>> (game.seat_count, game.side_of(3), info.dealer, state.figures())
(6, 'B', 1, {'level': {'A': 2, 'B': 2}})
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import GameBase, MatchStateBase
from engine.cards import Card, Rank, format_cards, parse_cards
from engine.daguai.actions import DEFAULT_RULES, RULES_VERSION, Action, ActionKind, Rules
from engine.daguai.bots import HeuristicBot, RandomBot
from engine.daguai.deal import Deal, Phase
from engine.daguai.match import Match, MatchEnd, deal_seeds
from engine.daguai.messages import TEXTS
from engine.daguai.offline import OfflineEntry, score_match
from engine.daguai.plays import Play, classify, parse_level
from engine.daguai.record import Record, replay, replay_match, replay_steps
from engine.daguai.result import SEATS, DealResult, EscapeResult, Levels, Team
from engine.daguai.search import sample_world
from engine.daguai.sheet import SHEET_SPEC
from engine.daguai.table_ui import TERMS, UI
from engine.duplicate import DealtDeal
from engine.errors import EngineError
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
    SheetSpec,
    SystemPlays,
    Verdict,
    World,
)

__all__ = ["GAME", "DaguaiGame", "DaguaiMatchState", "explain_selection", "level_label"]

#: The level ladder: 2 .. 14 (A); the labels of the levels above 10.
LEVEL_MIN, LEVEL_MAX = 2, 14
LEVEL_LABELS: dict[int, str] = {11: "J", 12: "Q", 13: "K", 14: "A"}

#: How the engine's match ends are called outside it.
_END_REASONS: dict[MatchEnd, str] = {
    MatchEnd.DEALS: "deals_played",
    MatchEnd.PASSED_A: "passed_a",
    MatchEnd.ESCAPE: "escape",
    MatchEnd.LEFT: "left",
}

#: The most characters of card text a selection is read from.
MAX_CARDS_TEXT = 200


def _(message: str) -> str:
    """Marks a message id for the translation catalog; the caller translates it."""
    return message


def level_label(rank: int) -> str:
    """A level as people write it: 2..10, J, Q, K, A.

    >>> level_label(14), level_label(10)
    ('A', '10')
    """
    return LEVEL_LABELS.get(rank, str(rank))


def _levels_figures(levels: Levels) -> dict[str, dict[str, int]]:
    return {"level": {"A": int(levels.a), "B": int(levels.b)}}


def _winner(points: Sequence[int], passed: Team | None, *, over: bool) -> str | None:
    """The side that passed A; else, once the match is over, the side with more points."""
    if passed is not None:
        return passed.value
    if not over:
        return None
    a = sum(points[s] for s in Team.A.seats)
    b = sum(points[s] for s in Team.B.seats)
    if a == b:
        return None
    return "A" if a > b else "B"


def _deal_info(number: int, deal: Deal) -> DealInfo:
    pairs = [[t.payer, t.receiver] for t in deal.tributes]
    detail: dict[str, Any] = {"pairs": pairs}
    if deal.tributes:
        detail["cards"] = {str(t.payer): str(t.card) for t in deal.tributes}
        detail["returns"] = {str(s): str(c) for s, c in deal.returns.items()}
    result = deal.result
    return DealInfo(
        number=number,
        dealer=deal.dealer,
        seed=deal.seed,
        level_rank=int(deal.level),
        setup={"pairs": pairs},
        setup_detail=detail,
        waiting_setup=deal.phase is Phase.RETURN,
        finish=tuple(deal.finish),
        actions=len(deal.actions),
        over=deal.over,
        result=None if result is None else result.to_json(),
        points=None if result is None else tuple(result.points),
    )


@dataclass(frozen=True, slots=True)
class FirstDeal:
    """A match's first deal dealt as another deal was (see ``DaguaiGame.deal_setup``): its seed,
    dealer and levels, and the hands it starts from when they are not the seed's."""

    seed: int | str
    dealer: int
    levels: Levels
    hands: tuple[tuple[Card, ...], ...] | None

    @classmethod
    def from_json(cls, data: Any) -> FirstDeal:
        if not isinstance(data, Mapping) or not {"seed", "dealer", "levels"} <= set(data):
            raise EngineError(f"a first deal is {{seed, dealer, levels[, hands]}}, not {data!r}")
        unknown = set(data) - {"seed", "dealer", "levels", "hands"}
        if unknown:
            raise EngineError(f"a first deal has no {sorted(unknown)}")
        seed, dealer = data["seed"], data["dealer"]
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise EngineError(f"a first deal's seed is a number or text, not {seed!r}")
        if isinstance(dealer, bool) or dealer not in SEATS:
            raise EngineError(f"a first deal's dealer is a seat 0-5, not {dealer!r}")
        hands = data.get("hands")
        parsed = None
        if hands is not None:
            if not isinstance(hands, list) or len(hands) != 6:
                raise EngineError(f"a first deal's hands are six card texts, not {hands!r}")
            parsed = tuple(tuple(parse_cards(str(h))) for h in hands)
        return cls(seed, dealer, Levels.from_json(data["levels"]), parsed)


class DaguaiMatchState(MatchStateBase[Match]):
    """A match of 大怪路子 in play, as :class:`engine.game.MatchState`."""

    game_name = "大怪路子"
    action_type = Action
    record_type = Record
    end_names = _END_REASONS
    no_deal_code = "daguai.no_deal_number"

    def __init__(self, match: Match, first: FirstDeal | None = None) -> None:
        super().__init__(match, first)
        if first is not None and not match.deals:
            # the first deal is played at the other deal's levels, from its dealer
            match.levels = first.levels
            match.ladder = [first.levels]
            match._next_dealer = first.dealer

    @property
    def base(self) -> int:
        return self.match.base

    @property
    def options(self) -> Rules:
        return self.match.rules

    @property
    def winner(self) -> str | None:
        return _winner(self.match.points, self.match.winner, over=self.match.over)

    @property
    def deals(self) -> list[Deal]:
        """The engine's deals of the match so far (the game's own, for its bots and tests)."""
        return self.match.deals

    def side_points(self) -> dict[str, int]:
        return {t.value: p for t, p in self.match.team_points().items()}

    def figures(self) -> dict[str, dict[str, int]]:
        return _levels_figures(self.match.levels)

    def start_deal(self) -> DealInfo:
        first = self.first if not self.match.deals else None
        if first is None:
            self.match.start_deal()
        else:
            self.match.start_deal(hands=first.hands, seed=first.seed)
        return self.deal_info(len(self.match.deals))

    def deal_info(self, number: int) -> DealInfo:
        return _deal_info(number, self._deal(number))

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        deal = self._deal(number)  # consecutive system plays, carried from deal to deal
        limit = self.match.rules.system_play_limit
        return tuple(SystemPlays(n, limit, True, n > 0) for n in deal.streaks)


def _seat_list(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in value
    ):
        raise EngineError.of("daguai.seat_list", field=what, value=value)
    return tuple(value)


def _optional_seat(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineError.of("daguai.seat_value", field=what, value=value)
    return value


def _sheet_entries(deals: Any) -> list[OfflineEntry]:
    if not isinstance(deals, list):
        raise EngineError.of("daguai.sheet_deals_list", value=deals)
    entries = []
    for number, item in enumerate(deals, 1):
        if not isinstance(item, dict):
            raise EngineError.of("daguai.entry_object", value=item).within(deal=number)
        unknown = set(item) - {"finish", "escape", "leave"}
        if unknown:
            raise EngineError.of("daguai.entry_unknown_keys", keys=sorted(unknown)).within(
                deal=number
            )
        try:
            entries.append(
                OfflineEntry(
                    _seat_list(item.get("finish", []), "finish"),
                    _optional_seat(item.get("escape"), "escape"),
                    _optional_seat(item.get("leave"), "leave"),
                )
            )
        except EngineError as exc:
            raise exc.within(deal=number) from None
    return entries


class DaguaiGame(GameBase):
    """大怪路子 as :class:`engine.game.Game`."""

    key = "daguai"
    name_zh = "大怪路子"
    name_en = "Da Guai Lu Zi"
    seat_count = 6
    fixed_sides = True
    sides: tuple[str, ...] = ("A", "B")
    end_reasons: tuple[str, ...] = (*END_REASONS, "passed_a")
    figure_specs: tuple[FigureSpec, ...] = (
        FigureSpec(
            key="level",
            label_zh="级",
            label_en="level",
            holder="side",
            minimum=LEVEL_MIN,
            maximum=LEVEL_MAX,
            start=LEVEL_MIN,
            labels=LEVEL_LABELS,
        ),
    )
    rules_version = RULES_VERSION
    sheet_spec: SheetSpec | None = SHEET_SPEC
    plays_to_a: bool = True
    #: a deal's points take few values, so two worlds often differ by one lucky finish
    search_evidence: tuple[float, int] = (1.0, 4)

    cli_module = "engine.daguai.cli"
    cli_description = "Luzi referee tools for 大怪路子: classify, compare and list plays."

    state_type = DaguaiMatchState
    action_type = Action
    record_type = Record
    options_type = Rules
    bot_types = {"heuristic": HeuristicBot, "random": RandomBot}
    messages = TEXTS
    table_terms = TERMS
    table_draws = UI

    def side_of(self, seat: int) -> str | None:
        super().side_of(seat)
        return Team.of(seat).value

    def side_seats(self, side: str) -> tuple[int, ...]:
        return Team.parse(side).seats

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec(
                "lead_to_teammate",
                "bool",
                False,
                "出完接风给队友",
                "lead to a teammate",
                help_zh="赢下一墩的玩家已出完牌时，由其后仍有牌的队友接风出牌"
                "（不选：由下一位仍有牌的玩家接风）。",
                help_en="When the winner of a trick has gone out, the lead goes to their next "
                "teammate still holding cards (unticked: to the next player still holding cards).",
            ),
            OptionSpec(
                "system_play_limit",
                "int",
                5,
                "托管次数上限",
                "system play limit",
                0,
                help_zh="一名玩家连续这么多次由系统代打即算逃跑（0：不限）。",
                help_en="This many system plays in a row for one player count as an escape "
                "(0: no limit).",
            ),
            OptionSpec("deals_per_match", "int", 3, "每场副数", "deals per match", 1),
        )

    def default_options(self) -> Rules:
        return DEFAULT_RULES

    def new_match(
        self,
        *,
        seed: int | str,
        options: Any,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> DaguaiMatchState:
        rules = self._options(options)
        first = None if first_deal is None else FirstDeal.from_json(first_deal)
        return DaguaiMatchState(Match(seed=seed, rules=rules, base=base), first)

    def deal_setup(self, data: Any) -> dict[str, Any]:
        """The deal's seed, dealer and levels; after a tribute (进贡/还贡), the hands as they
        stood when play began (the challenge starts there: no tribute is paid again)."""
        record = self._read(data)
        deal = record.new_deal()
        for action in record.actions:
            if deal.phase is not Phase.RETURN:
                break
            deal.apply(action)
        h = record.headers
        setup: dict[str, Any] = {"seed": h.seed, "dealer": h.dealer, "levels": h.levels.to_json()}
        if deal.tributes or h.hands is not None:
            setup["hands"] = [format_cards(deal.hand(s)) for s in SEATS]
        return setup

    def replay_step(self, deal: Deal, action: Action | None) -> ReplayStep:
        step = super().replay_step(deal, action)
        # every card is public in a replay: the tribute cards and the returns too
        for t, tribute in zip(step.view["tributes"], deal.tributes, strict=True):
            t["card"] = str(tribute.card)
            if tribute.receiver in deal.returns:
                t["return"] = str(deal.returns[tribute.receiver])
        return step

    def replay_deal_steps(self, record: Record, seen: Any) -> Deal:
        return replay_steps(record, seen)

    def replay_deal(self, record: Record) -> Deal:
        return replay(record)

    def replay_figures(self, deal: Deal) -> dict[str, dict[str, int]] | None:
        result = deal.result
        return _levels_figures(result.levels) if isinstance(result, DealResult) else None

    def replay_records(self, records: list[Record], *, left: int | None) -> Match:
        return replay_match(records, left=left)

    def seat_action(self, seat: int, kind: str, cards: str = "") -> Action:
        if kind not in ("play", "pass", "return"):
            raise EngineError.of("daguai.unknown_action", kind=kind)
        parsed = tuple(parse_cards(cards))
        if kind == "pass":
            return Action.pass_(seat)
        if kind == "play":
            return Action.play(seat, parsed)
        if len(parsed) != 1:
            raise EngineError.of("daguai.return_exactly_one")
        return Action.return_(seat, parsed[0])

    def commutes(self, since: Sequence[Any], seat: int, kind: str) -> bool:
        """A receiver's return (还贡) depends on their own hand alone: it still applies after
        other receivers' returns; anything else since changes what the seat saw."""
        if kind != "return":
            return False
        return all(
            isinstance(a, Action) and a.kind is ActionKind.RETURN and a.seat != seat for a in since
        )

    def deal_world(self, deal: Deal, seat: int, rng: random.Random) -> World:
        return sample_world(deal, seat, rng)

    def dealt_hands(self, match_seed: int, count: int) -> list[DealtDeal]:
        _dealer, seeds = deal_seeds(match_seed, count)
        return [
            DealtDeal(n, str(seed), tuple(tuple(h) for h in Deal(seed=seed).initial_hands))
            for n, seed in enumerate(seeds, 1)
        ]

    def first_dealer(self, match_seed: int) -> int | None:
        return deal_seeds(match_seed, 0)[0]

    def match_winner(
        self, points: Sequence[int], figures_winner: str | None, *, over: bool
    ) -> str | None:
        passed = None if figures_winner is None else Team.parse(figures_winner)
        return _winner(points, passed, over=over)

    def level_label(self, value: int) -> str:
        return level_label(value)

    def score_sheet(self, entry: Any, *, options: Any, base: int = 1) -> ScoredSheet:
        rules = self._options(options)
        if not isinstance(entry, dict):
            raise EngineError.of("daguai.sheet_object", value=entry)
        first = entry.get("first_dealer", 0)
        if not isinstance(first, int) or isinstance(first, bool):
            raise EngineError.of("daguai.first_dealer", value=first)
        scored = score_match(
            first_dealer=first, entries=_sheet_entries(entry.get("deals")), rules=rules, base=base
        )
        deals = tuple(
            SheetDeal(
                number=d.number,
                dealer=d.dealer,
                level_rank=d.level_rank,
                result=d.result.to_json(),
                finish=tuple(d.result.finish),
                points=tuple(d.result.points),
                escape=d.result.seat if isinstance(d.result, EscapeResult) else None,
            )
            for d in scored.deals
        )
        return ScoredSheet(
            deals=deals,
            points=tuple(scored.points),
            figures=tuple(_levels_figures(lv) for lv in scored.ladder),
            end_reason=None if scored.end is None else _END_REASONS[scored.end],
            winner=_winner(scored.points, scored.winner, over=scored.end is not None),
            left=None if scored.left is None else scored.left.seat,
        )

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        return explain_selection(view=view, cards=cards, english=english)


GAME: Game = DaguaiGame()


def _is_state(state: DaguaiMatchState) -> MatchState:
    return state  # mypy checks here that the adapter's state is a MatchState


# -- the explanation of a selection --------------------------------------------------------------


def _play_name(play: Play, english: bool) -> str:
    """The play's name for people: its Chinese type name (with the English one in English) and
    the rank it is compared by."""
    name = play.type.chinese
    if english:
        name = f"{name} ({play.type.english})"
    return f"{name} {play.rank.token}"


def explain_selection(*, view: Mapping[str, Any], cards: str, english: bool = False) -> Verdict:
    """Say whether ``cards`` may be played (or returned) now, and why not in words.

    ``view`` holds what the seat knows: ``hand``, ``level``, ``current`` (the play to beat, or
    ``None``), ``my_turn`` and ``returning`` (it owes a return, 还贡).
    """
    if len(cards) > MAX_CARDS_TEXT:
        return Verdict(False, _("Too many cards selected."))
    try:
        selected = parse_cards(cards)
        hand = parse_cards(str(view.get("hand", "")))
        level = parse_level(str(view.get("level", "")))
    except EngineError as error:
        return Verdict(False, _("These are not cards: %(error)s"), {"error": str(error)})
    if not selected:
        return Verdict(False, _("Select cards first."))
    lacking = Counter(selected) - Counter(hand)
    if lacking:
        return Verdict(
            False,
            _("You do not hold %(cards)s."),
            {"cards": format_cards(sorted(lacking.elements()))},
        )
    if view.get("returning"):
        if len(selected) != 1:
            return Verdict(False, _("Select exactly one card to return (还贡)."))
        text = format_cards(selected)
        return Verdict(True, _("Return %(card)s (还贡)."), {"card": text}, "return", cards=text)
    if not view.get("my_turn"):
        return Verdict(False, _("It is not your turn."))
    return _explain_play(selected, level, view.get("current"), english)


def _explain_play(selected: list[Card], level: Rank, current_text: Any, english: bool) -> Verdict:
    play = classify(selected, level)
    if play is None:
        if len(selected) not in (1, 2, 3, 5):
            return Verdict(False, _("Only 1, 2, 3 or 5 cards make a play."))
        if len(selected) < 5:
            return Verdict(
                False,
                _("%(count)d cards of different ranks make no play."),
                {"count": len(selected)},
            )
        return Verdict(
            False,
            _(
                "These five cards make no play: five cards must be a straight, a flush, "
                "a full house, four with one, a straight flush or five of a kind."
            ),
        )
    text = format_cards(play.cards)
    name = _play_name(play, english)
    if current_text is None:
        return Verdict(True, _("You lead %(play)s."), {"play": name}, "play", play.type.value, text)
    current = classify(parse_cards(str(current_text)), level)
    if current is None:  # cannot happen for a play the engine accepted; say so plainly
        return Verdict(False, _("The current play cannot be read."))
    names = {"play": name, "current": _play_name(current, english)}
    if len(play.cards) != len(current.cards):
        return Verdict(
            False,
            _("The play to beat is %(current)s: play %(count)d cards or pass."),
            {"current": names["current"], "count": len(current.cards)},
        )
    if not play.beats(current):
        return Verdict(False, _("%(play)s does not beat %(current)s."), names)
    return Verdict(True, _("%(play)s beats %(current)s."), names, "play", play.type.value, text)
