"""Reads for tournaments' pages."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum

from tournaments import standings
from tournaments.models import (
    Event,
    Meet,
    Pairing,
    PairingTally,
    PlayerTotal,
    Round,
    RoundEntry,
    Team,
    TeamMember,
)
from tournaments.standings import (
    MatchResult,
    MeetStanding,
    PlayerFigures,
    PlayerStanding,
    TeamStanding,
    TeamTotals,
    UnitStanding,
)


def events_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Event]:
    """Return the events ``user`` may look at: public ones, plus private ones they organize."""
    events = Event.objects.all()
    if getattr(user, "is_superuser", False):
        return events
    if user.is_authenticated:
        return events.filter(Q(is_private=False) | Q(organizers=user)).distinct()
    return events.filter(is_private=False)


def meets_for_home(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Meet]:
    """Return meets with at least one visible event, each with its visible events and their
    counts."""
    visible = events_visible_to(user)
    events = (
        Event.objects.filter(pk__in=visible.values("pk"))
        .annotate(team_count=Count("teams", distinct=True))
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


def event_team_totals(*, event: Event) -> tuple[list[TeamTotals], list[tuple[int, int]]]:
    """Return the event's team totals, summed in the database from the tallies (the same figures
    as :func:`tournaments.standings.team_totals`), and the (winner, loser) pairs of the finished
    matches between teams that share points, wins and highest level. Six queries at most, whatever
    the number of teams or deals."""
    teams = list(event.teams.order_by("name", "pk").values_list("pk", flat=True))
    live = (
        PairingTally.objects.filter(event=event)
        .exclude(status=PairingTally.Status.PENDING)
        .order_by()
    )
    finished = Q(status=PairingTally.Status.FINISHED)
    sums: dict[int, list[int]] = {t: [0, 0, 0, 0, 0, 2, 0] for t in teams}
    for side, other in (("a", "B"), ("b", "A")):
        mine = "A" if side == "a" else "B"
        for team, points, highest, levels, count, played, wins, losses in (
            live.values(f"team_{side}_id")
            .annotate(
                points=Sum(f"points_{side}"),
                highest=Max(f"level_{side}"),
                levels=Sum(f"level_{side}"),
                count=Count("pk"),
                played=Count("pk", filter=finished),
                wins=Count("pk", filter=finished & Q(winner_side=mine)),
                losses=Count("pk", filter=finished & Q(winner_side=other)),
            )
            .values_list(
                f"team_{side}_id",
                "points",
                "highest",
                "levels",
                "count",
                "played",
                "wins",
                "losses",
            )
        ):
            if team not in sums:
                continue
            t = sums[team]
            t[0] += points or 0
            t[1] += wins
            t[2] += losses
            t[3] += played
            t[4] += (levels or 0) - standings.START_LEVEL * count
            t[5] = max(t[5], highest or standings.START_LEVEL)
    # Opponents' points: every meeting adds the opponent's points from matches.
    match_points = {team: t[0] for team, t in sums.items()}
    opponents: dict[int, int] = defaultdict(int)
    for a, b in live.values_list("team_a_id", "team_b_id"):
        opponents[a] += match_points.get(b, 0)
        opponents[b] += match_points.get(a, 0)
    bye_count: dict[int, int] = defaultdict(int)
    for team in (
        RoundEntry.objects.filter(round__event=event, pairing__isnull=True)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("team_id", flat=True)
    ):
        bye_count[team] += 1
    totals = []
    for team in teams:
        points, wins, losses, played, gained, highest = sums[team][:6]
        byes = bye_count.get(team, 0)
        totals.append(
            TeamTotals(
                team=team,
                points=points + byes * event.bye_points,
                wins=wins + byes,
                draws=played - wins - losses,
                losses=losses,
                played=played,
                byes=byes,
                highest_level=highest,
                levels_gained=gained,
                opponents_points=opponents.get(team, 0),
            )
        )
    tied = standings.primary_ties(totals)
    beaten: list[tuple[int, int]] = []
    if tied and standings.HEAD_TO_HEAD in (event.tie_break_order or []):
        for a, b, winner in (
            live.filter(finished, team_a_id__in=tied, team_b_id__in=tied)
            .exclude(winner_side="")
            .values_list("team_a_id", "team_b_id", "winner_side")
        ):
            beaten.append((a, b) if winner == "A" else (b, a))
    return totals, beaten


def event_team_standings(*, event: Event) -> list[TeamStanding]:
    """Return the event's team standings (six queries at most, however many teams and deals)."""
    totals, beaten = event_team_totals(event=event)
    tie_breaks = [t for t in (event.tie_break_order or []) if t in standings.TIE_BREAKS]
    return standings.rank_teams(totals, beaten=beaten, tie_breaks=tie_breaks)


def event_player_standings(*, event: Event) -> list[PlayerStanding]:
    """Return the event's player standings from the players' running totals (two queries)."""
    team_of = dict(TeamMember.objects.filter(event=event).values_list("player_id", "team_id"))
    figures = [
        PlayerFigures(player, team_of.get(player), points, deals, places, paid, received)
        for player, points, deals, places, paid, received in PlayerTotal.objects.filter(
            event=event
        ).values_list(
            "player_id", "points", "deals", "places", "tributes_paid", "tributes_received"
        )
    ]
    seen = {f.player for f in figures}
    figures += [PlayerFigures(player=p, team=t) for p, t in team_of.items() if p not in seen]
    return standings.player_standings(figures)


def event_unit_standings(*, event: Event) -> list[UnitStanding]:
    """Return the event's unit standings, aggregated from its teams' standings."""
    rows = event_team_standings(event=event)
    return standings.unit_standings(rows, dict(event.teams.values_list("pk", "unit_id")))


def meet_unit_standings(
    *, meet: Meet, user: AbstractBaseUser | AnonymousUser | None = None
) -> list[MeetStanding]:
    """Return the meet's unit leaderboard: placement points over its (visible) events."""
    events = Event.objects.filter(meet=meet)
    if user is not None:
        events = events.filter(pk__in=events_visible_to(user).values("pk"))
    rankings: dict[int, list[tuple[int, int | None]]] = {}
    for event in events:
        units = dict(event.teams.values_list("pk", "unit_id"))
        rankings[event.pk] = [
            (row.rank, units.get(row.team)) for row in event_team_standings(event=event)
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
        "tied",
    ),
    "unit": ("rank", "unit_id", "unit", "teams", "points", "wins", "best_rank", "tied"),
}


def event_standings_rows(*, event: Event, kind: str) -> list[dict[str, object]]:
    """Return the event's ``kind`` standings ("team", "player" or "unit") as plain rows with names,
    in a bounded number of queries. Raises ValueError for another kind."""
    from games.models import level_label

    if kind not in STANDINGS_KINDS:
        raise ValueError(f"kind is one of: {', '.join(STANDINGS_KINDS)}")
    teams = {
        pk: (name, unit) for pk, name, unit in event.teams.values_list("pk", "name", "unit__name")
    }
    if kind == "team":
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
                "highest_level": level_label(r.highest_level),
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
        names = dict(
            Player.objects.filter(pk__in=[r.player for r in rows]).values_list("pk", "name")
        )
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
                "tied": r.tied,
            }
            for r in rows
        ]
    from tournaments.models import Unit

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
    ]


def round_tables(*, round: Round) -> QuerySet[Pairing]:
    """Return a round's tables in order with teams, units, table, tally and members in order."""
    members = TeamMember.objects.select_related("player").order_by("order")
    return (
        round.pairings.select_related("team_a__unit", "team_b__unit", "table", "tally")
        .prefetch_related(
            Prefetch("team_a__members", queryset=members),
            Prefetch("team_b__members", queryset=members),
        )
        .order_by("number")
    )


def round_byes(*, round: Round) -> QuerySet[Team]:
    """Return the teams with a bye in ``round``."""
    return Team.objects.filter(round_entries__round=round, round_entries__pairing__isnull=True)


#: How long computed standings are reused at most; any new result makes them old at once (the
#: event's results_version is part of the key), so this only bounds staleness of names.
STANDINGS_CACHE_SECONDS = 30


def event_standings_rows_cached(*, event: Event, kind: str) -> list[dict[str, object]]:
    """Return :func:`event_standings_rows`, reused while the event's results are unchanged."""
    from django.core.cache import cache

    version = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).first()
    key = f"luzi:standings:{event.pk}:{event.created_at.timestamp()}:{version}:{kind}"
    rows = cache.get(key)
    if rows is None:
        rows = event_standings_rows(event=event, kind=kind)
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    return rows
