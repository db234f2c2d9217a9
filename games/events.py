"""What happened at a table, for whoever shows it live.

The game services call :func:`table_changed` once a change at a table is committed. It bumps the
table's version in Django's cache (a shared cache such as Redis makes it visible across processes;
the database's sequence numbers stay the truth), and is the one place where pushes to browsers hang.
"""

from __future__ import annotations

from django.core.cache import cache

__all__ = ["table_changed", "table_version"]


def _key(table_id: int) -> str:
    return f"luzi:table:{table_id}:version"


def table_changed(table_id: int) -> None:
    """Note that table ``table_id`` changed (called on commit by games.services)."""
    key = _key(table_id)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=None)


def table_version(table_id: int) -> int:
    """The table's change counter (0 when unknown to this cache)."""
    return int(cache.get(_key(table_id), 0))
