"""Organizer pages of an event's people: the registration import (checked whole, then applied),
the players' login codes (printable), and a player's withdrawal."""

from __future__ import annotations

import base64
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services as accounts_services
from config.auth import acting_user
from config.exceptions import ApplicationError
from tournaments.common.qr import qr_svg
from tournaments.common.sorting import naturally
from tournaments.events import registration_import
from tournaments.events.importing import OTHERS_CHOICES, OTHERS_NEW
from tournaments.models import (
    Event,
    RoundEntry,
)
from tournaments.web.pages import attempt, bad_form, dashboard_redirect, posted_id
from tournaments.web.requests import organized_event

IMPORT_SESSION_KEY = "tournaments-import"


MAX_UPLOAD = 5 * 1024 * 1024


@login_required
@require_POST
def team_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw a team of a team event from later rounds (a no-show), or bring it back
    (``withdrawn=0``). Its results so far stay in the standings."""
    from tournaments.events.entries import team_withdraw as withdraw

    event = organized_event(request, pk)
    team_id = posted_id(request, "team")
    if team_id is None:
        return bad_form(request, _("Name the team by its id ('team')."))
    team = get_object_or_404(event.teams, pk=team_id)
    withdrawn = request.POST.get("withdrawn", "1") != "0"
    attempt(
        request,
        lambda: withdraw(team=team, user=acting_user(request), withdrawn=withdrawn),
        _("%(name)s is withdrawn from later rounds.") % {"name": team.name}
        if withdrawn
        else _("%(name)s is back in the draw.") % {"name": team.name},
    )
    return dashboard_redirect(event)


@login_required
@require_POST
def player_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw a registered player of an individual event from later rounds, or bring them
    back (``withdrawn=0``)."""
    from games.models import Player
    from tournaments.draw.manual import registration_withdraw

    event = organized_event(request, pk)
    player_id = posted_id(request, "player")
    if player_id is None:
        return bad_form(request, _("Name the player by their id ('player')."))
    player = get_object_or_404(Player, pk=player_id)
    withdrawn = request.POST.get("withdrawn", "1") != "0"
    attempt(
        request,
        lambda: registration_withdraw(
            event=event, player=player, user=acting_user(request), withdrawn=withdrawn
        ),
        _("%(name)s is withdrawn from later rounds.") % {"name": player.name}
        if withdrawn
        else _("%(name)s is back in the draw.") % {"name": player.name},
    )
    return dashboard_redirect(event)


@login_required
def import_players(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload → preview (every bad row, or what would be made) → import, the file kept in the
    session between the two steps."""
    event = organized_event(request, pk)
    plan = None
    if request.method == "POST" and request.POST.get("step") == "import":
        stored = request.session.get(IMPORT_SESSION_KEY) or {}
        if stored.get("event") != event.pk:
            messages.error(request, _("Upload the file again: the preview has expired."))
            return redirect("tournaments:import", event.pk)
        content = base64.b64decode(stored["content"])
        create_units = bool(stored.get("create_units", True))
        try:
            plan = registration_import.event_import(
                event=event,
                filename=stored["filename"],
                content=content,
                user=acting_user(request),
                create_units=create_units,
                others=str(stored.get("others", OTHERS_NEW)),
            )
        except ApplicationError as error:
            messages.error(request, error.message)
            return redirect("tournaments:import", event.pk)
        request.session.pop(IMPORT_SESSION_KEY, None)
        messages.success(
            request,
            _("Imported %(players)d players in %(teams)d teams.")
            % {"players": plan.player_count, "teams": len(plan.teams)},
        )
        if event.status == event.Status.RUNNING:
            messages.info(
                request, _("The event is running: the new players join from the next round.")
            )
        return dashboard_redirect(event)
    if request.method == "POST":
        upload = request.FILES.get("file")
        create_units = request.POST.get("create_units") == "1"
        others = request.POST.get("others", OTHERS_NEW)
        if others not in OTHERS_CHOICES:
            return bad_form(request, _("Choose what to do with other events' players ('others')."))
        if upload is None:
            messages.error(request, _("Choose a .csv or .xlsx file."))
        elif (upload.size or 0) > MAX_UPLOAD:
            messages.error(request, _("The file is larger than 5 MB."))
        else:
            content = upload.read()
            try:
                plan = registration_import.event_import_plan(
                    event=event,
                    filename=upload.name or "",
                    content=content,
                    create_units=create_units,
                    user=acting_user(request),
                    others=others,
                )
            except ApplicationError as error:
                messages.error(request, error.message)
            else:
                request.session[IMPORT_SESSION_KEY] = {
                    "event": event.pk,
                    "filename": upload.name,
                    "content": base64.b64encode(content).decode(),
                    "create_units": create_units,
                    "others": others,
                }
    return render(
        request,
        "tournaments/manage/import.html",
        {
            "event": event,
            "plan": plan,
            "closed": registration_import.import_closed(event),
            "others": request.POST.get("others", OTHERS_NEW),
            "is_organizer": True,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def _player_codes(request: HttpRequest, event: Event, scope: str) -> HttpResponse:
    """The code sheet of an individual event: a card per registered player (or per player seated
    in one round, by table)."""
    round = None
    tables: dict[int, int] = {}
    if scope == "event":
        players = [r.player for r in event.registrations.select_related("player__user")]
        players = naturally(players, lambda player: player.name)
    else:
        round_id = posted_id(request, "scope")
        if round_id is None:
            return bad_form(request, _("Choose the whole event or one of its rounds ('scope')."))
        round = get_object_or_404(event.rounds, pk=round_id)
        entries = (
            RoundEntry.objects.filter(round=round, pairing__isnull=False, player__isnull=False)
            .select_related("player__user", "pairing")
            .order_by("pairing__number", "pk")
        )
        players = [entry.player for entry in entries if entry.player is not None]
        tables = {
            entry.player_id: entry.pairing.number
            for entry in entries
            if entry.pairing and entry.player_id is not None
        }
    link = request.build_absolute_uri(reverse("accounts:code_login"))
    cards: list[dict[str, Any]] = []
    with transaction.atomic():
        for issued in accounts_services.players_login_codes_issue(
            event=event, players=players, issued_by=acting_user(request)
        ):
            url = f"{link}?code={issued.code}" if issued.code else ""
            cards.append(
                {
                    "team": None,
                    "table": tables.get(issued.player.pk),
                    "issued": issued,
                    "refused": issued.refused,
                    "link": url,
                    "qr": qr_svg(url) if url else "",
                }
            )
    response = render(
        request,
        "tournaments/manage/login_codes_sheet.html",
        {
            "event": event,
            "round": round,
            "cards": cards,
            "refused": [c for c in cards if c["refused"]],
            "login_url": link,
            "is_organizer": True,
        },
    )
    response["Cache-Control"] = "no-store"  # the codes are shown once
    return response


def login_codes(request: HttpRequest, pk: int) -> HttpResponse:
    """One printable sheet of login codes for a whole event or one round's tables: a card per
    player with the code and a QR code of the login link. Issuing (POST) replaces the players'
    earlier codes; the sheet is shown only once."""
    event = organized_event(request, pk)
    rounds = list(event.rounds.order_by("number"))
    if request.method == "GET":
        return render(
            request,
            "tournaments/manage/login_codes.html",
            {"event": event, "rounds": rounds, "is_organizer": True},
        )
    scope = request.POST.get("scope", "event")
    if event.is_individual:
        return _player_codes(request, event, scope)
    round = None
    tables: dict[int, int] = {}
    if scope == "event":
        teams = list(event.teams.all())
    else:
        round_id = posted_id(request, "scope")
        if round_id is None:
            return bad_form(request, _("Choose the whole event or one of its rounds ('scope')."))
        round = get_object_or_404(event.rounds, pk=round_id)
        entries = RoundEntry.objects.filter(round=round, pairing__isnull=False).select_related(
            "team", "pairing"
        )
        teams = [entry.team for entry in entries if entry.team is not None]
        tables = {
            entry.team_id: entry.pairing.number
            for entry in entries
            if entry.pairing and entry.team_id is not None
        }
    teams = naturally(teams, lambda team: team.name)
    if round is not None:
        teams.sort(key=lambda team: tables.get(team.pk, 0))
    link = request.build_absolute_uri(reverse("accounts:code_login"))
    cards: list[dict[str, Any]] = []
    with transaction.atomic():
        for team in teams:
            for issued in accounts_services.team_login_codes_issue(
                team=team, issued_by=acting_user(request)
            ):
                url = f"{link}?code={issued.code}" if issued.code else ""
                cards.append(
                    {
                        "team": team,
                        "table": tables.get(team.pk),
                        "issued": issued,
                        "refused": issued.refused,
                        "link": url,
                        "qr": qr_svg(url) if url else "",
                    }
                )
    response = render(
        request,
        "tournaments/manage/login_codes_sheet.html",
        {
            "event": event,
            "round": round,
            "cards": cards,
            "refused": [c for c in cards if c["refused"]],
            "login_url": link,
            "is_organizer": True,
        },
    )
    response["Cache-Control"] = "no-store"  # the codes are shown once
    return response
