"""A live table's WebSocket under bad input and a refusing Redis (issues 25 and 31): a path that
names no table is refused cleanly, a bad frame closes the socket with a reason, nothing of a
socket (its resync loop, its presence) outlives it, and a channel layer out of connections
closes the handshake with "try again" instead of failing it."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from redis.exceptions import MaxConnectionsError

from config.asgi import application
from games.live import presence
from games.live.consumers import TableConsumer
from games.models import Table
from games.play import services
from tests.games.live.test_realtime import next_state, session_cookie, socket
from tests.games.play.test_apis import people_table

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def resync_loops() -> list[asyncio.Task[Any]]:
    """The sockets' resync loops still running on this event loop."""
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done()
        and getattr(task.get_coro(), "__qualname__", "") == "TableConsumer._resync_loop"
    ]


async def online(table: Table, seat: int = 0) -> bool:
    seats = await database_sync_to_async(presence.seats_online)(table.pk, [seat])
    return seats[seat]


async def closed(comm: Any) -> dict[str, Any]:
    """The close the server sent (states pushed before it are skipped)."""
    for _ in range(20):
        message = await comm.receive_output(timeout=3)
        if message["type"] == "websocket.close":
            return dict(message)
    raise AssertionError("the socket was not closed")


@pytest.mark.parametrize(
    "path",
    ["/ws/tables/0/", "/ws/tables/abc/", f"/ws/tables/{'9' * 20}/", "/ws/tables/-1/", "/ws/x/"],
)
def test_a_path_that_names_no_table_is_refused_without_a_traceback(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: the handshake answered 500 with a traceback in the log."""

    async def run() -> tuple[bool, Any]:
        comm = WebsocketCommunicator(application, path, headers=HEADERS)
        connected, code = await comm.connect()
        await comm.disconnect(timeout=3)
        return connected, code

    with caplog.at_level(logging.WARNING):
        connected, code = async_to_sync(run)()
    assert not connected and code == 4404
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize(
    "frame",
    [
        {"bytes_data": b"\x00\x01binary"},
        {"text_data": "[" * 990 + "]" * 990},
        {"text_data": "{" + '"a":{' * 1500 + "}" * 1501},
        {"text_data": json.dumps({"type": "ping", "pad": "x" * 5000})},
    ],
    ids=["binary", "nested-990", "nested-1500", "too-long"],
)
def test_a_bad_frame_closes_with_a_reason_and_nothing_outlives_the_socket(
    frame: dict[str, Any], settings: Any
) -> None:
    """Regression: one binary frame, or JSON nested 990 deep, crashed the consumer while its
    resync loop ran on for ever and the seat stayed online."""
    settings.LUZI_PUSH_RESYNC_SECONDS = 0.2
    table, users = people_table()
    services.match_start(table=table, seed=5)
    cookie = session_cookie(users[0])

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        await next_state(comm)
        assert await online(table) and len(resync_loops()) == 1
        await comm.send_to(**frame)
        close = await closed(comm)
        assert close["code"] == 4400 and close.get("reason")
        assert resync_loops() == []  # gone at once, before the browser's side closes
        assert not await online(table)
        await comm.disconnect(timeout=10)
        await asyncio.sleep(0.5)  # a loop left running would push (and renew presence) here
        assert resync_loops() == [] and not await online(table)

    async_to_sync(run)()


def test_an_error_in_a_handler_cancels_the_socket_tasks_and_counts_the_seat_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever ends the consumer, its resync loop ends and its presence is counted out."""
    table, users = people_table()
    services.match_start(table=table, seed=5)
    cookie = session_cookie(users[0])

    async def broken(self: Any, content: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug in a handler")

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        await next_state(comm)
        assert await online(table) and len(resync_loops()) == 1
        monkeypatch.setattr(TableConsumer, "receive_json", broken)
        await comm.send_json_to({"type": "ping"})
        with pytest.raises(RuntimeError):
            await comm.receive_output(timeout=3)
        assert resync_loops() == []
        assert not await online(table)

    async_to_sync(run)()


def test_a_closed_page_leaves_no_loop_behind() -> None:
    table, users = people_table()
    services.match_start(table=table, seed=5)
    cookie = session_cookie(users[0])

    async def run() -> None:
        comms = [socket(table, cookie) for _ in range(3)]
        for comm in comms:
            assert (await comm.connect())[0]
            await next_state(comm)
        assert len(resync_loops()) == 3 and await online(table)
        for comm in comms:
            await comm.disconnect(timeout=10)
        assert resync_loops() == [] and not await online(table)

    async_to_sync(run)()


def _refusing(*_args: Any, **_kwargs: Any) -> Any:
    raise MaxConnectionsError("Too many connections")


def test_a_layer_out_of_connections_refuses_with_try_again_and_presence_stays_right(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression (issue 31): group_add raising MaxConnectionsError answered the handshake with a
    500; group_discard raising it skipped the presence decrement (the seat looked online)."""
    table, users = people_table()
    services.match_start(table=table, seed=5)
    cookie = session_cookie(users[0])
    layer = get_channel_layer()

    async def run() -> None:
        with monkeypatch.context() as patched:
            patched.setattr(layer, "group_add", _refusing)
            comm = socket(table, cookie)
            await comm.connect()
            close = await closed(comm)
            assert close["code"] == 1013 and close["reason"]  # try again later
            await comm.disconnect(timeout=3)
        assert not await online(table) and resync_loops() == []
        comm = socket(table, cookie)  # Redis has connections again
        assert (await comm.connect())[0]
        await next_state(comm)
        assert await online(table)
        with monkeypatch.context() as patched:
            patched.setattr(layer, "group_discard", _refusing)
            patched.setattr(layer, "group_send", _refusing)
            await comm.disconnect(timeout=10)  # no exception escapes
        assert not await online(table) and resync_loops() == []

    with caplog.at_level(logging.WARNING):
        async_to_sync(run)()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
