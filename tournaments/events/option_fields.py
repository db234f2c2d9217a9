"""A game's rule options as form fields, built from what the game declares in the registry
(``Game.option_specs``: names, help, kinds, choices and defaults), for the admin's event form and
the organizers' event pages alike. Nothing here knows one game's options.

Options the event sets with a field of its own (deals per match, base score) are left out. An
empty number means the game's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.errors import EngineError
from engine.game import OptionSpec
from engine.registry import get_game
from games.tables.messages import engine_message

__all__ = [
    "EVENT_FIELDS",
    "OPTION_PREFIX",
    "event_option_specs",
    "option_fields",
    "options_check",
    "options_from_form",
    "options_initial",
]

#: Options the event sets with a field of its own.
EVENT_FIELDS = frozenset({"deals_per_match", "base_score", "base"})
OPTION_PREFIX = "option_"


def _chinese() -> bool:
    return (get_language() or "zh-hans").startswith("zh")


def event_option_specs(game_key: str | None) -> tuple[OptionSpec, ...]:
    """The options of the game ``game_key`` that an event form offers (none for an unknown game)."""
    try:
        game = get_game(game_key or None)
    except EngineError:
        return ()
    return tuple(s for s in game.option_specs() if s.name not in EVENT_FIELDS)


def _option_field(spec: OptionSpec, chinese: bool) -> forms.Field:
    label = spec.label(chinese=chinese)
    help_text = spec.help(chinese=chinese)
    if spec.kind == "bool":
        return forms.BooleanField(label=label, required=False, help_text=help_text)
    if spec.kind == "int":
        default = _("Empty: %(default)s.") % {"default": spec.default}
        return forms.IntegerField(
            label=label,
            min_value=spec.minimum,
            required=False,
            help_text=f"{help_text} {default}".strip(),
            widget=forms.NumberInput(attrs={"placeholder": str(spec.default)}),
        )
    choices = [(c, spec.choice_label(c, chinese=chinese)) for c in spec.choices]
    return forms.ChoiceField(label=label, choices=choices, required=True, help_text=help_text)


def option_fields(specs: tuple[OptionSpec, ...]) -> dict[str, forms.Field]:
    """A form field per option, named ``option_<name>``, labelled in the current language."""
    chinese = _chinese()
    return {OPTION_PREFIX + s.name: _option_field(s, chinese) for s in specs}


def options_initial(specs: tuple[OptionSpec, ...], stored: Any) -> dict[str, Any]:
    """The fields' initial values: the stored options, else each option's default."""
    options = stored if isinstance(stored, Mapping) else {}
    return {OPTION_PREFIX + s.name: options.get(s.name, s.default) for s in specs}


def options_from_form(
    specs: tuple[OptionSpec, ...], cleaned: Mapping[str, Any], base: Any = None
) -> dict[str, Any]:
    """The rule options a form's cleaned data sets, over ``base`` (stored options of the same
    game, whose other keys are kept); an empty number takes the option's default."""
    options = dict(base) if isinstance(base, Mapping) else {}
    for spec in specs:
        name = OPTION_PREFIX + spec.name
        if name not in cleaned:
            continue
        value = cleaned[name]
        options[spec.name] = spec.default if value is None or value == "" else value
    return options


def options_check(game_key: str, options: Mapping[str, Any], deals_per_match: Any) -> None:
    """Raise ``forms.ValidationError`` with the engine's reason unless the game takes these
    options."""
    try:
        game = get_game(game_key)
        game.options_from_json({**options, "deals_per_match": deals_per_match or 1})
    except EngineError as exc:
        raise forms.ValidationError(
            _("The rule options are not valid: %(error)s") % {"error": engine_message(exc)}
        ) from None
