"""Path converters shared by every URL pattern.

``<id:pk>`` matches a database id: digits whose value is 1 to 2**63 - 1, what a 64-bit primary
key (and every integer column) holds. A longer number in a URL is no page (404) on every database
backend, instead of an OverflowError on SQLite.
"""

from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1


class IdConverter:
    """A positive 64-bit integer; anything else does not match the pattern (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= MAX_ID:
            raise ValueError(f"{value} is not an id")  # Django: the pattern does not match
        return number

    def to_url(self, value: int | str) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
