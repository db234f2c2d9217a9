"""The standings as pages, the API and downloads read them: the kinds and columns an event
shows, its rows (cached under the event's results version), and the order a format ranks them in
(tournaments.formats: duplicate play ranks by the duplicate score)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q

from config.versioned_cache import cached
from engine.registry import get_game
from tournaments import formats
from tournaments.common.sides import side_figure
from tournaments.common.standings_rows import (
    PlayerRow,
    PlayerUnitRow,
    StandingsRow,
    TeamRow,
    UnitRow,
)
from tournaments.events.memberships import player_units
from tournaments.events.selectors import events_visible_to
from tournaments.formats import final_placement
from tournaments.models import (
    Event,
    Meet,
    PlayerTotal,
    Registration,
    Team,
    TeamMember,
    Unit,
)
from tournaments.standings import ranking as standings
from tournaments.standings.ranking import (
    MeetStanding,
    PlayerUnitStanding,
    UnitStanding,
)
from tournaments.standings.totals import (
    _event_team_figures,
    _ranked,
    _raw_rows,
    _seat_figures,
    event_player_standings,
    event_team_standings,
    event_unit_standings,
)

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
    held by a seat (none in 大怪路子), and an individual event's units the players they count; a
    format adds its own (duplicate play: the duplicate score beside the points)."""
    return formats.standings_columns(event, kind, _plain_columns(event, kind))


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


def event_standings_rows(*, event: Event, kind: str, plain: bool = False) -> list[StandingsRow]:
    """Return the event's ``kind`` standings ("team", "player" or "unit") as rows with names, in a
    bounded number of queries. Raises ValueError for another kind. A format ranks them its own way
    (a duplicate event's rows carry the duplicate score and rank by it; ``plain``: the ordinary
    rows, without it)."""
    if kind not in STANDINGS_KINDS:
        raise ValueError(f"kind is one of: {', '.join(STANDINGS_KINDS)}")
    rows = _plain_rows(event, kind)
    return rows if plain else formats.standings_rows(event, kind, rows)


def _plain_rows(event: Event, kind: str) -> list[StandingsRow]:
    teams = {
        pk: (name, unit) for pk, name, unit in event.teams.values_list("pk", "name", "unit__name")
    }
    if kind == "team":
        level = figure_labeller(event.game, side_figure(event.game) or "")
        return [
            TeamRow(
                rank=r.rank,
                team_id=r.team,
                team=teams[r.team][0],
                unit=teams[r.team][1] or "",
                points=r.points,
                wins=r.wins,
                draws=r.draws,
                losses=r.losses,
                played=r.played,
                byes=r.byes,
                highest_level=level(r.highest_level),
                levels_gained=r.levels_gained,
                opponents_points=r.opponents_points,
                head_to_head=r.head_to_head,
                tied=r.tied,
            )
            for r in event_team_standings(event=event)
        ]
    if kind == "player":
        from games.models import Player

        players = event_player_standings(event=event)
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
            PlayerRow(
                rank=r.rank,
                player_id=r.player,
                player=names.get(r.player, ""),
                team=teams[r.team][0] if r.team in teams else "",
                points=r.points,
                deals=r.deals,
                average_place=r.average_place,
                tributes_paid=r.tributes_paid,
                tributes_received=r.tributes_received,
                byes=r.byes,
                figures={key: r.figures.get(key, 0) for key in extra},
                tied=r.tied,
            )
            for r in players
        ]

    if event.is_individual:
        found = standings_units = event_unit_standings(event=event)
        unit_names = dict(
            Unit.objects.filter(pk__in=[r.unit for r in found]).values_list("pk", "name")
        )
        return [
            PlayerUnitRow(
                rank=r.rank,
                unit_id=r.unit,
                unit=unit_names.get(r.unit, ""),
                players=r.players,
                counted=r.counted,
                points=r.points,
                best_rank=r.best_rank,
                tied=r.tied,
            )
            for r in standings_units
            if isinstance(r, PlayerUnitStanding)
        ]
    rows_u = event_unit_standings(event=event)
    unit_names = dict(
        Unit.objects.filter(pk__in=[r.unit for r in rows_u]).values_list("pk", "name")
    )
    return [
        UnitRow(
            rank=r.rank,
            unit_id=r.unit,
            unit=unit_names.get(r.unit, ""),
            teams=r.teams,
            points=r.points,
            wins=r.wins,
            best_rank=r.best_rank,
            tied=r.tied,
        )
        for r in rows_u
        if isinstance(r, UnitStanding)
    ]


#: How long computed standings are reused at most; any new result makes them old at once (the
#: event's results_version is part of the key), so this only bounds staleness of names.
STANDINGS_CACHE_SECONDS = 30


def event_results_version(*, event: Event) -> int:
    """Return the event's results version as it is now (one query): any new or corrected result
    raises it, so it keys whatever is computed from the results."""
    version = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).first()
    return version or 0


#: The namespace of what is cached from an event's standings (config.versioned_cache).
STANDINGS_CACHE = "standings"


def event_standings_cache_parts(*, event: Event, kind: str) -> tuple[object, ...]:
    """The parts of the cache keys of ``kind`` standings of ``event`` (its creation time too: a
    reused row id is another event); the results version is the keys' version."""
    return (event.pk, event.created_at.timestamp(), kind)


def event_standings_rows_cached(
    *, event: Event, kind: str, version: int | None = None
) -> list[StandingsRow]:
    """Return :func:`event_standings_rows`, reused while the event's results are unchanged
    (``version``, read when not given, is the results version they were computed at). Their key
    says "typed-rows": a running server may still hold the dicts of old under "rows"."""
    if version is None:
        version = event_results_version(event=event)
    return cached(
        STANDINGS_CACHE,
        (*event_standings_cache_parts(event=event, kind=kind), "typed-rows"),
        version=version,
        build=lambda: event_standings_rows(event=event, kind=kind),
        timeout=STANDINGS_CACHE_SECONDS,
    )


def format_swiss_order(event: Event, ordered: list[Any]) -> list[Any]:
    """The order the Swiss draw takes ``ordered`` (teams or players, by the plain standings) in:
    where a format ranks the event (duplicate play: by the duplicate score), the order of its
    standings, ``ordered`` keeping its order among equals and for those the standings do not
    list; else ``ordered`` as it is."""
    if not formats.standings_rank(event):
        return ordered
    kind = "player" if event.is_individual else "team"
    rank = {r.entrant: i for i, r in enumerate(event_standings_rows(event=event, kind=kind))}
    position = {id(item): i for i, item in enumerate(ordered)}
    return sorted(ordered, key=lambda item: (rank.get(item.pk, len(rank)), position[id(item)]))


def format_meet_ranking(event: Event) -> list[tuple[int, int | None]]:
    """(rank, unit) of the teams (or the units, individual) of an event a format ranks (duplicate
    play: by the duplicate score), in the order of its standings, for the meet's placement
    points."""
    if event.is_individual:
        return [(r.rank, r.entrant) for r in event_standings_rows(event=event, kind="unit")]
    units = dict(Team.objects.filter(event=event).values_list("pk", "unit_id"))
    return [(r.rank, units.get(r.entrant)) for r in event_standings_rows(event=event, kind="team")]


def meet_placement(*, event: Event) -> list[tuple[int, int | None]] | None:
    """The event's places with each placed entrant's unit, for the meet's placement points
    (None: no knockout stage; the meet then ranks the event as it always did)."""
    rows = final_placement(event)
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
        if formats.standings_rank(event):  # a format's ranking (duplicate play's score)
            rankings[event.pk] = format_meet_ranking(event)
            continue
        if event.is_individual:
            rankings[event.pk] = [(row.rank, row.unit) for row in event_unit_standings(event=event)]
            continue
        totals, beaten, units = _event_team_figures(event=event)
        rankings[event.pk] = [
            (row.rank, units.get(row.team)) for row in _ranked(event, totals, beaten)
        ]
    return standings.meet_standings(rankings, list(meet.placement_points or []))
