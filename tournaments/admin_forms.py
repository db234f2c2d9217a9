"""The admin's event form: tie-breaks as ordered choices and the game's rule options as typed
fields (checkboxes, numbers, choices) instead of raw JSON.

The rule options offered are the ones the event's game declares in the registry
(``Game.option_specs``); options that the event sets with its own fields (deals per match, base
score) are left out, and keys the form does not know are kept as they are.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from engine.errors import EngineError
from engine.game import OptionSpec
from engine.registry import get_game
from games.engine_messages import engine_message
from tournaments.models import Event, TieBreak

#: Options the event sets with a field of its own.
EVENT_FIELDS = frozenset({"deals_per_match", "base_score", "base"})
OPTION_PREFIX = "option_"


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

    tie_break_1 = _tie_break_field(1)
    tie_break_2 = _tie_break_field(2)
    tie_break_3 = _tie_break_field(3)

    class Meta:
        model = Event
        exclude = ["tie_break_order", "rule_options"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        order = list(self.instance.tie_break_order or []) if self.instance.pk else []
        if not self.instance.pk:
            order = list(Event().tie_break_order)
        for i in range(1, len(TieBreak) + 1):
            name = f"tie_break_{i}"
            if name in self.fields:
                self.fields[name].initial = order[i - 1] if i <= len(order) else ""
        options = self.instance.rule_options if isinstance(self.instance.rule_options, dict) else {}
        for spec in self.option_specs:
            field = self.fields.get(OPTION_PREFIX + spec.name)
            if field is not None:
                field.initial = options.get(spec.name, spec.default)

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
        options = dict(self.instance.rule_options or {}) if self.instance.pk else {}
        if not isinstance(options, dict):
            options = {}
        for spec in self.option_specs:
            name = OPTION_PREFIX + spec.name
            if name in data and data[name] is not None:
                options[spec.name] = data[name]
        game_key = data.get("game") or self.instance.game
        try:
            game = get_game(game_key)
            check = {**options, "deals_per_match": data.get("deals_per_match") or 1}
            game.options_from_json(check)
        except EngineError as exc:
            raise forms.ValidationError(
                _("The rule options are not valid: %(error)s") % {"error": engine_message(exc)}
            ) from None
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


def _option_field(spec: OptionSpec, chinese: bool) -> forms.Field:
    label = spec.label_zh if chinese else spec.label_en
    if spec.kind == "bool":
        return forms.BooleanField(label=label, required=False)
    if spec.kind == "int":
        return forms.IntegerField(label=label, min_value=spec.minimum, required=True)
    return forms.ChoiceField(label=label, choices=[(c, c) for c in spec.choices], required=True)


def event_form_for(game_key: str | None) -> type[EventForm]:
    """The event form with the rule options of the game ``game_key`` (the default game if
    none), labelled in the current language."""
    try:
        game = get_game(game_key or None)
    except EngineError:
        return EventForm
    chinese = (get_language() or "zh-hans").startswith("zh")
    specs = tuple(s for s in game.option_specs() if s.name not in EVENT_FIELDS)
    attrs: dict[str, Any] = {OPTION_PREFIX + s.name: _option_field(s, chinese) for s in specs}
    attrs["option_specs"] = specs
    return type(f"EventForm_{game.key}", (EventForm,), attrs)
