"""The table page and the practice table."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, TableSeat
from games.play import services
from tests.games.factories import UserFactory
from tests.games.leakcheck import assert_no_leak
from tests.games.play.test_apis import client_for, people_table

pytestmark = pytest.mark.django_db


def page_config(body: str) -> dict:
    found = re.search(
        r'<script id="table-config" type="application/json">(.*?)</script>', body, re.S
    )
    assert found
    return json.loads(found.group(1))


def test_the_table_page_embeds_only_the_viewers_state() -> None:
    table, users = people_table((0, 3))
    services.match_start(table=table, seed=5)
    url = reverse("games:table", args=[table.pk])
    for viewer, client in (
        (0, client_for(users[0])),
        (3, client_for(users[3])),
        (None, client_for(UserFactory())),
        (None, Client()),
    ):
        response = client.get(url)
        assert response.status_code == 200
        body = response.content.decode()
        config = page_config(body)
        assert config["seat"] == viewer
        assert_no_leak(config["state"], table, viewer)
        assert ("btn-play" in body) is (viewer is not None)
        assert "games/table.js" in body
    assert Client().get(reverse("games:table", args=[999999])).status_code == 404


def test_practice_needs_a_login_and_a_post() -> None:
    client = Client()
    response = client.post(reverse("games:practice"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    client.force_login(UserFactory())
    assert client.get(reverse("games:practice")).status_code == 405


def test_practice_opens_a_table_with_five_bots_and_a_match_and_reuses_it() -> None:
    user = UserFactory(first_name="", last_name="")
    client = client_for(user)
    response = client.post(reverse("games:practice"))
    assert response.status_code == 302
    seats = TableSeat.objects.filter(player__user=user)
    assert seats.count() == 1
    table = seats.get().table
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.seats.filter(player__is_bot=True).count() == 5
    assert Match.objects.get(table=table).status == Match.Status.PLAYING
    # a second click goes back to the same table while its match goes on
    again = client.post(reverse("games:practice"))
    assert again["Location"] == response["Location"]
    # the player's page shows it as the current table
    page = client.get(reverse("accounts:me")).content.decode()
    assert reverse("games:table", args=[table.pk]) in page
