"""What the public may see (issue 11): a private event's tables follow the event's visibility, a
draft round is its organizers' alone, and confirmed results do not name the staff accounts that
entered them."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from tests.games.factories import UserFactory
from tests.games.live.test_realtime import session_cookie, socket
from tests.tournaments.factories import EventFactory, RoundFactory, TeamFactory
from tournaments.draw.services import pairing_create
from tournaments.events.staff import event_organizer_add
from tournaments.models import ResultSubmission, Round

pytestmark = pytest.mark.django_db(transaction=True)


def _event_with_table(*, private: bool, status: str = Round.Status.RUNNING) -> dict[str, Any]:
    event = EventFactory(is_private=private)
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    round_ = RoundFactory(event=event, status=status)
    team_a, team_b = TeamFactory(event=event), TeamFactory(event=event)
    pairing = pairing_create(round=round_, team_a=team_a, team_b=team_b, number=1)
    player = team_a.members.order_by("order").first().player
    player.user = UserFactory()
    player.save()
    return {
        "event": event,
        "organizer": organizer,
        "round": round_,
        "pairing": pairing,
        "table": pairing.table,
        "player_user": player.user,
    }


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _ws_connects(table: Any, user: Any = None) -> bool:
    cookie = session_cookie(user) if user is not None else b""

    async def run() -> bool:
        comm = socket(table, cookie)
        connected, _code = await comm.connect()
        await comm.disconnect(timeout=10)
        return bool(connected)

    return bool(async_to_sync(run)())


def _table_urls(table: Any) -> list[str]:
    return [reverse("api:table_state", args=[table.pk]), reverse("games:table", args=[table.pk])]


def test_a_private_events_table_is_hidden_from_outsiders() -> None:
    world = _event_with_table(private=True)
    table = world["table"]
    for user in (None, UserFactory()):
        for url in _table_urls(table):
            assert _client(user).get(url).status_code == 404, url
        assert not _ws_connects(table, user)
    for user in (world["organizer"], world["player_user"]):
        for url in _table_urls(table):
            assert _client(user).get(url).status_code == 200, url
        assert _ws_connects(table, user)


def test_a_public_events_table_is_open_to_everyone() -> None:
    world = _event_with_table(private=False)
    for url in _table_urls(world["table"]):
        assert _client().get(url).status_code == 200
    assert _ws_connects(world["table"])


def test_a_draft_round_is_the_organizers_alone() -> None:
    world = _event_with_table(private=False, status=Round.Status.DRAFT)
    round_, event, pairing = world["round"], world["event"], world["pairing"]
    anonymous, organizer = _client(), _client(world["organizer"])
    round_url = reverse("tournaments-api:round", args=[round_.pk])
    rounds_url = reverse("tournaments-api:event-rounds", args=[event.pk])
    results_url = reverse("tournaments-api:table-results", args=[pairing.pk])
    assert anonymous.get(round_url).status_code == 404
    assert anonymous.get(results_url).status_code == 404
    assert anonymous.get(rounds_url).json() == []
    for url in _table_urls(world["table"]):
        assert anonymous.get(url).status_code == 404
    assert organizer.get(round_url).status_code == 200
    assert [r["id"] for r in organizer.get(rounds_url).json()] == [round_.pk]


def test_public_results_do_not_name_staff_accounts() -> None:
    world = _event_with_table(private=False)
    ResultSubmission.objects.create(
        pairing=world["pairing"],
        version=1,
        first_dealer=0,
        deals=[],
        status=ResultSubmission.Status.CONFIRMED,
        submitted_by=world["organizer"],
        reviewed_by=UserFactory(username="staff-reviewer"),
    )
    url = reverse("tournaments-api:table-results", args=[world["pairing"].pk])
    public = _client().get(url)
    assert public.status_code == 200 and len(public.json()) == 1
    assert world["organizer"].username not in public.content.decode()
    assert "staff-reviewer" not in public.content.decode()
    assert "submitted_by" not in public.json()[0]
    staff = _client(world["organizer"]).get(url).json()
    assert staff[0]["submitted_by"] == world["organizer"].username
