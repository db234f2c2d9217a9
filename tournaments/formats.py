"""Event formats that plug into an ordinary event: the knockout stage and duplicate play say here
what they change of it, as games.tables.context lets an app name a table's place. The core rooms
(results, standings, rounds) ask these hooks and never import a format; each format registers its
answers when the app is ready (tournaments.apps). With nothing registered an event is ordinary:
every table plays the event's deals, the final placement is the standings', and the round log has
only its own forms (docs/architecture.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.models import Event

#: a round log form: a detail's pattern and how the reader's language says it
LogForm = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


@dataclass(frozen=True, slots=True)
class Placement:
    """A place in an event's final placement as a format decides it (the knockout stage: its
    places first, then the group stage's order). ``final``: the place can no longer change."""

    place: int
    entrant: int  # a team's id, or a player's (individual events)
    stage: str  # "knockout" or "group"
    tied: bool
    final: bool
    seed: int | None = None


_table_deals: list[Callable[[int], int | None]] = []
_placements: list[Callable[[Event], list[Placement] | None]] = []
_log_forms: list[LogForm] = []


def table_deals_register(hook: Callable[[int], int | None]) -> None:
    """``hook(pairing_id)``: the deals that table plays, or None where the format has no say."""
    if hook not in _table_deals:
        _table_deals.append(hook)


def table_deals(pairing: int, default: int) -> int:
    """The deals table ``pairing``'s match is played for: a format's (a knockout match's own
    length, one for a tie-break table), else ``default`` (the event's)."""
    for hook in _table_deals:
        deals = hook(pairing)
        if deals is not None:
            return deals
    return default


def final_placement_register(hook: Callable[[Event], list[Placement] | None]) -> None:
    """``hook(event)``: the event's final placement, or None where the format has no say."""
    if hook not in _placements:
        _placements.append(hook)


def final_placement(event: Event) -> list[Placement] | None:
    """The event's final placement as a format decides it; None: the standings decide it."""
    for hook in _placements:
        placement = hook(event)
        if placement is not None:
            return placement
    return None


def round_log_forms_register(forms: Sequence[LogForm]) -> None:
    """A format's own round log details, said in the reader's language (tournaments.rounds.log)."""
    for form in forms:
        if form not in _log_forms:
            _log_forms.append(form)


def round_log_forms() -> tuple[LogForm, ...]:
    """The formats' round log forms, in the order they registered."""
    return tuple(_log_forms)
