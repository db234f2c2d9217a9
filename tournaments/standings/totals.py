"""The standings' figures, summed in the database from the tallies: teams, players, units and
the meet's placement, ranked by the pure rules of tournaments.standings.ranking."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import (
    Case,
    F,
    JSONField,
    QuerySet,
    Value,
    When,
)

from engine.registry import get_game

if TYPE_CHECKING:
    pass
from tournaments.events.memberships import player_units
from tournaments.models import (
    Event,
    PairingTally,
    PlayerTotal,
    Registration,
    Round,
    RoundEntry,
    Team,
    TeamMember,
)
from tournaments.standings import ranking as standings
from tournaments.standings.ranking import (
    MatchResult,
    PlayerFigures,
    PlayerStanding,
    PlayerUnitStanding,
    TeamStanding,
    TeamTotals,
    UnitStanding,
)


def event_match_results(*, event: Event) -> tuple[list[MatchResult], list[int]]:
    """Return every pairing's result so far (from the tallies) and the teams with a bye, one per
    bye."""
    results = [
        MatchResult(a, b, pa, pb, la, lb, w, status == PairingTally.Status.FINISHED)
        for a, b, pa, pb, la, lb, w, status in PairingTally.objects.filter(event=event)
        .exclude(status=PairingTally.Status.PENDING)
        .values_list(
            "team_a_id",
            "team_b_id",
            "points_a",
            "points_b",
            "level_a",
            "level_b",
            "winner_side",
            "status",
        )
        .order_by()
    ]
    byes = list(
        RoundEntry.objects.filter(round__event=event, pairing__isnull=True, absent=False)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("team_id", flat=True)
    )
    return results, byes


def _byes_and_teams_sql() -> str:
    """The end of both shapes of :func:`_team_sums_sql`: each team's byes, and one row per team
    with its unit, its sums (the ``sums`` clause before this) and byes, in the order of ties."""
    team, entry, round_ = Team._meta.db_table, RoundEntry._meta.db_table, Round._meta.db_table
    return f"""byes AS (
            SELECT e.team_id AS team, COUNT(*) AS byes
            FROM {entry} e JOIN {round_} r ON r.id = e.round_id
            WHERE r.event_id = %(event)s AND r.status <> %(draft)s AND e.pairing_id IS NULL
                  AND NOT e.absent
            GROUP BY e.team_id
        )
        SELECT t.id, t.unit_id, sums.points, sums.highest, sums.gained, sums.played, sums.wins,
               sums.losses, byes.byes
        FROM {team} t LEFT JOIN sums ON sums.team = t.id LEFT JOIN byes ON byes.team = t.id
        WHERE t.event_id = %(event)s
        ORDER BY t.name, t.id"""


def _team_sums_sql_by_side() -> str:
    """:func:`_team_sums_sql` as SQLite runs it fastest: each side summed in its own grouping
    (which the index of its team column serves in order), then the two sums added up."""
    tally = PairingTally._meta.db_table
    side = (
        "SELECT team_{me}_id AS team, SUM(points_{me}) AS points, MAX(level_{me}) AS highest, "
        "SUM(level_{me}) AS levels, COUNT(*) AS meetings, "
        "SUM(CASE WHEN status = %(finished)s THEN 1 ELSE 0 END) AS played, "
        "SUM(CASE WHEN status = %(finished)s AND winner_side = '{mine}' THEN 1 ELSE 0 END) "
        "AS wins, "
        "SUM(CASE WHEN status = %(finished)s AND winner_side = '{theirs}' THEN 1 ELSE 0 END) "
        f"AS losses FROM {tally} WHERE event_id = %(event)s AND status <> %(pending)s "
        "GROUP BY team_{me}_id"
    )
    return f"""
        WITH sums AS (
            SELECT team, SUM(points) AS points, MAX(highest) AS highest,
                   SUM(levels) - {standings.START_LEVEL} * SUM(meetings) AS gained,
                   SUM(played) AS played, SUM(wins) AS wins, SUM(losses) AS losses
            FROM ({side.format(me="a", mine="A", theirs="B")}
                  UNION ALL {side.format(me="b", mine="B", theirs="A")}) AS sides
            GROUP BY team
        ),
        {_byes_and_teams_sql()}
    """


def _team_sums_sql(vendor: str) -> str:
    """Return the SQL that sums every team's tallies (both sides) and byes, with its unit, one row
    per team in the order of ties (name, then id).

    The tallies are read once: each row is taken twice (a two-row table of sides), as team A's
    and as team B's, and summed by team in one grouping (about half the time of summing each
    side in its own scan and adding the two sums up, on PostgreSQL; SQLite groups by sorting,
    and sums each side faster in the order of its team's index: see :func:`_team_sums_sql_by_side`).
    """
    if vendor != "postgresql":
        return _team_sums_sql_by_side()
    tally = PairingTally._meta.db_table

    def mine(a: str, b: str) -> str:
        return f"CASE WHEN s.side = 0 THEN t.{a} ELSE t.{b} END"

    finished = "t.status = %(finished)s"
    return f"""
        WITH sides AS (
            SELECT 0 AS side, 'A' AS mine, 'B' AS theirs UNION ALL SELECT 1, 'B', 'A'
        ),
        sums AS (
            SELECT {mine("team_a_id", "team_b_id")} AS team,
                   SUM({mine("points_a", "points_b")}) AS points,
                   MAX({mine("level_a", "level_b")}) AS highest,
                   SUM({mine("level_a", "level_b")}) - {standings.START_LEVEL} * COUNT(*)
                       AS gained,
                   SUM(CASE WHEN {finished} THEN 1 ELSE 0 END) AS played,
                   SUM(CASE WHEN {finished} AND t.winner_side = s.mine THEN 1 ELSE 0 END)
                       AS wins,
                   SUM(CASE WHEN {finished} AND t.winner_side = s.theirs THEN 1 ELSE 0 END)
                       AS losses
            FROM {tally} t CROSS JOIN sides s
            WHERE t.event_id = %(event)s AND t.status <> %(pending)s
            GROUP BY {mine("team_a_id", "team_b_id")}
        ),
        {_byes_and_teams_sql()}
    """


def _meetings_sql(with_winners: bool) -> str:
    """Return the SQL of the event's meetings (every tally begun): the two teams, and with
    ``with_winners`` which side won a finished match (1: A, 2: B, 0: none or not finished)."""
    won = (
        ", CASE WHEN status = %(finished)s AND winner_side = 'A' THEN 1"
        " WHEN status = %(finished)s AND winner_side = 'B' THEN 2 ELSE 0 END"
        if with_winners
        else ""
    )
    return (
        f"SELECT team_a_id, team_b_id{won} FROM {PairingTally._meta.db_table} "
        "WHERE event_id = %(event)s AND status <> %(pending)s"
    )


def _event_team_figures(
    *, event: Event
) -> tuple[list[TeamTotals], list[tuple[int, int]], dict[int, int | None]]:
    """Return :func:`event_team_totals` and each team's unit, in two queries.

    The sums (and byes, and units) come summed by the database, one row per team; opponents'
    points come from the list of meetings (two ids a match), which Python adds up faster than
    the database joins it back to the sums. Who won a meeting is read only when teams share
    points, wins and highest level and head-to-head breaks ties."""
    params: dict[str, Any] = {
        "event": event.pk,
        "finished": PairingTally.Status.FINISHED.value,
        "pending": PairingTally.Status.PENDING.value,
        "draft": Round.Status.DRAFT.value,
    }
    with connection.cursor() as cursor:
        cursor.execute(_team_sums_sql(connection.vendor), params)
        rows = cursor.fetchall()
    bye_points = event.bye_points
    start = standings.START_LEVEL
    totals: list[TeamTotals] = []
    units: dict[int, int | None] = {}
    match_points: dict[int | None, int] = {}
    for team, unit, points, highest, gained, played, wins, losses, byes in rows:
        # PostgreSQL sums of sums are numeric (Decimal in Python); no tally, no sum (None).
        points, played, wins, losses = (
            int(points or 0),
            int(played or 0),
            int(wins or 0),
            int(losses or 0),
        )
        byes = int(byes or 0)
        units[team] = unit
        match_points[team] = points
        totals.append(
            TeamTotals(
                team,
                points + byes * bye_points,
                wins + byes,
                played - wins - losses,
                losses,
                played,
                byes,
                max(start, int(highest or 0)),
                int(gained or 0),
            )
        )
    # The finished matches between teams that share points, wins and highest level are the only
    # ones head-to-head reads.
    tied = standings.primary_ties(totals)
    if not (tied and standings.HEAD_TO_HEAD in (event.tie_break_order or [])):
        tied = set()
    with connection.cursor() as cursor:
        # Tens of thousands of id pairs: read without building ORM rows.
        cursor.execute(_meetings_sql(with_winners=bool(tied)), params)
        meetings = cursor.fetchall()
    # Every meeting adds the opponent's points from matches (byes left out). A team of a tally
    # that is not one of the event's teams (none, in practice) counts no points.
    points_of: defaultdict[int | None, int] = defaultdict(int, match_points)
    opponents: defaultdict[int | None, int] = defaultdict(int)
    beaten: list[tuple[int, int]] = []
    if tied:
        for a, b, won in meetings:
            opponents[a] += points_of[b]
            opponents[b] += points_of[a]
            if won and a in tied and b in tied:
                beaten.append((a, b) if won == 1 else (b, a))
    else:
        for a, b in meetings:
            opponents[a] += points_of[b]
            opponents[b] += points_of[a]
    totals = [TeamTotals(*t[:-1], opponents[t.team]) for t in totals]  # _replace is slower
    return totals, beaten, units


def event_team_totals(*, event: Event) -> tuple[list[TeamTotals], list[tuple[int, int]]]:
    """Return the event's team totals, summed in the database from the tallies (the same figures
    as :func:`tournaments.standings.ranking.team_totals`), and the (winner, loser) pairs of the
    finished matches between teams that share points, wins and highest level (only when head-to-head
    breaks ties). Three queries at most, whatever the number of teams or deals."""
    totals, beaten, _units = _event_team_figures(event=event)
    return totals, beaten


def _ranked(
    event: Event, totals: list[TeamTotals], beaten: list[tuple[int, int]]
) -> list[TeamStanding]:
    tie_breaks = [t for t in (event.tie_break_order or []) if t in standings.TIE_BREAKS]
    return standings.rank_teams(totals, beaten=beaten, tie_breaks=tie_breaks)


def event_team_standings(*, event: Event) -> list[TeamStanding]:
    """Return the event's team standings (three queries at most, however many teams and deals)."""
    totals, beaten, _units = _event_team_figures(event=event)
    return _ranked(event, totals, beaten)


def _raw_rows(queryset: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """Return the rows of a ``values_list`` queryset as the database cursor gives them: thousands
    of rows without the ORM's per-row converters (a JSON value comes as its text: see
    :func:`_json`; numbers and ids need none)."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _json(value: Any) -> Any:
    """A JSON value read by :func:`_raw_rows`, decoded as the ORM's JSONField decodes it."""
    return json.loads(value) if isinstance(value, str | bytes | bytearray) else value


def _seat_figures(event: Event) -> list[tuple[str, bool]]:
    """The game's figures held by each seat, in the game's order (key, higher is better)."""
    return [
        (f.key, f.higher_is_better) for f in get_game(event.game).figure_specs if f.holder == "seat"
    ]


def event_player_standings(*, event: Event) -> list[PlayerStanding]:
    """Return the event's player standings from the players' running totals (a few queries).

    In an individual event every registered player is listed, a bye adds the event's bye points,
    and the game's own figures (rating, silver...) break ties after the points.
    """
    team_of: dict[int, int | None] = dict(
        _raw_rows(TeamMember.objects.filter(event=event).values_list("player_id", "team_id"))
    )
    byes: dict[int, int] = defaultdict(int)
    if event.is_individual:
        for player in RoundEntry.objects.filter(
            round__event=event, player__isnull=False, pairing__isnull=True
        ).values_list("player_id", flat=True):
            byes[player] += 1
        for player in Registration.objects.filter(event=event).values_list("player_id", flat=True):
            team_of.setdefault(player, None)
    totals = PlayerTotal.objects.filter(event=event)
    if event.is_individual:  # the registered players: a bot that filled a seat is not ranked
        totals = totals.filter(player__registrations__event=event)
    # The game's own figures are read only where a player has some (大怪路子's players have
    # none): decoding thousands of empty JSON objects cost more than the rest of the rows.
    rows = _raw_rows(
        totals.annotate(
            game_figures=Case(
                When(figures={}, then=Value(None)),
                default=F("figures"),
                output_field=JSONField(),
            )
        ).values_list(
            "player_id",
            "points",
            "deals",
            "places",
            "tributes_paid",
            "tributes_received",
            "game_figures",
        )
    )
    no_figures: dict[str, int] = {}
    bye_points = event.bye_points
    figures = [
        PlayerFigures(
            player,
            team_of.get(player),
            points + byes[player] * bye_points if byes else points,
            deals,
            places,
            paid,
            received,
            _json(game_figures) if game_figures is not None else no_figures,
            byes[player] if byes else 0,
        )
        for player, points, deals, places, paid, received, game_figures in rows
    ]
    seen = {f.player for f in figures}
    figures += [
        PlayerFigures(player=p, team=t, points=byes[p] * event.bye_points, byes=byes[p])
        for p, t in team_of.items()
        if p not in seen
    ]
    return standings.player_standings(figures, figure_order=_seat_figures(event))


def event_unit_standings(*, event: Event) -> list[UnitStanding] | list[PlayerUnitStanding]:
    """Return the event's unit standings: aggregated from its teams' standings (team events: the
    same three queries at most), or the best ``unit_best`` players of each unit added up
    (individual events)."""
    if event.is_individual:
        return standings.player_unit_standings(
            event_player_standings(event=event), player_units(event), best=event.unit_best
        )
    totals, beaten, units = _event_team_figures(event=event)
    return standings.unit_standings(_ranked(event, totals, beaten), units)
