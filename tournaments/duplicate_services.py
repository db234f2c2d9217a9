"""The duplicate option's writes: an organizer turns it on or off and chooses its scoring (the
reads and the publication rule live in :mod:`tournaments.duplicate`)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from tournaments.models import DuplicateScoring, Event
from tournaments.services import event_organizer_require, event_results_changed

__all__ = ["event_duplicate_set"]


def event_duplicate_set(*, event: Event, duplicate: bool, scoring: str, user: Any = None) -> Event:
    """An organizer turns the duplicate option on or off and chooses its scoring. Raises
    ApplicationError (a bad scoring, a game that cannot be played duplicate, a started round)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        event_organizer_require(event=event, user=user)
        if scoring not in DuplicateScoring.values:
            raise ApplicationError(
                _("Duplicate scoring is one of: %(choices)s.")
                % {"choices": ", ".join(DuplicateScoring.values)}
            )
        event.duplicate = duplicate
        event.duplicate_scoring = scoring
        try:
            event.clean_duplicate()
        except ValidationError as exc:
            messages = " ".join(m for ms in exc.message_dict.values() for m in ms)
            raise ApplicationError(messages) from None
        event.save(update_fields=["duplicate", "duplicate_scoring"])
        event_results_changed(event=event)
    return event
