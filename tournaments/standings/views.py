"""Public standings pages, phone-friendly and without login unless the event is private: an
event's standings (teams, players, units), their downloads, and a meet's page and standings."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config.versioned_cache import cached
from engine.registry import get_game
from tournaments.common.exports import csv_download
from tournaments.common.standings_rows import StandingsRow
from tournaments.events.selectors import (
    events_visible_to,
)
from tournaments.models import (
    Event,
    Meet,
    Unit,
)
from tournaments.standings.apis import standings_csv
from tournaments.standings.selectors import (
    STANDINGS_CACHE,
    STANDINGS_CACHE_SECONDS,
    STANDINGS_KINDS,
    event_results_version,
    event_standings_cache_parts,
    event_standings_rows_cached,
    meet_unit_standings,
    standings_kinds,
)
from tournaments.web.requests import visible_event


def _kind(request: HttpRequest, event: Event | None = None) -> str:
    kinds = standings_kinds(event) if event is not None else STANDINGS_KINDS
    kind = request.GET.get("kind", kinds[0])
    return kind if kind in kinds else kinds[0]


STANDINGS_PAGE_SIZE = 100


def _standings_table(request: HttpRequest, event: Event, kind: str) -> str:
    """Return the rendered table of the requested page of standings, with its page links.

    The rendering is reused while the results are unchanged (keyed by the results version, the
    page and the language): the page refreshes itself every half minute on every phone and
    projector following the event, and rendering a hundred rows costs far more than serving them.
    The table holds nothing that depends on the visitor."""
    version = event_results_version(event=event)
    parts = event_standings_cache_parts(event=event, kind=kind)

    read: list[list[StandingsRow]] = []  # the rows, read at most once

    def rows() -> list[StandingsRow]:
        if not read:
            read.append(event_standings_rows_cached(event=event, kind=kind, version=version))
        return read[0]

    pages = cached(
        STANDINGS_CACHE,
        (*parts, "pages"),
        version=version,
        build=lambda: max(1, -(-len(rows()) // STANDINGS_PAGE_SIZE)),
        timeout=STANDINGS_CACHE_SECONDS,
    )
    try:
        page = min(max(1, int(request.GET.get("page", "1"))), pages)
    except ValueError:
        page = 1

    def render_page() -> str:
        start = (page - 1) * STANDINGS_PAGE_SIZE
        shown = rows()[start : start + STANDINGS_PAGE_SIZE]
        specs = [f for f in get_game(event.game).figure_specs if f.holder == "seat"]
        english = get_language() == "en"
        return render_to_string(
            "tournaments/_standings_page.html",
            {
                "event": event,
                "kind": kind,
                "individual": event.is_individual,
                "figure_names": [f.label_en if english else f.label_zh for f in specs],
                "rows": shown,  # a player's row has its figure_values in the game's order
                "page": page,
                "pages": range(1, pages + 1) if pages > 1 else [],
            },
        )

    table = cached(
        STANDINGS_CACHE,
        (*parts, "page", page, get_language()),
        version=version,
        build=render_page,
        timeout=STANDINGS_CACHE_SECONDS,
    )
    return mark_safe(table)  # noqa: S308 - our own template's output, names escaped


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Live standings, a hundred rows per page (the CSV and the API have them all)."""
    event = visible_event(request, pk)
    kind = _kind(request, event)
    table = _standings_table(request, event, kind)
    return render(
        request,
        "tournaments/standings.html",
        {
            "event": event,
            "kind": kind,
            "kinds": standings_kinds(event),
            "figure_names": [
                f.label_en if get_language() == "en" else f.label_zh
                for f in get_game(event.game).figure_specs
                if f.holder == "seat"
            ],
            "table": table,
            "tie_breaks": event.tie_break_labels(),
            "refresh_seconds": 30,
        },
    )


def standings_download(request: HttpRequest, pk: int) -> HttpResponse:
    event = visible_event(request, pk)
    return standings_csv(event, _kind(request, event), for_people=True)


def _meet_rows(request: HttpRequest, slug: str) -> tuple[Meet, list[Event], list[dict[str, Any]]]:
    meet = get_object_or_404(Meet, slug=slug)
    events = list(events_visible_to(request.user).filter(meet=meet).order_by("name"))
    if not events:
        raise Http404("No visible event in this meet.")
    # Only a finished event gives placement points: a running one's order is not a placement.
    rows = meet_unit_standings(meet=meet, user=request.user, finished_only=True)
    names = dict(Unit.objects.filter(pk__in=[r.unit for r in rows]).values_list("pk", "name"))
    event_names = {e.pk: e.name for e in events}
    return (
        meet,
        events,
        [
            {
                "rank": r.rank,
                "tied": r.tied,
                "unit": names.get(r.unit, ""),
                "points": r.points,
                "places": _places_by_event(r.places, event_names),
            }
            for r in rows
        ],
    )


def _places_by_event(
    places: tuple[tuple[int, int], ...], event_names: dict[int, str]
) -> list[tuple[str, list[int]]]:
    """A unit's places grouped by event, each event named once: [("团体赛", [1, 3])]."""
    grouped: dict[int, list[int]] = {}
    for event, place in places:
        grouped.setdefault(event, []).append(place)
    return [(event_names.get(e, ""), sorted(p)) for e, p in grouped.items()]


def meet_detail(request: HttpRequest, slug: str) -> HttpResponse:
    meet, events, rows = _meet_rows(request, slug)
    return render(
        request,
        "tournaments/meet_detail.html",
        {
            "meet": meet,
            "events": events,
            "rows": rows,
            "placement_points": meet.placement_points,
            "finished": sum(e.status == Event.Status.FINISHED for e in events),
        },
    )


def meet_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The meet's unit leaderboard as CSV (UTF-8 with a BOM for spreadsheet programs)."""
    meet, _events, rows = _meet_rows(request, slug)
    return csv_download(
        f"meet-{meet.slug}.csv",
        [str(_("Rank")), str(_("Unit")), str(_("Points")), str(_("Places in the events"))],
        (
            [
                row["rank"],
                row["unit"],
                row["points"],
                "; ".join(
                    f"{name} " + ", ".join(f"#{p}" for p in places)
                    for name, places in row["places"]
                ),
            ]
            for row in rows
        ),
    )
