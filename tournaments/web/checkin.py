"""Check-in pages (issue 30): a player's own check-in on their phone (``/events/<id>/check-in/``,
reached from a QR code) and the organizer's list (``/events/<id>/manage/check-in/``): the QR code
to show or print, everyone ticked or not for the next round, counts, tick/untick and "carry
over" the last round's check-ins.

Views parse the request and call :mod:`tournaments.events.checkin`; bad input answers 400 with
its message, a refusal 403, a missing event 404. A GET never writes.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from config.auth import acting_user
from config.exceptions import ApplicationError
from tournaments.common.qr import qr_svg
from tournaments.events import checkin
from tournaments.models import CheckIn, Event
from tournaments.web.requests import organized_event


def _refused(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(request, "400.html", {"message": message}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def check_in_page(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: whether the visitor is checked in for the event's next round, and a button; POST
    checks them in. Only the event's own players (a stranger: 403)."""
    event = get_object_or_404(Event.objects.select_related("meet"), pk=pk)
    user = acting_user(request)
    player = checkin.own_entrant(event, user)
    if player is None:
        raise PermissionDenied(_("Only the event's players check in here."))
    if request.method == "POST":
        try:
            checkin.check_in(event=event, user=user, player=player.pk)
        except ApplicationError as error:
            return _refused(request, error.message, error.status_code)
        messages.success(request, _("You are checked in."))
        return redirect("tournaments:check_in", event.pk)
    number = checkin.next_round_number(event)
    rows = CheckIn.objects.filter(event=event, round_number=number)
    team = None
    if not event.is_individual:
        team = event.teams.filter(members__player=player, withdrawn=False).first()
    return render(
        request,
        "tournaments/check_in.html",
        {
            "event": event,
            "player": player,
            "team": team,
            "number": number,
            "checked_in": rows.filter(player=player).exists()
            or (team is not None and rows.filter(team=team).exists()),
            "finished": event.status == Event.Status.FINISHED,
        },
    )


@login_required
def check_in_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer's check-in list for the next round, with the players' QR code."""
    event = organized_event(request, pk)
    number, rows = checkin.check_in_rows(event)
    link = request.build_absolute_uri(reverse("tournaments:check_in", args=[event.pk]))
    present = sum(1 for row in rows if row.present)
    return render(
        request,
        "tournaments/manage/check_in.html",
        {
            "event": event,
            "number": number,
            "rows": rows,
            "present": present,
            "missing": len(rows) - present,
            "link": link,
            "qr": qr_svg(link, scale=6),
            "is_organizer": True,
        },
    )


def _id(value: str | None) -> int | None:
    if value is None or value == "":
        return None
    if not value.isdigit():
        raise ValueError(value)
    return int(value)


@login_required
@require_POST
def check_in_action(request: HttpRequest, pk: int) -> HttpResponse:
    """An organizer ticks (``in``) or unticks (``out``) a player or a team, or carries the last
    round's check-ins over (``carry``)."""
    event = organized_event(request, pk)
    user = acting_user(request)
    action = request.POST.get("action", "")
    try:
        player, team = _id(request.POST.get("player")), _id(request.POST.get("team"))
    except ValueError:
        return _refused(request, _("Give a player's or a team's number."))
    try:
        if action == "in":
            checkin.check_in(event=event, user=user, player=player, team=team)
            messages.success(request, _("Checked in."))
        elif action == "out":
            checkin.check_out(event=event, user=user, player=player, team=team)
            messages.success(request, _("No longer checked in."))
        elif action == "carry":
            added = checkin.check_in_carry_over(event=event, user=user)
            messages.success(
                request,
                _("%(count)d check-ins carried over from the last round.") % {"count": added},
            )
        else:
            return _refused(request, _("Unknown check-in action."))
    except ApplicationError as error:
        return _refused(request, error.message, error.status_code)
    return redirect("tournaments:check_in_manage", event.pk)
