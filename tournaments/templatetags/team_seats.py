"""A team's seats at a table of the event's game, as pages write them (大怪路子: "0, 2, 4" for team
A, "1, 3, 5" for team B): read from the game's sides (:mod:`tournaments.sides`), never a rule of
parity."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from tournaments import sides

register = template.Library()


@register.simple_tag
def team_seat_numbers(game: str, side: str) -> str:
    """Team ``side``'s ("A" or "B") seat numbers: ``0, 2, 4``."""
    return sides.seats_text(game, side)


@register.simple_tag
def team_seats(game: str, side: str) -> str:
    """Team ``side``'s seats in words: "Seats 0, 2, 4" (0、2、4号座)."""
    numbers = sides.side_seats(game)[sides.TEAM_SIDES.index(side)]
    return _("Seats %(seats)s") % {"seats": _(", ").join(str(seat) for seat in numbers)}
