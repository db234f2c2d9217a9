"""The knockout stage in the admin: read-only (every write goes through the knockout page or
the API, whose services keep the bracket consistent), and an organizer sees only the stages of
the events they organize. Imported by tournaments.admin."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.admin.scope import EventScopedAdmin
from tournaments.models import KnockoutEntrant, KnockoutMatch, KnockoutStage


class _ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class KnockoutEntrantInline(_ReadOnly, admin.TabularInline):
    model = KnockoutEntrant
    fields = readonly_fields = (
        "seed",
        "team",
        "player",
    )
    extra = 0


class KnockoutMatchInline(_ReadOnly, admin.TabularInline):
    model = KnockoutMatch
    fields = readonly_fields = (
        "key",
        "bracket_round",
        "lo",
        "hi",
        "entrants",
        "deals",
        "to_a",
        "result",
        "decided_by",
    )
    extra = 0


@admin.register(KnockoutStage)
class KnockoutStageAdmin(_ReadOnly, EventScopedAdmin):
    list_display = ["event", "size", "places_played", "status"]
    list_filter = ["status"]
    search_fields = ["event__name"]
    inlines = [KnockoutEntrantInline, KnockoutMatchInline]
    readonly_fields = [
        "event",
        "size",
        "places_played",
        "status",
        "deals_per_match",
        "final_deals",
        "to_a",
        "group_ranking",
        "passed_over",
        "note",
        "created_by",
    ]
