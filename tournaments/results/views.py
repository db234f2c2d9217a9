"""Organizer and referee pages of offline tables' results: a table's score sheet entered, previewed
and confirmed, and the printed score sheets of a table or a round."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.auth import acting_user
from config.exceptions import ApplicationError, NotAllowedError
from engine.duplicate import first_dealer
from engine.registry import get_game
from tournaments.common.qr import qr_svg
from tournaments.events import organizers as common_organizers
from tournaments.events.organizers import event_result_require
from tournaments.models import (
    Event,
    Pairing,
    ResultSubmission,
)
from tournaments.results import services as results_services
from tournaments.results import sheet_entry, sheet_form
from tournaments.rounds.clock import round_clock_page
from tournaments.web.pages import attempt, bad_form, posted_id
from tournaments.web.requests import organized_event


def _pairing(request: HttpRequest, pk: int, pairing: int) -> tuple[Event, Pairing]:
    """An offline table's result pages are for the event's organizers and its referees."""
    event = get_object_or_404(Event.objects.select_related("meet"), pk=pk)
    try:
        event_result_require(event=event, user=acting_user(request))
    except NotAllowedError as error:
        raise PermissionDenied(error.message) from None
    return event, get_object_or_404(
        Pairing.objects.select_related("round", "table", "team_a", "team_b", "tally"),
        pk=pairing,
        round__event=event,
    )


@login_required
def table_result(request: HttpRequest, pk: int, pairing: int) -> HttpResponse:
    """An offline table's result: the referee picks each deal's fields by name (the game's sheet
    spec), sees what the engine makes of it in words, then enters it; a second person confirms
    or rejects a version after seeing the same preview."""
    event, p = _pairing(request, pk, pairing)
    game = get_game(p.table.game)
    try:
        spec = sheet_entry.spec_of(game)
    except ApplicationError as error:
        return bad_form(request, error.message)
    people = sheet_form.seat_people(p, game)
    names = [""] * game.seat_count
    for person in people:
        names[person["seat"]] = person["name"]
    rows = sheet_form.form_rows(spec, event.deals_per_match)
    preview = None
    sheet = ""
    if request.method == "POST":
        action = request.POST.get("action", "submit")
        if action in ("submit", "preview"):
            try:
                first_dealer, deals = sheet_form.posted_sheet(request.POST, game, spec, rows, names)
                if action == "preview":
                    preview = results_services.result_preview(
                        pairing=p, user=acting_user(request), first_dealer=first_dealer, deals=deals
                    )
                    if spec.typed == "lines":
                        sheet = sheet_form.deals_text(deals)
                    else:
                        carried: dict[str, Any] = {"deals": deals}
                        if first_dealer is not None:
                            carried["first_dealer"] = first_dealer
                        sheet = json.dumps(carried, ensure_ascii=False)
                else:
                    results_services.result_submit(
                        pairing=p, user=acting_user(request), first_dealer=first_dealer, deals=deals
                    )
            except ApplicationError as error:
                messages.error(request, error.message)
            else:
                if action == "submit":
                    messages.success(request, _("Entered: a second person must now confirm it."))
                    return redirect("tournaments:table_result", event.pk, p.pk)
        else:
            submission_id = posted_id(request, "submission")
            if submission_id is None:
                return bad_form(request, _("Name the result version by its id ('submission')."))
            submission = get_object_or_404(p.results, pk=submission_id)
            if action == "confirm":
                done = attempt(
                    request,
                    lambda: results_services.result_confirm(
                        submission=submission, user=acting_user(request)
                    ),
                    _("Confirmed: the standings are updated."),
                )
            else:
                done = attempt(
                    request,
                    lambda: results_services.result_reject(
                        submission=submission,
                        user=acting_user(request),
                        reason=request.POST.get("reason", ""),
                    ),
                    _("Rejected: the referee enters it again."),
                )
            if done:
                return redirect("tournaments:table_result", event.pk, p.pk)
    versions = list(p.results.select_related("submitted_by", "reviewed_by").order_by("-version"))
    confirmed = next((v for v in versions if v.status == ResultSubmission.Status.CONFIRMED), None)
    shown = [v for v in versions if v.status == ResultSubmission.Status.PENDING or v is confirmed]
    previews = {v.pk: results_services.submission_preview(submission=v) for v in shown}
    form = request.POST if request.method == "POST" else _sheet_defaults(event, p)
    return render(
        request,
        "tournaments/manage/table_result.html",
        {
            "event": event,
            "pairing": p,
            "seats": people,
            "versions": [(v, previews.get(v.pk)) for v in versions],
            "confirmed": confirmed,
            "pending": any(v.status == ResultSubmission.Status.PENDING for v in versions),
            "entry": sheet_form.entry_rows(spec, people, form, rows),
            "preview": preview,
            "sheet": sheet,
            "form": form,
            "is_organizer": common_organizers.event_is_organizer(
                event=event, user=acting_user(request)
            ),
            "clock": round_clock_page(p.round),
        },
    )


def _sheet_defaults(event: Event, pairing: Pairing) -> dict[str, str]:
    """What a new sheet starts from: in a duplicate round, the first dealer printed on the deal
    sheets (the round's seed chose it; the preview of deal 1 scores with it)."""
    seed = pairing.round.deal_seed
    if not event.duplicate or seed is None:
        return {}
    dealer = first_dealer(event.game, int(seed))
    return {} if dealer is None else {"first_dealer": str(dealer)}


def _sheet_qr(request: HttpRequest, pairing: Pairing) -> Pairing:
    """The pairing with the QR code of its players' score page (``/tables/<id>/sheet/``), for
    its printed sheet and table card."""
    link = request.build_absolute_uri(reverse("tournaments:table_sheet", args=[pairing.table_id]))
    pairing.sheet_qr = qr_svg(link)  # type: ignore[attr-defined]
    pairing.sheet_link = link  # type: ignore[attr-defined]
    return pairing


def _printed(event: Event) -> dict[str, Any]:
    """What every printed sheet of the event shows: the game's columns, its rows."""
    game = get_game(event.game)
    spec = sheet_entry.spec_of(game)
    return {
        "printed": sheet_form.printed_sheet(spec, game),
        "deals": range(1, sheet_form.printed_rows(spec, event.deals_per_match) + 1),
    }


@login_required
def score_sheet(request: HttpRequest, pk: int, pairing: int) -> HttpResponse:
    event, p = _pairing(request, pk, pairing)
    seats = list(p.table.seats.select_related("player").order_by("seat"))
    try:
        printed = _printed(event)
    except ApplicationError as error:
        return bad_form(request, error.message)
    return render(
        request,
        "tournaments/manage/score_sheet.html",
        {"event": event, "pairing": _sheet_qr(request, p), "seats": seats, **printed},
    )


@login_required
def score_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Every offline table's score sheet of a round, one per printed page."""
    event = organized_event(request, pk)
    round = get_object_or_404(event.rounds, number=number)
    pairings = (
        round.pairings.filter(table__mode="offline")
        .select_related("table", "team_a", "team_b", "round")
        .prefetch_related("table__seats__player")
        .order_by("number")
    )
    try:
        printed = _printed(event)
    except ApplicationError as error:
        return bad_form(request, error.message)
    return render(
        request,
        "tournaments/manage/score_sheets.html",
        {
            "event": event,
            "round": round,
            "pairings": [_sheet_qr(request, p) for p in pairings],
            **printed,
            "admin_url": reverse("admin:index"),
        },
    )
