"""Admin for tournaments. Organizers (staff in the organizers' group) see and change only the events
they organize and what belongs to them; superusers see everything. Another event's object answers
403."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments.i18n import join_list
from tournaments.models import (
    Event,
    Meet,
    Membership,
    Pairing,
    ResultSubmission,
    Round,
    RoundEntry,
    RoundLog,
    Team,
    TeamMember,
    Unit,
)
from tournaments.services import event_organizer_add


def _is_superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


def organized_events(request: HttpRequest) -> QuerySet[Event]:
    """Return the events the request's user may manage in the admin."""
    if _is_superuser(request):
        return Event.objects.all()
    return Event.objects.filter(organizers=request.user)


class EventScopedAdmin(admin.ModelAdmin):
    """A ModelAdmin whose rows belong to an event through ``event_path`` ("" for Event itself)."""

    event_path = "event"

    def _event_filter(self, request: HttpRequest) -> dict[str, Any]:
        prefix = f"{self.event_path}__" if self.event_path else ""
        return {f"{prefix}organizers": request.user}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if _is_superuser(request):
            return queryset
        return queryset.filter(**self._event_filter(request)).distinct()

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Model | None:
        obj = super().get_object(request, object_id, from_field)
        if obj is None and not _is_superuser(request):
            field = from_field or self.model._meta.pk.attname
            try:
                exists = self.model._default_manager.filter(**{field: object_id}).exists()
            except (ValueError, ValidationError):
                exists = False
            if exists:
                raise PermissionDenied("This belongs to an event you do not organize.")
        return obj

    def formfield_for_foreignkey(
        self, db_field: Any, request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField | None:
        if not _is_superuser(request):
            events = organized_events(request)
            if db_field.related_model is Event:
                kwargs["queryset"] = events
            elif db_field.related_model is Team:
                kwargs["queryset"] = Team.objects.filter(event__in=events)
            elif db_field.related_model is Round:
                kwargs["queryset"] = Round.objects.filter(event__in=events)
            elif db_field.related_model is Pairing:
                kwargs["queryset"] = Pairing.objects.filter(round__event__in=events)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class TeamMemberFormSet(forms.BaseInlineFormSet):
    """Refuses, with a message, a player who already plays in another team of the same event."""

    def clean(self) -> None:
        super().clean()
        event_id = getattr(self.instance, "event_id", None)
        if event_id is None:
            return
        chosen = [
            form.cleaned_data["player"]
            for form in self.forms
            if form.cleaned_data.get("player") and not form.cleaned_data.get("DELETE")
        ]
        if len({p.pk for p in chosen}) != len(chosen):
            raise ValidationError(_("A player can appear only once in a team."))
        elsewhere = TeamMember.objects.filter(event_id=event_id, player__in=chosen)
        if self.instance.pk:
            elsewhere = elsewhere.exclude(team=self.instance)
        names = sorted(m.player.name for m in elsewhere.select_related("player"))
        if names:
            raise ValidationError(
                _("Already in another team of this event: %(names)s."),
                params={"names": join_list(names)},
            )


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    formset = TeamMemberFormSet
    extra = 0
    max_num = 3
    fields = ["order", "player"]
    autocomplete_fields = ["player"]


class TeamInline(admin.TabularInline):
    model = Team
    extra = 0
    fields = ["name", "unit", "withdrawn"]
    show_change_link = True
    autocomplete_fields = ["unit"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "status"]
    show_change_link = True


@admin.register(Event)
class EventAdmin(EventScopedAdmin):
    event_path = ""
    list_display = ["name", "meet", "game", "status", "pairing_format", "is_private"]
    list_filter = ["status", "game", "pairing_format", "is_private", "meet"]
    search_fields = ["name", "meet__name"]
    filter_horizontal = ["organizers"]
    inlines = [TeamInline, RoundInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if _is_superuser(request):
            return []
        return ["meet", "organizers"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_superuser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_superuser(request)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # Whoever is listed as an organizer gets what the role needs: staff status and the group.
        for user in form.instance.organizers.all():
            event_organizer_add(event=form.instance, user=user)


@admin.register(Team)
class TeamAdmin(EventScopedAdmin):
    list_display = ["name", "event", "unit", "member_names", "withdrawn"]
    list_filter = ["event", "withdrawn", "unit"]
    search_fields = ["name", "unit__name", "members__player__name"]
    autocomplete_fields = ["unit"]
    inlines = [TeamMemberInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).prefetch_related("members__player")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # A team stays in the event it was made for: its members' event follows it.
        return ["event"] if obj is not None else []

    @admin.display(description=TeamMember._meta.verbose_name_plural)
    def member_names(self, team: Team) -> str:
        return "、".join(m.player.name for m in sorted(team.members.all(), key=lambda m: m.order))

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        # A member's event is always its team's: the database uses it to keep a player in one team.
        for instance in formset.save(commit=False):
            if isinstance(instance, TeamMember):
                instance.event_id = form.instance.event_id
            instance.save()
        for obj in formset.deleted_objects:
            obj.delete()
        formset.save_m2m()


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = ["number", "team_a", "team_b", "table"]
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # pairings are made by the round services, which also create the table


class RoundEntryInline(admin.TabularInline):
    model = RoundEntry
    extra = 0
    fields = ["team", "pairing"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundLogInline(admin.TabularInline):
    model = RoundLog
    extra = 0
    fields = ["at", "user", "action", "detail"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # written by the round services


@admin.register(Round)
class RoundAdmin(EventScopedAdmin):
    list_display = ["event", "number", "status"]
    list_filter = ["status", "event"]
    search_fields = ["event__name"]
    inlines = [PairingInline, RoundEntryInline, RoundLogInline]
    # The status moves through the round services (confirm, start, complete) on the dashboard.
    readonly_fields = ["status"]


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(EventScopedAdmin):
    """Every version a referee entered, read-only: confirm or reject on the organizer dashboard."""

    event_path = "pairing__round__event"
    list_display = ["pairing", "version", "status", "submitted_by", "submitted_at", "reviewed_by"]
    list_filter = ["status", "pairing__round__event"]
    search_fields = ["pairing__team_a__name", "pairing__team_b__name"]
    readonly_fields = [
        "pairing",
        "version",
        "first_dealer",
        "deals",
        "status",
        "submitted_by",
        "submitted_at",
        "reviewed_by",
        "reviewed_at",
        "note",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Pairing)
class PairingAdmin(EventScopedAdmin):
    event_path = "round__event"
    list_display = ["round", "number", "team_a", "team_b", "table"]
    list_filter = ["round__event", "round__number"]
    search_fields = ["team_a__name", "team_b__name", "table__name"]
    # Pairings, their tables and round entries change together, through the round services.
    readonly_fields = ["round", "number", "table", "team_a", "team_b"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made by the round services, which also create the games table


@admin.register(RoundEntry)
class RoundEntryAdmin(EventScopedAdmin):
    event_path = "round__event"
    list_display = ["round", "team", "pairing"]
    list_filter = ["round__event"]
    search_fields = ["team__name"]
    readonly_fields = ["round", "team", "pairing"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["player", "employee_number"]
    autocomplete_fields = ["player"]


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "parent"]
    list_filter = ["kind", "parent"]
    search_fields = ["name"]
    autocomplete_fields = ["parent"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "unit", "employee_number"]
    list_filter = ["unit"]
    search_fields = ["player__name", "unit__name", "employee_number"]
    autocomplete_fields = ["player", "unit"]


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ["name", "game", "status"]
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).filter(pk__in=organized_events(request))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_superuser(request)


@admin.register(Meet)
class MeetAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on", "venue"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EventInline]
