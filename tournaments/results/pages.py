"""A table's own score page (``/tables/<id>/sheet/``, the games table's id) and its JSON API
(``/api/v1/tables/<id>/sheet/``), for the table's seated players and the event's organizers and
referees; the site's web app manifest and the service worker that keeps the page working when
the hall's Wi-Fi drops (served from the site's root, so that its scope is the whole site)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.auth import acting_user
from config.exceptions import ApplicationError, NotAllowedError
from engine.registry import get_game
from tournaments.common.qr import qr_svg
from tournaments.models import Pairing
from tournaments.results import sheet_entry, sheet_form
from tournaments.results import table_sheet as services
from tournaments.rounds.clock import round_clock_page
from tournaments.web.api import parsed_input

SW_STATIC = "tournaments/sw.js"


def _access(pairing_table: int, user: Any) -> services.SheetAccess:
    pairing = services.sheet_pairing(pairing_table)
    if pairing is None:
        raise Http404(_("No offline table of an event has this number."))
    try:
        return services.sheet_access(pairing, user)
    except NotAllowedError as error:
        raise PermissionDenied(error.message) from None


def sheet_link(request: HttpRequest, pairing: Pairing) -> str:
    return request.build_absolute_uri(reverse("tournaments:table_sheet", args=[pairing.table_id]))


def sheet_qr(request: HttpRequest, pairing: Pairing) -> str:
    """The QR code of a table's score page, for its printed sheet and table card."""
    return qr_svg(sheet_link(request, pairing))


@login_required
def table_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The score page: the table's players, each deal as entered and confirmed, and the form of
    the next deal (names to tap). The page's script keeps an entry made offline and sends it
    when the connection returns."""
    access = _access(pk, acting_user(request))
    pairing = access.pairing
    game = get_game(pairing.table.game)
    try:
        spec = sheet_entry.spec_of(game)
    except ApplicationError as error:
        raise Http404(error.message) from None
    people = sheet_form.seat_people(pairing, game)
    entry = sheet_form.entry_rows(spec, people, {}, 1)
    state = services.sheet_state(access)
    config = {
        "api": reverse("tournaments-api:table-sheet", args=[pairing.table_id]),
        "page": request.path,
        "table": pairing.table_id,
        "sw": reverse("tournaments:service_worker"),
        "assets": [
            static("css/luzi.css"),
            static("tournaments/table_sheet.css"),
            static("tournaments/table_sheet.js"),
            static("site.js"),
            static("clock.js"),
        ],
        "state": state,
        "words": _words(),
    }
    return render(
        request,
        "tournaments/table_sheet.html",
        {
            "pairing": pairing,
            "event": pairing.round.event,
            "people": people,
            "entry": entry,
            "state": state,
            "config": config,
            "staff": access.staff,
            "clock": round_clock_page(pairing.round),
        },
    )


def _words() -> dict[str, str]:
    """What the page's script says, in the page's language."""
    return {
        "waiting": _("Waiting to be sent"),
        "accepted": _("Accepted"),
        "refused": _("Not accepted"),
        "offline": _("No connection: entries are kept on this phone and sent when it returns."),
        "online": _("Connected."),
        "deal": _("Deal %(deal)s"),
        "entered_by": _("entered by %(who)s"),
        "reviewed_by": _("by %(who)s"),
        "confirm": _("Confirm"),
        "dispute": _("Dispute (call a referee)"),
        "reason": _("What is wrong? (optional)"),
        "recorded": _("The match is recorded: the standings are updated."),
        "finished": _("The match is over."),
        "next": _("Enter deal %(deal)s"),
        "nothing": _("No deal entered yet."),
        "sent": _("Deal %(deal)s was accepted."),
        "disputed": _("A referee is called to this table."),
        "pick": _("Pick what happened in the deal."),
    }


class SheetInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=["preview", "enter", "confirm", "dispute"])
    number = serializers.IntegerField(min_value=1, max_value=99)
    client_id = serializers.UUIDField(required=False, allow_null=True)
    #: the form's picks (``d1_<field>``, ``first_dealer``), or the game's own deal
    picks = serializers.DictField(required=False)
    deal = serializers.DictField(required=False)
    first_dealer = serializers.IntegerField(
        min_value=0, max_value=5, required=False, allow_null=True
    )
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True)


def _posted_deal(access: services.SheetAccess, data: dict[str, Any]) -> tuple[int | None, Any]:
    if data.get("deal"):
        return data.get("first_dealer"), data["deal"]
    fields = {str(k): v for k, v in (data.get("picks") or {}).items()}
    game = access.game
    spec = sheet_entry.spec_of(game)
    people = sheet_form.seat_people(access.pairing, game)
    names = [""] * game.seat_count
    for person in people:
        names[person["seat"]] = person["name"]
    if data["number"] != 1:
        fields.pop("first_dealer", None)
    elif "first_dealer" not in fields and spec.first_dealer_required:
        raise ApplicationError(_("Pick who dealt first."))
    first, deals = sheet_form.posted_sheet(fields, game, spec, 1, names)
    if not deals:
        raise ApplicationError(_("Pick what happened in the deal."))
    return first, deals[0]


class TableSheetApi(APIView):
    """A table's score sheet: GET its state; POST ``preview`` (what entering a deal would
    record, in words, writing nothing), ``enter`` (a deal: the form's ``picks`` or
    the game's ``deal``, with the phone's UUID: a resend returns the version already recorded,
    200 instead of 201), ``confirm`` or ``dispute`` a deal. 403 for anyone not seated at the
    table nor its event's staff; 404 for no offline table of an event; 409 when the deal was
    entered by someone else first (with what they entered)."""

    def _access(self, request: Request, pk: int) -> services.SheetAccess:
        pairing = services.sheet_pairing(pk)
        if pairing is None:
            raise Http404(_("No offline table of an event has this number."))
        return services.sheet_access(pairing, request.user)

    def get(self, request: Request, pk: int) -> Response:
        return Response(services.sheet_state(self._access(request, pk)))

    def post(self, request: Request, pk: int) -> Response:
        access = self._access(request, pk)
        data = parsed_input(SheetInput, request.data)
        number = data["number"]
        status = 200
        if data["action"] == "preview":  # what entering it would record, writing nothing
            first, deal = _posted_deal(access, data)
            preview = services.deal_preview(
                access=access, number=number, deal=deal, first_dealer=first
            )
            return Response({"preview": preview})
        if data["action"] == "enter":
            first, deal = _posted_deal(access, data)
            row, created = services.deal_enter(
                access=access,
                number=number,
                deal=deal,
                first_dealer=first,
                client_id=data.get("client_id"),
            )
            status = 201 if created else 200
        elif data["action"] == "confirm":
            row = services.deal_confirm(access=access, number=number)
        else:
            row = services.deal_dispute(access=access, number=number, reason=data.get("reason", ""))
        access = services.sheet_access(services.sheet_pairing(pk) or access.pairing, request.user)
        body = {
            "deal": services.deal_json(access.pairing, row),
            "state": services.sheet_state(access),
        }
        return Response(body, status=status)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that it may control every page (it handles only
    the score pages, their API reads and the static files)."""
    found = finders.find(SW_STATIC)
    path = Path(found if isinstance(found, str) else Path(settings.STATIC_ROOT) / SW_STATIC)
    response = HttpResponse(path.read_bytes(), content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the site installs on a phone's home screen."""
    body = {
        "name": _("Luzi"),
        "short_name": _("Luzi"),
        "description": _("Shanghai card game tournaments"),
        "start_url": reverse("accounts:me"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#b22222",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )
