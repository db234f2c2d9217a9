"""The rounds API: an event's rounds and their tables, read-only for the public (a draft round
only for its organizers), and the organizers' round actions (create, tables, confirm, start,
complete)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.exceptions import ApplicationError
from games.models import MAX_SEATS
from tournaments.draw import services as draw_services
from tournaments.events import organizers as common_organizers
from tournaments.models import Round
from tournaments.rounds import clock as rounds_clock
from tournaments.rounds import services as rounds_services
from tournaments.rounds.selectors import round_byes, round_tables
from tournaments.web.api import api_event, api_round, api_user_required, parsed_input


class TeamBrief(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    unit = serializers.CharField(source="unit.name", default="")
    players = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_players(self, team: Any) -> list[str]:
        return [m.player.name for m in team.members.all()]


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    bot = serializers.BooleanField(source="player.is_bot")


#: the fields of a team match's two sides (A: seats 0/2/4, B: seats 1/3/5)
SIDE_FIELDS = ("team_a", "team_b", "points_a", "points_b", "level_a", "level_b", "winner_side")


class TableOutput(serializers.Serializer):
    """A table of a round; an individual event's table has seats, not sides, so it leaves out
    the side fields (``team_a``/``team_b``, ``points_a``/``points_b``, ...), which would read
    as a team match at 0 : 0 (issue 26). Context ``individual``: the round's event is one."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    mode = serializers.CharField(source="table.mode")
    team_a = TeamBrief()
    team_b = TeamBrief()
    status = serializers.CharField(source="tally.status", default="pending")
    points_a = serializers.IntegerField(source="tally.points_a", default=0)
    points_b = serializers.IntegerField(source="tally.points_b", default=0)
    level_a = serializers.IntegerField(source="tally.level_a", default=2)
    level_b = serializers.IntegerField(source="tally.level_b", default=2)
    winner_side = serializers.CharField(source="tally.winner_side", default="")
    seats = SeatOutput(source="table.seats.all", many=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = dict(super().to_representation(instance))
        if self.context.get("individual"):
            for name in SIDE_FIELDS:
                data.pop(name, None)
        return data


class RoundOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField(source="event_id")
    number = serializers.IntegerField()
    status = serializers.CharField()


class RoundDetailOutput(RoundOutput):
    tables = serializers.SerializerMethodField()
    byes = serializers.SerializerMethodField()

    @extend_schema_field(TableOutput(many=True))
    def get_tables(self, round: Round) -> list[dict[str, Any]]:
        context = {"individual": round.event.is_individual}
        return list(TableOutput(round_tables(round=round), many=True, context=context).data)

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_byes(self, round: Round) -> list[dict[str, Any]]:
        return [{"id": t.pk, "name": t.name} for t in round_byes(round=round)]


class RoundCreateInput(serializers.Serializer):
    confirm = serializers.BooleanField(default=False)


class TablesInput(serializers.Serializer):
    """A team event's tables are pairs of team ids (seats 0/2/4 first); an individual event's
    are the player ids seat by seat from seat 0 (null: a bot sits there)."""

    tables = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, allow_null=True),
            min_length=2,
            max_length=MAX_SEATS,
        )
    )
    modes = serializers.ListField(child=serializers.CharField(), required=False)


class EventRoundsApi(APIView):
    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, pk: int) -> Response:
        event = api_event(request, pk)
        rounds = event.rounds.order_by("number")
        if not common_organizers.event_is_organizer(event=event, user=request.user):
            rounds = rounds.exclude(status=Round.Status.DRAFT)
        return Response(RoundOutput(rounds, many=True).data)

    @extend_schema(request=RoundCreateInput, responses={201: RoundDetailOutput})
    def post(self, request: Request, pk: int) -> Response:
        data = parsed_input(RoundCreateInput, request.data)
        event = api_event(request, pk)
        round = draw_services.round_create_paired(
            event=event, user=api_user_required(request), confirm=data["confirm"]
        )
        return Response(RoundDetailOutput(round).data, status=201)


class RoundDetailApi(APIView):
    @extend_schema(responses=RoundDetailOutput)
    def get(self, request: Request, pk: int) -> Response:
        return Response(RoundDetailOutput(api_round(request, pk)).data)


class RoundTablesApi(APIView):
    @extend_schema(request=TablesInput, responses=RoundDetailOutput)
    def put(self, request: Request, pk: int) -> Response:
        data = parsed_input(TablesInput, request.data)
        round = draw_services.round_pairings_set(
            round=api_round(request, pk),
            tables=data["tables"],
            modes=data.get("modes"),
            user=api_user_required(request),
        )
        return Response(RoundDetailOutput(round).data)


class RoundActionApi(APIView):
    """POST confirm / start / complete (with ``{"force": true}`` to complete unfinished tables)."""

    action = ""

    @extend_schema(request=None, responses=RoundDetailOutput)
    def post(self, request: Request, pk: int) -> Response:
        round = api_round(request, pk)
        user = api_user_required(request)
        if self.action == "confirm":
            round = rounds_services.round_confirm(round=round, user=user)
        elif self.action == "start":
            round = rounds_services.round_start(round=round, user=user)
        else:
            if not isinstance(request.data, dict):  # a JSON list, string, number or null
                raise ApplicationError(_('Send a JSON object, such as {"force": true}.'))
            force = str(request.data.get("force", "")).lower() in ("1", "true")
            round = rounds_services.round_complete(round=round, user=user, force=force)
        return Response(RoundDetailOutput(round).data)


class ClockOutput(serializers.Serializer):
    round = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["none", "ready", "running", "paused", "over"])
    minutes = serializers.IntegerField(allow_null=True)
    extra_minutes = serializers.IntegerField()
    seconds_left = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)


class RoundClockApi(APIView):
    """GET a round's clock: its state and the whole seconds left (pages count down from it)."""

    @extend_schema(responses=ClockOutput)
    def get(self, request: Request, pk: int) -> Response:
        view = rounds_clock.clock_of(api_round(request, pk))
        response = Response(view.to_json())
        response["Cache-Control"] = "no-store"
        return response


class RoundClockActionApi(APIView):
    """POST start / pause / resume / extend (``{"minutes": 5}``; start may name its length too):
    the event's organizers only (403), on a running round (409 otherwise)."""

    action = ""

    @extend_schema(request=None, responses=ClockOutput)
    def post(self, request: Request, pk: int) -> Response:
        round = api_round(request, pk)
        user = api_user_required(request)
        data = request.data if isinstance(request.data, dict) else {}
        if self.action == "start":
            view = rounds_clock.clock_start(round=round, user=user, minutes=data.get("minutes"))
        elif self.action == "pause":
            view = rounds_clock.clock_pause(round=round, user=user)
        elif self.action == "resume":
            view = rounds_clock.clock_resume(round=round, user=user)
        else:
            view = rounds_clock.clock_extend(round=round, user=user, minutes=data.get("minutes", 5))
        return Response(view.to_json())
