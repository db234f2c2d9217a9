"""The admin of rounds, their tables, entries and log, and offline results: round actions go
through the same services as the dashboard's (a wrong step is a message, not a server error)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from config.auth import acting_user
from config.exceptions import ApplicationError
from tournaments.admin.scope import EventScopedAdmin
from tournaments.models import (
    Pairing,
    ResultSubmission,
    Round,
    RoundEntry,
    RoundLog,
)
from tournaments.rounds import services
from tournaments.rounds.state import round_is_draft


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
