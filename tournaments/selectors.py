"""Reads for tournaments' pages."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    JSONField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
)

from engine.registry import get_game

if TYPE_CHECKING:
    from games.models import Player
from tournaments.common.sorting import natural_key
from tournaments.events.memberships import player_units
from tournaments.events.sides import side_figure
from tournaments.knockout.selectors import event_final_placement
from tournaments.models import (
    Event,
    Meet,
    Pairing,
    PairingTally,
    PlayerTotal,
    Registration,
    ResultSubmission,
    Round,
    RoundEntry,
    Team,
    TeamMember,
    Unit,
)
from tournaments.standings import ranking as standings
from tournaments.standings.ranking import (
    MatchResult,
    MeetStanding,
    PlayerFigures,
    PlayerStanding,
    PlayerUnitStanding,
    TeamStanding,
    TeamTotals,
    UnitStanding,
)


def events_visible_to(user: User | AnonymousUser) -> QuerySet[Event]:
    """Return the events ``user`` may look at: public ones, plus private ones they organize."""
    events = Event.objects.all()
    if getattr(user, "is_superuser", False):
        return events
    if user.is_authenticated:
        return events.filter(Q(is_private=False) | Q(organizers=user)).distinct()
    return events.filter(is_private=False)


def table_rule(table_id: int, user: User | AnonymousUser | None) -> bool | None:
    """The tournaments' say on who sees a table of one of its rounds (see games.tables.access).

    A draft round's tables are its organizers' alone; a private event's tables are seen by its
    organizers and its registered players; other tables are for everyone (None: no objection).
    """
    row = (
        Pairing.objects.filter(table_id=table_id)
        .values("round__status", "round__event_id", "round__event__is_private")
        .first()
    )
    if row is None:
        return None  # not a table of an event (a practice table)
    is_draft = row["round__status"] == Round.Status.DRAFT
    if not is_draft and not row["round__event__is_private"]:
        return None
    if user is None or not user.is_authenticated:
        return False
    event_id = row["round__event_id"]
    if getattr(user, "is_superuser", False):
        return True
    if Event.objects.filter(pk=event_id, organizers=user).exists():
        return True
    if is_draft:
        return False
    return Registration.objects.filter(event_id=event_id, player__user=user).exists() or (
        TeamMember.objects.filter(event_id=event_id, player__user=user).exists()
    )


def meets_for_home(user: User | AnonymousUser) -> QuerySet[Meet]:
    """Return meets with at least one visible event, each with its visible events and their
    counts."""
    visible = events_visible_to(user)
    events = (
        Event.objects.filter(pk__in=visible.values("pk"))
        .annotate(
            team_count=Count("teams", distinct=True),
            player_count=Count(
                "registrations", filter=Q(registrations__withdrawn=False), distinct=True
            ),
        )
        .order_by("name")
    )
    return (
        Meet.objects.filter(events__in=visible.values("pk"))
        .distinct()
        .prefetch_related(Prefetch("events", queryset=events, to_attr="visible_events"))
    )


def event_teams(*, event: Event) -> QuerySet[Team]:
    """Return the event's teams with their unit and members (in order), by unit then name."""
    members = TeamMember.objects.select_related("player").order_by("order")
    return (
        event.teams.select_related("unit")
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("unit__name", "name")
    )


def event_players(*, event: Event) -> list[tuple[Player, str, bool]]:
    """Return an individual event's registered players as (player, unit name, withdrawn), by unit
    then name (the unit being the first the player belongs to, as standings count it)."""
    units = player_units(event)
    names = dict(
        Unit.objects.filter(pk__in={u for u in units.values() if u is not None}).values_list(
            "pk", "name"
        )
    )
    rows = [
        (reg.player, names.get(units.get(reg.player_id) or 0, ""), reg.withdrawn)
        for reg in Registration.objects.filter(event=event).select_related("player")
    ]
    rows.sort(key=lambda row: (natural_key(row[1]), natural_key(row[0].name), row[0].pk))
    return rows


# --- Standings ------------------------------------------------------------------------------------


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
        RoundEntry.objects.filter(round__event=event, pairing__isnull=True)
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
    as :func:`tournaments.standings.ranking.team_totals`), and the (winner, loser) pairs of the finished
    matches between teams that share points, wins and highest level (only when head-to-head
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


def meet_placement(*, event: Event) -> list[tuple[int, int | None]] | None:
    """The event's places with each placed entrant's unit, for the meet's placement points
    (None: no knockout stage; the meet then ranks the event as it always did)."""
    rows = event_final_placement(event=event)
    if rows is None:
        return None
    if event.is_individual:
        units = player_units(event)
    else:
        units = dict(event.teams.values_list("pk", "unit_id"))
    return [(row.place, units.get(row.entrant)) for row in rows]


def meet_unit_standings(
    *,
    meet: Meet,
    user: User | AnonymousUser | None = None,
    finished_only: bool = False,
) -> list[MeetStanding]:
    """Return the meet's unit leaderboard: placement points over its (visible) events; with
    ``finished_only`` an event gives placement points only once it has finished."""
    events = Event.objects.filter(meet=meet)
    if finished_only:
        events = events.filter(status=Event.Status.FINISHED)
    if user is not None:
        events = events.filter(pk__in=events_visible_to(user).values("pk"))
    rankings: dict[int, list[tuple[int, int | None]]] = {}
    for event in events:
        placement = meet_placement(event=event)  # knockout places first, then the group stage
        if placement is not None:
            rankings[event.pk] = placement
            continue
        if event.duplicate:  # ranked by the duplicate score
            rankings[event.pk] = duplicate_meet_ranking(event)
            continue
        if event.is_individual:
            rankings[event.pk] = [(row.rank, row.unit) for row in event_unit_standings(event=event)]
            continue
        totals, beaten, units = _event_team_figures(event=event)
        rankings[event.pk] = [
            (row.rank, units.get(row.team)) for row in _ranked(event, totals, beaten)
        ]
    return standings.meet_standings(rankings, list(meet.placement_points or []))


STANDINGS_KINDS = ("team", "player", "unit")

#: The columns of each standings table, in order (CSV header and API keys).
STANDINGS_COLUMNS: dict[str, tuple[str, ...]] = {
    "team": (
        "rank",
        "team_id",
        "team",
        "unit",
        "points",
        "wins",
        "draws",
        "losses",
        "played",
        "byes",
        "highest_level",
        "levels_gained",
        "opponents_points",
        "head_to_head",
        "tied",
    ),
    "player": (
        "rank",
        "player_id",
        "player",
        "team",
        "points",
        "deals",
        "average_place",
        "tributes_paid",
        "tributes_received",
        "byes",
        "tied",
    ),
    "unit": ("rank", "unit_id", "unit", "teams", "points", "wins", "best_rank", "tied"),
}


def standings_columns(event: Event, kind: str) -> tuple[str, ...]:
    """The columns of the event's ``kind`` standings: the players also show the game's own figures
    held by a seat (none in 大怪路子), and an individual event's units the players they count."""
    if event.duplicate:  # the duplicate score beside the points
        columns = list(_plain_columns(event, kind))
        columns.insert(columns.index("points"), "duplicate")
        return tuple(columns)
    return _plain_columns(event, kind)


def _plain_columns(event: Event, kind: str) -> tuple[str, ...]:
    if kind == "player":  # a team event's players, too, show the figures a seat holds
        base = STANDINGS_COLUMNS["player"]
        extra = tuple(key for key, _higher in _seat_figures(event))
        return (*base[:-1], *extra, base[-1])
    if kind == "unit" and event.is_individual:
        return ("rank", "unit_id", "unit", "players", "counted", "points", "best_rank", "tied")
    return STANDINGS_COLUMNS[kind]


def standings_kinds(event: Event) -> tuple[str, ...]:
    """The standings an event has: teams, players and units; an individual event has no teams."""
    return ("player", "unit") if event.is_individual else STANDINGS_KINDS


def figure_labeller(game: str, key: str) -> Callable[[int], str]:
    """How the game writes the values of one of its figures, looked up once for many rows."""
    spec = next((f for f in get_game(game).figure_specs if f.key == key), None)
    return spec.label if spec is not None else str


def figure_label(game: str, key: str, value: int) -> str:
    """How the game writes a value of one of its figures (大怪路子's level 14 is "A")."""
    return figure_labeller(game, key)(value)


def event_standings_rows(
    *, event: Event, kind: str, plain: bool = False
) -> list[dict[str, object]]:
    """Return the event's ``kind`` standings ("team", "player" or "unit") as plain rows with names,
    in a bounded number of queries. Raises ValueError for another kind. A duplicate event's rows
    carry the duplicate score and rank by it (``plain``: without it)."""
    if kind not in STANDINGS_KINDS:
        raise ValueError(f"kind is one of: {', '.join(STANDINGS_KINDS)}")
    if event.duplicate and not plain:
        from tournaments.duplicate import deals as duplicate

        plain_rows = event_standings_rows(event=event, kind=kind, plain=True)
        return duplicate.standings_rows(event=event, kind=kind, rows=plain_rows)
    teams = {
        pk: (name, unit) for pk, name, unit in event.teams.values_list("pk", "name", "unit__name")
    }
    if kind == "team":
        level = figure_labeller(event.game, side_figure(event.game) or "")
        return [
            {
                "rank": r.rank,
                "team_id": r.team,
                "team": teams[r.team][0],
                "unit": teams[r.team][1] or "",
                "points": r.points,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "played": r.played,
                "byes": r.byes,
                "highest_level": level(r.highest_level),
                "levels_gained": r.levels_gained,
                "opponents_points": r.opponents_points,
                "head_to_head": r.head_to_head,
                "tied": r.tied,
            }
            for r in event_team_standings(event=event)
        ]
    if kind == "player":
        from games.models import Player

        rows = event_player_standings(event=event)
        # The names of the event's players (those with totals, members, registered): a few more
        # than the rows may need, read by subqueries rather than an IN list of thousands of ids.
        names = dict(
            _raw_rows(
                Player.objects.filter(
                    Q(pk__in=PlayerTotal.objects.filter(event=event).values("player_id"))
                    | Q(pk__in=TeamMember.objects.filter(event=event).values("player_id"))
                    | Q(pk__in=Registration.objects.filter(event=event).values("player_id"))
                )
                .order_by()
                .values_list("pk", "name")
            )
        )
        extra = [key for key, _higher in _seat_figures(event)]
        return [
            {
                "rank": r.rank,
                "player_id": r.player,
                "player": names.get(r.player, ""),
                "team": teams[r.team][0] if r.team in teams else "",
                "points": r.points,
                "deals": r.deals,
                "average_place": r.average_place,
                "tributes_paid": r.tributes_paid,
                "tributes_received": r.tributes_received,
                "byes": r.byes,
                **{key: r.figures.get(key, 0) for key in extra},
                "tied": r.tied,
            }
            for r in rows
        ]
    from tournaments.models import Unit

    if event.is_individual:
        found = standings_units = event_unit_standings(event=event)
        unit_names = dict(
            Unit.objects.filter(pk__in=[r.unit for r in found]).values_list("pk", "name")
        )
        return [
            {
                "rank": r.rank,
                "unit_id": r.unit,
                "unit": unit_names.get(r.unit, ""),
                "players": r.players,
                "counted": r.counted,
                "points": r.points,
                "best_rank": r.best_rank,
                "tied": r.tied,
            }
            for r in standings_units
            if isinstance(r, PlayerUnitStanding)
        ]
    rows_u = event_unit_standings(event=event)
    unit_names = dict(
        Unit.objects.filter(pk__in=[r.unit for r in rows_u]).values_list("pk", "name")
    )
    return [
        {
            "rank": r.rank,
            "unit_id": r.unit,
            "unit": unit_names.get(r.unit, ""),
            "teams": r.teams,
            "points": r.points,
            "wins": r.wins,
            "best_rank": r.best_rank,
            "tied": r.tied,
        }
        for r in rows_u
        if isinstance(r, UnitStanding)
    ]


def round_tables(*, round: Round) -> QuerySet[Pairing]:
    """Return a round's tables in order with teams, units, table, tally and members in order."""
    members = TeamMember.objects.select_related("player").order_by("order")
    from games.models import TableSeat

    seats = TableSeat.objects.select_related("player").order_by("seat")
    pending = ResultSubmission.objects.filter(
        pairing=OuterRef("pk"), status=ResultSubmission.Status.PENDING
    )
    return (
        round.pairings.select_related("team_a__unit", "team_b__unit", "table", "tally")
        .annotate(result_pending=Exists(pending))
        .prefetch_related(
            Prefetch("team_a__members", queryset=members),
            Prefetch("team_b__members", queryset=members),
            Prefetch("table__seats", queryset=seats),
        )
        .order_by("number")
    )


def round_byes(*, round: Round) -> list[Team] | list[Player]:
    """Return the teams (or, in an individual event, the players) with a bye in ``round``."""
    if round.event.is_individual:
        from games.models import Player

        return list(
            Player.objects.filter(
                round_entries__round=round, round_entries__pairing__isnull=True
            ).order_by("name")
        )
    return list(
        Team.objects.filter(round_entries__round=round, round_entries__pairing__isnull=True)
    )


#: How long computed standings are reused at most; any new result makes them old at once (the
#: event's results_version is part of the key), so this only bounds staleness of names.
STANDINGS_CACHE_SECONDS = 30


def event_results_version(*, event: Event) -> int:
    """Return the event's results version as it is now (one query): any new or corrected result
    raises it, so it keys whatever is computed from the results."""
    version = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).first()
    return version or 0


def event_standings_cache_key(*, event: Event, version: int, kind: str) -> str:
    """Return the cache key prefix of ``kind`` standings at results ``version``."""
    return f"luzi:standings:{event.pk}:{event.created_at.timestamp()}:{version}:{kind}"


def event_standings_rows_cached(
    *, event: Event, kind: str, version: int | None = None
) -> list[dict[str, object]]:
    """Return :func:`event_standings_rows`, reused while the event's results are unchanged
    (``version``, read when not given, is the results version they were computed at)."""
    from django.core.cache import cache

    if version is None:
        version = event_results_version(event=event)
    key = event_standings_cache_key(event=event, version=version, kind=kind)
    rows = cache.get(key)
    if rows is None:
        rows = event_standings_rows(event=event, kind=kind)
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    return rows


def duplicate_swiss_order(event: Event, ordered: list[Any]) -> list[Any]:
    """A duplicate event's Swiss draw takes the teams (players) in the order of the duplicate
    standings; ``ordered`` (teams or players, by the plain standings) keeps its order among
    equals and for those the standings do not list."""
    kind, key = ("player", "player_id") if event.is_individual else ("team", "team_id")
    rank = {int(str(r[key])): i for i, r in enumerate(event_standings_rows(event=event, kind=kind))}
    position = {id(item): i for i, item in enumerate(ordered)}
    return sorted(ordered, key=lambda item: (rank.get(item.pk, len(rank)), position[id(item)]))


def duplicate_meet_ranking(event: Event) -> list[tuple[int, int | None]]:
    """(rank, unit) of a duplicate event's teams (or its units, individual) by duplicate score,
    for the meet's placement points."""
    if event.is_individual:
        return [
            (int(str(r["rank"])), int(str(r["unit_id"])))
            for r in event_standings_rows(event=event, kind="unit")
        ]
    units = dict(Team.objects.filter(event=event).values_list("pk", "unit_id"))
    return [
        (int(str(r["rank"])), units.get(int(str(r["team_id"]))))
        for r in event_standings_rows(event=event, kind="team")
    ]
