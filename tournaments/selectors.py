"""Reads for tournaments' pages."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import Event, Meet, Team, TeamMember


def events_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Event]:
    """Return the events ``user`` may look at: public ones, plus private ones they organize."""
    events = Event.objects.all()
    if getattr(user, "is_superuser", False):
        return events
    if user.is_authenticated:
        return events.filter(Q(is_private=False) | Q(organizers=user)).distinct()
    return events.filter(is_private=False)


def meets_for_home(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Meet]:
    """Return meets with at least one visible event, each with its visible events and their
    counts."""
    visible = events_visible_to(user)
    events = (
        Event.objects.filter(pk__in=visible.values("pk"))
        .annotate(team_count=Count("teams", distinct=True))
        .order_by("name")
    )
    return (
        Meet.objects.filter(events__in=visible.values("pk"))
        .distinct()
        .prefetch_related(Prefetch("events", queryset=events, to_attr="visible_events"))
    )


def event_teams(*, event: Event) -> QuerySet[Team]:
    """Return the event's teams with their unit and members (in order), by unit then name."""
    members = TeamMember.objects.select_related("player").order_by("order")
    return (
        event.teams.select_related("unit")
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("unit__name", "name")
    )
