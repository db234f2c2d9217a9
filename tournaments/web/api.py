"""What every API view of tournaments shares: the event, round or table a request names as its
visitor may reach it (a draft round is its organizers' alone), the user, and parsed input
(bad input is a 400 with the serializer's errors)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request

from config.exceptions import ApplicationError, NotAllowedError
from tournaments.events import organizers as common_organizers
from tournaments.events.selectors import events_visible_to
from tournaments.models import Event, Pairing, Round


def api_event(request: Request, pk: int) -> Event:
    return get_object_or_404(events_visible_to(request.user).select_related("meet"), pk=pk)


def draft_hidden(request: Request, round: Round) -> None:
    """A draft round is its organizers' alone: to anyone else it does not exist (404)."""
    if round.status == Round.Status.DRAFT and not common_organizers.event_is_organizer(
        event=round.event, user=request.user
    ):
        raise Http404


def api_round(request: Request, pk: int) -> Round:
    round = get_object_or_404(Round.objects.select_related("event"), pk=pk)
    api_event(request, round.event_id)
    draft_hidden(request, round)
    return round


def api_pairing(request: Request, pk: int) -> Pairing:
    pairing = get_object_or_404(Pairing.objects.select_related("round__event", "table"), pk=pk)
    api_event(request, pairing.round.event_id)
    draft_hidden(request, pairing.round)
    return pairing


def api_user_required(request: Request) -> Any:
    if not request.user.is_authenticated:
        raise NotAllowedError(_("Log in as an organizer of the event to do this."))
    return request.user


def parsed_input(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The request's input checked by ``serializer_class``: ApplicationError (400) with the
    serializer's errors when it is not valid, or when it is not an object at all."""
    if not isinstance(data, dict) and not hasattr(data, "getlist"):
        raise ApplicationError(_("Send a JSON object."))
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        raise ApplicationError(_("Bad input."), extra={"errors": serializer.errors})
    return dict(serializer.validated_data)
