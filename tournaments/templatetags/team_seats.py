"""A team's seats at a table of the event's game, as pages write them, counted from 1 as every
page counts seats (大怪路子: "1, 3, 5" for team A, "2, 4, 6" for team B): read from the game's
sides (:mod:`tournaments.common.sides`), never a rule of parity."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.tables.seats import seat_number
from tournaments.common import sides

register = template.Library()


@register.simple_tag
def team_seat_numbers(game: str, side: str) -> str:
    """Team ``side``'s ("A" or "B") seat numbers as people read them: ``1, 3, 5``."""
    return sides.seats_text(game, side)


@register.simple_tag
def team_seats(game: str, side: str) -> str:
    """Team ``side``'s seats in words: "Seats 1, 3, 5" (1、3、5号座)."""
    numbers = sides.side_seats(game)[sides.TEAM_SIDES.index(side)]
    separator = pgettext("list separator", ", ")
    return _("Seats %(seats)s") % {"seats": separator.join(str(seat_number(s)) for s in numbers)}
