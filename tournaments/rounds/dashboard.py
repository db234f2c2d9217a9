"""The organizers' event dashboard: the rounds and their controls (create, confirm, start,
complete), a draft round's tables and seats edited by hand, the tables' live state."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.auth import acting_user
from config.converters import MAX_ID
from config.health import check_broker, stall_seconds, stalled_tables
from games.live import presence
from games.models import TableSeat
from games.tables.seats import seat_number
from tournaments.common.sorting import naturally
from tournaments.draw import services as draw_services
from tournaments.models import (
    Event,
    Pairing,
    PairingTally,
    ResultSubmission,
    Round,
    RoundLog,
)
from tournaments.results.table_sheet import TableProgress, tables_progress
from tournaments.rounds import clock as rounds_clock
from tournaments.rounds import services as rounds_services
from tournaments.rounds.log import log_detail
from tournaments.rounds.selectors import round_byes, round_tables
from tournaments.web.pages import attempt, bad_form, dashboard_redirect, posted_id
from tournaments.web.requests import organized_event


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
    clock = rounds_clock.clock_of(current) if live and current is not None else None
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
            "sheet_progress": _sheet_progress(tables),
            "clock": rounds_clock.round_clock_page(current) if clock is not None else None,
            "overdue": rounds_clock.clock_overdue_tables(current, clock)
            if current is not None and clock is not None
            else [],
            **(
                _individual_context(event, current, tables)
                if event.is_individual
                else _team_context(event)
            ),
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


def _team_context(event: Event) -> dict[str, Any]:
    """What the dashboard of a team event adds: its teams, to withdraw and to bring back."""
    teams = list(event.teams.all())
    return {
        "teams": naturally([t for t in teams if not t.withdrawn], lambda team: team.name),
        "withdrawn_teams": naturally([t for t in teams if t.withdrawn], lambda team: team.name),
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
        attempt(
            request,
            lambda: draw_services.round_create_paired(event=event, user=user),
            _("The next round is drawn as a draft: check it, then confirm."),
        )
        return dashboard_redirect(event)
    round_id = posted_id(request, "round")
    if round_id is None:
        return bad_form(request, _("Name the round by its id ('round')."))
    round = get_object_or_404(event.rounds, pk=round_id)
    if action == "confirm":
        attempt(
            request, lambda: rounds_services.round_confirm(round=round, user=user), _("Confirmed.")
        )
    elif action == "start":
        attempt(request, lambda: rounds_services.round_start(round=round, user=user), _("Started."))
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
            return dashboard_redirect(event)
        attempt(
            request,
            lambda: rounds_services.round_complete(
                round=round, user=user, force=force, reason=reason
            ),
            _("Completed."),
        )
    elif action in CLOCK_ACTIONS:
        _clock_action(request, round, action)
    elif action == "tables" and event.is_individual:
        return _seats_edit(request, event, round) or dashboard_redirect(event)
    elif action == "tables":
        _tables_edit(request, event, round)
    else:
        messages.error(request, _("Unknown action."))
    return dashboard_redirect(event)


#: The dashboard's clock buttons: action -> what it says once done.
CLOCK_ACTIONS = ("clock_start", "clock_pause", "clock_resume", "clock_extend")


def _clock_action(request: HttpRequest, round: Round, action: str) -> None:
    """Start, pause, resume or extend (by the posted ``minutes``) the round's clock; what the
    clock refuses (a round not running, a clock already paused, bad minutes) is said on the page."""
    user = acting_user(request)
    if action == "clock_start":
        attempt(
            request,
            lambda: rounds_clock.clock_start(round=round, user=user),
            _("The clock is running."),
        )
    elif action == "clock_pause":
        attempt(
            request, lambda: rounds_clock.clock_pause(round=round, user=user), _("Clock paused.")
        )
    elif action == "clock_resume":
        attempt(
            request, lambda: rounds_clock.clock_resume(round=round, user=user), _("Clock resumed.")
        )
    else:
        minutes = request.POST.get("minutes", "5")
        attempt(
            request,
            lambda: rounds_clock.clock_extend(round=round, user=user, minutes=minutes),
            _("Time added."),
        )


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
    attempt(
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
        return bad_form(request, _("The number of table rows ('count') is missing or wrong."))
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
                return bad_form(request, _("A seat is a player's id or 'bot'."))
        tables.append(seats)
        modes.append(request.POST.get(f"mode{row}", event.table_mode))
    attempt(
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


def _sheet_progress(tables: list[Pairing]) -> list[tuple[Pairing, TableProgress]] | None:
    """The offline tables its players score on their phones, with their progress (a disputed
    table first: it waits for a referee); None for a round without offline tables."""
    offline = [p for p in tables if p.table.mode == "offline"]
    if not offline:
        return None
    progress = tables_progress(offline)
    rows = [(p, progress[p.pk]) for p in offline if p.pk in progress]
    return sorted(rows, key=lambda row: (not row[1].disputed, row[0].number))
