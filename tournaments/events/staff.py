"""Who may organize: the organizers' group and its permissions, and an event's co-organizers."""

from __future__ import annotations

from django.contrib.auth.models import (
    Group,
    Permission,
    User,
)
from django.db import transaction

from tournaments.events.organizers import event_is_organizer as event_is_organizer
from tournaments.events.organizers import event_organizer_require as event_organizer_require
from tournaments.events.organizers import round_log_add as round_log_add
from tournaments.models import (
    Event,
)

ORGANIZERS_GROUP = "organizers"


#: What an organizer may do in the admin; which events they may do it to is limited by
# Event.organizers.
ORGANIZER_PERMISSIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "tournaments": {
        "event": ("view", "change"),
        "team": ("view", "add", "change", "delete"),
        "teammember": ("view", "add", "change", "delete"),
        "round": ("view", "add", "change", "delete"),
        "pairing": ("view", "add", "change", "delete"),
        "roundentry": ("view", "add", "change", "delete"),
        "roundlog": ("view",),
        "registration": ("view", "add", "delete"),
        "resultsubmission": ("view",),
        "knockoutstage": ("view",),
        "unit": ("view", "add", "change"),
        "membership": ("view", "add", "change", "delete"),
        "meet": ("view",),
    },
    "games": {"player": ("view", "add", "change")},
}


@transaction.atomic
def organizer_group_ensure() -> Group:
    """Return the organizers' group, creating it and (re)granting its model permissions."""
    group, _created = Group.objects.get_or_create(name=ORGANIZERS_GROUP)
    wanted = []
    for models in ORGANIZER_PERMISSIONS.values():
        for model, actions in models.items():
            wanted += [f"{action}_{model}" for action in actions]
    permissions = Permission.objects.filter(
        content_type__app_label__in=ORGANIZER_PERMISSIONS, codename__in=wanted
    )
    group.permissions.set(permissions)
    return group


@transaction.atomic
def event_organizer_add(*, event: Event, user: User) -> None:
    """Make ``user`` an organizer of ``event``: staff, in the organizers' group, on the event."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(organizer_group_ensure())
    event.organizers.add(user)
