"""The admin of players, in the organizer's reach: only the players of their own events, and
never another event's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _lazy

from games.admin import PlayerAdmin
from games.models import Player
from tournaments.admin.scope import (
    ScopedAdmin,
    _is_superuser,
    _others_players,
    organized_events,
    organized_players,
)
from tournaments.events.entries import registration_ensure
from tournaments.models import (
    Event,
)


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
