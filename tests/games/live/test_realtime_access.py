"""A live table's WebSocket follows who may see the table now, not only at connect (issue 25): a
viewer whose seat was taken away stops getting that seat's view, and checking costs nothing
until something that decides who may see a table changes (games.tables.access's epoch)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.live import consumers as realtime
from games.live import events, presence
from games.models import TableSeat
from games.play import services
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.games.live.test_realtime import next_state, session_cookie, socket
from tests.games.live.test_realtime_guard import closed
from tests.games.play.test_apis import people_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_whose_seat_is_taken_away_stops_getting_its_view(settings: Any) -> None:
    """The seat's next push is a close (4409: reconnect), never that seat's hand; reconnected,
    the page shows the table as a spectator's, and the seat is counted out."""
    settings.LUZI_PUSH_RESYNC_SECONDS = 60.0  # the push itself must check
    table, users = people_table()
    services.match_start(table=table, seed=5)
    cookie = session_cookie(users[0])

    def take_the_seat() -> None:
        seat = TableSeat.objects.get(table=table, seat=0)
        seat.player = PlayerFactory(user=UserFactory())  # as the admin's seat inline saves it
        seat.save()

    async def run() -> None:
        comm = socket(table, cookie)
        assert (await comm.connect())[0]
        assert (await next_state(comm))["you"]["seat"] == 0
        await database_sync_to_async(take_the_seat)()
        await database_sync_to_async(events.table_changed)(table.pk)
        close = await closed(comm)
        assert close["code"] == 4409 and close["reason"]
        await comm.disconnect(timeout=10)
        seats = await database_sync_to_async(presence.seats_online)(table.pk, [0])
        assert seats == {0: False}
        again = socket(table, cookie)
        assert (await again.connect())[0]
        state = await next_state(again)
        assert state["you"] is None or state["you"].get("seat") is None
        assert "hand" not in (state["you"] or {})
        await again.disconnect(timeout=10)

    async_to_sync(run)()


def test_pushes_check_the_viewer_only_after_a_change_of_who_may_see(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cheap at 200+ sockets: pushes with nothing changed in who may see the table check no
    viewer; after such a change each socket checks its viewer once, then no more."""
    settings.LUZI_PUSH_RESYNC_SECONDS = 60.0
    table, _users = people_table()
    services.match_start(table=table, seed=5)
    checks: list[int] = []
    viewable = realtime.table_viewable

    def counted(**kwargs: Any) -> bool:
        checks.append(kwargs["table_id"])
        return viewable(**kwargs)

    monkeypatch.setattr(realtime, "table_viewable", counted)

    def seat_swap() -> None:  # a change of who sits where (a bot: nobody's view changes)
        seat = TableSeat.objects.get(table=table, seat=5)
        seat.player = BotFactory()
        seat.save()

    cookies = [session_cookie(UserFactory()) for _ in range(3)] + [b""]

    async def run() -> None:
        comms = [socket(table, cookie) for cookie in cookies]
        for comm in comms:
            assert (await comm.connect())[0]
            await next_state(comm)
        assert len(checks) == 4  # at connect
        for _ in range(3):
            await database_sync_to_async(events.table_changed)(table.pk)
            for comm in comms:
                await comm.send_json_to({"type": "resync"})
                await next_state(comm)
        assert len(checks) == 4
        await database_sync_to_async(seat_swap)()
        for _ in range(2):
            for comm in comms:
                await comm.send_json_to({"type": "resync"})
                await next_state(comm)
        assert len(checks) == 8  # once each
        for comm in comms:
            await comm.disconnect(timeout=10)

    async_to_sync(run)()
