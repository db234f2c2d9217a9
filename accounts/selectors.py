"""Reads for accounts: a player's tables, an organizer's teams."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from engine.registry import get_game
from games.models import Match, Player, Table
from tournaments.models import Round, Team


def player_of_user(*, user: User | AnonymousUser) -> Player | None:
    """Return the user's player, or None (anonymous users and users who never played)."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def user_tables(*, user: User | AnonymousUser) -> QuerySet[Table]:
    """Return the tables the user sits at, newest first (not a round's tables still being drawn:
    they are the organizers' alone until the round is confirmed)."""
    player = player_of_user(user=user)
    if player is None:
        return Table.objects.none()
    return (
        Table.objects.filter(seats__player=player)
        .exclude(pairing__round__status=Round.Status.DRAFT)
        .select_related("pairing__round__event")
        .order_by("-created_at", "-id")
    )


def table_label(table: Table) -> str:
    """A table as the player's page lists it, in the page's language: an event's table by its
    event, round and number; any other (practice, a challenge) by its name and its game."""
    pairing = getattr(table, "pairing", None)
    if pairing is not None:
        return _("%(event)s · round %(round)d · table %(table)d") % {
            "event": pairing.round.event.name,
            "round": pairing.round.number,
            "table": pairing.number,
        }
    name = get_game(table.game).name_zh  # a game's name is a rule term: Chinese on every page
    return f"{table.title} · {name}" if name not in table.title else table.title


def user_current_table(*, user: User | AnonymousUser) -> Table | None:
    """Return the table where the user's match is going on (the newest), or None."""
    live = [Match.Status.PENDING, Match.Status.PLAYING]
    return user_tables(user=user).filter(matches__status__in=live).distinct().first()


def user_sheet_table(*, user: User | AnonymousUser) -> Table | None:
    """Return the offline table of a running round where the user sits and whose match is not
    recorded yet: the table whose deals the user scores on the phone (the newest), or None."""
    return (
        user_tables(user=user)
        .filter(mode=Table.Mode.OFFLINE, pairing__round__status=Round.Status.RUNNING)
        .exclude(matches__status=Match.Status.FINISHED)
        .distinct()
        .first()
    )


def organizer_teams(*, user: User | AnonymousUser) -> QuerySet[Team]:
    """Return the teams of the events the user organizes (all teams for a superuser)."""
    if not user.is_authenticated:
        return Team.objects.none()
    teams = Team.objects.select_related("event", "event__meet")
    if not getattr(user, "is_superuser", False):
        teams = teams.filter(event__organizers=user)
    return teams.order_by("event__meet__name", "event__name", "name")
