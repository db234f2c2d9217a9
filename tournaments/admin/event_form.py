"""The admin's event form: tie-breaks as ordered choices and the game's rule options as typed
fields (checkboxes, numbers, choices in words) instead of raw JSON.

The rule options offered are the chosen game's (``Game.option_specs``, through
:mod:`tournaments.events.option_fields`): the game posted, else the one the add page names
(``?game=``), else the event's. A hidden ``options_game`` says which game's options the page showed:
when the game is changed, the options the page showed (another game's) are not applied, and the new
game starts from its defaults.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from engine.game import OptionSpec
from engine.registry import DEFAULT_GAME, registered_keys
from tournaments.events.option_fields import (
    EVENT_FIELDS,
    OPTION_PREFIX,
    event_option_specs,
    option_fields,
    options_check,
    options_from_form,
    options_initial,
)
from tournaments.models import Event, TieBreak

__all__ = ["EVENT_FIELDS", "OPTION_PREFIX", "EventForm", "event_form_for", "form_game"]


_POSITIONS = {
    1: _lazy("First tie-break"),
    2: _lazy("Second tie-break"),
    3: _lazy("Third tie-break"),
}


def _tie_break_field(position: int) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_POSITIONS[position],
        choices=[("", "—"), *TieBreak.choices],
        required=False,
        help_text=_lazy("Applied in this order after points, match wins and the highest level.")
        if position == 1
        else "",
    )


class EventForm(forms.ModelForm):
    """An event's settings with tie-breaks in order and typed rule options."""

    option_specs: tuple[OptionSpec, ...] = ()
    options_game_key: str = DEFAULT_GAME

    options_game = forms.CharField(
        label=_lazy("game of the options shown"), widget=forms.HiddenInput, required=False
    )
    tie_break_1 = _tie_break_field(1)
    tie_break_2 = _tie_break_field(2)
    tie_break_3 = _tie_break_field(3)

    class Meta:
        model = Event
        exclude = ["tie_break_order", "rule_options"]
        help_texts = {
            "game": _lazy(
                "Changing the game of an event without rounds starts its rule options from the "
                "new game's defaults."
            )
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        order = list(self.instance.tie_break_order or []) if self.instance.pk else []
        if not self.instance.pk:
            order = list(Event().tie_break_order)
        for i in range(1, len(TieBreak) + 1):
            name = f"tie_break_{i}"
            if name in self.fields:
                self.fields[name].initial = order[i - 1] if i <= len(order) else ""
        self.fields["options_game"].initial = self.options_game_key
        for name, value in options_initial(self.option_specs, self._stored_options()).items():
            if name in self.fields:
                self.fields[name].initial = value
        shown = self.data.get("options_game") if self.is_bound else None
        if shown and shown != self.options_game_key:
            # The page showed another game's options: the new game starts from its defaults.
            data = QueryDict(mutable=True)
            for key in self.data:
                values = self.data.getlist(key) if hasattr(self.data, "getlist") else None
                data.setlist(key, values if values is not None else [self.data[key]])
            for spec in self.option_specs:
                name = OPTION_PREFIX + spec.name
                if spec.kind == "bool":
                    if spec.default:
                        data[name] = "on"
                    else:
                        data.pop(name, None)
                else:
                    data[name] = str(spec.default)
            data["options_game"] = self.options_game_key
            self.data = data

    def _stored_options(self) -> dict[str, Any]:
        """The event's stored options when they are this game's ({} for another game's)."""
        options = self.instance.rule_options if self.instance.pk else {}
        if not isinstance(options, dict) or self.instance.game != self.options_game_key:
            return {}
        return dict(options)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        order = [
            data.get(f"tie_break_{i}")
            for i in range(1, len(TieBreak) + 1)
            if data.get(f"tie_break_{i}")
        ]
        if len(set(order)) != len(order):
            self.add_error("tie_break_1", _("A tie-break may appear only once."))
        else:
            self.instance.tie_break_order = order
        game_key = data.get("game") or self.instance.game
        if self.instance.pk and game_key != self.instance.game and self.instance.rounds.exists():
            self.add_error("game", _("The event has rounds: its game no longer changes."))
            return data
        if game_key != self.options_game_key:
            # Only when the form was built for another game than the one posted (never from the
            # admin, which builds it for the posted game): keep what is stored.
            return data
        options = options_from_form(self.option_specs, data, self._stored_options())
        options_check(game_key, options, data.get("deals_per_match"))
        self.instance.rule_options = options
        return data

    def _update_errors(self, errors: Any) -> None:
        # The model names its JSON fields; this form shows them as other fields.
        moved = {"tie_break_order": "tie_break_1", "rule_options": None}
        if hasattr(errors, "error_dict"):
            for model_field, form_field in moved.items():
                for error in errors.error_dict.pop(model_field, []):
                    self.add_error(form_field, error)
            if not errors.error_dict:
                return
        super()._update_errors(errors)  # type: ignore[misc]  # ModelForm's, not in django-stubs


def form_game(*candidates: Any) -> str:
    """The first of ``candidates`` that names a registered game (the default game if none)."""
    keys = registered_keys()
    for key in candidates:
        if isinstance(key, str) and key in keys:
            return key
    return DEFAULT_GAME


def event_form_for(game_key: str | None) -> type[EventForm]:
    """The event form with the rule options of the game ``game_key`` (the default game if
    none), labelled in the current language."""
    key = form_game(game_key)
    specs = event_option_specs(key)
    attrs: dict[str, Any] = dict(option_fields(specs))
    attrs["option_specs"] = specs
    attrs["options_game_key"] = key
    return type(f"EventForm_{key}", (EventForm,), attrs)
