"""Open sockets of an event's tables follow the event's visibility as it changes (issue 25): an
event turned private, a round of an event turned duplicate that starts, an organizer removed;
whoever may no longer see the table is closed (4403) before the next push, and the others go on."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.live import events
from games.models import Table
from tests.games.factories import UserFactory
from tests.games.live.test_realtime import next_state, session_cookie, socket
from tests.games.live.test_realtime_guard import closed
from tests.tournaments.duplicate.test_duplicate import duplicate_event, start
from tests.tournaments.events.test_visibility import _event_with_table
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(table: Table, cookie: bytes = b"") -> Any:
    comm = socket(table, cookie)
    assert (await comm.connect())[0]
    await next_state(comm)
    return comm


async def refused(comm: Any) -> None:
    close = await closed(comm)
    assert close["code"] == 4403 and close["reason"]
    await comm.disconnect(timeout=10)


def test_the_sockets_of_outsiders_close_when_the_event_turns_private(settings: Any) -> None:
    settings.LUZI_PUSH_RESYNC_SECONDS = 60.0  # the push itself must check
    world = _event_with_table(private=False)
    event, table = world["event"], world["table"]
    stranger, removed = UserFactory(), UserFactory()
    event.organizers.add(removed)

    def turn_private() -> None:
        event.is_private = True
        event.save()  # as the admin's form does

    cookies = [session_cookie(u) for u in (stranger, world["organizer"], removed)]
    cookies.append(session_cookie(world["player_user"]))

    async def run() -> None:
        anonymous = await opened(table)
        outsider, organizer, leaving, player = [await opened(table, c) for c in cookies]
        await database_sync_to_async(turn_private)()
        await database_sync_to_async(events.table_changed)(table.pk)
        await refused(anonymous)
        await refused(outsider)
        for comm in (organizer, leaving, player):  # still there (an unchanged state is not sent)
            await comm.send_json_to({"type": "resync"})
            await next_state(comm)
        await database_sync_to_async(event.organizers.remove)(removed)
        await database_sync_to_async(events.table_changed)(table.pk)
        await refused(leaving)
        for comm in (organizer, player):
            await comm.send_json_to({"type": "resync"})
            await next_state(comm)
            await comm.disconnect(timeout=10)

    async_to_sync(run)()


def test_anonymous_sockets_close_when_the_event_turns_duplicate_and_the_round_starts(
    settings: Any,
) -> None:
    """Regression: an anonymous socket opened while the round was confirmed received 37 pushes
    of a duplicate round's table after it started (new sockets got 403, the page 404)."""
    settings.LUZI_PUSH_RESYNC_SECONDS = 60.0
    event, round, _users = duplicate_event("xiaoluzi", 2, deals=1)
    Event.objects.filter(pk=event.pk).update(duplicate=False)  # as it was when the socket opened
    table = round.pairings.order_by("number").first().table

    def turn_duplicate_and_start() -> None:
        fresh = Event.objects.get(pk=event.pk)
        fresh.duplicate = True
        fresh.save()
        start(round)

    async def run() -> None:
        anonymous = await opened(table)
        await database_sync_to_async(turn_duplicate_and_start)()
        await refused(anonymous)

    async_to_sync(run)()
