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

Leaving: when the last connection of a seated person closes and none comes back within
``LUZI_LEAVE_GRACE_SECONDS`` (0 turns this off), the player has left the table: an escape during a
deal, or leaving between deals (``games.services.seat_escape``), with the contract's penalties.
Presence is counted in Django's cache; with several web processes give them a shared cache (in the
worst case a lost count means no escape is declared, and the timers' system plays take over).

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
from django.core.cache import caches
from django.db import connections

from games import selectors
from games.access import table_viewable
from games.events import group_name
from games.models import Match, Table

logger = logging.getLogger(__name__)

#: WebSocket close code when the table does not exist.
CLOSE_NOT_FOUND = 4404

#: Threads per process that read the states to push (and the presence bookkeeping).
PUSH_THREADS = 2

_pool = ThreadPoolExecutor(max_workers=PUSH_THREADS, thread_name_prefix="luzi-push")

_grace_tasks: set[asyncio.Task[None]] = set()


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


def _presence_keys(table_id: int, seat: int) -> tuple[str, str]:
    base = f"luzi:presence:{table_id}:{seat}"
    return f"{base}:count", f"{base}:seen"


#: Presence keys expire unless a connection renews them (every resync): a web process that died
#: without closing its connections cannot leave a seat counted as present for ever.
PRESENCE_SECONDS = 300


def presence(table_id: int, seat: int, change: int) -> None:
    """Count a seat's open connections (+1 on connect, -1 on close, 0 to just say "still here")."""
    count_key, seen_key = _presence_keys(table_id, seat)
    if not table_viewable(table_id=table.pk, user=user, seated=seat is not None):
        return None  # a table of a private event is not there for outsiders
    store = caches["presence"]
    if change:
        store.add(count_key, 0, timeout=PRESENCE_SECONDS)
        try:
            store.incr(count_key, change)
        except ValueError:
            store.set(count_key, max(change, 0), timeout=PRESENCE_SECONDS)
    store.touch(count_key, PRESENCE_SECONDS)
    store.set(seen_key, time.time(), timeout=PRESENCE_SECONDS)


def leave_if_gone(table_id: int, seat: int, grace: float) -> bool:
    """Declare that ``seat`` left when it has had no connection for ``grace`` seconds and its
    match goes on; returns whether it did."""
    count_key, seen_key = _presence_keys(table_id, seat)
    store = caches["presence"]
    if int(store.get(count_key, 0)) > 0 or time.time() - float(store.get(seen_key, 0)) < grace:
        return False
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not Match.objects.filter(table=table, status=Match.Status.PLAYING):
        return False
    try:
        services.seat_escape(table=table, seat=seat)
    except ApplicationError:
        return False  # the match ended meanwhile
    logger.info("table %s: seat %s closed the page and did not come back: left", table_id, seat)
    return True


async def _grace(table_id: int, seat: int, grace: float) -> None:
    await asyncio.sleep(grace)
    try:
        await _in_pool(leave_if_gone)(table_id, seat, grace)
    except Exception:
        logger.exception("table %s: checking whether seat %s left failed", table_id, seat)


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


class TableConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
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
        if self.seat is not None:
            await _in_pool(presence)(self.table_id, self.seat, +1)
        await self.channel_layer.group_add(group_name(self.table_id), self.channel_name)
        await self.accept()
        await self._push(text, force=True)
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
        grace = float(getattr(settings, "LUZI_LEAVE_GRACE_SECONDS", 60))
        if self.seat is not None and self._resync is not None:
            await _in_pool(presence)(self.table_id, self.seat, -1)
            if grace > 0:
                task = asyncio.create_task(_grace(self.table_id, self.seat, grace))
                _grace_tasks.add(task)
                task.add_done_callback(_grace_tasks.discard)

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
