"""A search bot for every game: determinized Monte Carlo over the hidden cards.

To choose an action the bot repeatedly imagines the deal (:meth:`engine.game.Game.sample_world`:
its own hand and everything public as they are, the hidden cards dealt anew consistently with
what it has seen), plays each candidate action in that world and the rest of the deal out with
the game's heuristic policy for every seat, and scores the candidate by its own points of the
deal. Every candidate is tried in the same worlds (common random numbers: the luck of a world
is shared and cancels between candidates). When the time budget is spent it plays the candidate
that gained most over the heuristic's own action in the same worlds, if it gained clearly (more
than half a standard error of the paired differences, over two worlds at least); otherwise the
heuristic's action stands.

The clock is read only between rollouts: no rollout starts after the deadline, nor when one as
long as the longest so far would end after it, so a move takes its budget plus at most a
sampling and a rollout (short against the budget); a fake ``clock`` makes the stopping
testable. ``clock`` may be wall time (the default: people wait for the bot) or the process's
CPU time (the arena's ``--clock cpu``, for fair measures on a busy machine).

The bot reads the match only through the :class:`engine.game.Game` protocol: the world sampler is
the one place that looks at the deal, and it reads the seat's own hand and public facts only.

>>> from engine.registry import get_game
>>> game = get_game("xiaoluzi")
>>> state = game.new_match(seed=4, options=game.default_options())
>>> _ = state.start_deal()
>>> bot = SearchBot(game, seed=1, budget_ms=5, max_rollouts=40)
>>> seat = state.awaiting()[0]
>>> bot.act(state, seat) in state.legal_actions(seat)
True
"""

from __future__ import annotations

import copy
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine.errors import EngineError
from engine.game import Game, GameAction, MatchState, World

__all__ = [
    "DEFAULT_BUDGET_MS",
    "DealWorld",
    "SearchBot",
    "SearchStats",
    "clone_deal",
    "rollout",
]

#: The budget of ``game.bot("search", seed)``: the 困难 practice level and Celery bot turns
#: (a move takes at most twice this: 500 ms).
DEFAULT_BUDGET_MS = 250

#: Another candidate replaces the heuristic's only with a mean gain of more than MARGIN standard
#: errors over at least MIN_WORLDS worlds, unless the game asks for more evidence (its
#: ``search_evidence``: 大怪路子's and 上海斗地主's deal points are coarse, docs/bots.md).
MARGIN = 0.5
MIN_WORLDS = 2

#: A rollout that has not ended after this many actions is a bug in a policy, not a deal.
_MAX_ROLLOUT_ACTIONS = 5000


class _Deal(Protocol):
    """What a game's engine deal offers that :class:`DealWorld` drives."""

    @property
    def over(self) -> bool: ...

    def awaiting(self) -> tuple[int, ...]: ...

    def legal_actions(self, seat: int) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...


D = TypeVar("D", bound=_Deal)


D_contra = TypeVar("D_contra", bound=_Deal, contravariant=True)


class _Policy(Protocol[D_contra]):
    def act(self, deal: D_contra, seat: int) -> Any: ...


def clone_deal(deal: D, **replace: Any) -> D:
    """A copy of an engine deal that shares nothing mutable with it: its lists and dicts are
    copied one level deep (hands, a list of lists, two), its random generator is a new one
    (a world never draws from the real deal's), and ``replace`` sets attributes (the sampled
    hands). Tuples and frozen values are shared."""
    new = copy.copy(deal)
    state = new.__dict__
    for key, value in list(state.items()):
        if isinstance(value, list):
            state[key] = [list(v) if isinstance(v, list) else v for v in value]
        elif isinstance(value, dict):
            state[key] = dict(value)
        elif isinstance(value, random.Random):
            state[key] = random.Random(0)
    state.update(replace)
    return new


@dataclass
class DealWorld(Generic[D]):
    """A :class:`engine.game.World` over one game's engine deal: the heuristic ``policy`` plays
    the rollouts, ``prune`` narrows the legal actions to the candidates worth searching."""

    deal: D
    policy_bot: _Policy[D]
    prune: Callable[[D, int, Sequence[Any], Any], Sequence[Any]] | None = None
    points_of: Callable[[D], Sequence[int]] = field(default=lambda d: d.result.points)

    @property
    def over(self) -> bool:
        return self.deal.over

    def awaiting(self) -> tuple[int, ...]:
        return self.deal.awaiting()

    def legal_actions(self, seat: int) -> Sequence[Any]:
        return self.deal.legal_actions(seat)

    def policy(self, seat: int) -> Any:
        return self.policy_bot.act(self.deal, seat)

    def candidates(self, seat: int) -> Sequence[Any]:
        legal = self.deal.legal_actions(seat)
        chosen = self.policy(seat)
        if self.prune is None:
            found = list(legal)
        else:
            found = list(self.prune(self.deal, seat, legal, chosen))
        # the policy's action first: it wins ties and stands when nothing was measured
        return [chosen, *(a for a in found if a != chosen)]

    def apply(self, action: Any) -> None:
        self.deal.apply(action)

    def deal_points(self) -> Sequence[int]:
        return self.points_of(self.deal)

    def copy(self) -> DealWorld[D]:
        return DealWorld(clone_deal(self.deal), self.policy_bot, self.prune, self.points_of)


def rollout(world: World) -> Sequence[int]:
    """Play ``world`` to the end of its deal with its policy for every seat; its points."""
    for _ in range(_MAX_ROLLOUT_ACTIONS):
        if world.over:
            return world.deal_points()
        for seat in world.awaiting():
            world.apply(world.policy(seat))
            if world.over:
                break
    raise EngineError("a rollout did not end: the policy does not finish the deal")


@dataclass
class SearchStats:
    """What the last decision cost: worlds sampled, rollouts played, worlds dropped (the rules
    refused to play them out), candidates, seconds."""

    worlds: int = 0
    rollouts: int = 0
    dropped: int = 0
    candidates: int = 0
    seconds: float = 0.0
    means: dict[str, float] = field(default_factory=dict)


class SearchBot:
    """Determinized Monte Carlo over the hidden cards (:mod:`engine.search`), as a
    :class:`engine.game.Bot` of any game that offers :meth:`~engine.game.Game.sample_world`.

    ``budget_ms`` bounds the thinking per decision (at most the game's ``search_ceiling_ms``:
    上海斗地主's search measured weaker with more time, docs/bots.md);
    ``max_rollouts`` (optional) bounds the rollouts too, for reproducible decisions; ``clock``
    (seconds, monotonic) is read between rollouts only.
    """

    def __init__(
        self,
        game: Game,
        *,
        seed: int | str = 0,
        budget_ms: float = DEFAULT_BUDGET_MS,
        max_rollouts: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if budget_ms <= 0:
            raise EngineError(f"a search bot's budget is a positive number of ms, not {budget_ms}")
        self.game = game
        self.rng = random.Random(seed)
        ceiling = game.search_ceiling_ms
        self.budget_ms = budget_ms if ceiling is None else min(budget_ms, ceiling)
        self.max_rollouts = max_rollouts
        self.clock = clock
        self.margin, self.min_worlds = game.search_evidence
        self.stats = SearchStats()

    def act(self, state: MatchState, seat: int) -> GameAction:
        """The action with the best mean outcome for ``seat`` over the worlds it imagined."""
        start = self.clock()
        deadline = start + self.budget_ms / 1000.0
        self.stats = stats = SearchStats()
        legal = state.legal_actions(seat)
        if not legal:
            raise EngineError(f"seat {seat} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        try:
            world = self.game.sample_world(state, seat, self.rng)
        except EngineError:  # no world fits what the seat saw (cannot happen with a sound sampler)
            return self.game.bot("heuristic", self.rng.getrandbits(32)).act(state, seat)
        stats.worlds = 1
        candidates = list(world.candidates(seat))
        stats.candidates = len(candidates)
        if len(candidates) <= 1:
            return candidates[0] if candidates else legal[0]
        # values[i][w]: candidate i's points in world w (every candidate meets the same worlds)
        values: list[list[float]] = [[] for _ in candidates]
        cap = self.max_rollouts
        longest = 0.0
        done = False
        while not done:
            measured = [len(v) for v in values]
            for index, action in enumerate(candidates):
                now = self.clock()
                # stop when the next rollout (as long as the longest so far) would end late
                if now + longest >= deadline or (cap is not None and stats.rollouts >= cap):
                    done = True
                    break
                trial = world.copy()
                stats.rollouts += 1
                try:
                    trial.apply(action)
                    value = rollout(trial)[seat]
                except EngineError:
                    # a world the rules refuse to play out (a sampler that missed a constraint):
                    # it is dropped whole, and the search goes on in the next one
                    for v, n in zip(values, measured, strict=True):
                        del v[n:]
                    stats.dropped += 1
                    break
                values[index].append(value)
                longest = max(longest, self.clock() - now)
            if not done:
                try:
                    world = self.game.sample_world(state, seat, self.rng)
                except EngineError:
                    break
                stats.worlds += 1
        stats.seconds = self.clock() - start
        return candidates[self._choose(values)]

    def _choose(self, values: list[list[float]]) -> int:
        """The candidate to play: the heuristic's (index 0) unless another beat it in the same
        worlds clearly: a mean gain above :data:`MARGIN` standard errors over at least
        :data:`MIN_WORLDS` worlds, or the game's own :data:`EVIDENCE` (a noisy mean alone would
        pick whoever was lucky)."""
        base = values[0]
        best, best_gain = 0, 0.0
        for index in range(1, len(values)):
            diffs = [v - b for v, b in zip(values[index], base, strict=False)]
            n = len(diffs)
            if n < self.min_worlds:
                continue
            gain = statistics.fmean(diffs)
            spread = statistics.stdev(diffs)
            if gain <= 0 or gain * math.sqrt(n) <= self.margin * spread:
                continue
            if gain > best_gain:
                best, best_gain = index, gain
        self.stats.means = {str(i): statistics.fmean(v) for i, v in enumerate(values) if v}
        return best
