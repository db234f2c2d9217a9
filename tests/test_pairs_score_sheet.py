"""An offline table of a team event of a fixed-sides team game the platform has never named
(tests/pairsgame.py, 对墩: two sides of two) is entered from its score sheet through the one
generic form (issue 27): the form shows 对墩's own fields by the players' names, the preview puts
each deal in 对墩's words by the teams' names, the person who entered it cannot confirm it, a
second organizer does, and the match's result and the team standings follow; the printed sheet
has 对墩's columns. No production code names the game."""

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
from tests.tournaments.factories import EventFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import ResultSubmission
from tournaments.rounds import services as rounds_services
from tournaments.standings.selectors import event_standings_rows

pytestmark = pytest.mark.django_db

TRICKS = ([2, 1, 1, 0], [1, 0, 2, 1])  # side A (seats 0, 2) takes 3 of 4 tricks, then 3 again
PICKS = {
    "action": "preview",
    **{f"d{n}_tricks_{s}": str(t) for n, row in enumerate(TRICKS, 1) for s, t in enumerate(row)},
}
SHEET = {"deals": [{"tricks": row} for row in TRICKS]}


@pytest.fixture(autouse=True)
def pairs() -> Iterator[None]:
    assert games_register_extra("pairs=tests.pairsgame") == ["pairs"]
    yield
    unregister("pairs")


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(game="pairs", table_mode=Table.Mode.OFFLINE, deals_per_match=2)
    assert not event.is_individual and event.team_size == 2
    red = events_entries.team_create(
        event=event, name="红队", players=PlayerFactory.create_batch(2)
    )
    blue = events_entries.team_create(
        event=event, name="蓝队", players=PlayerFactory.create_batch(2)
    )
    referee, checker = UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=referee)
    events_staff.event_organizer_add(event=event, user=checker)
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_)
    pairing = round_.pairings.get()
    teams = {pairing.team_a_id: "A", pairing.team_b_id: "B"}
    names = list(pairing.table.seats.order_by("seat").values_list("player__name", flat=True))
    url = reverse("tournaments:table_result", args=[event.pk, pairing.pk])
    return {"event": event, "pairing": pairing, "names": names, "url": url,
            "side_of": {teams[t.pk]: t for t in (red, blue)},
            "referee": referee, "checker": checker}  # fmt: skip


def _client(user: Any, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_a_team_table_of_pairs_is_entered_previewed_and_confirmed(world: dict[str, Any]) -> None:
    referee, url, names = _client(world["referee"]), world["url"], world["names"]
    side_a, side_b = world["side_of"]["A"], world["side_of"]["B"]
    form = referee.get(url).content.decode()
    assert form and 'name="d1_tricks_3"' in form and f"Tricks: {names[3]}" in form
    assert 'name="d1_mode"' not in form and 'name="d1_end"' not in form  # no other game's form
    preview = referee.post(url, PICKS)
    text = preview.content.decode()
    assert preview.status_code == 200
    assert f"{side_a.name} won 3 tricks of 4" in text  # the deal in words, by the team's name
    assert not ResultSubmission.objects.exists()  # a preview writes nothing
    sheet = preview.context["sheet"]
    assert json.loads(sheet) == SHEET
    assert referee.post(url, {"action": "submit", "sheet": sheet}).status_code == 302
    version = ResultSubmission.objects.get()
    assert version.deals == SHEET["deals"] and version.status == "pending"
    mine = referee.post(url, {"action": "confirm", "submission": version.pk}, follow=True)
    assert "you entered this version yourself" in mine.content.decode()
    version.refresh_from_db()
    assert version.status == "pending"
    checker = _client(world["checker"], "zh-hans")
    review = checker.get(url).content.decode()
    assert f"{side_a.name}赢 3 墩" in review and 'value="confirm"' in review  # the same preview
    assert checker.post(url, {"action": "confirm", "submission": version.pk}).status_code == 302
    version.refresh_from_db()
    assert version.status == "confirmed"
    match = Match.objects.get(table=world["pairing"].table)
    assert match.status == Match.Status.FINISHED and match.deals.count() == 2
    assert match.points == [2, -2, 2, -2] and match.side_points == {"A": 4, "B": -4}
    assert match.winner == "A"
    rows = event_standings_rows(event=world["event"], kind="team")
    assert [(r.team, r.wins, r.losses) for r in rows] == [
        (side_a.name, 1, 0),
        (side_b.name, 0, 1),
    ]


def test_a_bad_pick_of_the_pairs_sheet_is_refused_naming_the_deal(world: dict[str, Any]) -> None:
    referee = _client(world["referee"])
    bad = referee.post(world["url"], {**PICKS, "d2_tricks_1": "x"})
    errors = [str(m) for m in bad.context["messages"]]
    assert bad.status_code == 200 and errors == ["Deal 2: tricks: pick a number."]
    wrong = referee.post(world["url"], {**PICKS, "d2_tricks_3": "2"})  # 5 tricks of 4 in all
    assert "the tricks add up to 5" in wrong.content.decode()
    assert not ResultSubmission.objects.exists()


def test_the_pairs_printed_sheet_has_its_columns_and_seats_from_1(world: dict[str, Any]) -> None:
    event, pairing = world["event"], world["pairing"]
    client = _client(world["referee"])
    page = client.get(reverse("tournaments:score_sheet", args=[event.pk, pairing.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "Tricks, seat 1" in text and "Tricks, seat 4" in text
    assert "Tricks, seat 0" not in text and world["names"][0] in text
    assert world["side_of"]["A"].name in text and world["side_of"]["B"].name in text
    every = client.get(reverse("tournaments:score_sheets", args=[event.pk, pairing.round.number]))
    assert every.status_code == 200 and "Tricks, seat 4" in every.content.decode()
