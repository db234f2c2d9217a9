"""The duplicate option's writes: an organizer turns it on or off and chooses its scoring (the
reads and the publication rule live in :mod:`tournaments.duplicate.deals`)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from tournaments.duplicate.deals import deal_seed_new as duplicate_deal_seed_new
from tournaments.events.organizers import event_organizer_require
from tournaments.events.services import event_results_changed
from tournaments.models import DuplicateScoring, Event, Round

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
        waiting = event.rounds.filter(status__in=[Round.Status.DRAFT, Round.Status.CONFIRMED])
        if duplicate:  # the rounds not started yet get their seeds now, not when read
            for round in waiting.filter(deal_seed__isnull=True):
                round.deal_seed = duplicate_deal_seed_new()
                round.save(update_fields=["deal_seed"])
        else:
            waiting.exclude(deal_seed=None).update(deal_seed=None)
        event_results_changed(event=event)
    return event
