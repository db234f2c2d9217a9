"""The tournaments API (DRF): events, rounds, tables and results read-only for the public, writable
for the event's organizers only; standings as JSON and CSV. Views are thin: they parse with small
serializers, call a service or a selector, and answer; ApplicationError becomes a 4xx with its
message (config.exceptions.api_exception_handler)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.exceptions import ApplicationError, NotAllowedError
from games.models import MAX_SEATS
from tournaments import services
from tournaments.common.exports import csv_download
from tournaments.common.i18n import join_list
from tournaments.duplicate import deals as duplicate
from tournaments.events import registration_import
from tournaments.models import Event, Meet, Pairing, ResultSubmission, Round
from tournaments.results import services as results_services
from tournaments.selectors import (
    STANDINGS_KINDS,
    event_standings_rows_cached,
    events_visible_to,
    meet_unit_standings,
    round_byes,
    round_tables,
    standings_columns,
)
from tournaments.standings.labels import cells_for_people, column_labels


def _event_for(request: Request, pk: int) -> Event:
    return get_object_or_404(events_visible_to(request.user).select_related("meet"), pk=pk)


def _hide_draft(request: Request, round: Round) -> None:
    """A draft round is its organizers' alone: to anyone else it does not exist (404)."""
    if round.status == Round.Status.DRAFT and not services.event_is_organizer(
        event=round.event, user=request.user
    ):
        raise Http404


def _round_for(request: Request, pk: int) -> Round:
    round = get_object_or_404(Round.objects.select_related("event"), pk=pk)
    _event_for(request, round.event_id)
    _hide_draft(request, round)
    return round


def _pairing_for(request: Request, pk: int) -> Pairing:
    pairing = get_object_or_404(Pairing.objects.select_related("round__event", "table"), pk=pk)
    _event_for(request, pairing.round.event_id)
    _hide_draft(request, pairing.round)
    return pairing


def _user(request: Request) -> Any:
    return request.user if request.user.is_authenticated else None


def _require_user(request: Request) -> Any:
    if not request.user.is_authenticated:
        raise NotAllowedError(_("Log in as an organizer of the event to do this."))
    return request.user


# --- Serializers ----------------------------------------------------------------------------------


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


class ResultInput(serializers.Serializer):
    """A score sheet in the game's own format: 大怪路子's finishing orders (``first_dealer``
    required), or the deals of 上海斗地主's or 小路子's sheet (``first_dealer`` optional)."""

    first_dealer = serializers.IntegerField(
        min_value=0, max_value=5, required=False, allow_null=True
    )
    deals = serializers.ListField(child=serializers.DictField(), min_length=1)


class RejectInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class ResultOutput(serializers.ModelSerializer):
    pairing = serializers.IntegerField(source="pairing_id")
    submitted_by = serializers.CharField(source="submitted_by.username")
    reviewed_by = serializers.CharField(source="reviewed_by.username", default=None)

    class Meta:
        model = ResultSubmission
        fields = [
            "id",
            "pairing",
            "version",
            "status",
            "first_dealer",
            "deals",
            "submitted_by",
            "submitted_at",
            "reviewed_by",
            "reviewed_at",
            "note",
        ]


class PublicResultOutput(ResultOutput):
    """A confirmed result as anyone may see it: without the accounts that entered or reviewed it."""

    class Meta(ResultOutput.Meta):
        fields = [
            f for f in ResultOutput.Meta.fields if f not in ("submitted_by", "reviewed_by", "note")
        ]


def _parse(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        raise ApplicationError(_("Bad input."), extra={"errors": serializer.errors})
    return dict(serializer.validated_data)


# --- Events and standings -------------------------------------------------------------------------


class EventListApi(APIView):
    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request) -> Response:
        events: QuerySet[Event] = events_visible_to(request.user).select_related("meet")
        return Response(EventOutput(events, many=True).data)


class EventDetailApi(APIView):
    @extend_schema(responses=EventOutput)
    def get(self, request: Request, pk: int) -> Response:
        return Response(EventOutput(_event_for(request, pk)).data)


KIND = OpenApiParameter("kind", str, enum=list(STANDINGS_KINDS), default="team")


def _kind(request: Request) -> str:
    kind = request.query_params.get("kind", "team")
    if kind not in STANDINGS_KINDS:
        raise ApplicationError(
            _("kind is one of: %(kinds)s (got “%(kind)s”).")
            % {"kinds": join_list(STANDINGS_KINDS), "kind": kind}
        )
    return kind


def standings_rows_fresh(event: Event, kind: str) -> list[dict[str, object]]:
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
        event = _event_for(request, pk)
        return Response(
            {
                "event": event.pk,
                "kind": kind,
                "tie_breaks": list(event.tie_break_order or []),
                "columns": list(standings_columns(event, kind)),
                "rows": standings_rows_fresh(event, kind),
            }
        )


def standings_csv(event: Event, kind: str, *, for_people: bool = False) -> HttpResponse:
    """Return the standings as a CSV download (UTF-8 with a BOM, so spreadsheet programs read the
    Chinese names): columns by their machine keys for programs (the API), or ``for_people`` (the
    pages' download) named in the page's language, with a yes/no as a word."""
    columns = standings_columns(event, kind)
    rows = ([row.get(c, "") for c in columns] for row in standings_rows_fresh(event, kind))
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
        return standings_csv(_event_for(request, pk), kind)


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


# --- Registration import -------------------------------------------------------------------------


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
        event = _event_for(request, pk)
        user = _require_user(request)
        services.event_organizer_require(event=event, user=user)
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


# --- Rounds ---------------------------------------------------------------------------------------


class EventRoundsApi(APIView):
    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, pk: int) -> Response:
        event = _event_for(request, pk)
        rounds = event.rounds.order_by("number")
        if not services.event_is_organizer(event=event, user=request.user):
            rounds = rounds.exclude(status=Round.Status.DRAFT)
        return Response(RoundOutput(rounds, many=True).data)

    @extend_schema(request=RoundCreateInput, responses={201: RoundDetailOutput})
    def post(self, request: Request, pk: int) -> Response:
        data = _parse(RoundCreateInput, request.data)
        event = _event_for(request, pk)
        round = services.round_create_paired(
            event=event, user=_require_user(request), confirm=data["confirm"]
        )
        return Response(RoundDetailOutput(round).data, status=201)


class RoundDetailApi(APIView):
    @extend_schema(responses=RoundDetailOutput)
    def get(self, request: Request, pk: int) -> Response:
        return Response(RoundDetailOutput(_round_for(request, pk)).data)


class RoundTablesApi(APIView):
    @extend_schema(request=TablesInput, responses=RoundDetailOutput)
    def put(self, request: Request, pk: int) -> Response:
        data = _parse(TablesInput, request.data)
        round = services.round_pairings_set(
            round=_round_for(request, pk),
            tables=data["tables"],
            modes=data.get("modes"),
            user=_require_user(request),
        )
        return Response(RoundDetailOutput(round).data)


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

        data = _parse(WithdrawInput, request.data)
        event = _event_for(request, pk)
        registration = registration_withdraw(
            event=event,
            player=get_object_or_404(Player, pk=player),
            user=_require_user(request),
            withdrawn=data["withdrawn"],
        )
        return Response({"player": registration.player_id, "withdrawn": registration.withdrawn})


class RoundActionApi(APIView):
    """POST confirm / start / complete (with ``{"force": true}`` to complete unfinished tables)."""

    action = ""

    @extend_schema(request=None, responses=RoundDetailOutput)
    def post(self, request: Request, pk: int) -> Response:
        round = _round_for(request, pk)
        user = _require_user(request)
        if self.action == "confirm":
            round = services.round_confirm(round=round, user=user)
        elif self.action == "start":
            round = services.round_start(round=round, user=user)
        else:
            if not isinstance(request.data, dict):  # a JSON list, string, number or null
                raise ApplicationError(_('Send a JSON object, such as {"force": true}.'))
            force = str(request.data.get("force", "")).lower() in ("1", "true")
            round = services.round_complete(round=round, user=user, force=force)
        return Response(RoundDetailOutput(round).data)


# --- Results --------------------------------------------------------------------------------------


class PairingResultsApi(APIView):
    @extend_schema(responses=ResultOutput(many=True))
    def get(self, request: Request, pk: int) -> Response:
        pairing = _pairing_for(request, pk)
        versions = pairing.results.select_related("submitted_by", "reviewed_by")
        if not services.event_is_organizer(event=pairing.round.event, user=request.user):
            # The public sees confirmed results, not which staff accounts entered them; in a
            # duplicate round only once the online tables have played the sheet's deals.
            versions = versions.filter(status=ResultSubmission.Status.CONFIRMED)
            if not duplicate.sheet_public(pairing):
                versions = versions.none()
            return Response(PublicResultOutput(versions, many=True).data)
        return Response(ResultOutput(versions, many=True).data)

    @extend_schema(request=ResultInput, responses={201: ResultOutput})
    def post(self, request: Request, pk: int) -> Response:
        data = _parse(ResultInput, request.data)
        pairing = _pairing_for(request, pk)
        submission = results_services.result_submit(
            pairing=pairing,
            user=_require_user(request),
            first_dealer=data.get("first_dealer"),
            deals=data["deals"],
        )
        return Response(ResultOutput(submission).data, status=201)


class ResultReviewApi(APIView):
    action = ""

    @extend_schema(request=RejectInput, responses=ResultOutput)
    def post(self, request: Request, pk: int) -> Response:
        submission = get_object_or_404(
            ResultSubmission.objects.select_related("pairing__round"), pk=pk
        )
        _event_for(request, submission.pairing.round.event_id)
        user = _require_user(request)
        if self.action == "confirm":
            submission = results_services.result_confirm(submission=submission, user=user)
        else:
            reason = _parse(RejectInput, request.data)["reason"]
            submission = results_services.result_reject(
                submission=submission, user=user, reason=reason
            )
        return Response(ResultOutput(submission).data)
