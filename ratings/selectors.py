"""Reads of the ratings: the leaderboard of a game and a player's profile, in the scope the
visitor may see (``scope_for``). A bounded number of queries whatever the number of players."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from engine.registry import get_game
from games.models import Match, Player
from ratings.formula import PROVISIONAL_MATCHES, display
from ratings.models import Rating, RatingChange, Scope
from tournaments.models import Event, Membership, PlayerTally, PlayerTotal

__all__ = [
    "LeaderRow",
    "PERIODS",
    "Profile",
    "leaderboard",
    "player_profile",
    "player_visible",
    "scope_for",
]

#: the periods a leaderboard may be limited to (days since the last rated match)
PERIODS: dict[str, int] = {"30d": 30, "90d": 90, "365d": 365}
#: the trend compares the rating with the one this many matches earlier
TREND_MATCHES = 5


def scope_for(user: User | AnonymousUser) -> str:
    """The scope ``user`` may see: every event for those who may see every event (superusers),
    else only public events' matches (a private event's organizer sees its pages, but not the
    other private events inside the numbers)."""
    return Scope.ALL if getattr(user, "is_superuser", False) else Scope.PUBLIC


def _events(scope: str) -> QuerySet[Event]:
    return Event.objects.all() if scope == Scope.ALL else Event.objects.filter(is_private=False)


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int
    player: int
    name: str
    unit: str
    rating: int
    mu: float
    sigma: float
    matches: int
    provisional: bool
    bot: str | None
    trend: int


def leaderboard(
    *,
    game: str,
    scope: str,
    meet: int | None = None,
    unit: int | None = None,
    period: str | None = None,
    bots: bool = False,
    offset: int = 0,
    limit: int = 50,
) -> tuple[list[LeaderRow], int]:
    """One page of ``game``'s ratings (people, or bots with ``bots``), best first, and how many
    rows there are in all. Five queries."""
    rows = Rating.objects.filter(game=game, scope=scope, player__is_bot=bots)
    if meet is not None:
        rows = rows.filter(
            player_id__in=PlayerTotal.objects.filter(
                event__in=_events(scope).filter(meet_id=meet, game=game)
            ).values("player_id")
        )
    if unit is not None:
        rows = rows.filter(
            player_id__in=Membership.objects.filter(unit_id=unit).values("player_id")
        )
    if period in PERIODS:
        rows = rows.filter(last_played_at__gte=timezone.now() - timedelta(days=PERIODS[period]))
    total = rows.count()
    first_unit = Membership.objects.filter(player_id=OuterRef("player_id")).order_by("pk")
    page = list(
        rows.order_by("-display", "-mu", "player_id")
        .annotate(unit_name=Subquery(first_unit.values("unit__name")[:1]))
        .values_list(
            "player_id",
            "player__name",
            "unit_name",
            "display",
            "mu",
            "sigma",
            "matches",
            "player__bot_kind",
        )[offset : offset + limit]
    )
    earlier = _earlier(game, scope, [(r[0], r[6]) for r in page])
    # equal ratings share a rank: the first row's rank counts the rows rated above it
    first_rank = rows.filter(display__gt=page[0][3]).count() + 1 if page else 0
    out: list[LeaderRow] = []
    for i, (player, name, unit_name, rating, mu, sigma, matches, kind) in enumerate(page):
        rank = offset + i + 1
        if i == 0:
            rank = first_rank
        elif rating == page[i - 1][3]:
            rank = out[-1].rank
        out.append(
            LeaderRow(
                rank=rank,
                player=player,
                name=name,
                unit=unit_name or "",
                rating=rating,
                mu=mu,
                sigma=sigma,
                matches=matches,
                provisional=matches < PROVISIONAL_MATCHES,
                bot=(kind or None) if bots else None,
                trend=rating - earlier.get(player, display(25.0, 25.0 / 3)),
            )
        )
    return out, total


def _earlier(game: str, scope: str, players: list[tuple[int, int]]) -> dict[int, int]:
    """Each player's rating ``TREND_MATCHES`` matches before their last (one query)."""
    wanted = Q(pk__in=[])
    for player, matches in players:
        if matches > TREND_MATCHES:
            wanted |= Q(player_id=player, matches=matches - TREND_MATCHES)
    return dict(
        RatingChange.objects.filter(
            wanted, game=game, scope=scope, player_id__in=[p for p, _m in players]
        ).values_list("player_id", "display")
    )


def player_visible(*, player: Player, scope: str) -> bool:
    """Whether a profile may show ``player`` at all: a bot, or a person with a rated match or an
    event in the scope."""
    if player.is_bot or scope == Scope.ALL:
        return True
    return (
        Rating.objects.filter(player=player, scope=scope).exists()
        or PlayerTotal.objects.filter(player=player, event__is_private=False).exists()
    )


@dataclass(frozen=True, slots=True)
class GameCareer:
    game: str
    name: str
    rating: int | None
    mu: float | None
    sigma: float | None
    matches: int
    provisional: bool
    history: list[tuple[int, int, datetime]]  # (match number, rating, played at)
    deals: int = 0
    average_place: float | None = None
    tributes_paid: int = 0
    tributes_received: int = 0
    escapes: int = 0
    figures: list[tuple[str, str, int]] = field(default_factory=list)  # key, label, value


@dataclass(frozen=True, slots=True)
class EventLine:
    event: int
    name: str
    meet: str
    meet_slug: str
    game: str
    placement: int | None
    field_size: int


@dataclass(frozen=True, slots=True)
class Profile:
    player: Player
    careers: list[GameCareer]
    events: list[EventLine]


def _placement(event: Event, player: Player) -> tuple[int | None, int]:
    from tournaments.models import TeamMember
    from tournaments.standings.totals import event_player_standings, event_team_standings

    if event.is_individual:
        rows: list[Any] = event_player_standings(event=event)
        for row in rows:
            if row.player == player.pk:
                return row.rank, len(rows)
        return None, len(rows)
    team = (
        TeamMember.objects.filter(event=event, player=player).values_list("team_id", flat=True)
    ).first()
    rows = event_team_standings(event=event)
    for row in rows:
        if row.team == team:
            return row.rank, len(rows)
    return None, len(rows)


def player_profile(*, player: Player, scope: str, chinese: bool = True) -> Profile:
    """``player``'s ratings and history per game, every event they played that the scope shows
    (with their placement: the team's for team events), and the game's figures summed over
    those events. A few queries per game and per event."""
    events = list(
        _events(scope)
        .filter(pk__in=PlayerTotal.objects.filter(player=player).values("event_id"))
        .select_related("meet")
        .order_by("-created_at", "-pk")
    )
    ratings = {r.game: r for r in Rating.objects.filter(player=player, scope=scope)}
    history: dict[str, list[tuple[int, int, datetime]]] = defaultdict(list)
    for game, matches, value, at in (
        RatingChange.objects.filter(player=player, scope=scope)
        .order_by("game", "seq")
        .values_list("game", "matches", "display", "rated_match__played_at")
    ):
        history[game].append((matches, value, at))
    totals: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"deals": 0, "places": 0.0, "paid": 0, "received": 0, "figures": defaultdict(int)}
    )
    for game, deals, places, paid, received, figures in PlayerTotal.objects.filter(
        player=player, event__in=events
    ).values_list(
        "event__game", "deals", "places", "tributes_paid", "tributes_received", "figures"
    ):
        t = totals[game]
        t["deals"] += deals
        t["places"] += places
        t["paid"] += paid
        t["received"] += received
        for key, value in (figures or {}).items():
            t["figures"][key] += value
    escapes: dict[str, int] = defaultdict(int)
    for game in PlayerTally.objects.filter(
        player=player,
        event__in=events,
        tally__match__end_reason__in=[Match.EndReason.ESCAPE, Match.EndReason.LEFT],
        tally__match__left_seat=F("seat"),
    ).values_list("event__game", flat=True):
        escapes[game] += 1
    careers = []
    for game_key in sorted({*ratings, *totals}):
        info = get_game(game_key)
        rating = ratings.get(game_key)
        t = totals[game_key]
        careers.append(
            GameCareer(
                game=game_key,
                name=info.name_zh if chinese else info.name_en,
                rating=rating.display if rating else None,
                mu=rating.mu if rating else None,
                sigma=rating.sigma if rating else None,
                matches=rating.matches if rating else 0,
                provisional=(rating.matches if rating else 0) < PROVISIONAL_MATCHES,
                history=history.get(game_key, []),
                deals=t["deals"],
                average_place=round(t["places"] / t["deals"], 2) if t["deals"] else None,
                tributes_paid=t["paid"],
                tributes_received=t["received"],
                escapes=escapes[game_key],
                figures=[
                    (f.key, f.label_zh if chinese else f.label_en, int(t["figures"].get(f.key, 0)))
                    for f in info.figure_specs
                    if f.holder == "seat"
                ],
            )
        )
    lines = []
    for event in events:
        placement, size = _placement(event, player)
        lines.append(
            EventLine(
                event=event.pk,
                name=event.name,
                meet=event.meet.name,
                meet_slug=event.meet.slug,
                game=event.game,
                placement=placement,
                field_size=size,
            )
        )
    return Profile(player=player, careers=careers, events=lines)


@dataclass(frozen=True, slots=True)
class Strength:
    game: str
    name: str
    average: int
    players: int
    units: list[tuple[str, int, int]]  # unit name, average rating, players


def meet_strength(*, meet_id: int, scope: str, chinese: bool = True) -> list[Strength]:
    """The average rating per game of the players of a meet's events (the scope's events), and
    of each of their units. Three queries."""
    pairs = set(
        PlayerTotal.objects.filter(event__in=_events(scope).filter(meet_id=meet_id)).values_list(
            "event__game", "player_id"
        )
    )
    if not pairs:
        return []
    ratings = {
        (game, player): value
        for game, player, value in Rating.objects.filter(
            scope=scope, player_id__in={p for _g, p in pairs}
        ).values_list("game", "player_id", "display")
    }
    unit_of: dict[int, str] = {}
    for player, name in (
        Membership.objects.filter(player_id__in={p for _g, p in pairs})
        .order_by("-pk")
        .values_list("player_id", "unit__name")
    ):
        unit_of[player] = name  # the first membership wins (read last)
    out = []
    for game in sorted({g for g, _p in pairs}):
        values = [(p, ratings[(g, p)]) for g, p in pairs if g == game and (g, p) in ratings]
        if not values:
            continue
        units: dict[str, list[int]] = defaultdict(list)
        for player, value in values:
            units[unit_of.get(player, "")].append(value)
        info = get_game(game)
        out.append(
            Strength(
                game=game,
                name=info.name_zh if chinese else info.name_en,
                average=round(sum(v for _p, v in values) / len(values)),
                players=len(values),
                units=sorted(
                    ((u, round(sum(v) / len(v)), len(v)) for u, v in units.items() if u),
                    key=lambda row: (-row[1], row[0]),
                ),
            )
        )
    return out
