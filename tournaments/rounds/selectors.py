"""Reads of a round for its pages: its tables (with their teams, seats and tallies) and its byes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import (
    Exists,
    OuterRef,
    Prefetch,
    QuerySet,
)

if TYPE_CHECKING:
    from games.models import Player
from tournaments.models import (
    Pairing,
    ResultSubmission,
    Round,
    Team,
    TeamMember,
)


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
    return list(  # a team absent (not checked in) has no bye: it gets no points
        Team.objects.filter(
            round_entries__round=round,
            round_entries__pairing__isnull=True,
            round_entries__absent=False,
        )
    )
