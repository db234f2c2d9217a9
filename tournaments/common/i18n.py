"""Small helpers for messages shown to users in their language."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext


def join_list(items: Iterable[object]) -> str:
    """Return ``items`` as one list in the active language: ``"1, 2"`` in English, ``"1、2"`` in
    Chinese."""
    # Translators: separates the items of a list (names, numbers, column names).
    return gettext(", ").join(str(item) for item in items)
