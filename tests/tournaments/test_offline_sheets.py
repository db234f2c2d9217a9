"""Offline tables of 上海斗地主 and 小路子 (issue 16): the referee enters the game's own score
sheet (API and the organizer's form), the engine refuses a bad one with its reason (naming the
deal and the field) and writes nothing, a second person confirms, a correction replaces the
recorded match, and the standings carry the game's figures (rating, silver)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games import audit
from games.models import Match, Table
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments import services
from tournaments.models import PlayerTotal, ResultSubmission
from tournaments.selectors import event_player_standings

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
    unit = UnitFactory()
    people = PlayerFactory.create_batch(4)
    for player in people:
        services.membership_ensure(player=player, unit=unit)
    services.registration_ensure(event=event, players=people)
    referee, checker = UserFactory(), UserFactory()
    services.event_organizer_add(event=event, user=referee)
    services.event_organizer_add(event=event, user=checker)
    round_ = services.round_create_paired(event=event, confirm=True)
    services.round_start(round=round_)
    pairing = round_.pairings.get()
    assert pairing.team_a_id is None and pairing.table.seat_count == 4
    return {
        "game": game,
        "event": event,
        "pairing": pairing,
        "referee": referee,
        "checker": checker,
    }


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
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
    mine = api(world["referee"]).post(f"/api/v1/results/{version['id']}/confirm/")
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
