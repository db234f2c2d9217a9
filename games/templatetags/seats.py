"""``{% load seats %}{{ seat|seat_no }}``: a stored 0-based seat as a person reads it (from 1).
One filter for every template outside the table pages (see games/tables/seats.py)."""

from __future__ import annotations

from typing import Any

from django import template

from games.tables.seats import seat_number

register = template.Library()


@register.filter
def seat_no(seat: Any) -> Any:
    return seat_number(seat)
