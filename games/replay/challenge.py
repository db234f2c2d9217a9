"""Same-deal challenges (挑战这副牌): a logged-in player plays the cards of a finished deal again,
in the seat of their choice, against bots at a practice table; the result stands beside the
original's and everyone else's challenges of the deal (a leaderboard per deal).

The challenge's match has one deal, dealt as the source deal was through the game's
``deal_setup`` (``Match.first_deal``): the same cards in every seat, the same dealer, and for
大怪路子 the same levels (级牌). A source deal that began with a tribute (进贡/还贡) is played
from the hands as they stood when play began: the challenger holds the cards the original player
played with, and no tribute is paid again (the returns were the original receivers' choices).
The match's rules and base score are the source match's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models.signals import post_save
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, NotAllowedError
from engine.errors import EngineError
from games.models import Challenge, Deal, Match, TableSeat
from games.play import engine_state
from games.play import services as play_services
from games.play.practice import PRACTICE_BOT_KIND
from games.tables import services as tables_services
from games.tables.access import deal_public, table_viewable
from games.tables.limits import (
    challenges_open_max,
    open_tables_refusal,
    person_lock,
    user_player_ensure,
)

__all__ = [
    "LeaderRow",
    "challenge_start",
    "deal_leaderboard",
    "table_rule",
]


def _seat(value: Any, seat_count: int) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        seat = -1
    if isinstance(value, bool) or not 0 <= seat < seat_count:
        raise ApplicationError(
            _("Choose a seat from 1 to %(n)d.") % {"n": seat_count}, extra={"field": "seat"}
        )
    return seat


@transaction.atomic
def challenge_start(*, user: User | AnonymousUser, deal: Deal, seat: Any) -> Challenge:
    """Seat ``user`` in ``seat`` (0-based) of a new practice table whose one deal holds the cards
    of ``deal``, bots in the other seats, and start it.

    The user's challenge of the same deal and seat that is still being played is returned
    instead of a second one (concurrent requests of one user take turns: games.tables.limits).
    Raises NotAllowedError for an anonymous user, ApplicationError for a deal whose hands are hidden
    (unfinished, or kept hidden by a rule) or a seat out of range, and OpenTablesError (409) when
    the user has ``LUZI_CHALLENGES_OPEN_MAX`` other challenges still being played.
    """
    if not getattr(user, "is_authenticated", False):
        raise NotAllowedError(_("Log in to challenge this deal."))
    if not deal.record or not deal_public(deal):
        raise ApplicationError(_("This deal's hands are not public yet: it cannot be challenged."))
    source = deal.match
    game = engine_state.game_of(source)
    seat = _seat(seat, game.seat_count)
    try:
        setup = game.deal_setup(deal.record)
    except EngineError as exc:
        raise ApplicationError(_("This deal cannot be dealt again: %(e)s") % {"e": exc}) from None
    player = user_player_ensure(user=user)  # type: ignore[arg-type]
    person_lock(player)
    live = list(
        Challenge.objects.select_related("match__table")
        .filter(player=player, match__status__in=[Match.Status.PENDING, Match.Status.PLAYING])
        .order_by("created_at", "id")
    )
    same = next((c for c in live if c.source_id == deal.pk and c.seat == seat), None)
    if same is not None:
        return same
    if len(live) >= challenges_open_max():
        raise open_tables_refusal(kind="challenge", tables=[c.match.table for c in live])
    bots = [
        tables_services.player_create(
            name=_("Bot %(number)d") % {"number": n}, is_bot=True, bot_kind=PRACTICE_BOT_KIND
        )
        for n in range(1, game.seat_count)
    ]
    players = [*bots[:seat], player, *bots[seat:]]
    table = tables_services.table_create(
        name=_("Challenge · %(name)s") % {"name": player.name}, players=players, game=game.key
    )
    match = play_services.match_start(
        table=table,
        base_score=source.base_score,
        deals_per_match=1,
        rule_options=dict(source.rule_options or {}),
        first_deal=setup,
        bot_delay_ms=getattr(settings, "LUZI_PRACTICE_BOT_DELAY_MS", 600),
        turn_seconds=getattr(settings, "LUZI_PRACTICE_TURN_SECONDS", 30),
    )
    return Challenge.objects.create(source=deal, player=player, seat=seat, match=match)


def table_rule(table_id: int, user: Any) -> bool | None:
    """games.tables.access: a challenge's table holds the cards of the deal it plays again, so its
    play, its deal's replay and record are seen only by whoever may see that deal's table (a private
    event's, a duplicate round's); the challenger is seated, and games lets them in first."""
    source = (
        Challenge.objects.filter(match__table_id=table_id)
        .values_list("source__match__table_id", flat=True)
        .first()
    )
    if source is None:
        return None
    seated = (
        getattr(user, "is_authenticated", False)
        and TableSeat.objects.filter(table_id=source, player__user=user).exists()
    )
    return None if table_viewable(table_id=source, user=user, seated=seated) else False


def _settle(sender: type[Deal], instance: Deal, **kwargs: Any) -> None:
    """Store a challenge's points once its deal is over (a post_save of the deal row)."""
    fields = kwargs.get("update_fields")
    if instance.number != 1 or instance.status != Deal.Status.FINISHED:
        return
    if fields is not None and "points" not in fields:
        return
    if Deal.match.is_cached(instance) and instance.match.first_deal is None:
        return  # a challenge's match deals its first deal as the source deal was dealt
    for challenge in Challenge.objects.filter(match_id=instance.match_id, points__isnull=True):
        points = instance.points or []
        if challenge.seat < len(points):
            challenge.points = int(points[challenge.seat])
            challenge.save(update_fields=["points"])


def connect() -> None:
    """Listen for finished deals (called once, from the app's ``ready()``)."""
    post_save.connect(_settle, sender=Deal, dispatch_uid="games.replay.challenge.settle")


@dataclass(frozen=True)
class LeaderRow:
    """One line of a deal's leaderboard: the original player of a seat, or a challenge."""

    seat: int
    player: str
    points: int | None
    original: bool
    #: the points minus the original's in the same seat (None for the original, or while played)
    versus: int | None
    table_id: int | None = None
    created_at: datetime | None = None
    mine: bool = False


def deal_leaderboard(*, deal: Deal, user: Any = None) -> list[LeaderRow]:
    """The original's result in every seat and every challenge of ``deal``: seat by seat, the
    original first, then the challenges by points (best first; those still played last)."""
    seats = {
        s.seat: s.player
        for s in TableSeat.objects.filter(table_id=deal.match.table_id).select_related("player")
    }
    points = list(deal.points or [])
    rows: list[LeaderRow] = []
    for seat in sorted(seats):
        rows.append(
            LeaderRow(
                seat=seat,
                player=seats[seat].name,
                points=points[seat] if seat < len(points) else None,
                original=True,
                versus=None,
                table_id=deal.match.table_id,
            )
        )
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    challenges = Challenge.objects.filter(source=deal).select_related("player", "match")
    for c in challenges:
        original = points[c.seat] if c.seat < len(points) else None
        rows.append(
            LeaderRow(
                seat=c.seat,
                player=c.player.name,
                points=c.points,
                original=False,
                versus=None if c.points is None or original is None else c.points - original,
                table_id=c.match.table_id,
                created_at=c.created_at,
                mine=user_id is not None and c.player.user_id == user_id,
            )
        )
    rows.sort(
        key=lambda r: (
            r.seat,
            not r.original,
            r.points is None,
            -(r.points or 0),
            r.created_at.timestamp() if r.created_at else 0.0,
        )
    )
    return rows
