"""Who may confirm an offline table's result: the names a review page shows."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Event

register = template.Library()


@register.simple_tag
def confirmers(event: Event, entered_by_id: Any) -> list[str]:
    """The names of the event's organizers other than whoever entered the version (a result is
    confirmed by a second person)."""
    people = event.organizers.filter(is_active=True).exclude(pk=entered_by_id).order_by("username")
    return [person.get_full_name() or person.username for person in people]
