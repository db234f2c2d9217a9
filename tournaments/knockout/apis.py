"""The bracket's API: read for the public, writes for the event's organizers only (break, seeds,
replace, confirm, start, complete, walkovers, match lengths). Writes go through
tournaments.knockout's services, so an ApplicationError is a 4xx with its message, never a
server error."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.auth import acting_user
from config.converters import MAX_ID
from config.exceptions import ApplicationError, NotAllowedError
from tournaments.events.organizers import event_is_organizer
from tournaments.knockout import deciding as knockout_deciding
from tournaments.knockout import services as knockout_services
from tournaments.knockout.display import bracket_csv, bracket_data
from tournaments.models import (
    KnockoutMatch,
    KnockoutStage,
)
from tournaments.web.api import parsed_input
from tournaments.web.requests import visible_event


class BreakInput(serializers.Serializer):
    size = serializers.IntegerField()
    places_played = serializers.IntegerField(required=False, default=4)
    deals_per_match = serializers.IntegerField(required=False, min_value=1, max_value=99)
    final_deals = serializers.IntegerField(required=False, min_value=1, max_value=99)
    to_a = serializers.BooleanField(required=False, default=False)


class SeedsInput(serializers.Serializer):
    entrants = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), max_length=16
    )


class SeedInput(serializers.Serializer):
    seed = serializers.IntegerField(min_value=1, max_value=16)


class LengthInput(serializers.Serializer):
    deals = serializers.IntegerField(min_value=1, max_value=99)
    to_a = serializers.BooleanField(required=False, default=False)


BracketOutput = inline_serializer(
    "Bracket",
    {
        "event": serializers.IntegerField(),
        "status": serializers.CharField(),
        "size": serializers.IntegerField(),
        "rounds": serializers.ListField(child=serializers.DictField()),
        "placement": serializers.ListField(child=serializers.DictField()),
    },
)


class BracketApi(APIView):
    """GET the bracket: entrants, every match (entrants, points, result), the final placement."""

    @extend_schema(responses=BracketOutput)
    def get(self, request: Request, pk: int) -> Response:
        event = visible_event(request, pk)
        data = bracket_data(event)
        if data is None:
            raise Http404
        return Response(data)


class BracketCsvApi(APIView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, pk: int) -> HttpResponse:
        kind = request.query_params.get("kind", "matches")
        return bracket_csv(
            visible_event(request, pk), "placement" if kind == "placement" else "matches"
        )


class BracketActionApi(APIView):
    """POST break / seeds / replace / cancel / confirm / start / complete (organizers only)."""

    action = ""

    @extend_schema(request=None, responses=BracketOutput)
    def post(self, request: Request, pk: int) -> Response:
        event = visible_event(request, pk)
        if not request.user.is_authenticated:
            raise NotAllowedError(_("Log in as an organizer of the event to do this."))
        user = acting_user(request)
        if self.action == "break":
            data = parsed_input(BreakInput, request.data)
            knockout_services.knockout_break(event=event, user=user, **data)
        else:
            stage = KnockoutStage.objects.filter(event=event).first()
            if stage is None:
                if not event_is_organizer(event=event, user=user):
                    raise NotAllowedError(
                        _("Only the organizers of %(event)s may do this.") % {"event": event.name}
                    )
                raise ApplicationError(_("Break the top entrants first."))
            if self.action == "seeds":
                data = parsed_input(SeedsInput, request.data)
                knockout_services.knockout_seeds_set(
                    stage=stage, entrants=data["entrants"], user=user
                )
            elif self.action == "replace":
                data = parsed_input(SeedInput, request.data)
                knockout_services.knockout_replace(stage=stage, seed=data["seed"], user=user)
            elif self.action == "cancel":
                knockout_services.knockout_cancel(stage=stage, user=user)
                return Response(status=204)
            elif self.action == "confirm":
                knockout_services.knockout_confirm(stage=stage, user=user)
            elif self.action == "start":
                knockout_services.knockout_start(stage=stage, user=user)
            elif self.action == "complete":
                knockout_deciding.knockout_complete(stage=stage, user=user)
        return Response(bracket_data(event))


class WalkoverInput(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=16), max_length=16
    )
    reason = serializers.CharField(max_length=300)


class BracketMatchWalkoverApi(APIView):
    """POST ``{"order": [seeds best first], "reason": "..."}``: award a match that cannot be
    played, before it begins (organizers only)."""

    @extend_schema(request=None, responses=BracketOutput)
    def post(self, request: Request, pk: int, key: str) -> Response:
        event = visible_event(request, pk)
        if not request.user.is_authenticated:
            raise NotAllowedError(_("Log in as an organizer of the event to do this."))
        match = get_object_or_404(KnockoutMatch, stage__event=event, key=key[:20])
        data = parsed_input(WalkoverInput, request.data)
        knockout_services.knockout_walkover(match=match, user=acting_user(request), **data)
        return Response(bracket_data(event))


class BracketMatchLengthApi(APIView):
    """POST a knockout match's length ``{"deals": 5, "to_a": false}`` before it begins."""

    @extend_schema(request=None, responses=BracketOutput)
    def post(self, request: Request, pk: int, key: str) -> Response:
        event = visible_event(request, pk)
        if not request.user.is_authenticated:
            raise NotAllowedError(_("Log in as an organizer of the event to do this."))
        match = get_object_or_404(KnockoutMatch, stage__event=event, key=key[:20])
        data = parsed_input(LengthInput, request.data)
        knockout_services.knockout_match_length_set(match=match, user=acting_user(request), **data)
        return Response(bracket_data(event))
