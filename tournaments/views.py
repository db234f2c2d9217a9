"""Public pages: the home page (meets and their events) and an event's page (its teams)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.selectors import event_teams, events_visible_to, meets_for_home


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"meets": meets_for_home(request.user)})


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(events_visible_to(request.user).select_related("meet"), pk=pk)
    teams = list(event_teams(event=event))
    return render(
        request,
        "tournaments/event_detail.html",
        {
            "event": event,
            "teams": teams,
            "player_count": sum(len(t.members.all()) for t in teams),
            "tie_breaks": event.tie_break_labels(),
        },
    )
