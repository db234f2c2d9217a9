"""Writes of the ratings: bring the rated matches up to date with the tallies, and compute the
ratings from a match on (``ratings_recompute``). Incremental updates, corrections and rebuilds
all run the same replay from the earliest match that changed, so a rebuild from the first match
gives exactly the ratings kept incrementally.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from engine.registry import get_game
from ratings import formula
from ratings.models import RatedMatch, Rating, RatingBook, RatingChange, Scope
from tournaments.models import PairingTally, PlayerTally

__all__ = ["match_teams", "rated_matches_sync", "ratings_rebuild", "ratings_recompute"]

CHUNK = 2000
Progress = Callable[[int, int], None]


def match_teams(
    game_key: str, seats: Sequence[tuple[int, int, int]], winner_side: str = ""
) -> tuple[list[list[int]], list[int]] | None:
    """The teams and ranks of a finished match from its seats ``(seat, player, points)``.

    A game with fixed sides (its ``side_of``) rates its sides as teams, ranked by the winner the
    match names, then by the side's points; any other game rates each seat alone, ranked by its
    points, equal points sharing the place. None when fewer than two teams played.
    """
    game = get_game(game_key)
    ordered = sorted(seats)
    if game.fixed_sides:
        sides = [s for s in game.sides if any(game.side_of(seat) == s for seat, _p, _x in ordered)]
        teams = [[p for seat, p, _x in ordered if game.side_of(seat) == s] for s in sides]
        scores = [sum(x for seat, _p, x in ordered if game.side_of(seat) == s) for s in sides]
        winner = sides.index(winner_side) if winner_side in sides else None
    else:
        teams = [[p] for _seat, p, _x in ordered]
        scores = [x for _seat, _p, x in ordered]
        winner = None
    if len(teams) < 2:
        return None
    return teams, formula.rank_scores(scores, winner=winner)


@dataclass(frozen=True, slots=True)
class _Wanted:
    pairing_id: int
    event_id: int
    game: str
    public: bool
    played_at: datetime
    teams: list[list[int]]
    ranks: list[int]


def _wanted(pairing_ids: Sequence[int]) -> tuple[dict[int, _Wanted], dict[int, str]]:
    """The rated match each finished pairing should have, and every pairing's game."""
    rows = list(
        PairingTally.objects.filter(pairing_id__in=pairing_ids).values_list(
            "pairing_id",
            "status",
            "winner_side",
            "event_id",
            "event__game",
            "event__is_private",
            "match__finished_at",
        )
    )
    seats: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for pairing_id, seat, player_id, points in PlayerTally.objects.filter(
        tally__pairing_id__in=pairing_ids
    ).values_list("tally__pairing_id", "seat", "player_id", "points"):
        seats[pairing_id].append((seat, player_id, points))
    wanted: dict[int, _Wanted] = {}
    games: dict[int, str] = {}
    for pairing_id, status, winner, event_id, game, private, finished_at in rows:
        games[pairing_id] = game
        if status != PairingTally.Status.FINISHED:
            continue
        teams = match_teams(game, seats[pairing_id], winner)
        if teams is None:
            continue
        wanted[pairing_id] = _Wanted(
            pairing_id, event_id, game, not private, finished_at or timezone.now(), *teams
        )
    return wanted, games


def _book(game: str) -> RatingBook:
    RatingBook.objects.get_or_create(game=game)
    return RatingBook.objects.select_for_update().get(game=game)


def rated_matches_sync(
    *, pairing_ids: Iterable[int], progress: Progress | None = None, rebuild: str = ""
) -> int:
    """Bring the rated matches of ``pairing_ids`` up to date with their tallies (new ones take
    the next numbers of their game, in the order their matches finished; a changed one keeps its
    number; one no longer finished is dropped), then compute each game's ratings again from its
    earliest changed match (``rebuild``: that game from its first match). Returns how many rated
    matches changed."""
    changed = 0
    ids = sorted(set(pairing_ids))
    starts: dict[str, int] = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        wanted, games = _wanted(chunk)
        with transaction.atomic():
            books = {g: _book(g) for g in sorted(set(games.values()))}
            existing = {m.pairing_id: m for m in RatedMatch.objects.filter(pairing_id__in=chunk)}
            new = sorted(
                (w for w in wanted.values() if w.pairing_id not in existing),
                key=lambda w: (w.played_at, w.pairing_id),
            )
            updated: list[RatedMatch] = []
            gone: list[int] = []
            for pairing_id, match in existing.items():
                w = wanted.get(pairing_id)
                if w is None:
                    gone.append(match.pk)
                elif (match.teams, match.ranks, match.public) != (w.teams, w.ranks, w.public):
                    match.teams, match.ranks, match.public = w.teams, w.ranks, w.public
                    updated.append(match)
                else:
                    continue
                starts[match.game] = min(starts.get(match.game, match.seq), match.seq)
            created = []
            for w in new:
                book = books[w.game]
                created.append(
                    RatedMatch(
                        pairing_id=w.pairing_id,
                        event_id=w.event_id,
                        game=w.game,
                        seq=book.next_seq,
                        public=w.public,
                        played_at=w.played_at,
                        teams=w.teams,
                        ranks=w.ranks,
                    )
                )
                starts[w.game] = min(starts.get(w.game, book.next_seq), book.next_seq)
                book.next_seq += 1
            RatedMatch.objects.filter(pk__in=gone).delete()
            _rows_insert(RatedMatch, created)
            RatedMatch.objects.bulk_update(updated, ["teams", "ranks", "public"], batch_size=500)
            for book in books.values():
                book.save(update_fields=["next_seq"])
            changed += len(gone) + len(created) + len(updated)
        if progress is not None:
            progress(min(start + CHUNK, len(ids)), len(ids))
    if rebuild:
        starts[rebuild] = 1
    for game, seq in sorted(starts.items()):
        ratings_recompute(game=game, from_seq=seq)
    return changed


def ratings_rebuild(*, game: str, progress: Progress | None = None) -> int:
    """Compute every rating of ``game`` again from its recorded matches; returns the number of
    rated matches."""
    ids = list(
        PairingTally.objects.filter(event__game=game)
        .order_by()
        .values_list("pairing_id", flat=True)
    )
    stale = RatedMatch.objects.filter(game=game).exclude(pairing_id__in=ids)
    stale.delete()
    rated_matches_sync(pairing_ids=ids, progress=progress, rebuild=game)
    return RatedMatch.objects.filter(game=game).count()


def _chunks(items: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


def _start_states(
    game: str, scope: str, from_seq: int, involved: set[int]
) -> tuple[dict[int, formula.State], set[int]]:
    """The state before match ``from_seq`` of every player of the matches from it on and of
    every player rated from it on (their rating when it was last changed before, else their
    last change before it); and the players rated from it on (those a replay may leave)."""
    states: dict[int, formula.State] = {}
    redo: list[int] = []
    later = set(
        Rating.objects.filter(game=game, scope=scope, last_seq__gte=from_seq).values_list(
            "player_id", flat=True
        )
    )
    wanted = sorted(involved | later)
    for chunk in _chunks(wanted):
        for player, mu, sigma, matches, last_seq in Rating.objects.filter(
            game=game, scope=scope, player_id__in=chunk
        ).values_list("player_id", "mu", "sigma", "matches", "last_seq"):
            if last_seq < from_seq:
                states[player] = formula.State(mu, sigma, matches)
            else:
                redo.append(player)
    if from_seq > 1:
        for chunk in _chunks(redo):
            for player, mu, sigma, matches in (
                RatingChange.objects.filter(
                    game=game, scope=scope, player_id__in=chunk, seq__lt=from_seq
                )
                .order_by("player_id", "seq")
                .values_list("player_id", "mu", "sigma", "matches")
            ):
                states[player] = formula.State(mu, sigma, matches)
    return states, later


@transaction.atomic
def ratings_recompute(*, game: str, from_seq: int = 1) -> int:
    """Compute the ratings of ``game`` from its match ``from_seq`` on, in both scopes; returns
    the number of matches replayed. Locks the game's book, so replays never interleave. While
    the game has no private event's match, both scopes are the same replay, made once."""
    book = _book(game)
    if RatedMatch.objects.filter(game=game, public=False).exists():
        replayed = _replay(game, [Scope.ALL], from_seq)
        _replay(game, [Scope.PUBLIC], from_seq)
    else:
        replayed = _replay(game, [Scope.ALL, Scope.PUBLIC], from_seq)
    book.version += 1
    book.save(update_fields=["version"])
    return replayed


_CHANGE_COLUMNS = (
    "rated_match_id",
    "player_id",
    "game",
    "scope",
    "seq",
    "mu",
    "sigma",
    "display",
    "matches",
)


def _rows_insert(model: Any, objs: Sequence[Any]) -> None:
    """Insert unsaved instances of ``model`` with one prepared statement (their fields prepare
    the values: JSON, dates), without bulk_create's per-row SQL building."""
    if not objs:
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    rows = [
        tuple(f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields)
        for obj in objs
    ]
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def _changes_insert(rows: list[tuple[Any, ...]]) -> None:
    """Insert rating changes as plain rows (the ORM's bulk_create spends most of a rebuild
    building model instances)."""
    if not rows:
        return
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _CHANGE_COLUMNS)
    marks = ", ".join(["%s"] * len(_CHANGE_COLUMNS))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def _replay(game: str, scopes: list[str], from_seq: int) -> int:
    """Replay ``game``'s matches from ``from_seq`` (public ones only for the public scope) and
    write the changes and ratings of every scope in ``scopes`` (which replay the same matches)."""
    public_only = scopes == [Scope.PUBLIC]
    matches = RatedMatch.objects.filter(game=game, seq__gte=from_seq)
    if public_only:
        matches = matches.filter(public=True)
    rows = list(matches.order_by("seq").values_list("id", "seq", "played_at", "teams", "ranks"))
    involved = {p for row in rows for team in row[3] for p in team}
    states, later = _start_states(game, scopes[0], from_seq, involved)
    before = set(states)
    RatingChange.objects.filter(game=game, scope__in=scopes, seq__gte=from_seq).delete()
    last: dict[int, tuple[int, datetime]] = {}
    changes: list[tuple[Any, ...]] = []
    count = 0
    for match_id, seq, played_at, teams, ranks in rows:
        count += 1
        for player, state in formula.rate(teams, ranks, states).items():
            states[player] = state
            last[player] = (seq, played_at)
            shown = formula.display(state.mu, state.sigma)
            for scope in scopes:
                changes.append(
                    (
                        match_id,
                        player,
                        game,
                        scope,
                        seq,
                        state.mu,
                        state.sigma,
                        shown,
                        state.matches,
                    )
                )
        if len(changes) >= 5 * CHUNK:
            _changes_insert(changes)
            changes = []
    _changes_insert(changes)
    for scope in scopes:
        _ratings_write(game, scope, from_seq, states, before, dict(last), later)
    return count


def _ratings_write(
    game: str,
    scope: str,
    from_seq: int,
    states: dict[int, formula.State],
    before: set[int],
    last: dict[int, tuple[int, datetime]],
    later: set[int],
) -> None:
    """Write the ratings of the players replayed or rated from the replay's first match on
    (``later``): a player whose every match from there is gone falls back to their state
    before it, or loses their rating."""
    touched = set(last) | later
    rows = []
    orphans = []
    for player in touched:
        if player not in last:
            if player not in before:
                orphans.append(player)
                continue
            prev = (
                RatingChange.objects.filter(
                    game=game, scope=scope, player_id=player, seq__lt=from_seq
                )
                .order_by("-seq")
                .values_list("seq", "rated_match__played_at")
                .first()
            )
            if prev is None:
                orphans.append(player)
                continue
            last[player] = prev
        state = states[player]
        rows.append(
            Rating(
                player_id=player,
                game=game,
                scope=scope,
                mu=state.mu,
                sigma=state.sigma,
                display=formula.display(state.mu, state.sigma),
                matches=state.matches,
                last_seq=last[player][0],
                last_played_at=last[player][1],
            )
        )
    for chunk in _chunks(orphans):
        Rating.objects.filter(game=game, scope=scope, player_id__in=chunk).delete()
    Rating.objects.bulk_create(
        rows,
        batch_size=500,
        update_conflicts=True,
        unique_fields=["player", "game", "scope"],
        update_fields=["mu", "sigma", "display", "matches", "last_seq", "last_played_at"],
    )
