"""Admin of the card room. It knows nothing of events: organizers reach their tables through
pairings."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from engine.registry import registered_games
from games.models import Action, Challenge, Deal, FigureStep, Match, Player, Table, TableSeat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "is_bot", "bot_kind", "user", "created_at"]
    list_filter = ["is_bot", "bot_kind"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    max_num = 8  # MAX_SEATS; a table takes as many as its game has
    fields = ["seat", "player"]
    autocomplete_fields = ["player"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = readonly_fields = (
        "status",
        "current_deal",
        "deals_per_match",
        "points",
        "side_points",
        "winner",
    )
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameFilter(admin.SimpleListFilter):
    """The tables of one game, each game by its name (the stored value is the registry's key)."""

    title = _("game")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(game.key, game.name_zh) for game in registered_games()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Table]) -> QuerySet[Table]:
        value = self.value()
        return queryset.filter(game=value) if value else queryset


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "game_name", "mode", "status", "created_at"]
    list_filter = [GameFilter, "mode", "status"]
    search_fields = ["name", "seats__player__name"]
    inlines = [TableSeatInline, MatchInline]

    @admin.display(description=_("game"), ordering="game")
    def game_name(self, table: Table) -> str:
        names = {game.key: game.name_zh for game in registered_games()}
        return names.get(table.game, table.game)


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = readonly_fields = (
        "number",
        "status",
        "dealer_seat",
        "level_rank",
        "points",
        "side_points",
    )
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class FigureStepInline(admin.TabularInline):
    model = FigureStep
    extra = 0
    fields = readonly_fields = ("deal_number", "figures")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "id", "table", "status", "current_deal", "deals_per_match", "points", "side_points",
        "winner", "end_reason",
    ]  # fmt: skip
    list_filter = ["status", "end_reason"]
    search_fields = ["table__name"]
    raw_id_fields = ["table"]
    inlines = [DealInline, FigureStepInline]


class ActionInline(admin.TabularInline):
    """The action log, read-only: it is append-only everywhere."""

    model = Action
    extra = 0
    fields = readonly_fields = ("seq", "seat", "kind", "cards", "created_at")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "number", "status", "dealer_seat", "level_rank", "points"]
    list_filter = ["status"]
    search_fields = ["match__table__name"]
    raw_id_fields = ["match"]
    inlines = [ActionInline]


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    """Actions can be looked at, never added, changed or deleted by hand."""

    list_display = ["deal", "seq", "seat", "kind", "cards", "created_at"]
    list_filter = ["kind"]
    search_fields = ["deal__match__table__name", "cards"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    """Same-deal challenges (挑战这副牌), to look at and to delete (a match played to spam a
    leaderboard); never made or changed by hand: a challenge is its own match's deal."""

    list_display = ["id", "source", "player", "seat", "points", "created_at"]
    list_filter = ["seat"]
    search_fields = ["player__name", "source__match__table__name"]
    fields = readonly_fields = ("source", "player", "seat", "match", "points", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
