"""The event a page or API request names, as its visitor may reach it: every view of tournaments
finds its event through these two, so that who reaches what is decided in one place."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from config.auth import acting_user
from tournaments.events.organizers import event_is_organizer
from tournaments.events.selectors import events_visible_to
from tournaments.models import Event


def visible_event(request: HttpRequest, pk: int) -> Event:
    """The event ``pk`` if the visitor may see it (a private event only for its people), else
    404."""
    return get_object_or_404(events_visible_to(request.user).select_related("meet"), pk=pk)


def organized_event(request: HttpRequest, pk: int) -> Event:
    """The event ``pk`` if the logged-in visitor organizes it: 404 when there is none, 403 when it
    is another organizer's (the views ask for a login first)."""
    event = get_object_or_404(Event.objects.select_related("meet"), pk=pk)
    if not event_is_organizer(event=event, user=acting_user(request)):
        raise PermissionDenied(_("Only the event's organizers may manage it."))
    return event
