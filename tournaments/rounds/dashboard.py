"""Organizer pages: the event dashboard with round controls, draft table edits, the registration
import with its preview, referee result entry and review, and the printable score sheet.

Views only parse the form, call a service and report: an ApplicationError becomes a message on
the page (nothing changed), never a server error."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services as accounts_services
from config.auth import acting_user
from config.converters import MAX_ID
from config.exceptions import ApplicationError, NotAllowedError
from config.health import check_broker, stall_seconds, stalled_tables
from engine.duplicate import first_dealer
from engine.registry import get_game
from games.live import presence
from games.models import TableSeat
from games.tables.seats import seat_number
from tournaments.common import organizers as common_organizers
from tournaments.common.organizers import event_result_require
from tournaments.common.qr import qr_svg
from tournaments.common.requests import organized_event
from tournaments.common.sorting import naturally
from tournaments.draw import services as draw_services
from tournaments.events import registration_import
from tournaments.events.importing import OTHERS_CHOICES, OTHERS_NEW
from tournaments.models import (
    Event,
    Pairing,
    PairingTally,
    ResultSubmission,
    Round,
    RoundEntry,
    RoundLog,
)
from tournaments.results import services as results_services
from tournaments.results import sheet_form, sheets
from tournaments.rounds import services as rounds_services
from tournaments.rounds.log import log_detail
from tournaments.rounds.selectors import round_byes, round_tables

IMPORT_SESSION_KEY = "tournaments-import"
MAX_UPLOAD = 5 * 1024 * 1024


def _dashboard(event: Event) -> HttpResponseRedirect:
    return redirect("tournaments:dashboard", event.pk)


def _posted_id(request: HttpRequest, name: str) -> int | None:
    """The id a form posted in ``name`` (1 to 2**63 - 1), or None for anything else."""
    value = request.POST.get(name, "")
    if value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_ID:
        return int(value)
    return None


def _bad_form(request: HttpRequest, message: str) -> HttpResponse:
    """400: the form is not one this site sends; the page says which field, nothing changed."""
    return render(request, "400.html", {"message": message}, status=400)


def _attempt(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    try:
        action()
    except ApplicationError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, done)
    return True


@login_required
def dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    event = organized_event(request, pk)
    rounds = list(
        event.rounds.order_by("-number").annotate(
            tables=Count("pairings", distinct=True),
            playing=Count(
                "pairings", filter=Q(pairings__tally__status=PairingTally.Status.PLAYING)
            ),
            finished=Count(
                "pairings", filter=Q(pairings__tally__status=PairingTally.Status.FINISHED)
            ),
            escapes=Count("pairings", filter=Q(pairings__tally__escapes__gt=0)),
        )
    )
    waiting = list(
        ResultSubmission.objects.filter(
            pairing__round__event=event, status=ResultSubmission.Status.PENDING
        )
        .select_related("pairing__round", "pairing__team_a", "pairing__team_b", "submitted_by")
        .order_by("submitted_at")
    )
    current = rounds[0] if rounds else None
    tables = list(round_tables(round=current)) if current else []
    log = RoundLog.objects.filter(round__event=event).select_related("round", "user")
    live = current is not None and current.status == Round.Status.RUNNING
    seats = _seat_states(tables) if live else {}
    stalled = set(
        stalled_tables(table_ids=[p.table_id for p in tables if p.table.mode == "online"])
        if live
        else []
    )
    broker = check_broker() if live else None
    # tables in play with people seated and none of them at the table: the system plays every
    # turn there, each after the full turn timer, until their system plays run out (minutes; in a
    # game whose all-pass deals are dealt again with the time-outs counted afresh, never)
    deserted = [
        p.number
        for p in tables
        if p.table.status == "playing"
        and any(not s["bot"] for s in seats.get(p.table_id, []))
        and not any(s["online"] for s in seats.get(p.table_id, []) if not s["bot"])
    ]
    return render(
        request,
        "tournaments/manage/dashboard.html",
        {
            "event": event,
            "rounds": rounds,
            "current": current,
            "tables": tables,
            "byes": list(round_byes(round=current)) if current else [],
            "teams": naturally(event.teams.all(), lambda team: team.name),
            "waiting": waiting,
            "log": [(entry, log_detail(entry.detail)) for entry in log.order_by("-at", "-id")[:20]],
            "rows": [(p, seats.get(p.table_id, []), p.table_id in stalled) for p in tables],
            "deserted": deserted,
            "stalled": [p.number for p in tables if p.table_id in stalled],
            "stall_seconds": int(stall_seconds()),
            "broker_down": broker is not None and not broker.ok,
            "team_count": event.teams.count(),
            "is_organizer": True,
            **(_individual_context(event, current, tables) if event.is_individual else {}),
        },
    )


def _individual_context(
    event: Event, current: Round | None, tables: list[Pairing]
) -> dict[str, Any]:
    """What the dashboard of an individual event adds: its players (to seat, and withdrawn) and
    the draft's seat rows."""
    registrations = list(event.registrations.select_related("player"))
    players = naturally(
        [r.player for r in registrations if not r.withdrawn], lambda player: player.name
    )
    draft = current is not None and current.status == Round.Status.DRAFT
    return {
        "players": players,
        "withdrawn_players": naturally(
            [r.player for r in registrations if r.withdrawn], lambda player: player.name
        ),
        "seat_numbers": list(range(event.table_size)),
        "seat_rows": _seat_rows(event, tables) if draft else [],
    }


def _seat_states(tables: list[Pairing]) -> dict[int, list[dict[str, Any]]]:
    """Each online table's seats: the player, and whether a page of theirs is open at the table
    (bots are always there). One query and one cache read for the whole round."""
    online = [p.table_id for p in tables if p.table.mode == "online"]
    rows = list(
        TableSeat.objects.filter(table_id__in=online).select_related("player").order_by("seat")
    )
    keys = {
        (r.table_id, r.seat): presence.presence_keys(r.table_id, r.seat)[0]
        for r in rows
        if not r.player.is_bot
    }
    counts = caches["presence"].get_many(list(keys.values())) if keys else {}
    states: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        key = keys.get((r.table_id, r.seat))
        states.setdefault(r.table_id, []).append(
            {
                "seat": r.seat,
                "name": r.player.name,
                "bot": r.player.is_bot,
                "online": r.player.is_bot or int(counts.get(key) or 0) > 0,
            }
        )
    return states


@login_required
@require_POST
def round_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    event = organized_event(request, pk)
    user = acting_user(request)
    if action == "pair":
        _attempt(
            request,
            lambda: draw_services.round_create_paired(event=event, user=user),
            _("The next round is drawn as a draft: check it, then confirm."),
        )
        return _dashboard(event)
    round_id = _posted_id(request, "round")
    if round_id is None:
        return _bad_form(request, _("Name the round by its id ('round')."))
    round = get_object_or_404(event.rounds, pk=round_id)
    if action == "confirm":
        _attempt(
            request, lambda: rounds_services.round_confirm(round=round, user=user), _("Confirmed.")
        )
    elif action == "start":
        _attempt(
            request, lambda: rounds_services.round_start(round=round, user=user), _("Started.")
        )
    elif action == "complete":
        force = request.POST.get("force") == "1"
        reason = request.POST.get("reason", "").strip()[:300]
        if force and (request.POST.get("confirm") != "1" or not reason):
            messages.error(
                request,
                _(
                    "To complete a round with unfinished tables, tick the confirmation and say "
                    "why: the reason goes into the round's log."
                ),
            )
            return _dashboard(event)
        _attempt(
            request,
            lambda: rounds_services.round_complete(
                round=round, user=user, force=force, reason=reason
            ),
            _("Completed."),
        )
    elif action == "tables" and event.is_individual:
        return _seats_edit(request, event, round) or _dashboard(event)
    elif action == "tables":
        _tables_edit(request, event, round)
    else:
        messages.error(request, _("Unknown action."))
    return _dashboard(event)


def _team_id(value: str) -> int:
    """A team's id from a form; ValueError for anything that is none."""
    if not (value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_ID):
        raise ValueError(value)
    return int(value)


def _tables_edit(request: HttpRequest, event: Event, round: Round) -> None:
    tables: list[tuple[int, int]] = []
    modes: list[str] = []
    most = event.teams.count() // 2 + 3  # the form's rows: every table, and three to add
    try:
        count = int(request.POST.get("count", "0"))
        if not 0 <= count <= most:
            raise ValueError(count)
        for n in range(1, count + 1):
            a, b = request.POST.get(f"a{n}", ""), request.POST.get(f"b{n}", "")
            if not a and not b:
                continue
            tables.append((_team_id(a), _team_id(b)))
            modes.append(request.POST.get(f"mode{n}", event.table_mode))
    except ValueError:
        messages.error(request, _("Choose two teams for every table."))
        return
    _attempt(
        request,
        lambda: draw_services.round_pairings_set(
            round=round, tables=tables, modes=modes, user=acting_user(request)
        ),
        _("Tables saved."),
    )


def _seats_edit(request: HttpRequest, event: Event, round: Round) -> HttpResponse | None:
    """An individual event's draft tables from the dashboard's form: ``count`` rows, each with
    the seats ``s<row>_<seat>`` (a player's id, ``bot``, or empty) and ``mode<row>``; a row left
    empty is no table. A form this page does not send answers 400; what the draw refuses
    (tournaments.draw.manual) is said on the dashboard, nothing changed."""
    size = event.table_size
    most = event.registrations.count() + 3  # the form's rows: a table per player at most, and 3
    count = request.POST.get("count", "")
    if not (count.isascii() and count.isdigit() and int(count) <= most):
        return _bad_form(request, _("The number of table rows ('count') is missing or wrong."))
    tables: list[list[int | None]] = []
    modes: list[str] = []
    for row in range(1, int(count) + 1):
        values = [request.POST.get(f"s{row}_{seat}", "") for seat in range(size)]
        if not any(values):
            continue
        seats: list[int | None] = []
        for seat, value in enumerate(values):
            if value == "bot":
                seats.append(None)
            elif value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_ID:
                seats.append(int(value))
            elif value == "":
                messages.error(
                    request,
                    _("Table row %(row)d: seat %(seat)d is empty; choose a player or a bot.")
                    % {"row": row, "seat": seat_number(seat)},
                )
                return None
            else:
                return _bad_form(request, _("A seat is a player's id or 'bot'."))
        tables.append(seats)
        modes.append(request.POST.get(f"mode{row}", event.table_mode))
    _attempt(
        request,
        lambda: draw_services.round_pairings_set(
            round=round, tables=tables, modes=modes, user=acting_user(request)
        ),
        _("Tables saved."),
    )
    return None


def _seat_rows(event: Event, tables: list[Pairing]) -> list[dict[str, Any]]:
    """The rows of an individual event's draft form: each table's seats (a player's id as text,
    ``bot``), then three empty rows to add tables."""
    rows: list[dict[str, Any]] = []
    for p in tables:
        seated = {s.seat: s.player for s in p.table.seats.all()}
        rows.append(
            {
                "number": len(rows) + 1,
                "label": str(p.number),
                "mode": p.table.mode,
                "seats": [
                    ""
                    if seat not in seated
                    else ("bot" if seated[seat].is_bot else str(seated[seat].pk))
                    for seat in range(event.table_size)
                ],
            }
        )
    for _extra in range(3):
        rows.append(
            {
                "number": len(rows) + 1,
                "label": "+",
                "mode": event.table_mode,
                "seats": [""] * event.table_size,
            }
        )
    return rows


@login_required
@require_POST
def player_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw a registered player of an individual event from later rounds, or bring them
    back (``withdrawn=0``)."""
    from games.models import Player
    from tournaments.draw.manual import registration_withdraw

    event = organized_event(request, pk)
    player_id = _posted_id(request, "player")
    if player_id is None:
        return _bad_form(request, _("Name the player by their id ('player')."))
    player = get_object_or_404(Player, pk=player_id)
    withdrawn = request.POST.get("withdrawn", "1") != "0"
    _attempt(
        request,
        lambda: registration_withdraw(
            event=event, player=player, user=acting_user(request), withdrawn=withdrawn
        ),
        _("%(name)s is withdrawn from later rounds.") % {"name": player.name}
        if withdrawn
        else _("%(name)s is back in the draw.") % {"name": player.name},
    )
    return _dashboard(event)


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
        return _dashboard(event)
    if request.method == "POST":
        upload = request.FILES.get("file")
        create_units = request.POST.get("create_units") == "1"
        others = request.POST.get("others", OTHERS_NEW)
        if others not in OTHERS_CHOICES:
            return _bad_form(request, _("Choose what to do with other events' players ('others')."))
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
        spec = sheets.spec_of(game)
    except ApplicationError as error:
        return _bad_form(request, error.message)
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
            submission_id = _posted_id(request, "submission")
            if submission_id is None:
                return _bad_form(request, _("Name the result version by its id ('submission')."))
            submission = get_object_or_404(p.results, pk=submission_id)
            if action == "confirm":
                done = _attempt(
                    request,
                    lambda: results_services.result_confirm(
                        submission=submission, user=acting_user(request)
                    ),
                    _("Confirmed: the standings are updated."),
                )
            else:
                done = _attempt(
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
        round_id = _posted_id(request, "scope")
        if round_id is None:
            return _bad_form(request, _("Choose the whole event or one of its rounds ('scope')."))
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
        round_id = _posted_id(request, "scope")
        if round_id is None:
            return _bad_form(request, _("Choose the whole event or one of its rounds ('scope')."))
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


def _printed(event: Event) -> dict[str, Any]:
    """What every printed sheet of the event shows: the game's columns, its rows."""
    game = get_game(event.game)
    spec = sheets.spec_of(game)
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
        return _bad_form(request, error.message)
    return render(
        request,
        "tournaments/manage/score_sheet.html",
        {"event": event, "pairing": p, "seats": seats, **printed},
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
        return _bad_form(request, error.message)
    return render(
        request,
        "tournaments/manage/score_sheets.html",
        {
            "event": event,
            "round": round,
            "pairings": pairings,
            **printed,
            "admin_url": reverse("admin:index"),
        },
    )
