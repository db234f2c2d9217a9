"""Organizer pages that set an event up: create an event (``/events/new/``: pick the game, then
its form), its settings page, adding a co-organizer or a referee from the dashboard; and the
referees' list of offline tables.

Views parse the form and call :mod:`tournaments.events.services`; an ApplicationError becomes a
message on the page, never a server error. Another organizer's event answers 403, a missing one
404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from config.auth import acting_user
from config.exceptions import ApplicationError
from engine.registry import registered_games, registered_keys
from games.models import Table
from tournaments.events import services as event_services
from tournaments.events.forms import EventCreateForm, EventSettingsForm, StaffAddForm
from tournaments.events.organizers import event_is_organizer, event_is_referee
from tournaments.models import Event, Pairing, ResultSubmission, Round
from tournaments.results.table_sheet import tables_progress
from tournaments.web.requests import organized_event


def _games() -> list[dict[str, object]]:
    return [
        {"key": g.key, "name": g.name_zh, "individual": not g.fixed_sides, "seats": g.seat_count}
        for g in registered_games()
    ]


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    """GET without a game: the games to choose from; with ``?game=``: that game's event form.
    POST creates the event and opens its dashboard."""
    user = acting_user(request)
    if not event_services.can_create_events(user):
        raise PermissionDenied(_("Only organizers may create events."))
    game = (request.POST.get("game") if request.method == "POST" else request.GET.get("game")) or ""
    if game not in registered_keys():
        if request.method == "POST":
            message = _("Choose one of the games Luzi hosts.")
            return render(request, "400.html", {"message": message}, status=400)
        return render(request, "tournaments/manage/event_new.html", {"games": _games()})
    form = EventCreateForm(request.POST or None, user=user, game=game)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.event_create(
                user=user,
                game=game,
                settings=form.settings(),
                meet=form.cleaned_data.get("meet"),
                meet_name=form.cleaned_data.get("meet_name") or "",
            )
        except ApplicationError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("%(event)s is created: you organize it.") % {"event": event.name}
            )
            return redirect("tournaments:dashboard", event.pk)
    chosen = next(g for g in _games() if g["key"] == game)
    return render(
        request,
        "tournaments/manage/event_new.html",
        {"form": form, "game": chosen, "games": _games()},
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's settings: name, scoring, format, rule options (locked once a round has
    started), visibility and the meet's dates; the game changes while there are no rounds."""
    event = organized_event(request, pk)
    user = acting_user(request)
    locked = event_services.event_options_locked(event)
    own_meet = event_services.meet_is_own(event.meet, user)
    action = request.POST.get("action", "save")
    if request.method == "POST" and action == "game":
        try:
            event_services.event_game_set(event=event, user=user, game=request.POST.get("game", ""))
        except ApplicationError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The game is changed: check its rule options below."))
        return redirect("tournaments:event_settings", event.pk)
    bound = request.POST if request.method == "POST" else None
    form = EventSettingsForm(bound, event=event, locked=locked, own_meet=own_meet)
    if request.method == "POST" and form.is_valid():
        try:
            event_services.event_settings_update(event=event, user=user, settings=form.settings())
        except ApplicationError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("tournaments:event_settings", event.pk)
    return render(
        request,
        "tournaments/manage/event_settings.html",
        {
            "event": event,
            "form": form,
            "locked": locked,
            "own_meet": own_meet,
            "games": _games(),
            "game_changes": not event.rounds.exists(),
            "is_organizer": True,
        },
    )


@login_required
@require_POST
def staff_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a co-organizer or a referee to the event, by username (from the dashboard)."""
    event = organized_event(request, pk)
    form = StaffAddForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the username of the account to add, and its role."))
        return redirect("tournaments:dashboard", event.pk)
    role = form.cleaned_data["role"]
    try:
        added = event_services.event_staff_add(
            event=event,
            user=acting_user(request),
            username=form.cleaned_data["username"],
            role=role,
        )
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        values = {"name": added.get_full_name() or added.username, "event": event.name}
        if role == event_services.StaffRole.REFEREE:
            done = _("%(name)s now referees %(event)s: they enter and confirm its results.")
        else:
            done = _("%(name)s now organizes %(event)s and may confirm its results.")
        messages.success(request, done % values)
    return redirect("tournaments:dashboard", event.pk)


@login_required
def referee_tables(request: HttpRequest, pk: int) -> HttpResponse:
    """The offline tables of the event's started rounds, for its referees (and organizers):
    each with its result page and whether a result waits for confirmation or counts."""
    event = get_object_or_404(Event.objects.select_related("meet"), pk=pk)
    user = acting_user(request)
    organizer = event_is_organizer(event=event, user=user)
    if not organizer and not event_is_referee(event=event, user=user):
        raise PermissionDenied(_("Only the event's organizers and referees may open this page."))
    pairings = list(
        Pairing.objects.filter(
            round__event=event,
            round__status__in=[Round.Status.RUNNING, Round.Status.COMPLETED],
            table__mode=Table.Mode.OFFLINE,
        )
        .select_related("round", "team_a", "team_b")
        .order_by("-round__number", "number")
    )
    results = ResultSubmission.objects.filter(pairing__in=pairings)
    pending = set(
        results.filter(status=ResultSubmission.Status.PENDING).values_list("pairing_id", flat=True)
    )
    confirmed = set(
        results.filter(status=ResultSubmission.Status.CONFIRMED).values_list(
            "pairing_id", flat=True
        )
    )
    rows = [
        (p, "pending" if p.pk in pending else "confirmed" if p.pk in confirmed else "")
        for p in pairings
    ]
    progress = tables_progress(list(pairings))  # what the tables' players entered on phones
    for p, _state in rows:
        p.sheet_progress = progress.get(p.pk)  # type: ignore[attr-defined]
    return render(
        request,
        "tournaments/manage/referee.html",
        {"event": event, "rows": rows, "is_organizer": organizer},
    )
