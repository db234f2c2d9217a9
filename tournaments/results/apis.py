"""The results API: offline tables' results entered, reviewed, confirmed or rejected by the
event's organizers and referees."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.duplicate import deals as duplicate
from tournaments.events import organizers as common_organizers
from tournaments.models import ResultSubmission
from tournaments.results import services as results_services
from tournaments.web.api import api_event, api_pairing, api_user_required, parsed_input


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


class PairingResultsApi(APIView):
    @extend_schema(responses=ResultOutput(many=True))
    def get(self, request: Request, pk: int) -> Response:
        pairing = api_pairing(request, pk)
        versions = pairing.results.select_related("submitted_by", "reviewed_by")
        if not common_organizers.event_is_organizer(event=pairing.round.event, user=request.user):
            # The public sees confirmed results, not which staff accounts entered them; in a
            # duplicate round only once the online tables have played the sheet's deals.
            versions = versions.filter(status=ResultSubmission.Status.CONFIRMED)
            if not duplicate.sheet_public(pairing):
                versions = versions.none()
            return Response(PublicResultOutput(versions, many=True).data)
        return Response(ResultOutput(versions, many=True).data)

    @extend_schema(request=ResultInput, responses={201: ResultOutput})
    def post(self, request: Request, pk: int) -> Response:
        data = parsed_input(ResultInput, request.data)
        pairing = api_pairing(request, pk)
        submission = results_services.result_submit(
            pairing=pairing,
            user=api_user_required(request),
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
        api_event(request, submission.pairing.round.event_id)
        user = api_user_required(request)
        if self.action == "confirm":
            submission = results_services.result_confirm(submission=submission, user=user)
        else:
            reason = parsed_input(RejectInput, request.data)["reason"]
            submission = results_services.result_reject(
                submission=submission, user=user, reason=reason
            )
        return Response(ResultOutput(submission).data)
