"""Pages of the card room: a table (for its players and spectators) and opening a practice table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import selectors
from games.models import Table
from games.practice import practice_table_open


def seat_of_request(request: HttpRequest, table: Table) -> int | None:
    """The seat of the logged-in user at ``table``, or None (spectators, organizers, anonymous)."""
    if not request.user.is_authenticated:
        return None
    return selectors.table_seat_of_user(table=table, user=request.user)


def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The table: a seated player sees their own hand and acts; everyone else watches the public
    view. The page loads its state from the API and keeps it fresh over a WebSocket."""
    table = get_object_or_404(Table, pk=pk)
    seat = seat_of_request(request, table)
    config: dict[str, Any] = {
        "table": table.pk,
        "seat": seat,
        "stateUrl": reverse("api:table_state", args=[table.pk]),
        "actionUrl": reverse("api:table_actions", args=[table.pk]),
        "checkUrl": reverse("api:table_check", args=[table.pk]),
        "leaveUrl": reverse("api:table_leave", args=[table.pk]),
        "wsPath": f"/ws/tables/{table.pk}/",
        "csrfToken": get_token(request),
        "state": selectors.table_state(table=table, seat=seat),
    }
    return render(request, "games/table.html", {"table": table, "seat": seat, "config": config})


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """Open (or go back to) the user's practice table: the user and five bots."""
    table = practice_table_open(user=request.user)
    return redirect("games:table", pk=table.pk)
