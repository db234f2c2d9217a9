"""What happened at a table, for whoever shows it live.

The game services call :func:`table_changed` once a change at a table is committed; it is the one
place where pushes to browsers hang. What changed is not in the message: each connection reads
the table's version from the database (the truth) and sends its own view.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

__all__ = ["flush_pushes", "group_name", "table_changed", "table_clock_changed"]

logger = logging.getLogger(__name__)


def table_changed(table_id: int) -> None:
    """Tell whoever watches table ``table_id`` that it changed (called on commit by
    games.services)."""
    push_table_changed(table_id)


def table_clock_changed(table_id: int) -> None:
    """Tell whoever watches table ``table_id`` that the clock its owner keeps changed (a round's
    clock started, paused, resumed or extended): each page reads the clock again from the URL
    its table's context names (games.tables.context)."""
    _send(table_id, {"type": "table.clock", "table": table_id})


# --- push to browsers (games/live/consumers.py) ---------------------------------------------------


def group_name(table_id: int) -> str:
    """The channel-layer group of the WebSockets watching table ``table_id``."""
    return f"table.{table_id}"


def push_table_changed(table_id: int) -> None:
    """Tell every WebSocket at the table that it changed; each one then sends its own view.

    The message names only the table: no state, so nothing hidden travels through the layer. A
    push that fails (Redis away) is logged and dropped: the connections' periodic resync and the
    browsers' reconnect bring the state anyway, and the game goes on.

    With a shared layer (Redis) the push is handed to this process's push loop and the caller goes
    on at once: a game action does not wait for Redis, nor pay for a fresh event loop and
    connection per push. The in-process layer lives on the web server's own loop, so it is sent
    there (``async_to_sync``) as before.
    """
    _send(table_id, {"type": "table.changed", "table": table_id})


def _send(table_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(layer.group_send)(group_name(table_id), message)
        except Exception:
            logger.warning("table %s: push to the channel layer failed", table_id, exc_info=True)
        return
    _PUSHER.send(layer, group_name(table_id), message)


class _Pusher:
    """One long-lived event loop per process, in a daemon thread, that sends the pushes.

    Started on first use (and again in a forked child, which does not inherit the thread). At most
    ``limit`` pushes wait at once: beyond that (the layer hangs) a push is dropped with a warning,
    and the resync brings the state.
    """

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0
        self._waiting = 0

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid() or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="luzi-push", daemon=True)
                thread.start()
                self._loop, self._pid, self._waiting = loop, os.getpid(), 0
            return self._loop

    def send(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        loop = self._running_loop()
        with self._lock:
            if self._waiting >= self.limit:
                logger.warning("push to %s dropped: %s pushes are waiting", group, self._waiting)
                return
            self._waiting += 1
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        future.add_done_callback(lambda done: self._done(group, done))

    def _done(self, group: str, future: Future[None]) -> None:
        with self._lock:
            self._waiting -= 1
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            logger.warning("push to %s failed: %s", group, error, exc_info=error)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every push handed over so far has been sent (for tests and shutdown)."""
        with self._lock:
            loop = self._loop if self._pid == os.getpid() else None
        if loop is None:
            return True

        async def settle() -> None:
            while self._waiting:
                await asyncio.sleep(0.001)

        waiting = asyncio.run_coroutine_threadsafe(settle(), loop)
        try:
            waiting.result(timeout)
        except TimeoutError:
            waiting.cancel()  # stop polling; the pushes themselves go on
            return False
        return True


_PUSHER = _Pusher()
flush_pushes = _PUSHER.flush
