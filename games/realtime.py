"""Live tables over WebSockets (Django Channels).

Each browser at a table (player or spectator) holds one WebSocket at ``/ws/tables/<id>/``. On
every change the game services call ``games.events.table_changed``, which sends ``table.changed``
to the table's group; each connection then reads the state *for its own seat* (the seat of the
logged-in player sitting there, None for everyone else) and pushes it. So a message never carries
another seat's hand: it is the same ``table_state`` the API answers with. Reading it is cheap: the
selector builds a table's state once per change and process (one query tells whether it changed),
and changes that arrive while a read is under way are coalesced into one more read.

The reads run on a small pool of their own (``PUSH_THREADS``): many threads reading at once would
only take turns at the interpreter lock, and the event loop (which answers the players' requests
and writes the pushes) would wait behind them.

Presence: each connection of a seated person counts in ``games.presence``; when a seat's first
page opens or its last one closes, the table is told, so the others see the seat as away (离线).
Closing the page or losing the connection is never leaving the table: the system plays the seat's
turns when its time runs out until the person is back (the rules' limit of consecutive system
plays still applies); only the confirmed "leave the table" (the API) is leaving.

Reconnect and resync: the browser reconnects with backoff and receives the full state on connect;
it may also send ``{"type": "resync"}``. Each connection also re-reads the state every
``LUZI_PUSH_RESYNC_SECONDS`` and pushes it when it changed, so a lost message (or, without Redis,
a change made by a worker in another process) still reaches the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import connections

from games import selectors
from games.access import table_viewable
from games.events import group_name
from games.models import Table
from games.presence import PRESENCE_SECONDS, presence
from games.presence import presence_keys as _presence_keys

logger = logging.getLogger(__name__)

#: WebSocket close code when the table does not exist.
CLOSE_NOT_FOUND = 4404

#: Threads per process that read the states to push (and the presence bookkeeping).
PUSH_THREADS = 2

_pool = ThreadPoolExecutor(max_workers=PUSH_THREADS, thread_name_prefix="luzi-push")

__all__ = ["PRESENCE_SECONDS", "TableConsumer", "_presence_keys", "presence"]


class _PushThreadCall(SyncToAsync):
    """A call in the push threads that closes the thread's database connection only when it is
    broken or past CONN_MAX_AGE.

    Channels' ``database_sync_to_async`` runs ``close_old_connections`` around every call, which
    with persistent connections and CONN_HEALTH_CHECKS costs a health-check query per push and
    connection: as much as the push's own read. A push that meets a broken connection fails
    (logged; the resync tries again) and the next call replaces the connection. With a pool
    (the default) each call takes a connection from the pool and gives it back (CONN_MAX_AGE is
    0), and the pool checks a connection before handing it out.
    """

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        _drop_bad_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            _drop_bad_connections()


def _drop_bad_connections() -> None:
    for conn in connections.all(initialized_only=True):
        obsolete = conn.close_at is not None and time.monotonic() >= conn.close_at
        if conn.errors_occurred or obsolete:
            conn.close_if_unusable_or_obsolete()


def _in_pool(func: Any) -> Any:
    """Run ``func`` in the push threads, not in the one thread that Django's sync views share
    under ASGI: pushes then never queue the players' requests behind them."""
    return _PushThreadCall(func, thread_sensitive=False, executor=_pool)


def _message(state: dict[str, Any]) -> str:
    return json.dumps({"type": "state", "state": state}, ensure_ascii=False)


def _connect(table_id: int, user: Any) -> tuple[int | None, str] | None:
    """The seat of ``user`` at the table and the first message for it; None without the table."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seat = None
    if user is not None and user.is_authenticated:
        seat = selectors.table_seat_of_user(table=table, user=user)
    if not table_viewable(table_id=table.pk, user=user, seated=seat is not None):
        return None  # a table of a private event is not there for outsiders
    return seat, _message(selectors.table_state(table=table, seat=seat))


def _read(
    table_id: int, seat: int | None, still_here: bool = False, since: float | None = None
) -> str | None:
    """The message with ``seat``'s state (None without the table); ``still_here`` also notes that
    the seat is still connected. ``since``: the state must have been read after this moment
    (``time.monotonic()``), such as when a change was announced; another connection's read of
    the same table may serve."""
    if still_here and seat is not None:
        presence(table_id, seat, 0)
    state = selectors.table_state_of(table_id=table_id, seat=seat, fresh_since=since)
    return None if state is None else _message(state)


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One browser watching (or playing at) one table."""

    table_id: int
    seat: int | None = None
    _last: str = ""
    _resync: asyncio.Task[None] | None = None
    _pump: asyncio.Task[None] | None = None
    _dirty: bool = False
    _changed_at: float = 0.0

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        found = await _in_pool(_connect)(self.table_id, self.scope.get("user"))
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.seat, text = found
        came = self.seat is not None and await _in_pool(presence)(self.table_id, self.seat, +1)
        if came:  # the seat is back: this page's first state shows it too
            text = await _in_pool(_read)(self.table_id, self.seat) or text
        await self.channel_layer.group_add(group_name(self.table_id), self.channel_name)
        await self.accept()
        await self._push(text, force=True)
        if came:
            await self._announce()  # the others see the seat back
        self._resync = asyncio.create_task(self._resync_loop())

    async def disconnect(self, code: int) -> None:
        for task in (self._resync, self._pump):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if not hasattr(self, "table_id"):
            return
        await self.channel_layer.group_discard(group_name(self.table_id), self.channel_name)
        gone = self.seat is not None and self._resync is not None
        if gone and await _in_pool(presence)(self.table_id, self.seat, -1):
            await self._announce()  # away (离线): never an escape, the system plays for it

    async def _announce(self) -> None:
        """Tell the table's connections that a seat came or went (each reads its own view)."""
        try:
            await self.channel_layer.group_send(
                group_name(self.table_id), {"type": "table.changed", "table": self.table_id}
            )
        except Exception:  # the periodic resync shows it anyway
            logger.warning("table %s: presence push failed", self.table_id, exc_info=True)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return json.loads(text_data)
        except ValueError:
            return None  # answered with an error message below, the connection stays

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "resync":
            await self._send_state(force=True)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_json({"type": "error", "detail": "Send resync or ping."})

    async def table_changed(self, event: dict[str, Any]) -> None:
        """A change at the table (from games.events): push this connection's view of it.

        Changes that arrive while a state is being read are coalesced: one more read follows
        and sends the latest state, which includes them all (a burst of bot moves costs one
        read per connection, not one per move)."""
        self._dirty = True
        self._changed_at = time.monotonic()
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._pump_states())

    async def _pump_states(self) -> None:
        while self._dirty:
            self._dirty = False
            since = self._changed_at
            try:
                await self._send_state(since=since)
            except Exception:  # keep the connection; the periodic resync will try again
                logger.exception("table %s: push failed", self.table_id)

    async def _send_state(
        self, *, force: bool = False, still_here: bool = False, since: float | None = None
    ) -> None:
        text = await _in_pool(_read)(self.table_id, self.seat, still_here, since)
        if text is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self._push(text, force=force)

    async def _push(self, text: str, *, force: bool) -> None:
        if text == self._last and not force:
            return
        self._last = text
        await self.send(text_data=text)

    async def _resync_loop(self) -> None:
        interval = float(getattr(settings, "LUZI_PUSH_RESYNC_SECONDS", 5.0))
        while True:
            await asyncio.sleep(interval)
            try:  # one query when nothing changed (the state is built once per change)
                await self._send_state(still_here=True)
            except Exception:  # a failed re-read must not close the connection; log, retry
                logger.exception("table %s: resync failed", self.table_id)
