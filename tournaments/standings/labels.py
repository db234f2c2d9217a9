"""The standings' columns as people read them: the downloads of the pages (a spreadsheet opened
by an organizer) name each column in the page's language and write a yes/no as a word; the API's
CSV keeps the machine keys, which programs read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from engine.registry import get_game
from tournaments.models import Event

__all__ = ["column_labels", "cells_for_people"]

LABELS = {
    "rank": _("Rank"),
    "team_id": _("Team id"),
    "player_id": _("Player id"),
    "unit_id": _("Unit id"),
    "team": _("Team"),
    "player": _("Player"),
    "unit": _("Unit"),
    "duplicate": _("Duplicate score"),
    "points": _("Points"),
    "wins": _("Match wins"),
    "draws": _("Draws"),
    "losses": _("Losses"),
    "played": _("Matches played"),
    "byes": _("Byes"),
    "highest_level": _("Highest level"),
    "levels_gained": _("Levels gained"),
    "opponents_points": _("Opponents' points"),
    "head_to_head": _("Head-to-head"),
    "deals": _("Deals"),
    "average_place": _("Average place"),
    "tributes_paid": _("Tributes paid"),
    "tributes_received": _("Tributes received"),
    "teams": _("Teams"),
    "players": _("Players"),
    "counted": _("Players counted"),
    "best_rank": _("Best rank"),
    "tied": _("Tied"),
}


def column_labels(event: Event, columns: Sequence[str]) -> list[str]:
    """Each column's name in the page's language (the game's own figures by their names)."""
    english = get_language() == "en"
    figures = {
        f.key: f.label_en if english else f.label_zh for f in get_game(event.game).figure_specs
    }
    return [str(LABELS.get(c) or figures.get(c) or c) for c in columns]


def cells_for_people(rows: Iterable[Sequence[object]]) -> Iterable[list[object]]:
    """The rows with a yes/no written as a word (the tie mark as 是, nothing when not tied)."""
    yes = str(_("yes"))
    for row in rows:
        yield [(yes if cell else "") if isinstance(cell, bool) else cell for cell in row]
