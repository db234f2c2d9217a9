"""The admin of meets, events, teams, registrations, units and memberships, in the organizer's
reach (tournaments.admin.scope)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from engine.registry import DEFAULT_GAME, get_game
from tournaments.admin.event_form import EventForm, event_form_for, form_game
from tournaments.admin.scope import (
    EventScopedAdmin,
    ScopedAdmin,
    ScopedInline,
    _is_superuser,
    _other_events,
    _others_players,
    organized_events,
    organized_players,
    organized_units,
)
from tournaments.common import sides
from tournaments.common.i18n import join_list
from tournaments.events.staff import event_organizer_add
from tournaments.events.units import events_unit_ids
from tournaments.models import (
    Event,
    Meet,
    Membership,
    Registration,
    Round,
    Team,
    TeamMember,
    Unit,
)


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
        game = _event_game(event_id)
        size = sides.team_size(game) if sides.team_game(game) else 0
        orders = [
            form.cleaned_data["order"]
            for form in self.forms
            if form.cleaned_data.get("order") is not None and not form.cleaned_data.get("DELETE")
        ]
        if any(order >= size for order in orders) or len(orders) > size:
            raise ValidationError(
                _("A team of this event has %(size)d players, in order 0 to %(last)d."),
                params={"size": size, "last": size - 1},
            )
        registered = set(
            Registration.objects.filter(event_id=event_id, player__in=chosen).values_list(
                "player_id", flat=True
            )
        )
        current = set(
            TeamMember.objects.filter(team_id=self.instance.pk).values_list("player_id", flat=True)
            if self.instance.pk
            else ()
        )
        outsiders = sorted(p.name for p in chosen if p.pk not in registered and p.pk not in current)
        if outsiders:
            raise ValidationError(
                _("Not registered in this event: %(names)s. Register them first."),
                params={"names": join_list(outsiders)},
            )
        elsewhere = TeamMember.objects.filter(event_id=event_id, player__in=chosen)
        if self.instance.pk:
            elsewhere = elsewhere.exclude(team=self.instance)
        names = sorted(m.player.name for m in elsewhere.select_related("player"))
        if names:
            raise ValidationError(
                _("Already in another team of this event: %(names)s."),
                params={"names": join_list(names)},
            )


def _event_game(event_id: int) -> str:
    return str(Event.objects.filter(pk=event_id).values_list("game", flat=True).first() or "")


class TeamMemberInline(ScopedInline):
    model = TeamMember
    formset = TeamMemberFormSet
    extra = 0
    fields = ["order", "player"]
    autocomplete_fields = ["player"]

    def get_max_num(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> int:
        """A team's places: the seats of a side of its event's game (a new team: of the default
        game, 大怪路子's three)."""
        game = obj.event.game if obj is not None and obj.event_id else DEFAULT_GAME
        return sides.team_size(game) if sides.team_game(game) else 0


class TeamInline(ScopedInline):
    model = Team
    extra = 0
    fields = ["name", "unit", "withdrawn"]
    show_change_link = True
    autocomplete_fields = ["unit"]


class RegistrationFormSet(forms.BaseInlineFormSet):
    """Refuses to take out of the event a player who plays in one of its teams."""

    def clean(self) -> None:
        super().clean()
        leaving = [
            form.instance.player_id
            for form in self.forms
            if form.instance.pk and form.cleaned_data.get("DELETE")
        ]
        if not leaving:
            return
        playing = TeamMember.objects.filter(event=self.instance, player__in=leaving)
        names = sorted(m.player.name for m in playing.select_related("player"))
        if names:
            raise ValidationError(
                _("Still in a team of this event: %(names)s."),
                params={"names": join_list(names)},
            )


class RegistrationInline(ScopedInline):
    """The event's players: a team takes only players registered here."""

    model = Registration
    formset = RegistrationFormSet
    extra = 0
    fields = ["player", "created_at"]
    readonly_fields = ["created_at"]
    autocomplete_fields = ["player"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a registration is added or taken out, never moved to another player


class RoundInline(admin.TabularInline):
    """The event's rounds, read-only: a round is drawn, confirmed, started and completed through
    the round services (the dashboard), which also log each step."""

    model = Round
    extra = 0
    fields = readonly_fields = ("number", "status")
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(EventScopedAdmin):
    event_path = ""
    list_display = ["name", "meet", "game", "status", "pairing_format", "is_private"]
    list_filter = ["status", "game", "pairing_format", "is_private", "meet"]
    search_fields = ["name", "meet__name"]
    filter_horizontal = ["organizers"]
    inlines = [RegistrationInline, TeamInline, RoundInline]
    form = EventForm

    class Media:
        js = ["tournaments/admin_event_game.js"]

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        # Tie-breaks in order and the chosen game's rule options as typed fields, not raw JSON:
        # the game posted, else the one the add page names (?game=), else the event's.
        game = form_game(
            request.POST.get("game"),
            request.GET.get("game") if obj is None else None,
            obj.game if obj is not None else None,
        )
        kwargs["form"] = event_form_for(game)
        return super().get_form(request, obj, change, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial: dict[str, Any] = dict(super().get_changeform_initial_data(request))
        game = form_game(request.GET.get("game"))
        initial["game"] = game
        initial.setdefault("deals_per_match", get_game(game).default_options().deals_per_match)
        return initial

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


class MembershipInline(ScopedInline):
    model = Membership
    extra = 0
    fields = ["player", "employee_number"]
    autocomplete_fields = ["player"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if _is_superuser(request):
            return queryset
        return queryset.filter(player__in=organized_players(request))


@admin.register(Unit)
class UnitAdmin(ScopedAdmin):
    list_display = ["name", "kind", "parent"]
    list_filter = ["kind"]
    search_fields = ["name"]
    autocomplete_fields = ["parent"]
    inlines = [MembershipInline]

    def scoped_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(pk__in=organized_units(request).values("pk"))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A unit another event also holds (through a team, a player, its meet, or a unit below it)
        # is read-only: renaming it would change the other event's pages too.
        if (
            obj is not None
            and not _is_superuser(request)
            and obj.pk in events_unit_ids(_other_events(request))
        ):
            return False
        return super().has_change_permission(request, obj)


@admin.register(Membership)
class MembershipAdmin(ScopedAdmin):
    list_display = ["player", "unit", "employee_number"]
    list_filter = ["unit"]
    search_fields = ["player__name", "unit__name", "employee_number"]
    autocomplete_fields = ["player", "unit"]

    def scoped_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(player__in=organized_players(request))

    def _shared(self, request: HttpRequest, obj: Any) -> bool:
        # A shared player's employee number is how an import finds them for the other event.
        return (
            obj is not None
            and not _is_superuser(request)
            and _others_players(request).filter(pk=obj.player_id).exists()
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._shared(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._shared(request, obj) and super().has_delete_permission(request, obj)


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
class MeetAdmin(ScopedAdmin):
    list_display = ["name", "starts_on", "ends_on", "venue"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EventInline]

    def scoped_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(events__in=organized_events(request)).distinct()
