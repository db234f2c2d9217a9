"""The replay viewer and same-deal challenges: pages and API (mounted by games/urls.py and
games/api_urls.py).

- ``GET /deals/<id>/replay/``: the replay page (``?step=N`` opens at step N);
- ``GET /tables/<id>/replay/``: the newest replayable deal of the table's match;
- ``POST /deals/<id>/challenge/`` (form ``seat``, 1-based): start a challenge, go to its table;
- ``GET /api/v1/deals/<id>/record/`` (``?download=1`` as a file): the deal's record;
- ``GET /api/v1/deals/<id>/challenges/``: the deal's leaderboard; ``POST`` ``{"seat": 0..}``
  starts a challenge (201 ``{"challenge", "table", "url"}``);
- ``GET /api/v1/tables/<id>/replays/``: the replayable deals of the table's newest match (and,
  at a challenge's table, the leaderboard it is listed on).

A deal whose hands are hidden, or whose table the user may not see, is a 404 everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from config.exceptions import ApplicationError
from games.models import Challenge, Deal, Match, Table
from games.play.table_ui import game_table_ui, page_words
from games.replay.challenge import LeaderRow, challenge_start, deal_leaderboard
from games.replay.selectors import (
    deal_for_replay,
    deal_record,
    deal_record_public,
    deal_replay,
    match_replay_deals,
    table_replay_deal,
)
from games.tables.access import table_viewable
from games.tables.limits import TABLE_OPEN_THROTTLES, table_open_throttled, throttled_message
from games.tables.views import refusal_text, table_strings


def replay_strings(terms: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The words of the replay page's script (with the table page's, for the same facts), with
    the game's ``terms`` (its table description's) over them."""
    site = {
        **table_strings(),
        "stepOf": _("Step %(n)s of %(total)s"),
        "dealt": _("The cards as dealt."),
        "played": _("%(name)s plays"),
        "passes": _("%(name)s passes"),
        "returns": _("%(name)s returns (还贡)"),
        "chooses": _("%(name)s: %(choice)s"),
        "escapes": _("%(name)s escapes (逃跑)"),
        "system": _("(system play)"),
        "seatNo": _("seat %(n)s"),
        "kittyTaken": _("taken by the landlord (地主)"),
        "result": _("Result"),
        "points": _("Points"),
        "copied": _("Link copied."),
    }
    return page_words(site, terms or {})


def _english() -> bool:
    return not (get_language() or "").startswith("zh")


def _leader_json(row: LeaderRow) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "player": row.player,
        "points": row.points,
        "original": row.original,
        "versus": row.versus,
        "table": row.table_id,
        "created_at": row.created_at.isoformat() if row.created_at else None,
    }


def _deal_or_404(request: HttpRequest, pk: int) -> Deal:
    deal = deal_for_replay(deal_id=pk, user=request.user)
    if deal is None:
        raise Http404
    return deal


@gzip_page  # every step's view and hands: ~200 KiB of JSON for a deal of 大怪路子, ~6 KiB gzipped
@require_GET
def deal_replay_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished deal step by step, every hand face up; its challenges' leaderboard."""
    deal = _deal_or_404(request, pk)
    replay = deal_replay(deal)
    data = replay.to_json()
    game = replay.game
    # the record names the seeds: offered once nothing still to be played can be dealt from them
    data["recordUrl"] = (
        reverse("api:deal_record", args=[deal.pk]) if deal_record_public(deal) else None
    )
    data["replayPath"] = reverse("games:deal_replay", args=[deal.pk])
    data["dealPaths"] = {str(d.id): reverse("games:deal_replay", args=[d.id]) for d in replay.deals}
    share = request.build_absolute_uri(reverse("games:deal_replay", args=[deal.pk])) + "#challenge"
    ui = game_table_ui(game)
    data["ui"] = {key: value for key, value in ui.items() if key != "terms"}
    context = {
        "deal": deal,
        "table": deal.match.table,
        "config": data,
        "strings": replay_strings(ui["terms"]),
        "challenge_note": ui["terms"].get("challengeNote", ""),
        "game_name": game.name_en if _english() else game.name_zh,
        "positions": range(game.seat_count),
        "leaderboard": deal_leaderboard(deal=deal, user=request.user),
        "seats": replay.seats,
        "share_url": share,
        "login_url": f"{reverse('accounts:login')}?next={deal_path(deal)}%23challenge",
    }
    return render(request, "games/replay.html", context)


def deal_path(deal: Deal) -> str:
    return reverse("games:deal_replay", args=[deal.pk])


@require_GET
def table_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The newest replayable deal of the table's newest match (a link from a table row)."""
    deal = table_replay_deal(table_id=pk, user=request.user)
    if deal is None:
        raise Http404
    return redirect("games:deal_replay", pk=deal.pk)


@require_POST
def deal_challenge(request: HttpRequest, pk: int) -> HttpResponse:
    """Start (or go back to) the user's challenge of the deal in the seat chosen (1-based)."""
    deal = _deal_or_404(request, pk)
    throttled = table_open_throttled(request)
    if throttled is not None:
        return throttled
    raw = request.POST.get("seat", "")
    try:
        seat: Any = int(raw) - 1
    except ValueError:
        seat = raw
    try:
        challenge = challenge_start(user=request.user, deal=deal, seat=seat)
    except ApplicationError as exc:  # 403 anonymous, 400 a bad seat, 409 too many open
        return refusal_text(exc)
    return redirect("games:table", pk=challenge.match.table_id)


class DealRecordApi(APIView):
    """The deal's record (headers, actions, result) as the engine writes it; 404 while its hands
    are hidden or its table is not the caller's to see. ``?download=1`` sends it as a file."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT})
    def get(self, request: Request, deal_id: int) -> Response | HttpResponse:
        deal = _deal_or_404(request, deal_id)
        if not deal_record_public(deal):  # its seeds would deal what is still to be played
            raise Http404
        record = deal_record(deal)
        if request.query_params.get("download"):
            body = json.dumps(record, ensure_ascii=False, indent=2)
            response = HttpResponse(body, content_type="application/json; charset=utf-8")
            name = f"luzi-{deal.match.game}-deal-{deal.pk}.json"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
            return response
        return Response(record)


class DealChallengesApi(APIView):
    """``GET``: the deal's leaderboard (the original in every seat, then every challenge);
    ``POST {"seat": 0..n-1}``: start a challenge (logged-in players only; 409 with the open
    ones listed when the player has too many being played, 429 after too many openings lately)."""

    permission_classes = [AllowAny]
    throttle_classes = list(TABLE_OPEN_THROTTLES)

    def get_throttles(self) -> list[BaseThrottle]:
        """Only starting a challenge is throttled, not reading the leaderboard."""
        return super().get_throttles() if self.request.method == "POST" else []

    def throttled(self, request: Request, wait: float | None) -> NoReturn:
        raise Throttled(wait=wait, detail=throttled_message(wait))

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT})
    def get(self, request: Request, deal_id: int) -> Response:
        deal = _deal_or_404(request, deal_id)
        rows = deal_leaderboard(deal=deal, user=request.user)
        return Response({"deal": deal.pk, "rows": [_leader_json(r) for r in rows]})

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            201: OpenApiTypes.OBJECT,
            400: OpenApiTypes.OBJECT,
            403: OpenApiTypes.OBJECT,
            409: OpenApiTypes.OBJECT,
            429: OpenApiTypes.OBJECT,
        },
    )
    def post(self, request: Request, deal_id: int) -> Response:
        deal = _deal_or_404(request, deal_id)
        data = request.data if isinstance(request.data, dict) else {}
        if "seat" not in data:
            raise ApplicationError(_("Choose a seat."), extra={"field": "seat"})
        challenge = challenge_start(user=request.user, deal=deal, seat=data["seat"])
        table_id = challenge.match.table_id
        return Response(
            {
                "challenge": challenge.pk,
                "table": table_id,
                "seat": challenge.seat,
                "url": reverse("games:table", args=[table_id]),
            },
            status=201,
        )


class TableReplaysApi(APIView):
    """The replayable deals of the table's newest match, ``{"deals": [{"id", "number", "url"}],
    "challenge": url}`` (``challenge``: at a challenge's table, the leaderboard of the deal it
    plays again)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT})
    def get(self, request: Request, table_id: int) -> Response:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise Http404
        seated = (
            request.user.is_authenticated and table.seats.filter(player__user=request.user).exists()
        )
        if not table_viewable(table_id=table.pk, user=request.user, seated=seated):
            raise Http404
        match = Match.objects.filter(table=table).order_by("-created_at", "-id").first()
        deals = match_replay_deals(match) if match is not None else []
        source = (
            Challenge.objects.filter(match=match).values_list("source_id", flat=True).first()
            if match is not None
            else None
        )
        return Response(
            {
                "deals": [
                    {
                        "id": d.pk,
                        "number": d.number,
                        "url": reverse("games:deal_replay", args=[d.pk]),
                    }
                    for d in deals
                ],
                # a challenge's table: the deal it plays again, whose leaderboard lists it
                "challenge": reverse("games:deal_replay", args=[source]) + "#challenge"
                if source is not None
                else None,
            }
        )
