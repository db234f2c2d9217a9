"""Seats as people read them: counted from 1 on every page, sheet and message (the draft, the
projector and the replay did so first). Stored and posted values stay 0-based; only what a
person reads goes through here."""

from __future__ import annotations

from typing import Any


def seat_number(seat: Any) -> Any:
    """The number a person reads for a stored 0-based seat (``0`` -> ``1``); anything that is not
    a seat (``None``, a name) is returned as it is."""
    if isinstance(seat, bool):
        return seat
    if isinstance(seat, int):
        return seat + 1
    if isinstance(seat, str) and seat.isascii() and seat.isdigit():
        return int(seat) + 1
    return seat
