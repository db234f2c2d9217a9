"""The standings API: an event's standings (JSON and CSV) and a meet's."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.exceptions import ApplicationError
from tournaments.common.exports import csv_download
from tournaments.common.i18n import join_list
from tournaments.common.standings_rows import StandingsRow
from tournaments.events.selectors import events_visible_to
from tournaments.models import Event, Meet
from tournaments.standings.labels import cells_for_people, column_labels
from tournaments.standings.selectors import (
    STANDINGS_KINDS,
    event_standings_rows_cached,
    meet_unit_standings,
    standings_columns,
)
from tournaments.web.api import api_event

KIND = OpenApiParameter("kind", str, enum=list(STANDINGS_KINDS), default="team")


def _kind(request: Request) -> str:
    kind = request.query_params.get("kind", "team")
    if kind not in STANDINGS_KINDS:
        raise ApplicationError(
            _("kind is one of: %(kinds)s (got “%(kind)s”).")
            % {"kinds": join_list(STANDINGS_KINDS), "kind": kind}
        )
    return kind


def standings_rows_fresh(event: Event, kind: str) -> list[StandingsRow]:
    """The standings rows (the tallies follow every recorded result: nothing to refresh)."""
    return event_standings_rows_cached(event=event, kind=kind)


class StandingsApi(APIView):
    @extend_schema(
        parameters=[KIND],
        responses=inline_serializer(
            "Standings",
            {
                "event": serializers.IntegerField(),
                "kind": serializers.CharField(),
                "tie_breaks": serializers.ListField(child=serializers.CharField()),
                "columns": serializers.ListField(child=serializers.CharField()),
                "rows": serializers.ListField(child=serializers.DictField()),
            },
        ),
    )
    def get(self, request: Request, pk: int) -> Response:
        kind = _kind(request)
        event = api_event(request, pk)
        return Response(
            {
                "event": event.pk,
                "kind": kind,
                "tie_breaks": list(event.tie_break_order or []),
                "columns": list(standings_columns(event, kind)),
                "rows": [row.as_dict() for row in standings_rows_fresh(event, kind)],
            }
        )


def standings_csv(event: Event, kind: str, *, for_people: bool = False) -> HttpResponse:
    """Return the standings as a CSV download (UTF-8 with a BOM, so spreadsheet programs read the
    Chinese names): columns by their machine keys for programs (the API), or ``for_people`` (the
    pages' download) named in the page's language, with a yes/no as a word."""
    columns = standings_columns(event, kind)
    rows = ([row.value(c) for c in columns] for row in standings_rows_fresh(event, kind))
    if for_people:
        return csv_download(
            f"event-{event.pk}-{kind}.csv",
            column_labels(event, columns),
            cells_for_people(rows),
        )
    return csv_download(f"event-{event.pk}-{kind}.csv", columns, rows)


class StandingsCsvApi(APIView):
    @extend_schema(parameters=[KIND], responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, pk: int) -> HttpResponse:
        kind = _kind(request)
        return standings_csv(api_event(request, pk), kind)


class MeetStandingsApi(APIView):
    @extend_schema(
        responses=inline_serializer(
            "MeetStandings",
            {
                "meet": serializers.IntegerField(),
                "placement_points": serializers.ListField(child=serializers.IntegerField()),
                "rows": serializers.ListField(child=serializers.DictField()),
            },
        )
    )
    def get(self, request: Request, pk: int) -> Response:
        from tournaments.models import Unit

        meet = get_object_or_404(Meet, pk=pk)
        rows = meet_unit_standings(meet=meet, user=request.user)
        if not rows and not events_visible_to(request.user).filter(meet=meet).exists():
            raise Http404
        names = dict(Unit.objects.filter(pk__in=[r.unit for r in rows]).values_list("pk", "name"))
        return Response(
            {
                "meet": meet.pk,
                "placement_points": list(meet.placement_points or []),
                "rows": [
                    {
                        "rank": r.rank,
                        "unit_id": r.unit,
                        "unit": names.get(r.unit, ""),
                        "points": r.points,
                        "places": [{"event": e, "place": p} for e, p in r.places],
                        "tied": r.tied,
                    }
                    for r in rows
                ],
            }
        )
