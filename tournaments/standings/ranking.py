"""Standings of teams, players, units and a whole meet.

Pure: plain dataclasses in, plain dataclasses out, no Django (after Tabbycat's standings
generators). The figures come from games' results through tournaments' tallies; no rule of the
game is decided here (points, levels and the winner of a match are the engine's).

>>> rows = team_standings([1, 2], [MatchResult(1, 2, 6, -6, 3, 2, "A")])
>>> [(r.rank, r.team, r.points, r.wins) for r in rows]
[(1, 1, 6, 1), (2, 2, -6, 0)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import NamedTuple

__all__ = [
    "HEAD_TO_HEAD",
    "LEVELS_GAINED",
    "OPPONENTS_POINTS",
    "MatchResult",
    "TeamTotals",
    "MeetStanding",
    "PlayerFigures",
    "PlayerStanding",
    "TeamStanding",
    "UnitStanding",
    "meet_standings",
    "player_standings",
    "primary_ties",
    "rank_teams",
    "team_totals",
    "team_standings",
    "unit_standings",
]

HEAD_TO_HEAD = "head_to_head"
OPPONENTS_POINTS = "opponents_points"
LEVELS_GAINED = "levels_gained"
TIE_BREAKS = (HEAD_TO_HEAD, OPPONENTS_POINTS, LEVELS_GAINED)
START_LEVEL = 2


class MatchResult(NamedTuple):
    """A pairing's match so far: team A (seats 0/2/4) against team B, points and final levels.

    ``winner`` is "A", "B" or "" (a draw, or not finished); wins count only when ``finished``.
    A named tuple, so that tens of thousands are cheap to build from database rows.
    """

    team_a: int
    team_b: int
    points_a: int
    points_b: int
    level_a: int = START_LEVEL
    level_b: int = START_LEVEL
    winner: str = ""
    finished: bool = True


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A team's row: rank (shared when every figure and tie-break is equal) and its figures."""

    rank: int
    team: int
    points: int
    wins: int
    draws: int
    losses: int
    played: int
    byes: int
    highest_level: int
    levels_gained: int
    opponents_points: int
    head_to_head: int
    tied: bool = False


def _ranked(
    groups: Iterable[list[int]],
) -> dict[int, tuple[int, bool]]:
    """Return each id's shared rank and whether it shares it, from groups in order."""
    ranks: dict[int, tuple[int, bool]] = {}
    position = 1
    for group in groups:
        for member in group:
            ranks[member] = (position, len(group) > 1)
        position += len(group)
    return ranks


def _split(group: list[int], value: Callable[[int], float]) -> list[list[int]]:
    """Sort ``group`` by ``value`` (highest first) and split it where the value changes."""
    values = {member: value(member) for member in group}
    ordered = sorted(group, key=lambda m: -values[m])
    out: list[list[int]] = []
    for member in ordered:
        if out and values[out[-1][0]] == values[member]:
            out[-1].append(member)
        else:
            out.append([member])
    return out


class TeamTotals(NamedTuple):
    """A team's figures over its matches and byes, before ranking."""

    team: int
    points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    played: int = 0
    byes: int = 0
    highest_level: int = START_LEVEL
    levels_gained: int = 0
    opponents_points: int = 0


def team_totals(
    teams: Sequence[int],
    results: Iterable[MatchResult],
    *,
    byes: Iterable[int] = (),
    bye_points: int = 0,
) -> tuple[list[TeamTotals], list[tuple[int, int]]]:
    """Return each team's totals (in the order of ``teams``) and the (winner, loser) pairs of the
    finished matches.

    A bye adds ``bye_points`` and a win. Matches still playing count their points and levels so
    far, and no win, draw or loss. Opponents' points add up every opponent's points from matches
    (byes left out), once per meeting.
    """
    index = {team: i for i, team in enumerate(teams)}
    points = dict.fromkeys(teams, 0)
    wins = dict.fromkeys(teams, 0)
    draws = dict.fromkeys(teams, 0)
    losses = dict.fromkeys(teams, 0)
    played = dict.fromkeys(teams, 0)
    bye_count = dict.fromkeys(teams, 0)
    highest = dict.fromkeys(teams, START_LEVEL)
    gained = dict.fromkeys(teams, 0)
    meetings: list[tuple[int, int]] = []
    beaten: list[tuple[int, int]] = []
    for a, b, pa, pb, la, lb, winner, finished in results:
        if a not in index or b not in index:
            continue
        points[a] += pa
        points[b] += pb
        if la > highest[a]:
            highest[a] = la
        if lb > highest[b]:
            highest[b] = lb
        gained[a] += la - START_LEVEL
        gained[b] += lb - START_LEVEL
        meetings.append((a, b))
        if finished:
            played[a] += 1
            played[b] += 1
            if winner == "A":
                wins[a] += 1
                losses[b] += 1
                beaten.append((a, b))
            elif winner == "B":
                wins[b] += 1
                losses[a] += 1
                beaten.append((b, a))
            else:
                draws[a] += 1
                draws[b] += 1
    opp_points = dict.fromkeys(teams, 0)
    for a, b in meetings:
        opp_points[a] += points[b]
        opp_points[b] += points[a]
    for team in byes:
        if team in index:
            points[team] += bye_points
            wins[team] += 1
            bye_count[team] += 1
    totals = [
        TeamTotals(
            t,
            points[t],
            wins[t],
            draws[t],
            losses[t],
            played[t],
            bye_count[t],
            highest[t],
            gained[t],
            opp_points[t],
        )
        for t in teams
    ]
    return totals, beaten


def _primary(t: TeamTotals) -> tuple[int, int, int]:
    return (t.points, t.wins, t.highest_level)


def primary_ties(totals: Iterable[TeamTotals]) -> set[int]:
    """Return the teams that share points, wins and highest level with another team: the only
    ones whose head-to-head results can matter."""
    groups: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    for t in totals:
        groups[_primary(t)].append(t.team)
    return {team for group in groups.values() if len(group) > 1 for team in group}


def rank_teams(
    totals: Sequence[TeamTotals],
    *,
    beaten: Iterable[tuple[int, int]] = (),
    tie_breaks: Sequence[str] = TIE_BREAKS,
) -> list[TeamStanding]:
    """Return the standings of teams with these totals, best first.

    Order: points, match wins, highest level reached, then ``tie_breaks`` in order: head-to-head
    (match wins against the other teams still tied, from ``beaten`` = (winner, loser) pairs, of
    which those between teams of :func:`primary_ties` are enough), opponents' points, levels
    gained. Teams equal on all of them share a rank and keep the order of ``totals``. Raises
    ValueError for an unknown tie-break.
    """
    unknown = [t for t in tie_breaks if t not in TIE_BREAKS]
    if unknown:
        raise ValueError(f"Unknown tie-break: {', '.join(unknown)}.")
    by_team = {t.team: t for t in totals}
    index = {t.team: i for i, t in enumerate(totals)}
    beat: dict[int, list[int]] = defaultdict(list)
    for winner, loser in beaten:
        beat[winner].append(loser)
    h2h: dict[int, int] = dict.fromkeys(by_team, 0)

    def head_to_head_in(group: list[int]) -> Callable[[int], float]:
        members = set(group)
        for team in group:
            h2h[team] = sum(1 for o in beat[team] if o in members)
        return lambda team: h2h[team]

    # One sort key per team (points, wins, highest level, best first; then the order of
    # ``totals``), and rows built positionally: a thousand teams on every page view.
    keys = {
        team: (-t.points, -t.wins, -t.highest_level, index[team]) for team, t in by_team.items()
    }
    order = sorted(by_team, key=keys.__getitem__)
    groups: list[list[int]] = []
    previous: tuple[int, ...] | None = None
    for team in order:
        primary = keys[team][:3]
        if primary == previous:
            groups[-1].append(team)
        else:
            groups.append([team])
            previous = primary
    for tie_break in tie_breaks:
        next_groups: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                next_groups.append(group)
                continue
            if tie_break == HEAD_TO_HEAD:
                value = head_to_head_in(group)
            elif tie_break == OPPONENTS_POINTS:
                value = lambda team: by_team[team].opponents_points  # noqa: E731
            else:
                value = lambda team: by_team[team].levels_gained  # noqa: E731
            next_groups += _split(group, value)
        groups = next_groups
    groups = [sorted(g, key=index.__getitem__) if len(g) > 1 else g for g in groups]
    ranks = _ranked(groups)
    out: list[TeamStanding] = []
    for g in groups:
        for team in g:
            t = by_team[team]
            rank, tied = ranks[team]
            out.append(
                TeamStanding(
                    rank,
                    team,
                    t.points,
                    t.wins,
                    t.draws,
                    t.losses,
                    t.played,
                    t.byes,
                    t.highest_level,
                    t.levels_gained,
                    t.opponents_points,
                    h2h[team],
                    tied,
                )
            )
    return out


def team_standings(
    teams: Sequence[int],
    results: Iterable[MatchResult],
    *,
    byes: Iterable[int] = (),
    bye_points: int = 0,
    tie_breaks: Sequence[str] = TIE_BREAKS,
) -> list[TeamStanding]:
    """Return the teams' standings from their match results, best first: :func:`team_totals`
    then :func:`rank_teams` (see both). Raises ValueError for an unknown tie-break."""
    if any(t not in TIE_BREAKS for t in tie_breaks):
        rank_teams([], tie_breaks=tie_breaks)
    totals, beaten = team_totals(teams, results, byes=byes, bye_points=bye_points)
    return rank_teams(totals, beaten=beaten, tie_breaks=tie_breaks)


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """A player's totals over the event: points, deals, summed finishing places, tributes, the
    game's own figures (上海斗地主's rating, 小路子's silver...), and byes (individual events)."""

    player: int
    team: int | None
    points: int = 0
    deals: int = 0
    places: float = 0.0
    tributes_paid: int = 0
    tributes_received: int = 0
    figures: Mapping[str, int] = field(default_factory=dict)
    byes: int = 0


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    rank: int
    player: int
    team: int | None
    points: int
    deals: int
    average_place: float | None
    tributes_paid: int
    tributes_received: int
    tied: bool = False
    figures: Mapping[str, int] = field(default_factory=dict)
    byes: int = 0


def player_standings(
    figures: Sequence[PlayerFigures], *, figure_order: Sequence[tuple[str, bool]] = ()
) -> list[PlayerStanding]:
    """Return the players' standings: points, then the game's figures in ``figure_order``
    (``(key, higher_is_better)``: 上海斗地主's rating points, 小路子's silver), then the better
    (lower) average finishing place, then more deals; players equal on all of them share a rank.

    >>> [(r.rank, r.player) for r in player_standings([PlayerFigures(1, None, 3, 2, 7.0),
    ...                                                 PlayerFigures(2, None, 3, 2, 5.0)])]
    [(1, 2), (2, 1)]
    """

    # Each row is built once, with its rank: standings of thousands of players are read on every
    # page view of a running event. The average place is rounded once (it is both key and row),
    # the sort key is built inline (no call per player), and rows are made positionally.
    keyed: list[tuple[tuple[float, ...], PlayerFigures, float | None]] = []
    append = keyed.append
    for f in figures:
        deals = f.deals
        place = round(f.places / deals, 2) if deals else None
        last = 99.0 if place is None else place
        if figure_order:
            got = f.figures.get
            game = tuple(-got(name, 0) if higher else got(name, 0) for name, higher in figure_order)
            append(((-f.points, *game, last, -deals), f, place))
        else:
            append(((-f.points, last, -deals), f, place))
    keyed.sort(key=itemgetter(0))
    keys = [row[0] for row in keyed]
    count = len(keys)
    out: list[PlayerStanding] = []
    rank = 0
    previous: tuple[float, ...] | None = None
    for i, (k, f, place) in enumerate(keyed):
        same_as_previous = k == previous
        if not same_as_previous:
            rank = i + 1
        out.append(
            PlayerStanding(
                rank,
                f.player,
                f.team,
                f.points,
                f.deals,
                place,
                f.tributes_paid,
                f.tributes_received,
                same_as_previous or (i + 1 < count and keys[i + 1] == k),
                dict(f.figures),
                f.byes,
            )
        )
        previous = k
    return out


@dataclass(frozen=True, slots=True)
class UnitStanding:
    rank: int
    unit: int
    teams: int
    points: int
    wins: int
    best_rank: int
    tied: bool = False


def unit_standings(
    rows: Sequence[TeamStanding], team_units: Mapping[int, int | None]
) -> list[UnitStanding]:
    """Return the units' standings aggregated from their teams: points, then wins, then the best
    team's rank. Teams without a unit are left out.

    >>> rows = team_standings([1, 2, 3], [MatchResult(1, 2, 6, -6, winner="A")])
    >>> [(u.rank, u.unit, u.points) for u in unit_standings(rows, {1: 10, 2: 20, 3: 20})]
    [(1, 10, 6), (2, 20, -6)]
    """
    totals: dict[int, list[int]] = {}
    for row in rows:
        unit = team_units.get(row.team)
        if unit is None:
            continue
        t = totals.setdefault(unit, [0, 0, 0, row.rank])
        t[0] += 1
        t[1] += row.points
        t[2] += row.wins
        t[3] = min(t[3], row.rank)

    def key(unit: int) -> tuple[int, int, int]:
        _teams, pts, won, best = totals[unit]
        return (-pts, -won, best)

    ordered = sorted(totals, key=lambda u: (key(u), u))
    out: list[UnitStanding] = []
    for i, unit in enumerate(ordered):
        teams_, pts, won, best = totals[unit]
        tied = i > 0 and key(ordered[i - 1]) == key(unit)
        rank = out[-1].rank if tied else i + 1
        if tied:
            out[-1] = replace(out[-1], tied=True)
        out.append(UnitStanding(rank, unit, teams_, pts, won, best, tied))
    return out


@dataclass(frozen=True, slots=True)
class PlayerUnitStanding:
    """A unit's standing in an individual event: the points of its best players added up."""

    rank: int
    unit: int
    players: int
    counted: int
    points: int
    best_rank: int
    tied: bool = False


def player_unit_standings(
    rows: Sequence[PlayerStanding], player_units: Mapping[int, int | None], *, best: int
) -> list[PlayerUnitStanding]:
    """Return the units' standings of an individual event: each unit adds up the points of its
    ``best`` best-placed players (how company events rank departments), then the better best
    player breaks a tie. Players without a unit are left out.

    >>> rows = player_standings([PlayerFigures(1, None, 9), PlayerFigures(2, None, 5),
    ...                          PlayerFigures(3, None, 4), PlayerFigures(4, None, -18)])
    >>> [(u.unit, u.points, u.counted) for u in player_unit_standings(
    ...     rows, {1: 10, 2: 20, 3: 20, 4: 10}, best=1)]
    [(10, 9, 1), (20, 5, 1)]
    """
    members: dict[int, list[PlayerStanding]] = defaultdict(list)
    for row in rows:  # rows come best first
        unit = player_units.get(row.player)
        if unit is not None:
            members[unit].append(row)
    totals = {
        unit: (sum(r.points for r in found[:best]), min(r.rank for r in found), len(found))
        for unit, found in members.items()
    }

    def key(unit: int) -> tuple[int, int]:
        points, best_rank, _players = totals[unit]
        return (-points, best_rank)

    ordered = sorted(totals, key=lambda u: (key(u), u))
    out: list[PlayerUnitStanding] = []
    for i, unit in enumerate(ordered):
        points, best_rank, players = totals[unit]
        tied = i > 0 and key(ordered[i - 1]) == key(unit)
        rank = out[-1].rank if tied else i + 1
        if tied:
            out[-1] = replace(out[-1], tied=True)
        out.append(
            PlayerUnitStanding(rank, unit, players, min(best, players), points, best_rank, tied)
        )
    return out


@dataclass(frozen=True, slots=True)
class MeetStanding:
    """A unit's placement points across a meet's events, and its places (event, place) in each."""

    rank: int
    unit: int
    points: float
    places: tuple[tuple[int, int], ...]
    tied: bool = False


def meet_standings(
    events: Mapping[int, Sequence[tuple[int, int | None]]], placement_points: Sequence[int]
) -> list[MeetStanding]:
    """Return the meet's unit leaderboard from each event's team ranking ``(rank, unit)``.

    A team placed n-th earns ``placement_points[n-1]`` for its unit (nothing past the table's
    end); teams sharing a place share the points of the places they cover, as a sports meet does.

    >>> [(m.unit, m.points) for m in meet_standings({1: [(1, 7), (2, 8), (2, 9)]}, [7, 5, 4])]
    [(7, 7.0), (8, 4.5), (9, 4.5)]
    """
    points: dict[int, float] = defaultdict(float)
    places: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for event, ranking in events.items():
        tied_count: dict[int, int] = defaultdict(int)
        for rank, _unit in ranking:
            tied_count[rank] += 1
        for rank, unit in ranking:
            if unit is None:
                continue
            covered = placement_points[rank - 1 : rank - 1 + tied_count[rank]]
            points[unit] += sum(covered) / tied_count[rank]
            places[unit].append((event, rank))
    units = sorted(points, key=lambda u: (-points[u], u))
    out: list[MeetStanding] = []
    for i, unit in enumerate(units):
        tied = i > 0 and points[units[i - 1]] == points[unit]
        rank = out[-1].rank if tied else i + 1
        if tied:
            out[-1] = replace(out[-1], tied=True)
        out.append(
            MeetStanding(rank, unit, round(points[unit], 2), tuple(sorted(places[unit])), tied)
        )
    return out
