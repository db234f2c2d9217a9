"""Public pages of a round: its tables and results, and the projector's slides."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from tournaments.common.qr import qr_svg
from tournaments.common.sorting import natural_key
from tournaments.events.organizers import event_is_organizer
from tournaments.models import (
    Round,
)
from tournaments.rounds import projector as slides
from tournaments.rounds.clock import round_clock_page
from tournaments.rounds.selectors import round_byes, round_tables
from tournaments.standings.apis import standings_rows_fresh
from tournaments.standings.selectors import (
    event_standings_rows_cached,
)
from tournaments.web.requests import visible_event


def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = visible_event(request, pk)
    round = get_object_or_404(event.rounds, number=number)
    organizer = event_is_organizer(event=event, user=request.user)
    if round.status == Round.Status.DRAFT and not organizer:
        raise Http404("This round is still being drawn.")
    tables = list(round_tables(round=round))
    by_team = sorted(
        [(p.team_a, p, "A") for p in tables if p.team_a is not None]
        + [(p.team_b, p, "B") for p in tables if p.team_b is not None],
        key=lambda item: natural_key(item[0].name),
    )
    return render(
        request,
        "tournaments/round_detail.html",
        {
            "event": event,
            "round": round,
            "tables": tables,
            "by_team": by_team,
            "byes": list(round_byes(round=round)),
            "is_organizer": organizer,
        },
    )


def projector(request: HttpRequest, pk: int) -> HttpResponse:
    event = visible_event(request, pk)
    round = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    standings = request.build_absolute_uri(reverse("tournaments:standings", args=[event.pk]))
    context: dict[str, Any] = {
        "event": event,
        "round": round,
        "byes": list(round_byes(round=round)) if round else [],
        "tie_breaks": event.tie_break_labels(),
        "standings_qr": qr_svg(standings, scale=4),
        "standings_short": standings.split("://", 1)[-1],
        "seconds": _seconds(request.GET.get("seconds", ""), default=15),
        "clock": round_clock_page(round),
    }
    if event.is_individual:  # players at tables of four, their standings, units by best N
        players = standings_rows_fresh(event, "player")[:PROJECTOR_ROWS]
        context.update(
            tables=slides.projector_tables(round=round) if round else [],
            seat_numbers=range(1, event.table_size + 1),
            rows=slides.player_rows(event, players),
            figure_names=slides.figure_names(event),
            units=event_standings_rows_cached(event=event, kind="unit")[:PROJECTOR_ROWS],
        )
        return render(request, "tournaments/projector.html", context)
    context.update(
        tables=list(round_tables(round=round)) if round else [],
        rows=standings_rows_fresh(event, "team")[:PROJECTOR_ROWS],
    )
    return render(request, "tournaments/projector.html", context)


#: The standings rows a projector pages through.
PROJECTOR_ROWS = 60


def _seconds(value: str, *, default: int) -> int:
    """Seconds per projector page from the query (1 to 120), else ``default``."""
    if value.isascii() and value.isdigit() and 1 <= int(value) <= 120:
        return int(value)
    return default
