"""A duplicate round with an offline table: its confirmed sheet is a deal's result like any other.

An offline table's referee may enter (and a second organizer confirm) the table's sheet while an
online table of the round still plays the same cards. Until every table of the round has finished
a deal, nothing of it is shown to anyone but the event's organizers: not the sheet's versions
(landlord, bid, 头撂, 摊打, winner; finishing orders), not the points it made, on any page, API
answer, CSV export or socket; the hidden-card scan (tests/games/leakcheck.py) covers the online
table's state for its own players, and the tables are refused to everyone else.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Deal, Match, Table
from games.tables.access import deal_public, table_viewable
from tests.games.factories import UserFactory
from tests.games.leakcheck import assert_no_leak, assert_surfaces_unchanged
from tests.tournaments.duplicate.test_duplicate import (
    duplicate_event,
    fetch,
    play_all,
    play_deal,
    start,
    surfaces,
)
from tournaments.events import staff as services
from tournaments.models import Event, Pairing, Round
from tournaments.results.services import event_tallies_refresh, result_confirm, result_submit

pytestmark = pytest.mark.django_db

SHEETS: dict[str, tuple[int | None, list[dict[str, Any]]]] = {
    "daguai": (0, [{"finish": [0, 2, 4]}, {"finish": [1, 3, 5]}]),
    "xiaoluzi": (
        0,
        [
            {"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]},
            {"mode": "none", "finish": [1, 3, 0], "played": [8, 8, 5, 8]},
        ],
    ),
    "shanghai_doudizhu": (
        None,
        [
            {"landlord": 2, "bid": 3, "head_bid": True, "open_hand": True, "winner": "landlord"},
            {"landlord": 1, "bid": 2, "winner": "farmers"},
        ],
    ),
}


def mixed_round(game: str) -> tuple[Event, Round, dict[int, Any], list[Pairing], Match]:
    """A duplicate round of two tables, table 2 offline; table 1's match started (bots)."""
    event, round, users = duplicate_event(game, 2, deals=2, people=True)
    pairings = list(round.pairings.order_by("number"))
    Table.objects.filter(pk=pairings[1].table_id).update(mode=Table.Mode.OFFLINE)
    (online,) = start(round)
    assert online.table_id == pairings[0].table_id
    return event, round, users, pairings, online


def organizer(event: Event) -> Any:
    user = UserFactory()
    services.event_organizer_add(event=event, user=user)
    return user


def enter_sheet(game: str, pairing: Pairing, event: Event) -> None:
    first_dealer, deals = SHEETS[game]
    submission = result_submit(
        pairing=pairing, user=organizer(event), first_dealer=first_dealer, deals=deals
    )
    result_confirm(submission=submission, user=organizer(event))


def results_urls(pairings: list[Pairing]) -> list[str]:
    return [f"/api/v1/tables/{p.pk}/results/" for p in pairings]


def viewers(users: dict[int, Any], online: Pairing) -> dict[str, Client]:
    player = Client()
    player.force_login(users[online.table.seats.get(seat=0).player_id])
    spectator = Client()
    spectator.force_login(UserFactory())
    return {"anonymous": Client(), "player of another table": player, "spectator": spectator}


@pytest.mark.parametrize("game", ["daguai", "xiaoluzi", "shanghai_doudizhu"])
def test_an_offline_tables_sheet_waits_for_the_online_tables_of_the_round(game: str) -> None:
    event, round, users, pairings, online = mixed_round(game)
    offline = pairings[1]
    clients = viewers(users, pairings[0])
    urls = surfaces(event, round, pairings) + results_urls(pairings)
    urls.append(f"/api/v1/events/{event.pk}/deals/")
    urls.append(reverse("tournaments:meet_standings_csv", args=[event.meet.slug]))
    urls.append(reverse("games:table", args=[offline.table_id]))
    urls.append(f"/api/v1/tables/{offline.table_id}/state/")
    event_tallies_refresh(event=event)
    before = {name: fetch(c, urls) for name, c in clients.items()}

    enter_sheet(game, offline, event)  # table 1 has not finished deal 1
    sheet_match = Match.objects.get(table_id=offline.table_id)
    assert not any(deal_public(d) for d in Deal.objects.filter(match=sheet_match))
    for name, client in clients.items():
        assert_surfaces_unchanged(before[name], fetch(client, urls), f"{game}: {name}")
    assert not table_viewable(table_id=offline.table_id, user=None)
    # a player of the offline table may not watch the online one, which plays his cards
    theirs = Client()
    theirs.force_login(users[offline.table.seats.get(seat=0).player_id])
    for url in (
        reverse("games:table", args=[online.table_id]),
        f"/api/v1/tables/{online.table_id}/state/",
    ):
        assert theirs.get(url).status_code in (403, 404), url
    # the online table's own player sees his own seat only (the hidden-card scan)
    mine = clients["player of another table"].get(f"/api/v1/tables/{online.table_id}/state/")
    assert mine.status_code == 200
    assert_no_leak(mine.json(), online.table, 0)
    # the organizers see the sheet on the dashboard and through the API
    boss = Client()
    boss.force_login(organizer(event))
    versions = boss.get(f"/api/v1/tables/{offline.pk}/results/").json()
    assert [v["status"] for v in versions] == ["confirmed"]
    page = boss.get(reverse("tournaments:table_result", args=[event.pk, offline.pk]))
    assert page.status_code == 200

    play_deal(online)  # table 1 finishes deal 1: the sheet still holds deal 2
    for name, client in clients.items():
        assert client.get(f"/api/v1/tables/{offline.pk}/results/").json() == [], name
    play_all([online])
    public = Client().get(f"/api/v1/tables/{offline.pk}/results/").json()
    assert [v["status"] for v in public] == ["confirmed"]  # every table has played the deals


def test_an_organizer_enters_and_sees_the_sheet_while_the_round_plays() -> None:
    event, _round, _users, pairings, _online = mixed_round("shanghai_doudizhu")
    boss = Client()
    boss.force_login(organizer(event))
    first_dealer, deals = SHEETS["shanghai_doudizhu"]
    answer = boss.post(
        f"/api/v1/tables/{pairings[1].pk}/results/",
        {"deals": deals},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    assert boss.get(f"/api/v1/tables/{pairings[1].pk}/results/").json()[0]["status"] == "pending"
    assert Client().get(f"/api/v1/tables/{pairings[1].pk}/results/").json() == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["daguai", "xiaoluzi", "shanghai_doudizhu"])
def test_the_sockets_of_a_mixed_duplicate_round_show_no_other_table(game: str) -> None:
    from asgiref.sync import async_to_sync

    from tests.games.live.test_realtime import next_state, session_cookie, socket

    event, _round, users, pairings, online = mixed_round(game)
    online_table, offline_table = pairings[0].table, pairings[1].table
    mine = users[online_table.seats.get(seat=0).player_id]
    theirs = users[offline_table.seats.get(seat=0).player_id]
    spectator = UserFactory()

    async def state_of(table: Table, cookie: bytes) -> dict[str, Any] | None:
        comm = socket(table, cookie)
        connected, _code = await comm.connect()
        if not connected:
            return None
        state = await next_state(comm)
        await comm.disconnect(timeout=10)
        return state

    def scan() -> None:
        for table in (online_table, offline_table):
            for cookie in (b"", session_cookie(spectator)):
                assert async_to_sync(state_of)(table, cookie) is None, (table.pk, cookie)
        # a player of the other table, each way
        assert async_to_sync(state_of)(online_table, session_cookie(theirs)) is None
        assert async_to_sync(state_of)(offline_table, session_cookie(mine)) is None
        # his own table: his own seat only (the hidden-card scan)
        state = async_to_sync(state_of)(online_table, session_cookie(mine))
        assert state is not None
        assert_no_leak(state, online_table, 0)

    scan()
    enter_sheet(game, pairings[1], event)
    scan()
    play_deal(online)
    scan()
    play_all([online])
    assert async_to_sync(state_of)(offline_table, b"") is not None  # every table has ended
