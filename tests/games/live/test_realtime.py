"""Live tables: every change reaches each seat and spectator over its WebSocket, each with its own
view (a hand only for its seat); reconnecting or a missed message is made good by a resync."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games.live import events
from games.models import Match, Table
from games.play import services
from games.play import state as selectors
from tests.games.factories import UserFactory
from tests.games.leakcheck import assert_no_leak
from tests.games.play.test_apis import _first_legal, people_table

pytestmark = pytest.mark.django_db(transaction=True)


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(table: Table, cookie: bytes = b"", origin: bytes = b"http://localhost") -> Any:
    """A WebSocket to the table through the whole ASGI stack (origin check, session auth)."""
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)


async def next_state(comm: Any, timeout: float = 1.0) -> dict[str, Any]:
    message = json.loads(await comm.receive_from(timeout=timeout))
    assert message["type"] == "state"
    return message["state"]


def drive_bots_once(table: Table) -> bool:
    """One bot action (what the worker does); False when the deal waits for a person."""
    state = selectors.table_state(table=table)
    match = Match.objects.get(pk=state["match"]["id"])
    deal = state["deal"]
    if match.status != Match.Status.PLAYING:
        return False
    if deal is None or deal["phase"] == "over":
        return services.deal_start(match_id=match.pk, number=match.current_deal + 1)
    bots = [s for s in deal["awaiting"] if state["seats"][s]["is_bot"]]
    if not bots:
        return False
    return services.bot_act(
        match_id=match.pk, number=match.current_deal, seq=state["seq"], seat=bots[0]
    )


def test_every_change_reaches_every_seat_and_spectator_with_its_own_view() -> None:
    table, users = people_table((0, 3))
    services.match_start(table=table, seed=20261129, deals_per_match=1)
    viewers: dict[str, tuple[int | None, bytes]] = {
        "seat0": (0, session_cookie(users[0])),
        "seat3": (3, session_cookie(users[3])),
        "watcher": (None, session_cookie(UserFactory())),
        "anonymous": (None, b""),
    }

    async def run() -> int:
        comms = {}
        for name, (seat, user) in viewers.items():
            comm = socket(table, user)
            connected, _code = await comm.connect()
            assert connected, name
            first = await next_state(comm)
            assert (first["you"] or {}).get("seat") == seat
            await database_sync_to_async(assert_no_leak)(first, table, seat)
            comms[name] = comm
        pushes = 0
        for _ in range(400):
            moved = await database_sync_to_async(drive_bots_once)(table)
            if not moved:
                state = await database_sync_to_async(selectors.table_state)(table=table)
                if state["match"]["status"] != "playing":
                    break
                seat = next(s for s in state["deal"]["awaiting"] if s in users)
                mine = await database_sync_to_async(selectors.table_state)(table=table, seat=seat)
                body = _first_legal(mine)
                await database_sync_to_async(services.seat_act)(
                    table=table,
                    seat=seat,
                    kind=body["action"],
                    cards=body["cards"],
                    seq=body["seq"],
                )
            started = time.monotonic()
            for name, (seat, _user) in viewers.items():
                pushed = await next_state(comms[name], timeout=1.0)
                await database_sync_to_async(assert_no_leak)(pushed, table, seat)
                assert (pushed["you"] or {}).get("seat") == seat
                pushes += 1
            assert time.monotonic() - started < 1.0
        else:
            raise AssertionError("the match did not end")
        for comm in comms.values():
            await comm.disconnect(timeout=10)
        return pushes

    pushes = async_to_sync(run)()
    assert pushes > 100


def test_a_reconnecting_page_gets_the_whole_state_and_can_ask_for_it() -> None:
    table, users = people_table()
    services.match_start(table=table, seed=5)
    cookie = session_cookie(users[0])

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        first = await next_state(comm)
        await comm.disconnect(timeout=10)
        while await database_sync_to_async(drive_bots_once)(table):
            pass
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        again = await next_state(comm)
        assert again["seq"] >= first["seq"] and again["you"]["seat"] == 0
        await comm.send_json_to({"type": "resync"})
        assert (await next_state(comm))["seq"] == again["seq"]
        await comm.send_json_to({"type": "ping"})
        assert json.loads(await comm.receive_from())["type"] == "pong"
        await comm.send_to(text_data="nonsense")
        assert json.loads(await comm.receive_from())["type"] == "error"
        await comm.disconnect(timeout=10)

    async_to_sync(run)()


def test_a_change_the_layer_never_announced_arrives_by_resync(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lost push (or, without Redis, a worker in another process) is caught by the resync."""
    settings.LUZI_PUSH_RESYNC_SECONDS = 0.2
    monkeypatch.setattr(events, "push_table_changed", lambda table_id: None)
    table, users = people_table()
    services.match_start(table=table, seed=5)
    cookie = session_cookie(users[0])

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        first = await next_state(comm)
        moved = await database_sync_to_async(drive_bots_once)(table)
        assert moved or first["deal"]["awaiting"] == [0]
        if moved:
            later = await next_state(comm, timeout=2.0)
            assert later["seq"] > first["seq"]
        else:  # nothing to do: no message at all (unchanged states are not sent again)
            with pytest.raises(asyncio.TimeoutError):
                await comm.receive_from(timeout=0.6)
        await comm.disconnect(timeout=10)

    async_to_sync(run)()


def test_unknown_tables_and_foreign_origins_are_refused() -> None:
    table, _users = people_table()

    async def run() -> None:
        missing = WebsocketCommunicator(
            application, "/ws/tables/999999/", headers=[(b"origin", b"http://localhost")]
        )
        connected, code = await missing.connect()
        assert not connected and code == 4404
        foreign = socket(table, origin=b"https://evil.example")
        connected, _code = await foreign.connect()
        assert not connected

    async_to_sync(run)()


def test_spectators_closing_their_page_change_nothing() -> None:
    table, _users = people_table()
    match = services.match_start(table=table, seed=5)
    cookie = session_cookie(UserFactory())

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        await next_state(comm)
        await comm.disconnect(timeout=10)
        await asyncio.sleep(0.5)

    async_to_sync(run)()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_the_redis_layer_outwaits_its_own_blocking_pop() -> None:
    """Regression: redis-py 8 reads with a 5 s socket timeout, the same as channels_redis's
    blocking pop, so a WebSocket quiet for 5 s died with "Timeout reading from Redis" and the
    page missed pushes until it reconnected."""
    from channels_redis.core import RedisChannelLayer
    from django.conf import settings as django_settings

    layer = django_settings.CHANNEL_LAYERS["default"]
    if not layer["BACKEND"].startswith("channels_redis"):
        pytest.skip("the channel layer is in-memory here (no Redis configured)")
    for host in layer["CONFIG"]["hosts"]:
        assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout
