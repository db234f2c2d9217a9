"""The one interface every game offers to the rest of Luzi (after OpenSpiel's ``Game``/``State``).

Everything outside engine/ reaches a game through :func:`engine.registry.get_game` and the
protocols here, never through a game's package: its names, seats and sides (or per-deal roles),
its typed options, a match in play (:class:`MatchState`: actions, system actions, views, escapes,
results, points per seat and the game's own figures), offline score sheets, deal records and
replay, and its bots.

Values that cross this interface are plain: seats are ``0 .. seat_count - 1``, sides are short
names (``"A"``), actions, options, results and records are JSON objects (``dict``), figures are
integers with labels. A game's own types stay behind it. The value types (:class:`OptionSpec`,
:class:`DealInfo`, :class:`ScoredSheet`...) live in :mod:`engine.values` and are re-exported
here: import them from ``engine.game``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from engine.duplicate import DealtDeal
from engine.errors import EngineError
from engine.sheets import SheetSpec
from engine.values import (
    DealInfo,
    FigureSpec,
    OptionSpec,
    ReplayStep,
    ScoredSheet,
    SheetDeal,
    SystemPlays,
    Verdict,
)

__all__ = [
    "END_REASONS",
    "Bot",
    "DealInfo",
    "FigureSpec",
    "Game",
    "GameAction",
    "GameOptions",
    "MatchState",
    "OptionSpec",
    "ReplayStep",
    "ScoredSheet",
    "SheetDeal",
    "SheetSpec",
    "SystemPlays",
    "UnknownGameError",
    "Verdict",
    "World",
]

#: Why a match ended, for every game: its deals were played, a seat escaped during a deal, a seat
#: left between deals. A game may add its own (大怪路子: ``passed_a``).
END_REASONS: tuple[str, ...] = ("deals_played", "escape", "left")


class UnknownGameError(EngineError):
    """A game key that names no registered game."""


@runtime_checkable
class GameOptions(Protocol):
    """A game's typed rules options; ``to_json`` and the game's ``options_from_json`` invert
    each other."""

    @property
    def deals_per_match(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class GameAction(Protocol):
    """One thing a seat does; ``system`` marks what the system did on a timeout."""

    @property
    def seat(self) -> int: ...

    @property
    def system(self) -> bool: ...

    def to_json(self) -> dict[str, Any]: ...


class MatchState(Protocol):
    """A match in play: deals one after the other at one table (OpenSpiel's ``State``).

    Drive it with :meth:`start_deal`, :meth:`apply`, :meth:`timeout`, :meth:`escape` and
    :meth:`leave`; every method raises :class:`~engine.errors.EngineError` for bad input and
    :class:`~engine.errors.IllegalActionError` for what the rules refuse.
    """

    @property
    def seed(self) -> int | str: ...

    @property
    def base(self) -> int: ...

    @property
    def options(self) -> GameOptions: ...

    @property
    def over(self) -> bool: ...

    @property
    def end_reason(self) -> str | None: ...

    @property
    def winner(self) -> str | None:
        """The side (or seat, as a string, for games without fixed sides) that won the match;
        ``None`` while it goes on or when nobody won."""
        ...

    @property
    def points(self) -> Sequence[int]:
        """Points per seat over the match, base included (a copy)."""
        ...

    @property
    def deals_started(self) -> int: ...

    @property
    def in_deal(self) -> bool:
        """Whether a deal is being played (not between deals, not over)."""
        ...

    @property
    def left_seat(self) -> int | None: ...

    def side_points(self) -> dict[str, int]: ...

    def figures(self) -> dict[str, dict[str, int]]:
        """The match's game-specific figures now, ``{figure key: {holder: value}}``."""
        ...

    def start_deal(self) -> DealInfo: ...

    def deal_info(self, number: int) -> DealInfo: ...

    def deal_actions(self, number: int) -> Sequence[GameAction]: ...

    def awaiting(self) -> tuple[int, ...]:
        """The seats the current deal waits for (none between deals)."""
        ...

    def legal_actions(self, seat: int) -> Sequence[GameAction]: ...

    def system_action(self, seat: int) -> GameAction: ...

    def apply(self, action: GameAction) -> None: ...

    def apply_logged(self, action: GameAction) -> None:
        """:meth:`apply` for an action read back from a table's committed log, which names no
        rules version: a game whose rules changed what its log holds reads an older log here
        as it was played (上海斗地主's version 1 logs skip a 报到 decision); else :meth:`apply`."""
        ...

    def timeout(self, seat: int) -> GameAction: ...

    def escape(self, seat: int) -> dict[str, Any]:
        """``seat`` leaves the table: an escape during a deal, or leaving between deals; returns
        the result (JSON). Refused for a seat that has already gone out of the deal."""
        ...

    def leave(self, seat: int) -> dict[str, Any]: ...

    def results(self) -> list[dict[str, Any]]:
        """Every ended deal's result (and a leaving), as JSON."""
        ...

    def public_view(self) -> dict[str, Any]: ...

    def private_view(self, seat: int) -> dict[str, Any]: ...

    def deal_view(self, number: int, seat: int | None = None) -> dict[str, Any]:
        """Deal ``number``'s public view, or ``seat``'s private view of it (hand, legal)."""
        ...

    def hand_size(self, number: int, seat: int) -> int: ...

    def system_plays(self, number: int) -> tuple[SystemPlays, ...]:
        """Per seat, what the system has played for it in deal ``number`` (托管) against the
        rules' limit before that is an escape."""
        ...

    def deal_ordinal(self, number: int) -> int:
        """Deal ``number``'s place among the deals that count toward the match's length, as
        people count them: a deal dealt again (上海斗地主's 荒番 after nobody bid) keeps the place
        of the deal it replaces."""
        ...

    def record(self, number: int, **labels: Any) -> dict[str, Any]:
        """Deal ``number``'s record (headers, actions, result) with the match seed and
        ``labels`` (event, round, table, seats)."""
        ...

    def to_json(self) -> dict[str, Any]: ...


class Bot(Protocol):
    """A bot: the action it takes for ``seat`` in the match's current deal."""

    def act(self, state: MatchState, seat: int) -> GameAction: ...


class World(Protocol):
    """One determinization of the deal in play, as one seat may imagine it: its own hand and
    everything public as they are, every card hidden from it dealt anew consistently with the
    public information (:mod:`engine.sampling`). A search bot plays candidate actions out in
    worlds (``engine/search.py``); a world never holds the real hidden cards.
    """

    @property
    def over(self) -> bool: ...

    def awaiting(self) -> tuple[int, ...]: ...

    def legal_actions(self, seat: int) -> Sequence[GameAction]: ...

    def candidates(self, seat: int) -> Sequence[GameAction]:
        """The actions worth searching for ``seat`` now: the legal actions, or a pruned set of
        them (one per kind of play) that always holds :meth:`policy`'s action."""
        ...

    def policy(self, seat: int) -> GameAction:
        """The action the game's heuristic bot takes for ``seat`` here (rollouts play it)."""
        ...

    def apply(self, action: GameAction) -> None: ...

    def deal_points(self) -> Sequence[int]:
        """The deal's points per seat once it is over."""
        ...

    def copy(self) -> World:
        """An independent copy (applying actions to it leaves this world as it is)."""
        ...


class Game(Protocol):
    """A game as the registry hands it out (OpenSpiel's ``Game``, python-chess's variant).

    Its facts are read-only properties, so that a game may declare them as plain class
    attributes of narrower types (``figure_specs = (FigureSpec(...),)``)."""

    @property
    def key(self) -> str: ...
    @property
    def name_zh(self) -> str: ...
    @property
    def name_en(self) -> str: ...
    @property
    def seat_count(self) -> int: ...
    #: whether seats form fixed sides for the whole match (大怪路子: by parity); otherwise roles
    #: change per deal (斗地主's landlord, 小路子's declarer) and ``side_of`` answers ``None``
    @property
    def fixed_sides(self) -> bool: ...
    @property
    def sides(self) -> tuple[str, ...]: ...
    @property
    def bot_kinds(self) -> tuple[str, ...]: ...
    @property
    def figure_specs(self) -> tuple[FigureSpec, ...]: ...
    @property
    def end_reasons(self) -> tuple[str, ...]: ...
    #: whether a referee's score sheet of an offline table can be scored (``score_sheet``)
    @property
    def score_sheets(self) -> bool: ...
    #: the score sheet as the site's one entry form, its preview and the printed sheet render it
    #: (its fields, the printed columns, the words of each deal's result); ``None`` when the game
    #: has no score sheets (:mod:`engine.sheets`, ``docs/adding-a-game.md``)
    @property
    def sheet_spec(self) -> SheetSpec | None: ...
    #: whether a match may be played "to A", until a side passes the top of its ladder, the
    #: deals being a cap (大怪路子's 过A; a knockout stage offers it only for such a game)
    @property
    def plays_to_a(self) -> bool: ...
    #: search tuning (engine/search.py): the most ms the search bot thinks per decision whatever
    #: its budget (``None``: the budget), and the evidence a candidate needs to replace the
    #: heuristic's action, ``(margin in standard errors, worlds at least)``
    @property
    def search_ceiling_ms(self) -> float | None: ...
    @property
    def search_evidence(self) -> tuple[float, int]: ...
    #: what ``luzi --help --game KEY`` says of the game's command line
    @property
    def cli_description(self) -> str: ...

    def side_of(self, seat: int) -> str | None: ...

    def side_seats(self, side: str) -> tuple[int, ...]: ...

    def option_specs(self) -> tuple[OptionSpec, ...]: ...

    def default_options(self) -> GameOptions: ...

    def options_from_json(self, data: Any) -> GameOptions: ...

    def new_match(
        self,
        *,
        seed: int | str,
        options: GameOptions,
        base: int = 1,
        first_deal: Mapping[str, Any] | None = None,
    ) -> MatchState:
        """A new match dealt from ``seed``; ``first_deal`` (from :meth:`deal_setup`) makes its
        first deal the deal it describes (the same cards at the same seats), dealt as a deal
        standing alone: its record names no match seed."""
        ...

    def deal_setup(self, data: Any) -> dict[str, Any]:
        """What a new match's first deal needs to hold the cards of the deal recorded in ``data``
        (JSON text or object) at the same seats (the ``first_deal`` of :meth:`new_match`); a deal
        that started with a tribute (大怪路子) is dealt as the hands stood when play began.
        Raises :class:`~engine.errors.EngineError` for a record that does not replay."""
        ...

    def action_from_json(self, data: Any) -> GameAction: ...

    def seat_action(self, seat: int, kind: str, cards: str = "") -> GameAction:
        """The action a seated player sends (``kind`` and the cards as text); raises
        :class:`~engine.errors.EngineError` for an unknown kind or malformed cards."""
        ...

    def commutes(self, since: Sequence[GameAction], seat: int, kind: str) -> bool:
        """Whether an action of ``kind`` by ``seat`` still means what it meant after the actions
        ``since`` that others made meanwhile (大怪路子: returns of other receivers)."""
        ...

    def bot(self, kind: str, seed: int | str) -> Bot: ...

    def duplicate_deals(self, deals_per_match: int) -> int:
        """How many deals a duplicate board (复式) deals for a match of ``deals_per_match``
        deals: those and the spares of deals dealt again (上海斗地主's 荒番: two)."""
        ...

    def dealt_hands(self, match_seed: int, count: int) -> list[DealtDeal]:
        """The first ``count`` deals (:class:`engine.duplicate.DealtDeal`) a match started from
        ``match_seed`` deals, without playing them; raises :class:`~engine.errors.EngineError`
        for a game that deals no duplicate boards."""
        ...

    def first_dealer(self, match_seed: int) -> int | None:
        """The first deal's dealer the match seed picks before the deal (大怪路子), else None."""
        ...

    def sample_world(self, state: MatchState, seat: int, rng: random.Random) -> World:
        """The current deal of ``state`` as ``seat`` may imagine it: a :class:`World` whose
        hidden cards (the other hands, a kitty) are dealt from ``rng`` consistently with what
        ``seat`` sees. Reads only ``seat``'s private view and the public history. Raises
        :class:`~engine.errors.EngineError` when no deal is being played."""
        ...

    def score_sheet(self, entry: Any, *, options: GameOptions, base: int = 1) -> ScoredSheet:
        """Check and score a referee's sheet (JSON: ``{"first_dealer": 0, "deals": [...]}``);
        raises :class:`~engine.errors.EngineError` naming the first bad deal (or saying that the
        game has no score sheets, when ``score_sheets`` is false)."""
        ...

    def read_record(self, data: Any) -> dict[str, Any]:
        """Read one deal record (JSON text or object) and check its form, without replaying it;
        returns it as JSON. Raises :class:`~engine.errors.EngineError` for a malformed record."""
        ...

    def replay_record(self, data: Any) -> dict[str, Any]:
        """Replay one deal record (JSON), checking every action and the stored result; returns
        ``{"finish": [...], "points": [...], "result": {...}, "actions": [...], "figures": ...}``.
        """
        ...

    def replay_match(self, records: Sequence[Any], *, left: int | None = None) -> MatchState:
        """Replay a whole match from its deal records (JSON), checking that they chain."""
        ...

    def replay_steps(self, data: Any) -> tuple[ReplayStep, ...]:
        """Replay one deal record (JSON text or object) step by step with every hand face up:
        the deal as dealt, then after each action; checks every action and the stored result
        as :meth:`replay_record` does (raises :class:`~engine.errors.EngineError`)."""
        ...

    def explain_selection(
        self, *, view: Mapping[str, Any], cards: str, english: bool = False
    ) -> Verdict:
        """Whether ``cards`` may be sent now by a seat whose private view is ``view``, and why
        not in words (the play it makes, the play to beat). The site sends its summary of the
        seat (``hand``, ``current``, ``seat``, ``awaiting``, ``legal``...) with the seat's view of
        the deal under ``deal``; the engine's own private view of the deal works as well."""
        ...

    def table_ui(self, *, chinese: bool = True) -> dict[str, Any]:
        """What the table and replay pages show of the game, as plain JSON in Chinese or English:
        its words (``terms``) and what the pages draw (:mod:`engine.table_ui`)."""
        ...

    def message_catalog(self) -> Mapping[str, tuple[str, str]]:
        """The game's own message codes as people read them: code -> (Chinese, English), params
        written ``%(name)s`` (the site looks an :class:`~engine.errors.EngineError`'s code up)."""
        ...

    def add_cli_verbs(self, subparsers: Any) -> None:
        """Add the game's referee verbs to ``luzi`` (:mod:`engine.cli`): each an argparse
        subcommand whose ``handler(args) -> int`` answers it (``luzi VERB --game KEY``)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The game as ``luzi games --json`` lists it."""
        ...
