"""The engine's state of a match, rebuilt from the database: the deals and their action logs.

The database is the truth: a match's engine state is replayed from its rows (the match seed and
options, each deal's actions in order). Replaying a match is a few milliseconds, so each process
keeps the states it built in its cache of table states (games.state_cache), under the version
of the committed rows they were built from (the match's seed and creation time, the current deal
number and its number of actions, the match status, a seat that left). Actions are append-only,
so a version names one state; a process only caches what has been committed.
"""

from __future__ import annotations

import json
from typing import Any

from engine.errors import EngineError
from engine.game import Game, GameAction, GameOptions, MatchState
from engine.registry import get_game
from games.models import Action, Deal, Match, Table
from games.state_cache import ENGINE, Version, cache, version_of

__all__ = ["Token", "engine_match", "forget", "game_of", "remember", "rules_of", "token_of"]

Token = Version


class StateError(RuntimeError):
    """The stored actions do not replay: the database was changed behind the services' back."""


def game_of(row: Match | Table) -> Game:
    """The game a match or table is played at, from the registry (大怪路子 when it names
    none)."""
    return get_game(getattr(row, "game", None) or None)


def rules_of(match: Match) -> GameOptions:
    """The game's rule options of ``match`` (its options with its deals per match)."""
    options = dict(match.rule_options or {})
    options["deals_per_match"] = match.deals_per_match
    return game_of(match).options_from_json(options)


def token_of(match: Match, deal: Deal | None) -> Token:
    """What names the committed state of ``match`` whose current deal row is ``deal`` (its
    version: the engine's state depends on its ``play`` part)."""
    return version_of(match, deal)


def action_row_values(action: GameAction) -> tuple[int, str, str, bool, str]:
    """An action as the log stores it: seat, kind, cards, system and the rest as JSON text."""
    data = action.to_json()  # the caller's own dict: taken apart in place
    seat, kind, cards = data.pop("seat"), data.pop("kind"), data.pop("cards", "")
    data.pop("system", None)
    extra = json.dumps(data, ensure_ascii=False, sort_keys=True) if data else ""
    return seat, kind, cards, action.system, extra


def _action(
    game: Game, seat: int, kind: str, cards: str, system: bool, extra: str = ""
) -> GameAction:
    data: dict[str, Any] = json.loads(extra) if extra else {}
    data.update({"kind": kind, "seat": seat, "system": system})
    if cards:
        data["cards"] = cards
    return game.action_from_json(data)


def to_engine(row: Action, game: Game | None = None) -> GameAction:
    """The game's action stored in an action row (of 大怪路子 unless ``game`` is given)."""
    return _action(game or get_game(), row.seat, row.kind, row.cards, row.system, row.extra)


def engine_match(match: Match, deal: Deal | None) -> MatchState:
    """The engine state of ``match`` as committed (from the cache when it holds this state).

    The returned object may be changed by the caller: it is the caller's copy until it is handed
    back with :func:`remember` after the change has been committed.
    """
    token = token_of(match, deal)
    hit = cache.take(ENGINE, match.pk)
    if hit is not None and hit[0].play == token.play:
        return hit[1]
    if hit is not None and deal is not None:
        caught_up = _catch_up(hit[0], hit[1], token, deal, game_of(match))
        if caught_up is not None:
            return caught_up
    return _rebuild(match, deal)


def _catch_up(
    old: Token, engine: MatchState, token: Token, deal: Deal, game: Game
) -> MatchState | None:
    """Bring a cached state of the same deal up to date by applying only the newer actions.

    Another process (a worker, another web process) moved the deal on; the log is append-only, so
    the cached state plus the actions after its sequence number is the committed state.
    """
    if (old.identity, old.deal, old.left) != (token.identity, token.deal, token.left):
        return None
    if old.seq > deal.seq or not engine.in_deal:
        return None
    rows = Action.objects.filter(deal=deal, seq__gt=old.seq, seq__lte=deal.seq).order_by("seq")
    try:
        for row in rows.only("seat", "kind", "cards", "system", "extra"):
            engine.apply_logged(to_engine(row, game))
    except EngineError:
        return None
    if engine.deal_info(engine.deals_started).actions != deal.seq:
        return None
    return engine


def _rebuild(match: Match, deal: Deal | None) -> MatchState:
    """Replay ``match`` up to ``deal``'s sequence number (actions committed since are left out:
    the state is exactly the one these rows name)."""
    game = game_of(match)
    engine = game.new_match(
        seed=match.seed,
        options=rules_of(match),
        base=match.base_score,
        first_deal=match.first_deal,
    )
    # the deals first, then their actions by deal id: an index read whatever the planner's
    # statistics say (joined to the deals, PostgreSQL without fresh statistics read the whole
    # action log, every match's, to rebuild one match)
    if match.current_deal > 1 or (deal is not None and deal.seq > 0):
        numbers = dict(
            Deal.objects.filter(match=match, number__lte=match.current_deal).values_list(
                "id", "number"
            )
        )
    else:  # no action yet (a match's first deal just dealt, as a worker first meets it)
        numbers = {}
    rows = Action.objects.filter(deal_id__in=list(numbers)) if numbers else Action.objects.none()
    if deal is not None:
        rows = rows.exclude(deal_id=deal.pk, seq__gt=deal.seq)
    values = sorted(
        rows.values_list("deal_id", "seq", "seat", "kind", "cards", "system", "extra"),
        key=lambda row: (numbers[row[0]], row[1]),
    )
    by_deal: dict[int, list[GameAction]] = {}
    try:
        for deal_id, _seq, seat, kind, cards, system, extra in values:
            action = _action(game, seat, kind, cards, system, extra)
            by_deal.setdefault(numbers[deal_id], []).append(action)
        for number in range(1, match.current_deal + 1):
            engine.start_deal()
            for action in by_deal.get(number, []):
                engine.apply_logged(action)
        if match.left_seat is not None:
            engine.leave(match.left_seat)
    except EngineError as exc:
        raise StateError(f"match {match.pk} does not replay: {exc}") from exc
    return engine


def remember(match: Match, deal: Deal | None, engine: MatchState) -> None:
    """Keep ``engine`` as the state named by the (committed) rows ``match`` and ``deal``."""
    cache.put(ENGINE, match.pk, token_of(match, deal), engine)


def forget(match_id: int | None = None) -> None:
    """Drop the cached engine state of one match, or of every match."""
    cache.forget(ENGINE, match_id)
