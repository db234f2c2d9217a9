"""Seeding by rating (an event's ``seed_by_rating``) and teams balanced by rating at an import:
the ``all`` scope's ratings (seeding is the organizers' tool and sees every event), an unrated
player counting as a new one (1500)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ratings import formula
from ratings.models import Rating, Scope
from tournaments.models import Event, Team, TeamMember

__all__ = ["balanced_teams", "players_seeded", "spread", "teams_seeded", "ties_by_rating"]

T = TypeVar("T")
NEW = formula.display(formula.DEFAULT.mu, formula.DEFAULT.sigma)


def ratings_of(game: str, player_ids: Sequence[int]) -> dict[int, int]:
    """Each player's shown rating in ``game`` (1500 for an unrated one)."""
    found = dict(
        Rating.objects.filter(game=game, scope=Scope.ALL, player_id__in=player_ids).values_list(
            "player_id", "display"
        )
    )
    return {p: found.get(p, NEW) for p in player_ids}


def spread(ordered: Sequence[T], group: int) -> list[T]:
    """``ordered`` (best first) so that each run of ``group`` takes one from each band of the
    order: pairs become 1 v n/2+1, 2 v n/2+2...; tables of four take one from each quarter.

    >>> spread([1, 2, 3, 4, 5, 6, 7, 8], 2)
    [1, 5, 2, 6, 3, 7, 4, 8]
    >>> spread(list(range(1, 9)), 4)
    [1, 3, 5, 7, 2, 4, 6, 8]
    """
    runs = -(-len(ordered) // group)
    out = []
    for run in range(runs):
        for band in range(group):
            index = band * runs + run
            if index < len(ordered):
                out.append(ordered[index])
    return out


def _team_strengths(event: Event, team_ids: Sequence[int]) -> dict[int, float]:
    members: dict[int, list[int]] = {t: [] for t in team_ids}
    for team, player in TeamMember.objects.filter(team_id__in=team_ids).values_list(
        "team_id", "player_id"
    ):
        members[team].append(player)
    ratings = ratings_of(event.game, [p for ps in members.values() for p in ps])
    return {
        t: (sum(ratings[p] for p in ps) / len(ps) if ps else float(NEW))
        for t, ps in members.items()
    }


def teams_seeded(*, event: Event, teams: Sequence[Team]) -> list[Team]:
    """Round 1's order of ``teams`` (in a fixed shuffle): strongest first by their members'
    average rating, spread so that the top half meets the bottom half."""
    strength = _team_strengths(event, [t.pk for t in teams])
    ordered = sorted(teams, key=lambda t: -strength[t.pk])  # stable: the shuffle breaks ties
    return spread(ordered, 2)


def players_seeded(*, event: Event, players: Sequence[Any]) -> list[Any]:
    """Round 1's order of an individual event's ``players``: by rating, spread so that every
    table takes one player from each band."""
    ratings = ratings_of(event.game, [p.pk for p in players])
    ordered = sorted(players, key=lambda p: -ratings[p.pk])
    return spread(ordered, event.table_size)


def ties_by_rating(*, event: Event, ranked: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """A knockout's ``(rank, entrant)`` order with entrants of equal rank ordered by rating
    (a team by its members' average), so that the cut and the seeds follow it."""
    ids = [pk for _rank, pk in ranked]
    if event.is_individual:
        strength = {p: float(v) for p, v in ratings_of(event.game, ids).items()}
    else:
        strength = _team_strengths(event, ids)
    return sorted(ranked, key=lambda row: (row[0], -strength[row[1]]))


def balanced_teams(
    *,
    game: str,
    players: Sequence[T],
    size: int = 3,
    key: Callable[[T], int | None] = lambda p: getattr(p, "pk", None),
) -> list[list[T]]:
    """``players`` of one unit formed into teams of ``size`` whose average ratings are as close
    as a snake draft makes them: by rating, team 1 takes the best, team n the next... and back.
    Players left over (fewer than ``size``) form the last, shorter team. ``key`` gives a player's
    id (None: a new player, rated as one)."""
    count = len(players) // size
    if count < 2:
        return [list(players[i : i + size]) for i in range(0, len(players), size)]
    ids = [key(p) for p in players]
    ratings = ratings_of(game, [i for i in ids if i is not None])
    rating = [ratings[i] if i is not None else NEW for i in ids]
    order = sorted(range(len(players)), key=lambda i: -rating[i])  # stable: file order on ties
    ordered = [players[i] for i in order]
    drafted, rest = ordered[: count * size], ordered[count * size :]
    teams: list[list[T]] = [[] for _ in range(count)]
    for i, player in enumerate(drafted):
        lap, place = divmod(i, count)
        teams[place if lap % 2 == 0 else count - 1 - place].append(player)
    if rest:
        teams.append(rest)
    return teams
