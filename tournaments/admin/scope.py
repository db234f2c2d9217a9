"""The admin's reach. Organizers (staff in the organizers' group) see and change only the events
they organize and what belongs to them; superusers see everything. Another event's object answers
403. Every admin of tournaments builds on these."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import get_fields_from_path
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest

from config.auth import acting_user
from games.models import Player
from tournaments.events.units import events_unit_ids, used_unit_ids
from tournaments.models import (
    Event,
    Meet,
    Pairing,
    Registration,
    Round,
    Team,
    TeamMember,
    Unit,
)


def _is_superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


def organized_events(request: HttpRequest) -> QuerySet[Event]:
    """Return the events the request's user may manage in the admin."""
    if _is_superuser(request):
        return Event.objects.all()
    return Event.objects.filter(organizers=acting_user(request))


def organized_players(request: HttpRequest) -> QuerySet[Player]:
    """Return the players the request's user may reach in the admin: those registered in (or
    playing in a team of) an event they organize."""
    if _is_superuser(request):
        return Player.objects.all()
    events = organized_events(request)
    return Player.objects.filter(
        Q(pk__in=Registration.objects.filter(event__in=events).values("player"))
        | Q(pk__in=TeamMember.objects.filter(event__in=events).values("player"))
    )


def _other_events(request: HttpRequest) -> QuerySet[Event]:
    return Event.objects.exclude(pk__in=organized_events(request).values("pk"))


def _others_players(request: HttpRequest) -> QuerySet[Player]:
    """Players who also play in an event the request's user does not organize (shared ones: an
    import finds a person again within a meet); such a player or unit is read-only to them."""
    others = _other_events(request)
    return Player.objects.filter(
        Q(pk__in=Registration.objects.filter(event__in=others).values("player"))
        | Q(pk__in=TeamMember.objects.filter(event__in=others).values("player"))
    )


def organized_units(request: HttpRequest) -> QuerySet[Unit]:
    """Return the units the request's user may reach in the admin: those of an event they
    organize (a team's unit, a unit of its players, a unit its meet's import made, its meet's
    host, and every unit above those: a parent unit whose departments the event uses is the
    event's too), and those no event or meet holds yet. A unit held only by others is out of
    reach."""
    if _is_superuser(request):
        return Unit.objects.all()
    mine = events_unit_ids(organized_events(request))
    return Unit.objects.filter(Q(pk__in=mine) | ~Q(pk__in=used_unit_ids()))


def _scoped_choices(request: HttpRequest, related_model: Any) -> QuerySet[Any] | None:
    """The choices an organizer has for a foreign key to ``related_model`` (None: no limit)."""
    if _is_superuser(request):
        return None
    events = organized_events(request)
    if related_model is Event:
        return events
    if related_model is Team:
        return Team.objects.filter(event__in=events)
    if related_model is Round:
        return Round.objects.filter(event__in=events)
    if related_model is Pairing:
        return Pairing.objects.filter(round__event__in=events)
    if related_model is Player:
        return organized_players(request)
    if related_model is Unit:
        return organized_units(request)
    if related_model is Meet:
        return Meet.objects.filter(events__in=events).distinct()
    return None


class ScopedAdmin(admin.ModelAdmin):
    """A ModelAdmin whose rows an organizer reaches only through their own events
    (``scoped_queryset``); another row answers 403, and every foreign key offers only rows in
    reach. Superusers see everything."""

    def scoped_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        raise NotImplementedError

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if _is_superuser(request):
            return queryset
        return self.scoped_queryset(request, queryset)

    def get_list_filter(self, request: HttpRequest) -> Any:
        # A filter on a relation lists every row of the related table (private events, other
        # events' units): an organizer's lists only the values their own rows hold.
        filters = super().get_list_filter(request)
        if _is_superuser(request):
            return filters
        return [
            (f, admin.RelatedOnlyFieldListFilter)
            if isinstance(f, str) and get_fields_from_path(self.model, f)[-1].is_relation
            else f
            for f in filters
        ]

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Model | None:
        obj = super().get_object(request, object_id, from_field)
        if obj is None and not _is_superuser(request):
            field = from_field or self.model._meta.pk.attname
            try:
                exists = self.model._default_manager.filter(**{field: object_id}).exists()
            except (ValueError, ValidationError, OverflowError):
                exists = False
            if exists:
                raise PermissionDenied("This belongs to an event you do not organize.")
        return obj

    def formfield_for_foreignkey(
        self, db_field: Any, request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField | None:
        choices = _scoped_choices(request, db_field.related_model)
        if choices is not None:
            kwargs["queryset"] = choices
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ScopedInline(admin.TabularInline):
    """An inline whose foreign keys offer an organizer only rows of their own events."""

    def formfield_for_foreignkey(
        self, db_field: Any, request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField | None:
        choices = _scoped_choices(request, db_field.related_model)
        if choices is not None:
            kwargs["queryset"] = choices
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class EventScopedAdmin(ScopedAdmin):
    """A ModelAdmin whose rows belong to an event through ``event_path`` ("" for Event itself)."""

    event_path = "event"

    def scoped_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        prefix = f"{self.event_path}__" if self.event_path else ""
        return queryset.filter(**{f"{prefix}organizers": request.user}).distinct()
