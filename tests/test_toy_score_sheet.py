"""An offline table of a game the platform has never named (tests/toygame.py) is entered from
its score sheet through the one generic form (issue 27): the form shows the toy's own fields by
the players' names, the preview puts each deal in the toy's words, a second person confirms,
and the printed sheet has the toy's columns. No production code names the toy."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.apps import games_register_extra
from engine.registry import unregister
from games.models import Match, Table
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import ResultSubmission
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db

PICKS = {
    "action": "preview",
    **{f"d1_tricks_{s}": str(t) for s, t in enumerate([2, 1, 1, 0])},
    **{f"d2_tricks_{s}": str(t) for s, t in enumerate([0, 0, 0, 4])},
}
SHEET = {"deals": [{"tricks": [2, 1, 1, 0]}, {"tricks": [0, 0, 0, 4]}]}


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    assert games_register_extra("toy=tests.toygame") == ["toy"]
    yield
    unregister("toy")


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(game="toy", table_mode=Table.Mode.OFFLINE, deals_per_match=2)
    unit = UnitFactory()
    people = PlayerFactory.create_batch(4)
    for player in people:
        events_entries.membership_ensure(player=player, unit=unit)
    events_entries.registration_ensure(event=event, players=people)
    referee, checker = UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=referee)
    events_staff.event_organizer_add(event=event, user=checker)
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_)
    pairing = round_.pairings.get()
    names = list(pairing.table.seats.order_by("seat").values_list("player__name", flat=True))
    url = reverse("tournaments:table_result", args=[event.pk, pairing.pk])
    return {"event": event, "pairing": pairing, "names": names, "url": url,
            "referee": referee, "checker": checker}  # fmt: skip


def _client(user: Any, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_the_toys_sheet_is_picked_previewed_entered_and_confirmed(world: dict[str, Any]) -> None:
    referee, url, names = _client(world["referee"]), world["url"], world["names"]
    form = referee.get(url).content.decode()
    assert 'name="d1_tricks_3"' in form and f"Tricks: {names[3]}" in form
    assert 'name="d1_mode"' not in form and 'name="d1_end"' not in form  # no other game's form
    preview = referee.post(url, PICKS)
    text = preview.content.decode()
    assert preview.status_code == 200 and "seats-preview" in text
    assert f"{names[0]} took the most tricks" in text and f"{names[3]} took" in text
    assert not ResultSubmission.objects.exists()  # a preview writes nothing
    sheet = preview.context["sheet"]
    assert json.loads(sheet) == SHEET
    assert referee.post(url, {"action": "submit", "sheet": sheet}).status_code == 302
    version = ResultSubmission.objects.get()
    assert version.deals == SHEET["deals"] and version.status == "pending"
    mine = referee.post(url, {"action": "confirm", "submission": version.pk}, follow=True)
    assert "you entered this version yourself" in mine.content.decode()
    checker = _client(world["checker"], "zh-hans")
    review = checker.get(url).content.decode()
    assert f"{names[0]}墩数最多" in review and 'value="confirm"' in review  # the same preview
    assert checker.post(url, {"action": "confirm", "submission": version.pk}).status_code == 302
    version.refresh_from_db()
    assert version.status == "confirmed"
    match = Match.objects.get(table=world["pairing"].table)
    assert match.deals.count() == 2 and match.points == [2, -2, -2, 2]


def test_a_bad_pick_of_the_toys_sheet_is_refused_naming_the_deal(world: dict[str, Any]) -> None:
    referee = _client(world["referee"])
    bad = referee.post(world["url"], {**PICKS, "d2_tricks_1": "x"})
    errors = [str(m) for m in bad.context["messages"]]
    assert bad.status_code == 200 and errors == ["Deal 2: tricks: pick a number."]
    wrong = referee.post(world["url"], {**PICKS, "d2_tricks_3": "3"})  # 3 tricks of 4 in all
    assert "the tricks add up to 3" in wrong.content.decode()
    assert not ResultSubmission.objects.exists()


def test_the_toys_printed_sheet_has_its_columns_and_seats_from_1(world: dict[str, Any]) -> None:
    event, pairing = world["event"], world["pairing"]
    client = _client(world["referee"])
    page = client.get(reverse("tournaments:score_sheet", args=[event.pk, pairing.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "Tricks, seat 1" in text and "Tricks, seat 4" in text
    assert f"1 · {world['names'][0]}" in text and "Tricks, seat 0" not in text
    every = client.get(reverse("tournaments:score_sheets", args=[event.pk, pairing.round.number]))
    assert every.status_code == 200 and "Tricks, seat 4" in every.content.decode()
