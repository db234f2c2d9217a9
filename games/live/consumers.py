"""Live tables over WebSockets (Django Channels).

Each browser at a table (player or spectator) holds one WebSocket at ``/ws/tables/<id>/``. On
every change the game services call ``games.live.events.table_changed``, which sends
``table.changed`` to the table's group; each connection then reads the state *for its own seat* (the
seat of the logged-in player sitting there, None for everyone else) and pushes it. So a message
never carries another seat's hand: it is the same ``table_state`` the API answers with. Reading it
is cheap: the selector builds a table's state once per change and process (one query tells whether
it changed), and changes that arrive while a read is under way are coalesced into one more read.

The reads run on a small pool of their own (``PUSH_THREADS``): many threads reading at once would
only take turns at the interpreter lock, and the event loop (which answers the players' requests
and writes the pushes) would wait behind them.

Presence: each connection of a seated person counts in ``games.live.presence``; when a seat's first
page opens or its last one closes, the table is told, so the others see the seat as away (离线).
Closing the page or losing the connection is never leaving the table: the system plays the seat's
turns when its time runs out until the person is back (the rules' limit of consecutive system
plays still applies); only the confirmed "leave the table" (the API) is leaving.

Who may look: the viewer is checked at connect, and again before a push whenever the access epoch
moved (games.tables.access: an event turned private or duplicate, a round started, a seat,
registration or organizer changed). A viewer who may no longer see the table is closed with 4403;
one whose seat changed with 4409, and the browser reconnects to its new view.

Bad frames (binary, too long, JSON nested too deep) are closed with 4400 and a reason. Whatever
ends a connection (the browser, a bad frame, an error in a handler), its tasks are cancelled and
its presence is counted out. Redis out of connections (issue 31: its pools are sized by
``REDIS_MAX_CONNECTIONS``) or away: joining the table's group and counting the seat in are tried
again twice within half a second; still refused, the handshake is accepted and the socket closed
with 1013 (try again later), never a 500, and the page reconnects with its backoff. Leaving the
group and counting the seat out are each tried again once, independently: the count goes down even
when the group refuses, and a count that Redis refused twice expires ``PRESENCE_SECONDS`` after the
seat's last open page renewed it (games.live.presence). Refusals are logged once a minute, with how
many there were, not once per socket.

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
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import connections
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.live.events import group_name
from games.live.presence import PRESENCE_SECONDS, presence
from games.live.presence import presence_keys as _presence_keys
from games.models import Table
from games.play import state as play_state
from games.tables import selectors as tables_selectors
from games.tables.access import access_epoch, table_viewable

logger = logging.getLogger(__name__)

#: WebSocket close code when the table does not exist (or is not there for this viewer).
CLOSE_NOT_FOUND = 4404
#: Close code when the viewer may no longer see the table (its event turned private, ...).
CLOSE_FORBIDDEN = 4403
#: Close code when the viewer's seat at the table changed: reconnect for the new view.
CLOSE_SEAT_CHANGED = 4409
#: Close code of a frame the table never expects: binary, too long, nested too deep.
CLOSE_BAD_FRAME = 4400
#: Close code when the channel layer or the presence store refuses for now (RFC 6455's 1013).
CLOSE_TRY_AGAIN = 1013

#: The longest frame a page sends is ``{"type": "resync"}``; anything far longer is refused.
MAX_FRAME_CHARS = 4096

#: Threads per process that read the states to push (and the presence bookkeeping).
PUSH_THREADS = 2

_pool = ThreadPoolExecutor(max_workers=PUSH_THREADS, thread_name_prefix="luzi-push")

#: Redis refusing for now (its pool out of connections: MaxConnectionsError is a ConnectionError;
#: the server unreachable or slow): worth trying again after a pause.
TRANSIENT = (RedisConnectionError, RedisTimeoutError, OSError, asyncio.TimeoutError)
#: Pauses before trying again to join the group and count the seat in (each stretched by up to
#: half at random, so that refused sockets do not come back together).
JOIN_PAUSES = (0.1, 0.3)
#: Pause before trying again to leave the group, and to count the seat out.
LEAVE_PAUSES = (0.2,)
#: Redis refusals are logged at most once this many seconds, with how many there were.
REFUSALS_LOGGED_EVERY = 60.0


class _Refusals:
    """Logs the first Redis refusal, then at most one line a minute with how many followed: at
    200 sockets a pool out of connections would otherwise log 200 lines a second."""

    def __init__(self) -> None:
        self.unlogged = 0
        self.logged_at: float | None = None

    def note(self, table_id: int, what: str, error: BaseException) -> None:
        now = time.monotonic()
        self.unlogged += 1
        if self.logged_at is not None and now - self.logged_at < REFUSALS_LOGGED_EVERY:
            return
        logger.warning(
            "table %s: Redis refused to %s: %r (%d refusal(s) since the last such line; "
            "REDIS_MAX_CONNECTIONS sizes the pools)",
            table_id,
            what,
            error,
            self.unlogged,
        )
        self.unlogged, self.logged_at = 0, now


refusals = _Refusals()


async def _retrying(call: Callable[[], Awaitable[Any]], pauses: tuple[float, ...]) -> Any:
    """``call()``, tried again after each of ``pauses`` while Redis refuses for now."""
    for pause in pauses:
        try:
            return await call()
        except TRANSIENT:
            await asyncio.sleep(pause * random.uniform(1.0, 1.5))
    return await call()


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


def _viewer(table_id: int, user: Any) -> tuple[bool, int | None]:
    """Whether ``user`` may see the table now, and their seat there (None: not seated)."""
    held = tables_selectors.table_and_seat_of_user(table_id=table_id, user=user)
    seat = None if held is None else held[1]
    return table_viewable(table_id=table_id, user=user, seated=seat is not None), seat


def _connect(table_id: int, user: Any) -> tuple[int | None, str, str | None] | None:
    """The seat of ``user`` at the table, the first message for it and the access epoch it was
    checked against; None without the table (or when the user may not see it)."""
    epoch = access_epoch()  # read first: a change during the check moves it again
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seat = None
    if user is not None and user.is_authenticated:
        seat = tables_selectors.table_seat_of_user(table=table, user=user)
    if not table_viewable(table_id=table.pk, user=user, seated=seat is not None):
        return None  # a table of a private event is not there for outsiders
    return seat, _message(play_state.table_state(table=table, seat=seat)), epoch


def _read(
    table_id: int,
    user: Any,
    seat: int | None,
    epoch: str | None,
    since: float | None = None,
) -> tuple[str | None, str | None, int]:
    """The message with ``seat``'s state, the access epoch now and 0; or no message and the code
    to close with: the table is gone, or ``user`` may no longer see it, or sits elsewhere now.

    ``epoch``: the access epoch the viewer was last checked against; when it moved (or cannot be
    read) the viewer is checked again. ``since``: the state (and the epoch) must have been read
    after this moment (``time.monotonic()``), such as when a change was announced; another
    connection's read in this process may serve."""
    state = play_state.table_state_of(table_id=table_id, seat=seat, fresh_since=since)
    if state is None:
        return None, epoch, CLOSE_NOT_FOUND
    now = access_epoch(since)  # after the state: a change before this read is seen
    if now is None or now != epoch:
        viewable, now_seat = _viewer(table_id, user)
        if not viewable:
            return None, now, CLOSE_FORBIDDEN
        if now_seat != seat:
            return None, now, CLOSE_SEAT_CHANGED
    return _message(state), now, 0


_REASONS = {
    CLOSE_NOT_FOUND: "No such table.",
    CLOSE_FORBIDDEN: "You may no longer watch this table.",
    CLOSE_SEAT_CHANGED: "Your seat at this table changed; reconnect.",
    CLOSE_TRY_AGAIN: "Busy; try again later.",
}


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One browser watching (or playing at) one table."""

    table_id: int = 0
    seat: int | None = None
    _epoch: str | None = None
    _last: str = ""
    _resync: asyncio.Task[None] | None = None
    _pump: asyncio.Task[None] | None = None
    _dirty: bool = False
    _changed_at: float = 0.0
    _joined: bool = False  # in the table's group
    _counted: bool = False  # counted in the seat's presence
    _renewal: asyncio.Future[bool] | None = None  # the seat's presence being renewed
    _left: bool = False  # cleaned up (tasks cancelled, group left, presence counted out)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # however the connection ends (an error in a handler too): nothing outlives it
            await self._leave()

    async def connect(self) -> None:
        table_id = self.scope["url_route"]["kwargs"].get("table_id")
        if not isinstance(table_id, int) or table_id < 1:  # games.routing only routes ids here
            await self._shut(CLOSE_NOT_FOUND)
            return
        self.table_id = table_id
        found = await _in_pool(_connect)(table_id, self.scope.get("user"))
        if found is None:
            await self._shut(CLOSE_NOT_FOUND)
            return
        seat, text, self._epoch = found
        try:
            came = await _retrying(lambda: self._join(seat), JOIN_PAUSES)
        except Exception as error:  # Redis out of connections, or away: the page retries
            refusals.note(table_id, "let a socket join", error)
            await self.accept()  # so that the browser reads the code (a refused handshake: 403)
            await self._shut(CLOSE_TRY_AGAIN)
            return
        if came:  # the seat is back: this page's first state shows it too
            text = await self._first_state(text)
        await self.accept()
        self._resync = asyncio.create_task(self._resync_loop())
        await self._push(text, force=True)
        if came:
            await self._announce()  # the others see the seat back

    async def _join(self, seat: int | None) -> bool:
        """Join the table's group and count the seat in (what is done is not done again when
        tried again); whether the seat came to the table."""
        if not self._joined:
            await self.channel_layer.group_add(group_name(self.table_id), self.channel_name)
            self._joined = True
        if seat is None or self._counted:
            return False
        came = bool(await _in_pool(presence)(self.table_id, seat, +1))
        self.seat, self._counted = seat, True
        return came

    async def _renew(self) -> None:
        """Say that the seat is still here (its count would expire); count it in again when it
        was lost. The renewal runs to its end even when the socket closes meanwhile, and the
        count goes down only after it (``_leave``), so a closed page is never counted again."""
        if self._left or not self._counted or self.seat is None:
            return
        self._renewal = asyncio.ensure_future(_in_pool(presence)(self.table_id, self.seat, 0))
        if await asyncio.shield(self._renewal):
            await self._announce()  # the seat was shown away: the others see it back

    async def _first_state(self, text: str) -> str:
        try:
            fresh, _epoch, _code = await _in_pool(_read)(
                self.table_id, self.scope.get("user"), self.seat, self._epoch
            )
        except Exception:
            logger.exception("table %s: first read failed", self.table_id)
            return text
        return fresh or text

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _shut(self, code: int, reason: str = "") -> None:
        """Close the socket (before the handshake is accepted too) and clean up at once."""
        if self._left:
            return
        await self._leave()  # first: once the browser reads the close, nothing of it is left
        await self.close(code=code, reason=reason or _REASONS.get(code))

    async def _leave(self) -> None:
        """Cancel this connection's tasks, leave the group and count the seat out: once, on
        every way out. A layer or store that fails is logged; the rest still happens."""
        if self._left:
            return
        self._left = True
        current = asyncio.current_task()
        tasks = [t for t in (self._resync, self._pump) if t is not None and t is not current]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._joined:
            self._joined = False
            group, channel = group_name(self.table_id), self.channel_name
            try:
                await _retrying(
                    lambda: self.channel_layer.group_discard(group, channel), LEAVE_PAUSES
                )
            except Exception as error:  # the group's entry expires on its own
                refusals.note(self.table_id, "let a socket leave its group", error)
        if self._counted and self.seat is not None:  # whether or not the group was left
            self._counted = False
            if self._renewal is not None:  # after it, so that it cannot count the page again
                with contextlib.suppress(Exception):
                    await self._renewal
            table_id, seat = self.table_id, self.seat
            try:
                gone = await _retrying(lambda: _in_pool(presence)(table_id, seat, -1), LEAVE_PAUSES)
            except Exception as error:  # the count expires (PRESENCE_SECONDS after a renewal)
                refusals.note(self.table_id, "count a seat out", error)
                gone = False
            if gone:
                await self._announce()  # away (离线): never an escape, the system plays for it

    async def _announce(self) -> None:
        """Tell the table's connections that a seat came or went (each reads its own view)."""
        try:
            await self.channel_layer.group_send(
                group_name(self.table_id), {"type": "table.changed", "table": self.table_id}
            )
        except Exception:  # the periodic resync shows it anyway
            logger.warning("table %s: presence push failed", self.table_id, exc_info=True)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if self._left:
            return
        if text_data is None:
            await self._shut(CLOSE_BAD_FRAME, "Send text frames only.")
            return
        if len(text_data) > MAX_FRAME_CHARS:
            await self._shut(CLOSE_BAD_FRAME, "Frame too long.")
            return
        try:
            content = json.loads(text_data)
        except RecursionError:
            await self._shut(CLOSE_BAD_FRAME, "JSON nested too deep.")
            return
        except ValueError:
            content = None  # answered with an error message below, the connection stays
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "resync":
            await self._send_state(force=True)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_json({"type": "error", "detail": "Send resync or ping."})

    async def table_changed(self, event: dict[str, Any]) -> None:
        """A change at the table (from games.live.events): push this connection's view of it.

        Changes that arrive while a state is being read are coalesced: one more read follows
        and sends the latest state, which includes them all (a burst of bot moves costs one
        read per connection, not one per move)."""
        if self._left:
            return
        self._dirty = True
        self._changed_at = time.monotonic()
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._pump_states())

    async def table_clock(self, event: dict[str, Any]) -> None:
        """The clock of the table's owner changed (games.live.events): the page reads it again."""
        if not self._left:
            await self.send_json({"type": "clock"})

    async def _pump_states(self) -> None:
        while self._dirty and not self._left:
            self._dirty = False
            since = self._changed_at
            try:
                await self._send_state(since=since)
            except Exception:  # keep the connection; the periodic resync will try again
                logger.exception("table %s: push failed", self.table_id)

    async def _send_state(self, *, force: bool = False, since: float | None = None) -> None:
        text, self._epoch, code = await _in_pool(_read)(
            self.table_id, self.scope.get("user"), self.seat, self._epoch, since
        )
        if text is None:
            await self._shut(code)
            return
        await self._push(text, force=force)

    async def _push(self, text: str, *, force: bool) -> None:
        if self._left or (text == self._last and not force):
            return
        self._last = text
        await self.send(text_data=text)

    async def _resync_loop(self) -> None:
        interval = float(getattr(settings, "LUZI_PUSH_RESYNC_SECONDS", 5.0))
        while not self._left:
            await asyncio.sleep(interval)
            try:  # one query when nothing changed (the state is built once per change)
                await self._send_state()
            except Exception:  # a failed re-read must not close the connection; log, retry
                logger.exception("table %s: resync failed", self.table_id)
            try:
                await self._renew()
            except TRANSIENT as error:  # the next renewal tries again, well within the expiry
                refusals.note(self.table_id, "renew a seat's presence", error)
            except Exception:
                logger.exception("table %s: presence renewal failed", self.table_id)
