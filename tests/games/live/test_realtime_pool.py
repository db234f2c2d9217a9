"""A live table's WebSockets when Redis runs out of connections (issue 31): at 200-400 sockets on
one web process the channel layer's pool (redis-py's default of 100) raised MaxConnectionsError in
``group_add`` (the handshake answered 500, 53 times at 200 people) and in ``group_discard`` (the
presence decrement was skipped: the seat looked online for 300 s). Now a refusal is tried again,
a socket still refused is accepted and closed with 1013 (table.js reconnects on any close), the
seat is counted out whatever the group does, and a count Redis refused to lower expires soon."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.core.cache import caches
from redis.exceptions import MaxConnectionsError

from games.live import consumers, presence
from games.play import services
from tests.games.live.test_realtime import next_state, session_cookie, socket
from tests.games.live.test_realtime_guard import closed, online, resync_loops
from tests.games.play.test_apis import people_table

pytestmark = pytest.mark.django_db(transaction=True)


def _refusing(*_args: Any, **_kwargs: Any) -> Any:
    raise MaxConnectionsError("Too many connections")


def refusing_times(times: int, real: Any) -> Any:
    """``real``, refusing its first ``times`` calls as a pool out of connections does."""
    calls = {"n": 0}

    async def call(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] <= times:
            raise MaxConnectionsError("Too many connections")
        return await real(*args, **kwargs)

    return call


def presence_refusing(times: int, change: int) -> Any:
    """games.live.presence.presence, refusing its first ``times`` calls with ``change``."""
    calls = {"n": 0}
    real = presence.presence

    def call(table_id: int, seat: int, delta: int) -> bool:
        if delta == change:
            calls["n"] += 1
            if calls["n"] <= times:
                raise MaxConnectionsError("Too many connections")
        return real(table_id, seat, delta)

    return call


async def count(table: Any, seat: int = 0) -> int:
    key = presence.presence_keys(table.pk, seat)[0]
    return int(await database_sync_to_async(caches["presence"].get)(key) or 0)


def seated_table() -> tuple[Any, bytes]:
    table, users = people_table()
    services.match_start(table=table, seed=5)
    return table, session_cookie(users[0])


def test_a_refusal_for_a_moment_is_tried_again_and_the_socket_opens(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table, cookie = seated_table()
    layer = get_channel_layer()

    async def run() -> None:
        monkeypatch.setattr(layer, "group_add", refusing_times(2, layer.group_add))
        comm = socket(table, cookie)
        assert (await comm.connect(timeout=5))[0]
        await next_state(comm)  # a state, not a close
        assert await online(table) and await count(table) == 1
        await comm.disconnect(timeout=10)
        assert not await online(table) and resync_loops() == []

    with caplog.at_level(logging.WARNING):
        async_to_sync(run)()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_refused_sockets_are_logged_once_not_once_each(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table, cookie = seated_table()
    layer = get_channel_layer()
    monkeypatch.setattr(consumers, "JOIN_PAUSES", (0.01,))
    monkeypatch.setattr(consumers, "refusals", consumers._Refusals())

    async def run() -> None:
        monkeypatch.setattr(layer, "group_add", _refusing)
        for _ in range(5):
            comm = socket(table, cookie)
            await comm.connect(timeout=5)
            close = await closed(comm)
            assert close["code"] == consumers.CLOSE_TRY_AGAIN == 1013 and close["reason"]
            await comm.disconnect(timeout=3)
        assert not await online(table) and resync_loops() == []

    with caplog.at_level(logging.WARNING):
        async_to_sync(run)()
    lines = [r for r in caplog.records if r.name == consumers.logger.name]
    assert len(lines) == 1 and "REDIS_MAX_CONNECTIONS" in lines[0].getMessage()
    assert consumers.refusals.unlogged == 4  # said on the next line, a minute later at the soonest


def test_the_seat_is_counted_out_when_the_group_and_the_count_refuse_for_a_moment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Connect, then a close during which Redis refuses the group for good and the count once."""
    table, cookie = seated_table()
    layer = get_channel_layer()

    async def run() -> None:
        first, second = socket(table, cookie), socket(table, cookie)  # two pages of one seat
        assert (await first.connect())[0] and (await second.connect())[0]
        await next_state(first)
        await next_state(second)
        assert await count(table) == 2
        with monkeypatch.context() as patched:
            patched.setattr(layer, "group_discard", _refusing)
            patched.setattr(consumers, "presence", presence_refusing(1, -1))
            await first.disconnect(timeout=10)
        assert await count(table) == 1 and await online(table)  # the other page is open
        await second.disconnect(timeout=10)
        assert await count(table) == 0 and not await online(table)

    with caplog.at_level(logging.WARNING):
        async_to_sync(run)()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_count_redis_refused_to_lower_expires_in_seconds_not_minutes(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.LUZI_PUSH_RESYNC_SECONDS = 0.2
    monkeypatch.setattr(presence, "PRESENCE_SECONDS", 1)
    table, cookie = seated_table()
    layer = get_channel_layer()

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        await next_state(comm)
        await asyncio.sleep(1.5)  # renewed by the open page: still online past PRESENCE_SECONDS
        assert await online(table)
        with monkeypatch.context() as patched:
            patched.setattr(layer, "group_discard", _refusing)
            patched.setattr(consumers, "presence", presence_refusing(99, -1))
            await comm.disconnect(timeout=10)
        assert await online(table)  # the count could not go down ...
        await asyncio.sleep(1.3)
        assert not await online(table)  # ... and expired with no page to renew it

    async_to_sync(run)()


def test_an_open_page_whose_count_was_lost_is_counted_in_again(settings: Any) -> None:
    settings.LUZI_PUSH_RESYNC_SECONDS = 0.2
    table, cookie = seated_table()

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        await next_state(comm)
        key = presence.presence_keys(table.pk, 0)[0]
        await database_sync_to_async(caches["presence"].delete)(key)  # expired, or refused
        assert not await online(table)
        await asyncio.sleep(0.6)
        assert await count(table) == 1  # the page's renewal counted it again
        await comm.disconnect(timeout=10)
        assert not await online(table)

    async_to_sync(run)()


def test_a_renewal_under_way_when_the_page_closes_does_not_count_it_again(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.LUZI_PUSH_RESYNC_SECONDS = 0.1
    table, cookie = seated_table()
    real = presence.presence
    renewing = {"n": 0}

    def slow_renewal(table_id: int, seat: int, change: int) -> bool:
        if change == 0:
            renewing["n"] += 1
            caches["presence"].delete(presence.presence_keys(table_id, seat)[0])
            time.sleep(0.4)  # the page closes meanwhile
        return real(table_id, seat, change)

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        await next_state(comm)
        monkeypatch.setattr(consumers, "presence", slow_renewal)
        while not renewing["n"]:
            await asyncio.sleep(0.02)
        await comm.disconnect(timeout=10)
        assert not await online(table) and resync_loops() == []

    async_to_sync(run)()


def test_a_pool_of_two_connections_never_fails_a_handshake(settings: Any) -> None:
    """Real exhaustion: the layer's pool holds two connections (one is the receiving loop's) and
    eight pages of one seat connect at once. Each is a live socket or a 1013, none an error; the
    count is the number of open pages, and 0 once they are closed."""
    if not django_settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis"):
        pytest.skip(
            "needs the Redis channel layer, whose pool it exhausts "
            "(CI runs it; the in-memory layer has no pool)"
        )
    layer_settings = dict(django_settings.CHANNEL_LAYERS["default"])
    host = dict(layer_settings["CONFIG"]["hosts"][0], max_connections=2)
    layer_settings["CONFIG"] = dict(layer_settings["CONFIG"], hosts=[host])
    settings.CHANNEL_LAYERS = {"default": layer_settings}
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    table, cookie = seated_table()

    async def open_one() -> tuple[Any, bool]:
        comm = socket(table, cookie)
        await comm.connect(timeout=10)
        message = await comm.receive_output(timeout=10)
        if message["type"] == "websocket.close":
            assert message["code"] == 1013
            return comm, False
        assert message["type"] == "websocket.send"
        return comm, True

    async def run() -> tuple[int, int]:
        assert get_channel_layer().hosts[0]["max_connections"] == 2
        opened = await asyncio.gather(*(open_one() for _ in range(8)))
        live = [comm for comm, ok in opened if ok]
        assert live, "not one socket opened"
        assert await count(table) == len(live)
        await asyncio.gather(*(comm.disconnect(timeout=10) for comm, _ in opened))
        assert await count(table) == 0 and not await online(table)
        return len(live), 8 - len(live)

    live, refused = async_to_sync(run)()
    print(f"pool of 2, 8 pages at once: {live} opened, {refused} closed with 1013")


def test_presence_outlives_several_renewals() -> None:
    """An open page renews its count every LUZI_PUSH_RESYNC_SECONDS: at least three renewals fit
    in PRESENCE_SECONDS, with Redis (10 s) and without it (1 s)."""
    renewals = presence.PRESENCE_SECONDS / float(django_settings.LUZI_PUSH_RESYNC_SECONDS)
    assert renewals >= 3 and presence.PRESENCE_SECONDS / 10.0 >= 3
    assert presence.PRESENCE_SECONDS <= 60  # a lost count lasts under a minute (was 300 s)
