"""The events API (DRF): events read-only for the public, an event's registration import and a
player's withdrawal for its organizers."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
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
from tournaments.events import organizers as common_organizers
from tournaments.events import registration_import
from tournaments.events.selectors import events_visible_to
from tournaments.models import Event
from tournaments.web.api import api_event, api_user_required, parsed_input


class EventOutput(serializers.ModelSerializer):
    meet = serializers.CharField(source="meet.name")

    class Meta:
        model = Event
        fields = [
            "id",
            "name",
            "meet",
            "game",
            "status",
            "base_score",
            "deals_per_match",
            "pairing_format",
            "tie_break_order",
            "bye_points",
            "table_mode",
            "duplicate",
            "duplicate_scoring",
        ]


class EventListApi(APIView):
    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request) -> Response:
        events: QuerySet[Event] = events_visible_to(request.user).select_related("meet")
        return Response(EventOutput(events, many=True).data)


class EventDetailApi(APIView):
    @extend_schema(responses=EventOutput)
    def get(self, request: Request, pk: int) -> Response:
        return Response(EventOutput(api_event(request, pk)).data)


def _plan_json(plan: Any) -> dict[str, Any]:
    return {
        "ok": plan.ok,
        "problems": [{"row": p.row, "message": p.message} for p in plan.problems],
        "new_units": list(plan.new_units),
        "teams": [
            {
                "name": t.name,
                "unit": t.unit,
                "formed": t.formed,
                "players": [
                    {
                        "row": p.row,
                        "name": p.name,
                        "employee_number": p.employee_number,
                        "reuses": p.reuses is not None,
                    }
                    for p in t.players
                ],
            }
            for t in plan.teams
        ],
        "without_team": [p.name for p in plan.without_team],
        "players": [
            {
                "row": p.row,
                "name": p.name,
                "unit": p.unit,
                "employee_number": p.employee_number,
                "reuses": p.reuses is not None,
            }
            for p in plan.players
        ],
        "warnings": list(plan.warnings),
        "closed": plan.closed,
    }


class EventImportApi(APIView):
    """POST a .csv or .xlsx file (multipart field ``file``): ``?dry_run=1`` previews, otherwise
    imports; a bad file answers 400 with every bad row and writes nothing."""

    @extend_schema(
        request={
            "multipart/form-data": inline_serializer(
                "ImportUpload",
                {
                    "file": serializers.FileField(),
                    "create_units": serializers.BooleanField(required=False),
                    "others": serializers.ChoiceField(
                        choices=["new", "refuse"],
                        required=False,
                        help_text="A row naming a player of an event you do not organize: "
                        "import them as a new player (new, the default) or refuse the row.",
                    ),
                    "balanced": serializers.BooleanField(
                        required=False,
                        help_text="Form the teams within each unit balanced by the players' "
                        "ratings instead of in file order.",
                    ),
                },
            )
        },
        parameters=[OpenApiParameter("dry_run", bool, default=False)],
        responses=OpenApiTypes.OBJECT,
    )
    def post(self, request: Request, pk: int) -> Response:
        event = api_event(request, pk)
        user = api_user_required(request)
        common_organizers.event_organizer_require(event=event, user=user)
        upload = request.FILES.get("file")
        if upload is None:
            raise ApplicationError(_("Send the file in the multipart field 'file'."))
        if (upload.size or 0) > 5 * 1024 * 1024:
            raise ApplicationError(_("The file is larger than 5 MB."))
        data: Any = request.data
        create_units = str(data.get("create_units", "true")).lower() in ("1", "true")
        others = str(data.get("others", "new"))
        balanced = str(data.get("balanced", "false")).lower() in ("1", "true")
        content = upload.read()
        if str(request.query_params.get("dry_run", "")).lower() in ("1", "true"):
            plan = registration_import.event_import_plan(
                event=event,
                filename=upload.name,
                content=content,
                create_units=create_units,
                user=user,
                others=others,
                balanced=balanced,
            )
            return Response(_plan_json(plan), status=200 if plan.ok else 400)
        plan = registration_import.event_import(
            event=event,
            filename=upload.name or "",
            content=content,
            user=user,
            create_units=create_units,
            others=others,
            balanced=balanced,
        )
        return Response(_plan_json(plan), status=201)


class WithdrawInput(serializers.Serializer):
    withdrawn = serializers.BooleanField(default=True)


class RegistrationWithdrawApi(APIView):
    """POST ``{"withdrawn": true}`` (the default) to leave a registered player of an individual
    event out of later rounds, ``false`` to bring them back; organizers only."""

    @extend_schema(
        request=WithdrawInput,
        responses=inline_serializer(
            "RegistrationOutput",
            {"player": serializers.IntegerField(), "withdrawn": serializers.BooleanField()},
        ),
    )
    def post(self, request: Request, pk: int, player: int) -> Response:
        from games.models import Player
        from tournaments.draw.manual import registration_withdraw

        data = parsed_input(WithdrawInput, request.data)
        event = api_event(request, pk)
        registration = registration_withdraw(
            event=event,
            player=get_object_or_404(Player, pk=player),
            user=api_user_required(request),
            withdrawn=data["withdrawn"],
        )
        return Response({"player": registration.player_id, "withdrawn": registration.withdrawn})
