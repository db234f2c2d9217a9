"""Organizer pages and API of duplicate events: the option, and the printable deal sheets (发牌单)
of a duplicate round, from which volunteers deal the physical packs of every offline table."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.exceptions import ApplicationError
from tournaments.duplicate import deals as duplicate
from tournaments.duplicate import services as duplicate_services
from tournaments.events.apis import EventOutput
from tournaments.models import DuplicateScoring, Round
from tournaments.web.api import api_event, api_user_required
from tournaments.web.requests import organized_event


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("1", "true", "on", "yes"):
        return True
    if str(value).lower() in ("0", "false", "off", "no", ""):
        return False
    raise ApplicationError(_("duplicate is true or false."))


@login_required
@require_POST
def duplicate_set(request: HttpRequest, pk: int) -> HttpResponse:
    """The dashboard's form: duplicate on or off, and its scoring."""
    event = organized_event(request, pk)
    try:
        duplicate_services.event_duplicate_set(
            event=event,
            duplicate=_flag(request.POST.get("duplicate", "")),
            scoring=request.POST.get("scoring", DuplicateScoring.DATUM),
            user=request.user,
        )
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The duplicate settings are saved."))
    return redirect("tournaments:dashboard", event.pk)


@login_required
def deal_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Every deal of a duplicate round, each seat's cards (organizers only: they show cards)."""
    event = organized_event(request, pk)
    round = get_object_or_404(Round.objects.select_related("event"), event=event, number=number)
    if not event.duplicate:
        return render(
            request,
            "400.html",
            {"message": _("Deal sheets are for duplicate events.")},
            status=400,
        )
    deals = duplicate.round_deal_sheets(round)
    tables = list(round.pairings.order_by("number").values_list("number", "table__mode"))
    return render(
        request,
        "tournaments/duplicate/deal_sheets.html",
        {"event": event, "round": round, "deals": deals, "tables": tables},
    )


class EventDuplicateApi(APIView):
    """PUT ``{"duplicate": true, "scoring": "datum" | "matchpoints"}``: an organizer sets the
    event's duplicate option (not once a round has started)."""

    @extend_schema(
        request=inline_serializer(
            "DuplicateInput",
            {
                "duplicate": serializers.BooleanField(),
                "scoring": serializers.ChoiceField(choices=DuplicateScoring.values),
            },
        ),
        responses=EventOutput,
    )
    def put(self, request: Request, pk: int) -> Response:
        event = api_event(request, pk)
        user = api_user_required(request)
        data = request.data
        if not isinstance(data, dict) or "duplicate" not in data:
            raise ApplicationError(
                _('Send a JSON object, such as {"duplicate": true, "scoring": "datum"}.')
            )
        event = duplicate_services.event_duplicate_set(
            event=event,
            duplicate=_flag(data["duplicate"]),
            scoring=str(data.get("scoring", event.duplicate_scoring)),
            user=user,
        )
        return Response(EventOutput(event).data)
