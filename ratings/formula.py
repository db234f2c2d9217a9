"""The rating formula, pure (no Django): Weng-Lin's Plackett-Luce model from ``openskill``, the
order of a match's teams, and the one number people see. docs/ratings.md explains it.

A match is a list of teams (a team is a tuple of player ids; one player per team for the games
ranked by seat) and their ranks (0 is first; equal ranks share the place). Ratings are
``(mu, sigma)`` pairs; a player never seen starts at the model's ``(25, 25/3)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "DEFAULT",
    "PROVISIONAL_MATCHES",
    "State",
    "display",
    "rank_scores",
    "rate",
]

_MODEL = PlackettLuce()
#: matches a player needs before their rating loses its provisional mark
PROVISIONAL_MATCHES = 10
#: the shown number: BASE + SCALE * (mu - 3 sigma), so a new player shows 1500
BASE = 1500
SCALE = 20


@dataclass(frozen=True, slots=True)
class State:
    """A player's rating after some matches."""

    mu: float
    sigma: float
    matches: int = 0


DEFAULT = State(mu=_MODEL.mu, sigma=_MODEL.sigma, matches=0)


def display(mu: float, sigma: float) -> int:
    """The one number a page shows: the conservative ordinal ``mu - 3 sigma`` scaled.

    >>> display(25.0, 25.0 / 3)
    1500
    """
    return round(BASE + SCALE * (mu - 3 * sigma))


def rank_scores(scores: Sequence[float], *, winner: int | None = None) -> list[int]:
    """Ranks (0 first) of teams by their scores, higher first, equal scores sharing a rank; a
    ``winner`` (an index) is first whatever its score (大怪路子's 过A wins on levels).

    >>> rank_scores([3, -3, 3, 0])
    [0, 2, 0, 1]
    >>> rank_scores([-2, 2], winner=0)
    [0, 1]
    """
    keys = [(0 if i == winner else 1, -s) for i, s in enumerate(scores)]
    ordered = sorted(set(keys))
    return [ordered.index(k) for k in keys]


def rate(
    teams: Sequence[Sequence[int]], ranks: Sequence[int], states: Mapping[int, State]
) -> dict[int, State]:
    """The states of every player of a match after it, from their ``states`` before it (a
    missing player starts at :data:`DEFAULT`). Deterministic: the same input, the same floats."""
    before = [[states.get(p, DEFAULT) for p in team] for team in teams]
    model_teams = [[_MODEL.create_rating([s.mu, s.sigma]) for s in team] for team in before]
    after = _MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    out: dict[int, State] = {}
    for team, old_team, new_team in zip(teams, before, after, strict=True):
        for player, old, new in zip(team, old_team, new_team, strict=True):
            out[player] = State(mu=new.mu, sigma=new.sigma, matches=old.matches + 1)
    return out
