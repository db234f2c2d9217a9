"""Admin for tournaments. Organizers (staff in the organizers' group) see and change only the events
they organize and what belongs to them; superusers see everything. Another event's object answers
403."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import get_fields_from_path
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from config.auth import acting_user
from config.exceptions import ApplicationError
from engine.registry import DEFAULT_GAME, get_game
from games.admin import PlayerAdmin
from games.models import Player
from tournaments import services
from tournaments.admin.event_form import EventForm, event_form_for, form_game
from tournaments.common.i18n import join_list
from tournaments.events import sides
from tournaments.events.units import events_unit_ids, used_unit_ids
from tournaments.models import (
    Event,
    Meet,
    Membership,
    Pairing,
    Registration,
    ResultSubmission,
    Round,
    RoundEntry,
    RoundLog,
    Team,
    TeamMember,
    Unit,
)
from tournaments.rounds.state import round_is_draft
from tournaments.services import event_organizer_add, registration_ensure


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


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = readonly_fields = ("number", "team_a", "team_b", "table")
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # pairings are made by the round services, which also create the table


class RoundEntryInline(admin.TabularInline):
    model = RoundEntry
    extra = 0
    fields = readonly_fields = ("team", "pairing")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundLogInline(admin.TabularInline):
    model = RoundLog
    extra = 0
    fields = readonly_fields = ("at", "user", "action", "detail")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # written by the round services


@admin.register(Round)
class RoundAdmin(EventScopedAdmin):
    list_display = ["event", "number", "status"]
    list_filter = ["status", "event"]
    search_fields = ["event__name"]
    inlines = [PairingInline, RoundEntryInline, RoundLogInline]
    # The status moves only through the round services (confirm, start, complete): the dashboard's
    # buttons or the actions below, each a step of tournaments.rounds.state's table.
    readonly_fields = ["status"]
    actions = ["confirm_rounds", "start_rounds", "complete_rounds"]

    def _step(self, request: HttpRequest, queryset: QuerySet[Any], step: Any, done: str) -> None:
        """Take ``step`` for each round chosen; a round whose status refuses it says why."""
        user = acting_user(request)
        for round in queryset.select_related("event").order_by("event", "number"):
            try:
                step(round=round, user=user)
            except ApplicationError as error:
                self.message_user(request, f"{round}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{round}: {done}", messages.SUCCESS)

    @admin.action(description=_lazy("Confirm the chosen rounds"))
    def confirm_rounds(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._step(request, queryset, services.round_confirm, _("Confirmed."))

    @admin.action(description=_lazy("Start the chosen rounds"))
    def start_rounds(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._step(request, queryset, services.round_start, _("Started."))

    @admin.action(description=_lazy("Complete the chosen rounds (every table finished)"))
    def complete_rounds(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._step(request, queryset, services.round_complete, _("Completed."))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Only a draft may be thrown away; a confirmed round's tables and results stay.
        if obj is not None and not round_is_draft(obj):
            return False
        return super().has_delete_permission(request, obj)


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

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A confirmed round's table goes with its results: only a draft's may be thrown away.
        if obj is not None and not round_is_draft(obj.round):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(RoundEntry)
class RoundEntryAdmin(EventScopedAdmin):
    event_path = "round__event"
    list_display = ["round", "team", "pairing"]
    list_filter = ["round__event"]
    search_fields = ["team__name"]
    readonly_fields = ["round", "team", "pairing"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not round_is_draft(obj.round):
            return False  # a confirmed round's entries change through the round services
        return super().has_delete_permission(request, obj)


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


class OrganizerPlayerForm(forms.ModelForm):
    """A new player as an organizer enters one: in one of their events, without an account."""

    event = forms.ModelChoiceField(
        queryset=Event.objects.none(),
        label=_lazy("event"),
        help_text=_lazy("The player is registered in this event."),
    )

    class Meta:
        model = Player
        fields = ["name", "is_bot", "bot_kind"]


admin.site.unregister(Player)


@admin.register(Player)
class ScopedPlayerAdmin(ScopedAdmin, PlayerAdmin):
    """Players: an organizer reaches only the players of their own events and never changes
    which login account a player has (login codes are issued on the dashboard)."""

    def scoped_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(pk__in=organized_players(request).values("pk"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        if not _is_superuser(request) and obj is not None:
            fields.append("user")
        return fields

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A player another event shares is read-only: a rename or a bot switch reaches its tables.
        if (
            obj is not None
            and not _is_superuser(request)
            and _others_players(request).filter(pk=obj.pk).exists()
        ):
            return False
        return super().has_change_permission(request, obj)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None and not _is_superuser(request):
            kwargs["form"] = OrganizerPlayerForm
            form = super().get_form(request, obj, change, **kwargs)
            event_field = form.base_fields["event"]
            assert isinstance(event_field, forms.ModelChoiceField)
            event_field.queryset = organized_events(request)
            return form
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None and not _is_superuser(request):
            return ["event", "name", "is_bot", "bot_kind"]
        return super().get_fields(request, obj)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        event = form.cleaned_data.get("event") if not change else None
        if event is not None:
            registration_ensure(event=event, players=[obj])


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
