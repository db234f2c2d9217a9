"""The ratings API: ``GET /api/v1/ratings/?game=G`` (the leaderboard) and
``GET /api/v1/players/<id>/`` (a profile). Both show the scope the caller may see
(``selectors.scope_for``): nothing of a private event reaches anyone else."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.exceptions import ApplicationError
from engine.registry import registered_keys
from games.models import Player
from ratings import selectors

MAX_LIMIT = 200


class BoardInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=[])
    bots = serializers.BooleanField(default=False)
    meet = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    unit = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    period = serializers.ChoiceField(choices=list(selectors.PERIODS), required=False)
    offset = serializers.IntegerField(min_value=0, max_value=10**9, default=0)
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=50)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        assert isinstance(game, serializers.ChoiceField)
        game.choices = list(registered_keys())


def board_input(data: Any) -> dict[str, Any]:
    """The leaderboard's filters, or ApplicationError (400) naming the bad one."""
    serializer = BoardInput(data=data)
    if not serializer.is_valid():
        field, errors = next(iter(serializer.errors.items()))
        raise ApplicationError(f"{field}: {' '.join(str(e) for e in errors)}")
    return dict(serializer.validated_data)


class RowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    unit = serializers.CharField()
    rating = serializers.IntegerField(help_text="the shown number: 1500 + 20 (mu - 3 sigma)")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="fewer than 10 rated matches")
    trend = serializers.IntegerField(help_text="the change over the last 5 matches")
    bot = serializers.CharField(allow_null=True, help_text="the bot's kind; null for a person")


class BoardOutput(serializers.Serializer):
    game = serializers.CharField()
    count = serializers.IntegerField()
    results = RowOutput(many=True)


class RatingsApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, required=True, enum=list(registered_keys())),
            OpenApiParameter("bots", bool, description="list the bots (apart from people)"),
            OpenApiParameter("meet", int),
            OpenApiParameter("unit", int),
            OpenApiParameter("period", str, enum=list(selectors.PERIODS)),
            OpenApiParameter("offset", int),
            OpenApiParameter("limit", int),
        ],
        responses=BoardOutput,
    )
    def get(self, request: Request) -> Response:
        args = board_input(request.query_params)
        game = args.pop("game")
        rows, total = selectors.leaderboard(
            game=game, scope=selectors.scope_for(request.user), **args
        )
        return Response(
            {"game": game, "count": total, "results": [RowOutput(r).data for r in rows]}
        )


class CareerOutput(serializers.Serializer):
    game = serializers.CharField()
    name = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()
    deals = serializers.IntegerField()
    average_place = serializers.FloatField(allow_null=True)
    tributes_paid = serializers.IntegerField()
    tributes_received = serializers.IntegerField()
    escapes = serializers.IntegerField()
    figures = serializers.SerializerMethodField()
    history = serializers.SerializerMethodField()

    def get_figures(self, career: Any) -> list[dict[str, Any]]:
        return [{"key": k, "label": label, "value": v} for k, label, v in career.figures]

    def get_history(self, career: Any) -> list[dict[str, Any]]:
        return [{"match": n, "rating": r, "at": at.isoformat()} for n, r, at in career.history]


class EventLineOutput(serializers.Serializer):
    event = serializers.IntegerField()
    name = serializers.CharField()
    meet = serializers.CharField()
    game = serializers.CharField()
    placement = serializers.IntegerField(allow_null=True)
    field_size = serializers.IntegerField()


class ProfileOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    ratings = CareerOutput(many=True)
    events = EventLineOutput(many=True)


def profile_for(request: Any, player_id: int, *, chinese: bool = True) -> selectors.Profile:
    """The profile the visitor may see, or 404 (a player seen only in private events)."""
    player = get_object_or_404(Player, pk=player_id)
    scope = selectors.scope_for(request.user)
    if not selectors.player_visible(player=player, scope=scope):
        raise Http404(_("No such player."))
    return selectors.player_profile(player=player, scope=scope, chinese=chinese)


class PlayerApi(APIView):
    @extend_schema(responses=ProfileOutput)
    def get(self, request: Request, player_id: int) -> Response:
        from django.utils.translation import get_language

        profile = profile_for(request, player_id, chinese=get_language() != "en")
        p = profile.player
        return Response(
            {
                "player": p.pk,
                "name": p.name,
                "bot": p.bot_kind or None,
                "ratings": CareerOutput(profile.careers, many=True).data,
                "events": EventLineOutput(profile.events, many=True).data,
            }
        )
