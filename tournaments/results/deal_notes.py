"""Why the levels moved after a deal, for the notes under a match of a game whose sides climb
levels (tournaments/views.py, the match page). The score sheet's preview has the game's own
words (its sheet spec's ``describe``); this note stays until the match page reads them too."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

__all__ = ["levels_why"]


def levels_why(result: dict[str, Any], names: dict[str, str]) -> str:
    """Why the levels moved after a deal, or why they did not: only the dealer team goes up."""
    winner, dealer = result.get("winner"), result.get("dealer_team")
    before, after = result.get("levels_before") or {}, result.get("levels") or {}
    if winner is None:
        return _("A draw: nobody goes up.")
    if result.get("passed_a"):
        return _("%(team)s passed A and wins the match (过A).") % {"team": names[winner]}
    if before.get(winner) != after.get(winner):
        return _("%(team)s won as the dealer team: up from %(before)s to %(after)s.") % {
            "team": names[winner],
            "before": before.get(winner),
            "after": after.get(winner),
        }
    if winner != dealer:
        return _(
            "%(team)s won but was not the dealer team: no level up (only the dealer team goes "
            "up); %(team)s deals next."
        ) % {"team": names[winner]}
    return _("%(team)s won at its level: no level up.") % {"team": names[winner]}
