"""What every game's adapter shares, written once: :class:`MatchStateBase` and :class:`GameBase`.

A game puts its rules behind :class:`engine.game.Game` by extending these two classes (see
``docs/adding-a-game.md``). The base holds the glue that was copied in every adapter: the
properties of a match in play read from the game's own ``Match`` object, the numbered deals and
their views, records and their reading, the bots (the game's heuristic and random bots wrapped to
act in the current deal, and :class:`engine.search.SearchBot`), the ``sample_world`` checks, the
replay of records step by step, and ``to_json``. A game says only what is its own: its class
attributes (names, seats, options, figures, its Match/Action/Record types) and the members whose
answer depends on its rules (``deal_info``, ``figures``, ``new_match``, ``score_sheet``...).

What a game's own objects must offer is written as :class:`EngineMatch` and :class:`EngineDeal`;
the record class as :class:`engine.record.RecordType`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from engine.cards import format_cards
from engine.duplicate import DealtDeal
from engine.errors import EngineError, register_messages
from engine.game import END_REASONS, Bot, FigureSpec, OptionSpec, ReplayStep, Verdict, World
from engine.record import as_json
from engine.search import MARGIN, MIN_WORLDS, SearchBot
from engine.sheets import SheetSpec
from engine.table_ui import describe

__all__ = [
    "DealBot",
    "EngineDeal",
    "EngineMatch",
    "GameBase",
    "MatchStateBase",
]

register_messages({"adapter.no_deal_number": "no deal {number}: {dealt} deals were dealt"})


class EngineDeal(Protocol):
    """What the base reads of a game's deal object."""

    @property
    def actions(self) -> Sequence[Any]: ...

    @property
    def hands(self) -> Sequence[Any]: ...

    @property
    def over(self) -> bool: ...

    def awaiting(self) -> tuple[int, ...]: ...

    def legal_actions(self, seat: int) -> Sequence[Any]: ...

    def system_action(self, seat: int) -> Any: ...

    def public_view(self) -> dict[str, Any]: ...

    def private_view(self, seat: int) -> dict[str, Any]: ...


class EngineMatch(Protocol):
    """What the base reads of a game's match object (its deals, points, end, views)."""

    @property
    def seed(self) -> int | str: ...

    @property
    def over(self) -> bool: ...

    @property
    def end(self) -> Any: ...

    @property
    def deals(self) -> Sequence[Any]: ...

    @property
    def deal(self) -> Any: ...

    @property
    def points(self) -> Sequence[int]: ...

    def apply(self, action: Any) -> None: ...

    def timeout(self, seat: int) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


M = TypeVar("M", bound=EngineMatch)


class MatchStateBase(Generic[M]):
    """A match in play (:class:`engine.game.MatchState`) over a game's own ``Match`` object.

    Class attributes a game sets: ``game_name`` (in messages), ``action_type`` (what
    :meth:`apply` accepts), ``record_type`` (``from_deal(deal, number=, match_seed=, **labels)``),
    ``end_names`` (the match object's ``end`` -> the interface's end reason) and
    ``no_deal_code`` (the error code of a deal number out of range).
    """

    game_name: ClassVar[str] = ""
    action_type: ClassVar[type] = object
    record_type: ClassVar[Any] = None
    end_names: ClassVar[Mapping[Any, str]] = {}
    no_deal_code: ClassVar[str] = "adapter.no_deal_number"

    def __init__(self, match: M, first: Any = None) -> None:
        self.match = match
        #: the first deal dealt as another deal was (the game's ``first_deal``), if any
        self.first = first

    # -- the match's properties --------------------------------------------------------------------

    @property
    def seed(self) -> int | str:
        return self.match.seed

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def end_reason(self) -> str | None:
        end = self.match.end
        return None if end is None else self.end_names[end]

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
        left = getattr(self.match, "left", None)
        return None if left is None else int(left if isinstance(left, int) else left.seat)

    @property
    def deal(self) -> Any:
        """The game's own deal being played (``None`` between deals), for its bots."""
        return self.match.deal

    def side_points(self) -> dict[str, int]:
        return {}

    # -- the deals ---------------------------------------------------------------------------------

    def _deal(self, number: int) -> Any:
        deals = self.match.deals
        if not 1 <= number <= len(deals):
            raise EngineError.of(self.no_deal_code, number=number, dealt=len(deals))
        return deals[number - 1]

    def deal_actions(self, number: int) -> list[Any]:
        return list(self._deal(number).actions)

    def awaiting(self) -> tuple[int, ...]:
        deal = self.match.deal
        return () if deal is None else tuple(deal.awaiting())

    def legal_actions(self, seat: int) -> list[Any]:
        deal = self.match.deal
        return [] if deal is None else list(deal.legal_actions(seat))

    def system_action(self, seat: int) -> Any:
        deal = self.match.deal
        if deal is None:
            raise EngineError(f"no deal is being played: no system action for seat {seat}")
        return deal.system_action(seat)

    def apply(self, action: Any) -> None:
        if not isinstance(action, self.action_type):
            raise EngineError(f"not an action of {self.game_name}: {action!r}")
        self.match.apply(action)

    def apply_logged(self, action: Any) -> None:
        self.apply(action)  # every log of the game holds what its rules' one version logs

    def timeout(self, seat: int) -> Any:
        return self.match.timeout(seat)

    def escape(self, seat: int) -> dict[str, Any]:
        return dict(as_json(cast(Any, self.match).escape(seat)))

    def leave(self, seat: int) -> dict[str, Any]:
        return dict(as_json(cast(Any, self.match).leave(seat)))

    def results(self) -> list[dict[str, Any]]:
        return [dict(as_json(r)) for r in cast(Any, self.match).results]

    def public_view(self) -> dict[str, Any]:
        return dict(cast(Any, self.match).public_view())

    def private_view(self, seat: int) -> dict[str, Any]:
        return dict(cast(Any, self.match).private_view(seat))

    def deal_view(self, number: int, seat: int | None = None) -> dict[str, Any]:
        deal = self._deal(number)
        return dict(deal.public_view() if seat is None else deal.private_view(seat))

    def hand_size(self, number: int, seat: int) -> int:
        return len(self._deal(number).hands[seat])

    def deal_ordinal(self, number: int) -> int:
        self._deal(number)
        return number

    def record(self, number: int, **labels: Any) -> dict[str, Any]:
        deal = self._deal(number)
        # a first deal dealt as another deal was stands alone: no match seed deals it
        match_seed = None if self.first is not None and number == 1 else self.match.seed
        record = self.record_type.from_deal(deal, number=number, match_seed=match_seed, **labels)
        return dict(record.to_json())

    def to_json(self) -> dict[str, Any]:
        return self.match.to_json()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.match!r}>"


class DealBot:
    """A game's own bot (``act(deal, seat)``) as :class:`engine.game.Bot`: it acts in the
    current deal of a match of its game."""

    def __init__(self, bot: Any, state_type: type, game_name: str) -> None:
        self.bot = bot
        self.state_type = state_type
        self.game_name = game_name

    def act(self, state: Any, seat: int) -> Any:
        if not isinstance(state, self.state_type):
            name = self.game_name
            raise EngineError(f"a bot of {name} plays only {name}, not {state!r}")
        deal = cast(Any, state).match.deal
        if deal is None:
            raise EngineError("no deal is being played")
        return self.bot.act(deal, seat)


class GameBase:
    """The shared part of :class:`engine.game.Game`; a game's class extends it.

    Class attributes a game sets besides the interface's own (``key``, ``name_zh``...):
    ``state_type`` (its :class:`MatchStateBase`), ``action_type`` and ``record_type`` (with
    ``from_json`` and ``loads``), ``options_type`` (``from_json`` and a default constructor),
    ``bot_types`` (bot kind -> the game's own bot class, ``cls(seed=...)`` with
    ``act(deal, seat)``; ``"search"`` is every game's :class:`engine.search.SearchBot`),
    ``no_sides_why`` (why ``side_seats`` is refused, for games without fixed sides),
    ``messages``, ``table_terms`` and ``table_draws`` (the game's words, see :meth:`table_ui`).
    The search tuning and the duplicate dealing have defaults here (see their members).
    """

    key: str = ""
    name_zh: str = ""
    name_en: str = ""
    seat_count: int = 0
    fixed_sides: bool = False
    sides: tuple[str, ...] = ()
    #: the default first, the cheapest last (simulations and filled seats use those two)
    bot_kinds: tuple[str, ...] = ("heuristic", "search", "random")
    end_reasons: tuple[str, ...] = END_REASONS
    figure_specs: tuple[FigureSpec, ...] = ()
    score_sheets: bool = True
    #: the score sheet the site's entry form, preview and printed sheet render (engine/sheets.py);
    #: ``None``: the game's offline tables have no sheet to enter
    sheet_spec: SheetSpec | None = None
    rules_version: str = "1"
    #: whether a match may be played "to A": until a side passes the top of its ladder
    #: (大怪路子's 过A), the deals being a cap (a knockout stage's option)
    plays_to_a: bool = False
    #: search tuning (engine/search.py): the most ms a search bot thinks per decision whatever
    #: its budget (None: the budget), and the evidence another candidate needs to replace the
    #: heuristic's action: (margin in standard errors, worlds at least)
    search_ceiling_ms: float | None = None
    search_evidence: tuple[float, int] = (MARGIN, MIN_WORLDS)
    #: the spare deals a duplicate board deals beyond the match's (deals dealt again, 荒番)
    duplicate_spares: int = 0

    #: the module of the game's referee verbs (its ``register(subparsers)`` adds them to ``luzi``)
    cli_module: ClassVar[str] = ""
    cli_description: str = ""

    state_type: ClassVar[type[MatchStateBase[Any]]] = MatchStateBase
    action_type: ClassVar[Any] = None
    record_type: ClassVar[Any] = None
    options_type: ClassVar[Any] = None
    bot_types: ClassVar[Mapping[str, Callable[..., Any]]] = {}
    no_sides_why: ClassVar[str] = "every player for themselves"
    #: the game's own message codes as people read them, code -> (Chinese, English) (the
    #: ``TEXTS`` of its messages.py)
    messages: ClassVar[Mapping[str, tuple[str, str]]] = {}
    #: its table page's words and what the table and replay pages draw of it (the ``TERMS`` and
    #: ``UI`` of its table_ui.py; :mod:`engine.table_ui`); none: the site's defaults
    table_terms: ClassVar[Mapping[str, Any]] = {}
    table_draws: ClassVar[Mapping[str, Any]] = {}

    # -- seats and sides ---------------------------------------------------------------------------

    def side_of(self, seat: int) -> str | None:
        if not isinstance(seat, int) or not 0 <= seat < self.seat_count:
            raise EngineError.of("common.seat_range", seat=seat, high=self.seat_count - 1)
        return None

    def side_seats(self, side: str) -> tuple[int, ...]:
        raise EngineError(f"{self.name_zh} has no fixed sides (not {side!r}): {self.no_sides_why}")

    # -- options -----------------------------------------------------------------------------------

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return ()

    def default_options(self) -> Any:
        return self.options_type()

    def options_from_json(self, data: Any) -> Any:
        return self.options_type.from_json(data)

    def _options(self, options: Any) -> Any:
        """``options`` when they are this game's, else the refusal every game gives."""
        if not isinstance(options, self.options_type):
            raise EngineError(f"not the options of {self.name_zh}: {options!r}")
        return options

    # -- actions -----------------------------------------------------------------------------------

    def action_from_json(self, data: Any) -> Any:
        return self.action_type.from_json(data)

    def commutes(self, since: Sequence[Any], seat: int, kind: str) -> bool:
        return False  # one seat acts at a time: anything since changes what the seat saw

    # -- bots and search ---------------------------------------------------------------------------

    def bot(self, kind: str, seed: int | str) -> Bot:
        if kind == "search" and "search" in self.bot_kinds:
            return SearchBot(self, seed=seed)  # type: ignore[arg-type]
        make = self.bot_types.get(kind)
        if make is None:
            kinds = list(self.bot_kinds)
            use = f"{', '.join(kinds[:-1])} or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
            raise EngineError(f"unknown bot kind {kind!r} (use {use})")
        return DealBot(make(seed=seed), self.state_type, self.name_zh)

    def sample_world(self, state: Any, seat: int, rng: random.Random) -> World:
        if not isinstance(state, self.state_type):
            raise EngineError(f"not a match of {self.name_zh}: {state!r}")
        deal = state.match.deal
        if deal is None:
            raise EngineError("no deal is being played")
        if seat not in range(self.seat_count):
            raise EngineError(f"seat must be 0-{self.seat_count - 1}, not {seat!r}")
        return self.deal_world(deal, seat, random.Random(rng.getrandbits(64)))

    def deal_world(self, deal: Any, seat: int, rng: random.Random) -> World:
        """The game's world sampler: ``deal`` as ``seat`` may imagine it (checked inputs)."""
        raise EngineError(f"{self.name_zh} has no world sampler")

    # -- duplicate dealing -------------------------------------------------------------------------

    def duplicate_deals(self, deals_per_match: int) -> int:
        """How many deals a duplicate board deals for a match of ``deals_per_match`` deals:
        those and the game's spares (deals dealt again do not count toward the length)."""
        return deals_per_match + self.duplicate_spares

    def dealt_hands(self, match_seed: int, count: int) -> list[DealtDeal]:
        """The first ``count`` deals a match started from ``match_seed`` deals, as
        :class:`engine.duplicate.DealtDeal`: by default, a match is dealt and read deal by deal."""
        raise EngineError(f"duplicate dealing is not known for the game {self.key!r}")

    def first_dealer(self, match_seed: int) -> int | None:
        """The first deal's dealer a match seed picks before the deal, if it does."""
        return None

    # -- records and replay ------------------------------------------------------------------------

    def _read(self, data: Any) -> Any:
        return (
            self.record_type.loads(data)
            if isinstance(data, str)
            else self.record_type.from_json(data)
        )

    def read_record(self, data: Any) -> dict[str, Any]:
        """A record read and checked for form (not replayed), as JSON; raises ``RecordError``."""
        return dict(self._read(data).to_json())

    def replay_step(self, deal: Any, action: Any) -> ReplayStep:
        """One step of :meth:`replay_steps`: ``deal`` right after ``action`` (None: as dealt)."""
        json = None if action is None else action.to_json()
        return ReplayStep(json, deal.public_view(), self.replay_hands(deal))

    def replay_hands(self, deal: Any) -> tuple[str, ...]:
        """Every seat's hand as card text, for a replay (every card face up)."""
        return tuple([format_cards(deal.hand(s)) for s in range(self.seat_count)])

    def replay_steps(self, data: Any) -> tuple[ReplayStep, ...]:
        steps: list[ReplayStep] = []
        step, add = self.replay_step, steps.append

        def seen(deal: Any, action: Any) -> None:
            add(step(deal, action))

        self.replay_deal_steps(self._read(data), seen)
        return tuple(steps)

    def replay_deal_steps(self, record: Any, seen: Callable[[Any, Any], None]) -> Any:
        """Replay ``record`` calling ``seen(deal, action)`` as dealt and after each action."""
        raise EngineError(f"{self.name_zh} cannot replay step by step")

    def replay_deal(self, record: Any) -> Any:
        """Replay one record strictly: the game's deal at its end."""
        raise EngineError(f"{self.name_zh} cannot replay")

    def replay_figures(self, deal: Any) -> dict[str, dict[str, int]] | None:
        """The figures a replayed deal's result carries (None: none)."""
        return None

    def replay_record(self, data: Any) -> dict[str, Any]:
        deal = self.replay_deal(self._read(data))
        result = None if deal.result is None else as_json(deal.result)
        return {
            "finish": list(getattr(deal, "finish", ())),
            "over": deal.over,
            "actions": [a.to_json() for a in deal.actions],
            "result": result,
            "points": None if result is None else list(self.deal_points(deal)),
            "figures": None if result is None else self.replay_figures(deal),
        }

    def deal_points(self, deal: Any) -> Sequence[int]:
        """An ended deal's points per seat (its result's ``points``)."""
        result = deal.result
        points: Sequence[int] = result["points"] if isinstance(result, dict) else result.points
        return points

    def replay_match(self, records: Sequence[Any], *, left: int | None = None) -> Any:
        return self.state_type(self.replay_records([self._read(r) for r in records], left=left))

    def replay_records(self, records: list[Any], *, left: int | None) -> Any:
        """The game's match replayed from its records (checked to chain)."""
        raise EngineError(f"{self.name_zh} cannot replay a match")

    # -- the command line ------------------------------------------------------------------------

    def add_cli_verbs(self, subparsers: Any) -> None:
        if self.cli_module:
            importlib.import_module(self.cli_module).register(subparsers)

    # -- the table ---------------------------------------------------------------------------------

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        return Verdict(False, "Select cards first.")

    def table_ui(self, *, chinese: bool = True) -> dict[str, Any]:
        """What the table and replay pages show of the game, in Chinese or English."""
        return describe(self.table_terms, self.table_draws, chinese=chinese)

    def message_catalog(self) -> Mapping[str, tuple[str, str]]:
        """The game's message codes as people read them: code -> (Chinese, English)."""
        return self.messages

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "seats": self.seat_count,
            "fixed_sides": self.fixed_sides,
            "sides": {s: list(self.side_seats(s)) for s in self.sides} if self.fixed_sides else {},
            "options": [o.to_json() for o in self.option_specs()],
            "defaults": self.default_options().to_json(),
            "figures": [f.to_json() for f in self.figure_specs],
            "end_reasons": list(self.end_reasons),
            "bots": list(self.bot_kinds),
            "rules_version": self.rules_version,
            "score_sheets": self.score_sheets,
        }
