"""What happened at a table, for whoever shows it live.

The game services call :func:`table_changed` once a change at a table is committed. It bumps the
table's version in Django's cache (a shared cache such as Redis makes it visible across processes;
the database's sequence numbers stay the truth), and is the one place where pushes to browsers hang.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache

__all__ = ["group_name", "table_changed", "table_version"]

logger = logging.getLogger(__name__)


def _key(table_id: int) -> str:
    return f"luzi:table:{table_id}:version"


def table_changed(table_id: int) -> None:
    """Note that table ``table_id`` changed (called on commit by games.services)."""
    key = _key(table_id)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=None)
    push_table_changed(table_id)


# --- push to browsers (games/realtime.py) ---------------------------------------------------------


def group_name(table_id: int) -> str:
    """The channel-layer group of the WebSockets watching table ``table_id``."""
    return f"table.{table_id}"


def push_table_changed(table_id: int) -> None:
    """Tell every WebSocket at the table that it changed; each one then sends its own view.

    The message names only the table: no state, so nothing hidden travels through the layer. A
    push that fails (Redis away) is logged and dropped: the connections' periodic resync and the
    browsers' reconnect bring the state anyway, and the game goes on.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(table_id), {"type": "table.changed", "table": table_id}
        )
    except Exception:
        logger.warning("table %s: push to the channel layer failed", table_id, exc_info=True)


def table_version(table_id: int) -> int:
    """The table's change counter (0 when unknown to this cache)."""
    return int(cache.get(_key(table_id), 0))
