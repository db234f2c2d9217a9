"""Who may confirm an offline table's result: the names a review page shows."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User
from django.db.models import Q

from tournaments.models import Event

register = template.Library()


@register.simple_tag
def confirmers(event: Event, entered_by_id: Any) -> list[str]:
    """The names of the event's organizers and referees other than whoever entered the version
    (a result is confirmed by a second person)."""
    people = (
        User.objects.filter(Q(organized_events=event) | Q(refereed__event=event), is_active=True)
        .exclude(pk=entered_by_id)
        .distinct()
        .order_by("username")
    )
    return [person.get_full_name() or person.username for person in people]
