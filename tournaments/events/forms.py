"""The organizers' event forms: create an event, change its settings, add a co-organizer.

The rule options are the event's game's, built from the registry
(:mod:`tournaments.events.option_fields`), with their Chinese names and help; choices are shown in
words.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _lazy

from engine.registry import get_game
from tournaments.events.option_fields import (
    event_option_specs,
    option_fields,
    options_from_form,
    options_initial,
)
from tournaments.events.services import EventSettings, StaffRole, meets_organized
from tournaments.models import Event, Meet, PairingFormat

__all__ = ["EventCreateForm", "EventSettingsForm", "StaffAddForm"]

_DATE = forms.DateInput(attrs={"type": "date"})


class _EventFields(forms.Form):
    """What an organizer sets of an event of ``game``, its rule options last."""

    name = forms.CharField(label=_lazy("Event name"), max_length=200)
    pairing_format = forms.ChoiceField(label=_lazy("pairing format"), choices=PairingFormat.choices)
    base_score = forms.IntegerField(label=_lazy("base score (底分)"), min_value=1, initial=1)
    deals_per_match = forms.IntegerField(label=_lazy("deals per match"), min_value=1)
    round_minutes = forms.IntegerField(
        label=_lazy("round length (minutes)"),
        min_value=1,
        max_value=600,
        required=False,
        help_text=_lazy(
            "The round clock's length; empty: no clock. When it runs out, online tables finish "
            "the deal in play and deal no new one."
        ),
    )
    is_private = forms.BooleanField(
        label=_lazy("private"),
        required=False,
        help_text=_lazy("Only its organizers see a private event."),
    )
    draw_checked_in_only = forms.BooleanField(
        label=_lazy("draw only those checked in"),
        required=False,
        help_text=_lazy(
            "Each round draws only the players (or teams) checked in for it: an absent player "
            "gets no table, an absent team a bye of 0 points."
        ),
    )
    starts_on = forms.DateField(label=_lazy("starts on"), required=False, widget=_DATE)
    ends_on = forms.DateField(label=_lazy("ends on"), required=False, widget=_DATE)

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = get_game(game)
        self.option_specs = event_option_specs(game)
        self.fields.update(option_fields(self.option_specs))
        for name, value in options_initial(self.option_specs, {}).items():
            self.fields[name].initial = value  # the game's defaults
        self.fields["deals_per_match"].initial = self.game.default_options().deals_per_match

    def option_field_names(self) -> list[str]:
        return [name for name in self.fields if name.startswith("option_")]

    def options(self) -> list[forms.BoundField]:
        return [self[name] for name in self.option_field_names()]

    def basics(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith("option_")]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _lazy("The meet cannot end before it starts."))
        return data

    def settings(self, stored: Any = None) -> EventSettings:
        data = self.cleaned_data
        return EventSettings(
            name=data["name"],
            pairing_format=data["pairing_format"],
            base_score=data["base_score"],
            deals_per_match=data["deals_per_match"],
            rule_options=options_from_form(self.option_specs, data, stored),
            is_private=bool(data.get("is_private")),
            draw_checked_in_only=bool(data.get("draw_checked_in_only")),
            starts_on=data.get("starts_on"),
            ends_on=data.get("ends_on"),
            round_minutes=data.get("round_minutes"),
        )


class EventCreateForm(_EventFields):
    """A new event: in a meet the user organizes, or in a new meet (named here, with its dates)."""

    field_order = ["meet", "meet_name", "starts_on", "ends_on", "name"]

    meet = forms.ModelChoiceField(
        label=_lazy("meet"),
        queryset=Meet.objects.none(),
        required=False,
        empty_label=_lazy("A new meet"),
    )
    meet_name = forms.CharField(
        label=_lazy("New meet's name"),
        max_length=200,
        required=False,
        help_text=_lazy("Only for a new meet."),
    )

    def __init__(self, *args: Any, user: User, game: str, **kwargs: Any) -> None:
        super().__init__(*args, game=game, **kwargs)
        field = self.fields["meet"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = meets_organized(user).order_by("name")
        self.fields["starts_on"].help_text = _lazy("Only for a new meet.")
        self.fields["ends_on"].help_text = _lazy("Only for a new meet.")
        self.order_fields(self.field_order)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("meet") and not (data.get("meet_name") or "").strip():
            self.add_error("meet_name", _lazy("Choose a meet, or name a new one."))
        return data


class EventSettingsForm(_EventFields):
    """An existing event's settings; once a round has started its rules, scoring and format are
    shown but not changed (``locked``), and the dates only for the meet's own organizer."""

    RULES = ("pairing_format", "base_score", "deals_per_match")

    def __init__(
        self, *args: Any, event: Event, locked: bool, own_meet: bool, **kwargs: Any
    ) -> None:
        initial = {
            "name": event.name,
            "pairing_format": event.pairing_format,
            "base_score": event.base_score,
            "deals_per_match": event.deals_per_match,
            "is_private": event.is_private,
            "draw_checked_in_only": event.draw_checked_in_only,
            "round_minutes": event.round_minutes,
            "starts_on": event.meet.starts_on,
            "ends_on": event.meet.ends_on,
        }
        super().__init__(*args, game=event.game, initial=initial, **kwargs)
        self.event = event
        self.locked = locked
        for name, value in options_initial(self.option_specs, event.rule_options).items():
            self.fields[name].initial = value
        frozen = [*self.RULES, *self.option_field_names()] if locked else []
        if not own_meet:
            frozen += ["starts_on", "ends_on"]
        for name in frozen:
            self.fields[name].disabled = True

    def settings(self, stored: Any = None) -> EventSettings:
        settings = super().settings(self.event.rule_options if stored is None else stored)
        if not self.locked:
            return settings
        event = self.event  # what a started event keeps, whatever was posted
        return EventSettings(
            name=settings.name,
            pairing_format=event.pairing_format,
            base_score=event.base_score,
            deals_per_match=event.deals_per_match,
            rule_options=event.rule_options,
            is_private=settings.is_private,
            draw_checked_in_only=settings.draw_checked_in_only,
            starts_on=settings.starts_on,
            ends_on=settings.ends_on,
            round_minutes=settings.round_minutes,
        )


class StaffAddForm(forms.Form):
    """A co-organizer or a referee, by their account's username."""

    username = forms.CharField(label=_lazy("Username"), max_length=150)
    role = forms.ChoiceField(label=_lazy("Role"), choices=StaffRole.choices)
