"""Who manages an event, and the round log of what they did: the checks every write of tournaments
makes first (a module of its own, below the services, so that any service module may use them)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from config.exceptions import NotAllowedError
from tournaments.models import Event, EventReferee, Round, RoundLog

__all__ = [
    "event_is_organizer",
    "event_is_referee",
    "event_organizer_require",
    "event_result_require",
    "round_log_add",
]


def event_is_organizer(*, event: Event, user: User | AnonymousUser | None) -> bool:
    """Return whether ``user`` may manage ``event`` (a superuser or one of its organizers)."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return event.organizers.filter(pk=user.pk).exists()


def event_organizer_require(*, event: Event, user: User | AnonymousUser | None) -> None:
    """Raise NotAllowedError unless ``user`` organizes ``event``; ``None`` is the system itself
    (management commands, Celery), which may."""
    if user is None:
        return
    if not event_is_organizer(event=event, user=user):
        raise NotAllowedError(
            _("Only the organizers of %(event)s may do this.") % {"event": event.name}
        )


def event_is_referee(*, event: Event, user: User | AnonymousUser | None) -> bool:
    """Return whether ``user`` referees ``event`` (enters and confirms its offline results)."""
    if user is None or not user.is_authenticated:
        return False
    return EventReferee.objects.filter(event_id=event.pk, user_id=user.pk).exists()


def event_result_require(*, event: Event, user: User | AnonymousUser | None) -> None:
    """Raise NotAllowedError unless ``user`` may enter or review ``event``'s offline results: an
    organizer or one of its referees (``None``, the system, may)."""
    if user is None:
        return
    if event_is_organizer(event=event, user=user) or event_is_referee(event=event, user=user):
        return
    raise NotAllowedError(
        _("Only the organizers and referees of %(event)s may do this.") % {"event": event.name}
    )


def round_log_add(round: Round, user: User | None, action: str, detail: str = "") -> None:
    """Write who did what to a round (``user`` None: the system)."""
    RoundLog.objects.create(
        round=round,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        detail=detail[:500],
    )
