"""Offline tables of 上海斗地主 and 小路子 (issue 16): the referee enters the game's own score
sheet (API and the organizer's form), the engine refuses a bad one with its reason (naming the
deal and the field) and writes nothing, a second person confirms, a correction replaces the
recorded match, and the standings carry the game's figures (rating, silver)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Match, Table
from games.replay import audit
from tests.sheet_pages import four_players, offline_round
from tests.tournaments.factories import EventFactory
from tournaments.models import PlayerTotal, ResultSubmission
from tournaments.standings.totals import event_player_standings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):  # the engine's reasons are matched in English
        yield


SHEETS: dict[str, dict[str, Any]] = {
    "shanghai_doudizhu": {
        "deals": [
            {"landlord": 0, "bid": 2, "winner": "landlord"},
            {"all_pass": True},
            {"landlord": 1, "bid": 3, "head_bid": True, "marked_joker": True, "winner": "farmers"},
        ]
    },
    "xiaoluzi": {
        "deals": [
            {"mode": "declared", "declarer": 2, "finish": [2], "played": [0, 0, 8, 0]},
            {"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]},
        ]
    },
}
#: a correction of each: the first deal's other way round
CORRECTIONS: dict[str, dict[str, Any]] = {
    "shanghai_doudizhu": {"deals": [{"landlord": 0, "bid": 2, "winner": "farmers"}]},
    "xiaoluzi": {
        "deals": [{"mode": "declared", "declarer": 2, "finish": [0], "played": [8, 1, 5, 3]}]
    },
}
BAD: dict[str, list[tuple[dict[str, Any], str]]] = {
    "shanghai_doudizhu": [
        ({"deals": [{"landlord": 0, "bid": 4, "winner": "landlord"}]}, "deal 1: bid"),
        (
            {
                "deals": [
                    {"landlord": 0, "bid": 2, "winner": "landlord"},
                    {"landlord": 5, "bid": 2, "winner": "landlord"},
                ]
            },
            "deal 2: landlord",
        ),
        (
            {"deals": [{"landlord": 0, "bid": 1, "open_hand": True, "winner": "farmers"}]},
            "deal 1: open_hand",
        ),
        (
            {
                "first_dealer": 3,
                "deals": [{"landlord": 0, "bid": 3, "head_bid": True, "winner": "landlord"}],
            },
            "deal 1: first_bidder",
        ),
    ],
    "xiaoluzi": [
        ({"deals": [{"mode": "declared", "finish": [2]}]}, "deal 1: declarer"),
        (
            {"deals": [{"mode": "none", "finish": [3, 1, 0]}, {"mode": "odd", "finish": []}]},
            "deal 2: mode",
        ),
        (
            {"deals": [{"mode": "countered", "declarer": 0, "counter": 1, "finish": [2]}]},
            "deal 1: finish",
        ),
        (
            {"deals": [{"mode": "declared", "declarer": 1, "finish": [1], "played": [8, 8, 8]}]},
            "deal 1: played",
        ),
    ],
}


@pytest.fixture(params=sorted(SHEETS))
def world(request: Any) -> dict[str, Any]:
    game = request.param
    event = EventFactory(game=game, table_mode=Table.Mode.OFFLINE)
    four_players(event)
    world = offline_round(event)
    pairing = world["pairing"]
    assert pairing.team_a_id is None and pairing.table.seat_count == 4
    return {**world, "game": game}


def api(user: Any, language: str = "en") -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language  # refusals are matched in English
    return client


def results_url(world: dict[str, Any]) -> str:
    return f"/api/v1/tables/{world['pairing'].pk}/results/"


def enter(world: dict[str, Any], sheet: dict[str, Any]) -> dict[str, Any]:
    response = api(world["referee"]).post(results_url(world), sheet, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def confirm(world: dict[str, Any], version: dict[str, Any]) -> None:
    response = api(world["checker"]).post(f"/api/v1/results/{version['id']}/confirm/")
    assert response.status_code == 200, response.json()


def test_a_sheet_is_entered_confirmed_and_counted_with_the_games_figures(world) -> None:
    game, pairing = world["game"], world["pairing"]
    version = enter(world, SHEETS[game])
    assert version["status"] == "pending" and version["first_dealer"] is None
    assert version["deals"] == SHEETS[game]["deals"]
    assert not Match.objects.filter(table=pairing.table).exists()  # nothing until confirmed
    mine = api(world["referee"], "zh-hans").post(f"/api/v1/results/{version['id']}/confirm/")
    assert mine.status_code == 400 and "另一人" in mine.json()["detail"]
    confirm(world, version)
    match = Match.objects.get(table=pairing.table)
    assert match.sheet == SHEETS[game] and audit.matches_audit([match]).ok
    seats = dict(pairing.table.seats.values_list("seat", "player_id"))
    rows = {r.player: r for r in event_player_standings(event=world["event"])}
    for seat, points in enumerate(match.points):
        assert rows[seats[seat]].points == points
    totals = {t.player_id: t.figures for t in PlayerTotal.objects.filter(event=world["event"])}
    key = "rating" if game == "shanghai_doudizhu" else "silver"
    for seat in range(4):
        assert totals[seats[seat]][key] == match.figures[key][str(seat)]
    if game == "shanghai_doudizhu":
        assert match.figures["rating"] == {"0": 4, "1": -4, "2": 0, "3": 0}
        assert totals[seats[0]]["landlord_wins"] == 1
    else:
        assert match.points == [-3, -1, 4, 0] and totals[seats[2]]["silver"] == 4
        # deal 1: seat 2 declared and slammed the three others (宣牌成功, 全关)
        assert [totals[seats[s]]["declared_won"] for s in range(4)] == [0, 0, 1, 0]
        assert [totals[seats[s]]["slams"] for s in range(4)] == [0, 0, 1, 0]


@pytest.mark.parametrize("case", range(4))
def test_a_bad_sheet_is_refused_naming_the_deal_and_field(world, case: int) -> None:
    sheet, reason = BAD[world["game"]][case]
    response = api(world["referee"]).post(results_url(world), sheet, format="json")
    assert response.status_code == 400
    assert reason in response.json()["detail"]
    assert not ResultSubmission.objects.exists()
    assert not Match.objects.exists()


def test_malformed_input_is_refused_with_a_message(world) -> None:
    url = results_url(world)
    for body in (
        {"deals": []},
        {"deals": "x"},
        {"first_dealer": 4, "deals": SHEETS[world["game"]]["deals"]},
        {"first_dealer": 9, "deals": SHEETS[world["game"]]["deals"]},
        {"deals": [{"leave": 0}, {"leave": 1}]},
    ):
        response = api(world["referee"]).post(url, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["detail"]
    assert not ResultSubmission.objects.exists()


def test_a_correction_replaces_the_recorded_match_and_the_standings(world) -> None:
    game, pairing = world["game"], world["pairing"]
    confirm(world, enter(world, SHEETS[game]))
    correction = enter(world, CORRECTIONS[game])
    assert correction["version"] == 2
    confirm(world, correction)
    match = Match.objects.get(table=pairing.table)
    assert match.sheet == CORRECTIONS[game] and match.deals.count() == 1
    statuses = list(pairing.results.order_by("version").values_list("status", flat=True))
    assert statuses == ["superseded", "confirmed"]
    seats = dict(pairing.table.seats.values_list("seat", "player_id"))
    rows = {r.player: r for r in event_player_standings(event=world["event"])}
    assert [rows[seats[s]].points for s in range(4)] == match.points
    public = APIClient().get(results_url(world)).json()
    assert [v["version"] for v in public] == [2]


def test_a_rejected_version_records_nothing(world) -> None:
    version = enter(world, SHEETS[world["game"]])
    rejected = api(world["checker"]).post(
        f"/api/v1/results/{version['id']}/reject/", {"reason": "wrong landlord"}, format="json"
    )
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    assert not Match.objects.exists()


# --- The organizer's form -------------------------------------------------------------------------

#: the form's picks for the first sheet of each game (seat numbers are picked by name)
PICKS: dict[str, dict[str, str]] = {
    "shanghai_doudizhu": {
        "d1_end": "landlord",
        "d1_landlord": "0",
        "d1_bid": "2",
        "d1_report": "none",
        "d2_end": "all_pass",
        "d3_end": "farmers",
        "d3_landlord": "1",
        "d3_bid": "3",
        "d3_head_bid": "1",
        "d3_marked_joker": "1",
        "d3_report": "none",
    },
    "xiaoluzi": {
        "d1_mode": "declared",
        "d1_declarer": "2",
        "d1_1": "2",
        "d1_played_0": "0",
        "d1_played_1": "0",
        "d1_played_2": "8",
        "d1_played_3": "0",
        "d2_mode": "none",
        "d2_1": "3",
        "d2_2": "1",
        "d2_3": "0",
        "d2_played_0": "8",
        "d2_played_1": "8",
        "d2_played_2": "5",
        "d2_played_3": "8",
    },
}


def browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the refusals are matched in English
    return client


def page_url(world: dict[str, Any]) -> str:
    return reverse("tournaments:table_result", args=[world["event"].pk, world["pairing"].pk])


def test_the_form_picks_by_name_previews_enters_and_is_confirmed(world) -> None:
    game, pairing = world["game"], world["pairing"]
    referee = browser(world["referee"])
    names = list(pairing.table.seats.order_by("seat").values_list("player__name", flat=True))
    page = referee.get(page_url(world)).content.decode()
    field = "d1_landlord" if game == "shanghai_doudizhu" else "d1_declarer"
    assert f'name="{field}"' in page and all(name in page for name in names)
    preview = referee.post(page_url(world), {"action": "preview", **PICKS[game]})
    text = preview.content.decode()
    assert preview.status_code == 200 and "seats-preview" in text
    assert not ResultSubmission.objects.exists()
    sheet = preview.context["sheet"]
    assert json.loads(sheet) == SHEETS[game]  # the picks make the game's own sheet
    entered = referee.post(page_url(world), {"action": "submit", "sheet": sheet})
    assert entered.status_code == 302
    version = ResultSubmission.objects.get()
    assert version.deals == SHEETS[game]["deals"] and version.first_dealer is None
    checker = browser(world["checker"])
    review = checker.get(page_url(world)).content.decode()
    assert "seats-preview" in review and ('value="confirm"' in review)
    done = checker.post(page_url(world), {"action": "confirm", "submission": version.pk})
    assert done.status_code == 302
    match = Match.objects.get(table=pairing.table)
    assert match.sheet == SHEETS[game]


def test_the_form_shows_the_engines_refusal_and_keeps_the_picks(world) -> None:
    game = world["game"]
    picks = dict(PICKS[game])
    if game == "shanghai_doudizhu":
        picks["d1_bid"] = "4"
        reason = "deal 1: bid"
    else:
        picks["d1_counter"] = "1"
        reason = "deal 1: counter"
    response = browser(world["referee"]).post(page_url(world), {"action": "preview", **picks})
    text = response.content.decode()
    assert response.status_code == 200 and reason in text
    assert 'value="4"' in text or 'value="1" selected' in text  # the picks are shown again
    bad = browser(world["referee"]).post(
        page_url(world),
        {
            "action": "preview",
            "d1_landlord": "x",
            "d1_end": "landlord",
            "d1_mode": "declared",
            "d1_declarer": "x",
        },
    )
    errors = [str(m) for m in bad.context["messages"]]
    field = "landlord" if game == "shanghai_doudizhu" else "declarer"
    assert bad.status_code == 200 and len(errors) == 1 and field in errors[0]
    typed = browser(world["referee"]).post(
        page_url(world), {"action": "preview", "sheet": "[[[" * 5}
    )
    assert typed.status_code == 200
    assert not ResultSubmission.objects.exists()


def test_the_typed_sheet_is_the_apis_body(world) -> None:
    game = world["game"]
    body = json.dumps(SHEETS[game])
    response = browser(world["referee"]).post(page_url(world), {"action": "submit", "sheet": body})
    assert response.status_code == 302
    assert ResultSubmission.objects.get().deals == SHEETS[game]["deals"]


def test_the_printable_sheet_has_the_games_columns(world) -> None:
    event, pairing = world["event"], world["pairing"]
    client = browser(world["referee"])
    one = client.get(reverse("tournaments:score_sheet", args=[event.pk, pairing.pk]))
    text = one.content.decode()
    assert one.status_code == 200
    if world["game"] == "shanghai_doudizhu":
        assert "头撂" in text and "摊打" in text and "标记王" in text
    else:
        assert "关牌" in text and "反声明" in text
    names = pairing.table.seats.values_list("player__name", flat=True)
    assert all(name in text for name in names)
    every = client.get(reverse("tournaments:score_sheets", args=[event.pk, pairing.round.number]))
    assert every.status_code == 200 and text.count("<tr>") <= every.content.decode().count("<tr>")
