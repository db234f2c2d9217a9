"""``GET /api/v1/events/{id}/deals/``: the deals of an event's online tables, for the replay viewer
(``/deals/<id>/replay/``) and the record API. An event the caller may not see is a 404, as the
rest of the public API answers; a draft round's deals are its organizers' alone, and so is deal k
of a running duplicate round until every table of the round has finished it (an offline table's
entered sheet included: its deals appear at once, all finished)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Deal
from tournaments.duplicate import deals as duplicate
from tournaments.events import organizers as services
from tournaments.events.selectors import events_visible_to
from tournaments.models import Round

DealRow = inline_serializer(
    "EventDeal",
    {
        "id": serializers.IntegerField(),
        "round": serializers.IntegerField(),
        "table": serializers.IntegerField(help_text="the table's number in its round"),
        "table_id": serializers.IntegerField(),
        "number": serializers.IntegerField(help_text="the deal's number in its match"),
        "finished": serializers.BooleanField(),
    },
)


class EventDealsApi(APIView):
    """Every deal of the event's tables: id, round, table, number and whether it is finished
    (whether its hands may be replayed is the replay's and the record's to say: 404 while
    hidden)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: DealRow})
    def get(self, request: Request, pk: int) -> Response:
        event = get_object_or_404(events_visible_to(request.user), pk=pk)
        deals = Deal.objects.filter(match__table__pairing__round__event=event)
        organizer = services.event_is_organizer(event=event, user=request.user)
        if not organizer:
            deals = deals.exclude(match__table__pairing__round__status=Round.Status.DRAFT)
        query = deals.order_by(
            "match__table__pairing__round__number",
            "match__table__pairing__number",
            "match__created_at",
            "number",
        ).values(
            "id",
            "number",
            "status",
            "match__table_id",
            "match__table__pairing__number",
            "match__table__pairing__round__number",
            "match__table__pairing__round_id",
        )
        rows = list(query)
        if event.duplicate and not organizer:
            published = duplicate.rounds_published(
                r["match__table__pairing__round_id"] for r in rows
            )
            rows = [
                r for r in rows if r["number"] <= published[r["match__table__pairing__round_id"]]
            ]
        return Response(
            [
                {
                    "id": r["id"],
                    "round": r["match__table__pairing__round__number"],
                    "table": r["match__table__pairing__number"],
                    "table_id": r["match__table_id"],
                    "number": r["number"],
                    "finished": r["status"] == Deal.Status.FINISHED,
                }
                for r in rows
            ]
        )
