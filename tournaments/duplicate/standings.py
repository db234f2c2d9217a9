"""A duplicate event's standings (tournaments.formats' standings hooks): the ordinary rows, whose
figures count only published deals, with the duplicate score beside the points and ranked by it;
the Swiss draw and the meet's placement follow that ranking."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from tournaments.common.standings_rows import StandingsRow
from tournaments.duplicate.deals import DuplicateTotals, duplicate_totals
from tournaments.events.memberships import player_units
from tournaments.models import DuplicateScoring, Event, Team, TeamMember

__all__ = ["standings_columns", "standings_rank", "standings_rows"]


def standings_columns(event: Event, kind: str, columns: tuple[str, ...]) -> tuple[str, ...] | None:
    """A duplicate event's ``kind`` standings show the duplicate score before the points."""
    if not event.duplicate:
        return None
    found = list(columns)
    found.insert(found.index("points"), "duplicate")
    return tuple(found)


def standings_rank(event: Event) -> bool | None:
    """A duplicate event is ranked by its duplicate standings (the Swiss draw, the meet)."""
    return True if event.duplicate else None


def _number(value: float, scoring: str) -> float | int:
    return int(value) if scoring == DuplicateScoring.MATCHPOINTS else round(value, 2)


def standings_rows(event: Event, kind: str, rows: list[StandingsRow]) -> list[StandingsRow] | None:
    """A duplicate event's standings: ``rows`` (the ordinary ones, whose figures count only
    published deals) with the duplicate score as ``duplicate``, ranked by it, then by the points,
    then as before; None for an event that is not duplicate."""
    if not event.duplicate:
        return None
    totals = duplicate_totals(event=event)
    scoring = event.duplicate_scoring
    if kind == "team":
        scores = {row.entrant: totals.teams.get(row.entrant, 0.0) for row in rows}
    elif kind == "player" and event.is_individual:
        scores = {row.entrant: totals.players.get(row.entrant, 0.0) for row in rows}
    elif kind == "player":  # a team event's players share their side's score
        team_of = dict(TeamMember.objects.filter(event=event).values_list("player_id", "team_id"))
        scores = {row.entrant: totals.teams.get(team_of.get(row.entrant) or 0, 0.0) for row in rows}
    else:
        scores = _unit_scores(event, rows, totals)
    duplicate = {entrant: _number(value, scoring) for entrant, value in scores.items()}
    order = {row.entrant: i for i, row in enumerate(rows)}
    return _rerank(
        rows,
        duplicate,
        lambda r: (-float(duplicate[r.entrant]), -r.points, order[r.entrant]),
    )


def _unit_scores(
    event: Event, rows: list[StandingsRow], totals: DuplicateTotals
) -> dict[int, float]:
    """Units of a duplicate event: a team event's units add up their teams' duplicate scores; an
    individual event's add up their best ``unit_best`` players by duplicate score."""
    if event.is_individual:
        units = player_units(event)
        members: dict[int, list[float]] = defaultdict(list)
        for player in set(units):
            unit = units.get(player)
            if unit is not None:
                members[unit].append(totals.players.get(player, 0.0))
        return {
            row.entrant: sum(sorted(members.get(row.entrant, []), reverse=True)[: event.unit_best])
            for row in rows
        }
    by_unit: dict[int, float] = defaultdict(float)
    for team, unit in Team.objects.filter(event=event).values_list("pk", "unit_id"):
        if unit is not None:
            by_unit[unit] += totals.teams.get(team, 0.0)
    return {row.entrant: by_unit.get(row.entrant, 0.0) for row in rows}


def _rerank(
    rows: list[StandingsRow],
    duplicate: dict[int, float | int],
    key: Callable[[StandingsRow], tuple[float, int, int]],
) -> list[StandingsRow]:
    ordered = sorted(rows, key=key)
    ranked: list[StandingsRow] = []
    for i, row in enumerate(ordered):
        same_before = i > 0 and key(ordered[i - 1]) == key(row)
        same_after = i + 1 < len(ordered) and key(ordered[i + 1]) == key(row)
        rank = ranked[i - 1].rank if same_before else i + 1
        tied = same_before or same_after
        ranked.append(row.ranked(rank=rank, tied=tied, duplicate=duplicate[row.entrant]))
    return ranked
