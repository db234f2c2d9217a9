"""Writes that set an event up: an organizer creates an event (in a meet they organize, or in a new
meet of their own), changes its settings and its game, and adds co-organizers and referees.

Who may: a superuser, or a staff user in the organizers' group (:func:`can_create_events`); an
organizer reaches only the meets and events they organize. Rule options are the game's
(``Game.option_specs`` through :mod:`tournaments.events.option_fields`), checked by the engine; they
are locked once a round has started, and the game changes only while the event has no rounds.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import F, QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from engine.errors import EngineError
from engine.registry import get_game, registered_keys
from games.tables.messages import engine_message
from tournaments.common import sides
from tournaments.events.organizers import event_is_organizer as event_is_organizer
from tournaments.events.organizers import event_organizer_require
from tournaments.events.organizers import round_log_add as round_log_add
from tournaments.events.staff import ORGANIZERS_GROUP, event_organizer_add
from tournaments.models import Event, EventReferee, Meet, Round

__all__ = [
    "EventSettings",
    "can_create_events",
    "event_create",
    "event_game_set",
    "event_options_locked",
    "StaffRole",
    "event_staff_add",
    "event_settings_update",
    "meet_is_own",
    "meets_organized",
]

#: Round statuses after which an event's rules no longer change (its tables have played).
_STARTED = (Round.Status.RUNNING, Round.Status.COMPLETED)


def can_create_events(user: User | AnonymousUser | None) -> bool:
    """Whether ``user`` may create events: a superuser, or a staff user in the organizers' group."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return bool(user.is_staff and user.groups.filter(name=ORGANIZERS_GROUP).exists())


def meets_organized(user: User | AnonymousUser | None) -> QuerySet[Meet]:
    """The meets ``user`` may add an event to: those where they organize an event (all for a
    superuser)."""
    if user is None or not user.is_authenticated:
        return Meet.objects.none()
    if user.is_superuser:
        return Meet.objects.all()
    return Meet.objects.filter(events__organizers=user).distinct()


def meet_is_own(meet: Meet, user: User | AnonymousUser | None) -> bool:
    """Whether ``user`` may change the meet itself (its dates): a superuser, or the organizer of
    every event it holds."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    events = meet.events.all()
    return events.exists() and not events.exclude(organizers=user).exists()


def event_options_locked(event: Event) -> bool:
    """Whether a round of ``event`` has started (its rules, scoring and format are fixed)."""
    return Round.objects.filter(event_id=event.pk, status__in=_STARTED).exists()


@dataclass(frozen=True)
class EventSettings:
    """What an organizer sets of an event (the game apart: :func:`event_game_set`)."""

    name: str
    pairing_format: str
    base_score: int
    deals_per_match: int
    rule_options: Mapping[str, Any]
    is_private: bool
    starts_on: date | None = None
    ends_on: date | None = None
    draw_checked_in_only: bool = False
    #: the round clock's length in minutes (None: no clock); may change after rounds started
    round_minutes: int | None = None


def _checked(event: Event) -> None:
    """Validate the event as the model does, raising ApplicationError with the first message."""
    try:
        event.full_clean(exclude=["meet", "organizers"], validate_unique=False)
    except ValidationError as error:
        messages = [str(m) for ms in error.message_dict.values() for m in ms]
        raise ApplicationError(" ".join(messages) or _("The event is not valid.")) from None


def _options_checked(game_key: str, options: Mapping[str, Any], deals: int) -> dict[str, Any]:
    try:
        get_game(game_key).options_from_json({**options, "deals_per_match": deals})
    except EngineError as exc:
        raise ApplicationError(
            _("The rule options are not valid: %(error)s") % {"error": engine_message(exc)}
        ) from None
    return dict(options)


def _dates_checked(starts_on: date | None, ends_on: date | None) -> None:
    if starts_on and ends_on and ends_on < starts_on:
        raise ApplicationError(_("The meet cannot end before it starts."))


def _name_taken(meet: Meet, name: str) -> ConflictError:
    return ConflictError(
        _("The meet %(meet)s already has an event named %(name)s.")
        % {"meet": meet.name, "name": name}
    )


def _new_meet(name: str, starts_on: date | None, ends_on: date | None) -> Meet:
    name = name.strip()
    if not name:
        raise ApplicationError(_("Name the new meet."))
    _dates_checked(starts_on, ends_on)
    stem = slugify(name)[:40] or "meet"
    for _attempt in range(5):
        slug = f"{stem}-{secrets.token_hex(3)}"
        try:
            with transaction.atomic():
                return Meet.objects.create(
                    name=name[:200], slug=slug, starts_on=starts_on, ends_on=ends_on
                )
        except IntegrityError:
            continue
    raise ConflictError(_("The meet could not be created; try again."))


@transaction.atomic
def event_create(
    *,
    user: User,
    game: str,
    settings: EventSettings,
    meet: Meet | None = None,
    meet_name: str = "",
) -> Event:
    """Create an event of ``game`` in ``meet`` (one the user organizes) or in a new meet named
    ``meet_name`` (with the settings' dates); the user becomes its organizer. Raises
    NotAllowedError for a user who may not, ApplicationError or ConflictError for bad input,
    creating nothing."""
    if not can_create_events(user):
        raise NotAllowedError(_("Only organizers may create events."))
    if game not in registered_keys():
        raise ApplicationError(_("Choose one of the games Luzi hosts."))
    if meet is not None:
        if not meets_organized(user).filter(pk=meet.pk).exists():
            raise NotAllowedError(
                _("You may add events only to meets where you organize an event.")
            )
    else:
        meet = _new_meet(meet_name, settings.starts_on, settings.ends_on)
    name = settings.name.strip()
    if not name:
        raise ApplicationError(_("Name the event."))
    options = _options_checked(game, settings.rule_options, settings.deals_per_match)
    event = Event(
        meet=meet,
        name=name[:200],
        game=game,
        base_score=settings.base_score,
        deals_per_match=settings.deals_per_match,
        rule_options=options,
        pairing_format=settings.pairing_format,
        is_private=settings.is_private,
        draw_checked_in_only=settings.draw_checked_in_only,
        round_minutes=settings.round_minutes,
        status=Event.Status.DRAFT,
    )
    _checked(event)
    try:
        with transaction.atomic():
            event.save()
    except IntegrityError:
        raise _name_taken(meet, name) from None
    event_organizer_add(event=event, user=user)
    return event


@transaction.atomic
def event_settings_update(*, event: Event, user: User, settings: EventSettings) -> Event:
    """Change an event's settings (its organizers only). Once a round has started, its rules,
    scoring and format stay as they are (ConflictError names why); the meet's dates change only
    for an organizer of every event of the meet."""
    event = Event.objects.select_for_update().select_related("meet").get(pk=event.pk)
    event_organizer_require(event=event, user=user)
    name = settings.name.strip()
    if not name:
        raise ApplicationError(_("Name the event."))
    rules_before = (
        event.pairing_format,
        event.base_score,
        event.deals_per_match,
        event.rule_options,
    )
    rules_after = (
        settings.pairing_format,
        settings.base_score,
        settings.deals_per_match,
        dict(settings.rule_options),
    )
    if rules_before != rules_after and event_options_locked(event):
        raise ConflictError(
            _(
                "A round has started: the rule options, scoring and pairing format of "
                "%(event)s are fixed now."
            )
            % {"event": event.name}
        )
    options = _options_checked(event.game, settings.rule_options, settings.deals_per_match)
    event.name = name[:200]
    event.pairing_format = settings.pairing_format
    event.base_score = settings.base_score
    event.deals_per_match = settings.deals_per_match
    event.rule_options = options
    event.is_private = settings.is_private
    event.draw_checked_in_only = settings.draw_checked_in_only
    event.round_minutes = settings.round_minutes
    _checked(event)
    meet = event.meet
    dates = (settings.starts_on, settings.ends_on)
    if dates != (meet.starts_on, meet.ends_on):
        if not meet_is_own(meet, user):
            raise NotAllowedError(
                _("The dates belong to the meet %(meet)s, which holds other organizers' events.")
                % {"meet": meet.name}
            )
        _dates_checked(*dates)
        meet.starts_on, meet.ends_on = dates
        meet.save(update_fields=["starts_on", "ends_on"])
    try:
        with transaction.atomic():
            event.save()
    except IntegrityError:
        raise _name_taken(meet, name) from None
    return event


@transaction.atomic
def event_game_set(*, event: Event, user: User, game: str) -> Event:
    """Change the game of an event that has no rounds yet: its rule options start from the new
    game's defaults (and its deals per match from the game's)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    event_organizer_require(event=event, user=user)
    if game not in registered_keys():
        raise ApplicationError(_("Choose one of the games Luzi hosts."))
    if game == event.game:
        return event
    if event.rounds.exists():
        raise ConflictError(
            _("%(event)s has rounds: its game no longer changes.") % {"event": event.name}
        )
    new = get_game(game)
    if event.teams.exists() and not new.fixed_sides:
        raise ConflictError(
            _("%(game)s is played by each player alone: remove the event's teams first.")
            % {"game": new.name_zh}
        )
    old_size = sides.team_size(event.game) if sides.team_game(event.game) else None
    if event.teams.exists() and sides.team_game(new) and sides.team_size(game) != old_size:
        raise ConflictError(
            _("%(game)s is played by teams of %(size)d: remove the event's teams first.")
            % {"game": new.name_zh, "size": sides.team_size(game)}
        )
    event.game = game
    event.rule_options = {}
    event.deals_per_match = new.default_options().deals_per_match
    _checked(event)
    event.save(update_fields=["game", "rule_options", "deals_per_match"])
    return event


class StaffRole(models.TextChoices):
    """What a person added from the dashboard does for the event."""

    ORGANIZER = "organizer", _lazy("co-organizer")
    REFEREE = "referee", _lazy("referee")


@transaction.atomic
def event_staff_add(
    *, event: Event, user: User, username: str, role: str = StaffRole.ORGANIZER
) -> User:
    """Add the user named ``username`` to ``event`` (by one of its organizers) as a co-organizer
    (what :func:`tournaments.events.staff.event_organizer_add` grants, never more) or as a referee
    (nothing beyond entering and confirming the event's offline results: no staff status).
    Raises ApplicationError for an unknown or inactive account or role, ConflictError if the
    person already has the role."""
    event_organizer_require(event=event, user=user)
    if role not in StaffRole.values:
        raise ApplicationError(_("Choose co-organizer or referee."))
    username = (username or "").strip()
    target = User.objects.filter(username=username, is_active=True).first() if username else None
    if target is None:
        raise ApplicationError(_("No active account is named %(name)s.") % {"name": username})
    if event.organizers.filter(pk=target.pk).exists():
        raise ConflictError(
            _("%(name)s already organizes %(event)s.") % {"name": username, "event": event.name}
        )
    if role == StaffRole.ORGANIZER:
        event_organizer_add(event=event, user=target)
        EventReferee.objects.filter(event=event, user=target).delete()  # now more than that
        return target
    _referee, created = EventReferee.objects.get_or_create(
        event=event, user=target, defaults={"added_by": user}
    )
    if not created:
        raise ConflictError(
            _("%(name)s already referees %(event)s.") % {"name": username, "event": event.name}
        )
    return target


def event_results_changed(*, event: Event) -> None:
    """Mark the event's standings as old (cached standings are keyed by this version)."""
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
