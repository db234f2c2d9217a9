"""The tournaments API: public reads, organizer-only writes, clear 4xx messages, CSV, schema."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from games.models import Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, ResultSubmission, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for _ in range(4):
        TeamFactory(event=event, unit=UnitFactory())
    organizer, second, stranger = UserFactory(), UserFactory(), UserFactory()
    event_organizer_add(event=event, user=organizer)
    event_organizer_add(event=event, user=second)
    return {"event": event, "organizer": organizer, "second": second, "stranger": stranger}


def client(user=None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_a_round_from_pairing_to_confirmed_result_through_the_api(world) -> None:
    event = world["event"]
    org = client(world["organizer"])
    response = org.post(f"/api/v1/events/{event.pk}/rounds/", {"confirm": True}, format="json")
    assert response.status_code == 201, response.json()
    round_id = response.json()["id"]
    assert response.json()["status"] == "confirmed" and len(response.json()["tables"]) == 2
    assert org.post(f"/api/v1/rounds/{round_id}/start/").json()["status"] == "running"
    table = response.json()["tables"][0]
    entered = org.post(
        f"/api/v1/tables/{table['id']}/results/",
        {"first_dealer": 0, "deals": [{"finish": [0, 2, 4]}]},
        format="json",
    )
    assert entered.status_code == 201, entered.json()
    same = org.post(f"/api/v1/results/{entered.json()['id']}/confirm/")
    assert same.status_code == 400
    assert (
        same.json()["detail"] == "成绩须由另一人审核：这一版是你自己录入的。"
    )  # Chinese by default
    confirmed = client(world["second"]).post(f"/api/v1/results/{entered.json()['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    standings = client().get(f"/api/v1/events/{event.pk}/standings/?kind=team").json()
    assert standings["rows"][0]["team_id"] == table["team_a"]["id"]
    assert standings["rows"][0]["points"] == 18 and standings["rows"][0]["rank"] == 1
    players = client().get(f"/api/v1/events/{event.pk}/standings/?kind=player").json()["rows"]
    assert len(players) == 12 and players[0]["points"] == 6
    units = client().get(f"/api/v1/events/{event.pk}/standings/?kind=unit").json()["rows"]
    assert units[0]["points"] == 18
    public = client().get(f"/api/v1/tables/{table['id']}/results/").json()
    assert [v["status"] for v in public] == ["confirmed"]


def test_standings_csv_has_a_header_and_a_row_per_team(world) -> None:
    response = client().get(f"/api/v1/events/{world['event'].pk}/standings.csv?kind=team")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 4 and rows[0]["rank"] == "1" and "opponents_points" in rows[0]


def test_bad_kind_and_bad_input_get_clear_messages(world) -> None:
    event = world["event"]
    response = client().get(f"/api/v1/events/{event.pk}/standings/?kind=coach")
    assert response.status_code == 400
    assert (
        response.json()["detail"] == "kind 只能是以下之一：team、player、unit（收到的是“coach”）。"
    )
    response = client().get(f"/api/v1/events/{event.pk}/standings.csv?kind=coach")
    assert response.status_code == 400
    response = client(world["organizer"]).post(
        f"/api/v1/events/{event.pk}/rounds/", {"confirm": "perhaps"}, format="json"
    )
    assert response.status_code == 400 and "confirm" in response.json()["errors"]


def test_non_organizers_cannot_write_and_nothing_changes(world) -> None:
    event = world["event"]
    for user in (None, world["stranger"]):
        response = client(user).post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
        assert response.status_code == 403, response.json()
        assert response.json()["detail"]
    assert not Round.objects.exists()
    round_id = client(world["organizer"]).post(f"/api/v1/events/{event.pk}/rounds/").json()["id"]
    for path in ("confirm", "start", "complete"):
        # A draft is its organizers' alone: to anyone else it is not there (issue 11).
        assert (
            client(world["stranger"]).post(f"/api/v1/rounds/{round_id}/{path}/").status_code == 404
        )
    assert Round.objects.get().status == "draft"
    client(world["organizer"]).post(f"/api/v1/rounds/{round_id}/confirm/")
    for path in ("start", "complete"):
        assert (
            client(world["stranger"]).post(f"/api/v1/rounds/{round_id}/{path}/").status_code == 403
        )
    assert Round.objects.get().status == "confirmed"


def test_editing_a_confirmed_round_is_a_conflict(world) -> None:
    event = world["event"]
    org = client(world["organizer"])
    created = org.post(
        f"/api/v1/events/{event.pk}/rounds/", {"confirm": True}, format="json"
    ).json()
    teams = [
        t for table in created["tables"] for t in (table["team_a"]["id"], table["team_b"]["id"])
    ]
    response = org.put(
        f"/api/v1/rounds/{created['id']}/tables/",
        {"tables": [teams[:2], teams[2:]]},
        format="json",
    )
    assert response.status_code == 409 and "只有草稿可以修改" in response.json()["detail"]


def test_private_events_are_hidden_from_the_public(world) -> None:
    Event.objects.filter(pk=world["event"].pk).update(is_private=True)
    assert client().get(f"/api/v1/events/{world['event'].pk}/standings/").status_code == 404
    assert client().get("/api/v1/events/").json() == []
    assert client(world["organizer"]).get(f"/api/v1/events/{world['event'].pk}/").status_code == 200


def test_meet_standings_and_schema(world) -> None:
    response = client().get(f"/api/v1/meets/{world['event'].meet_id}/standings/")
    assert response.status_code == 200 and response.json()["placement_points"][0] == 7
    schema = client().get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/events/{id}/standings/" in schema.content


def test_results_list_shows_organizers_every_version(world) -> None:
    assert ResultSubmission.objects.count() == 0
    org = client(world["organizer"])
    created = org.post(
        f"/api/v1/events/{world['event'].pk}/rounds/", {"confirm": True}, format="json"
    ).json()
    org.post(f"/api/v1/rounds/{created['id']}/start/")
    pairing = created["tables"][0]["id"]
    bad = org.post(
        f"/api/v1/tables/{pairing}/results/",
        {"first_dealer": 0, "deals": [{"finish": [0, 2, 4, 1]}]},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["detail"]
    org.post(
        f"/api/v1/tables/{pairing}/results/",
        {"first_dealer": 0, "deals": [{"finish": [0, 2, 4]}]},
        format="json",
    )
    reject = client(world["second"]).post(
        f"/api/v1/results/{ResultSubmission.objects.get().pk}/reject/", {}, format="json"
    )
    assert reject.status_code == 400
    assert [v["status"] for v in org.get(f"/api/v1/tables/{pairing}/results/").json()] == [
        "pending"
    ]
    assert client().get(f"/api/v1/tables/{pairing}/results/").json() == []


def test_import_through_the_api_previews_refuses_and_imports() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    event = EventFactory()
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    org = client(organizer)
    url = f"/api/v1/events/{event.pk}/import/"
    good = "姓名,部门\n甲,研发\n乙,研发\n丙,研发\n".encode()
    preview = org.post(f"{url}?dry_run=1", {"file": SimpleUploadedFile("p.csv", good)})
    assert preview.status_code == 200 and preview.json()["teams"][0]["name"] == "研发一队"
    assert not event.teams.exists()
    bad = org.post(url, {"file": SimpleUploadedFile("p.csv", good + "甲,研发\n".encode())})
    assert bad.status_code == 400 and bad.json()["problems"][0]["row"] == 5
    assert org.post(url, {}).status_code == 400
    stranger = client(UserFactory()).post(url, {"file": SimpleUploadedFile("p.csv", good)})
    assert stranger.status_code == 403
    done = org.post(url, {"file": SimpleUploadedFile("p.csv", good)})
    assert done.status_code == 201 and event.teams.count() == 1


def test_cached_standings_follow_a_correction_at_once(world) -> None:
    event = world["event"]
    org, second = client(world["organizer"]), client(world["second"])
    created = org.post(f"/api/v1/events/{event.pk}/rounds/", {"confirm": True}, format="json")
    org.post(f"/api/v1/rounds/{created.json()['id']}/start/")
    table = created.json()["tables"][0]
    url = f"/api/v1/tables/{table['id']}/results/"
    standings = f"/api/v1/events/{event.pk}/standings/"

    def enter_and_confirm(by, checker, finish) -> None:
        entered = by.post(url, {"first_dealer": 0, "deals": [{"finish": finish}]}, format="json")
        checker.post(f"/api/v1/results/{entered.json()['id']}/confirm/")

    enter_and_confirm(org, second, [0, 2, 4])
    assert client().get(standings).json()["rows"][0]["team_id"] == table["team_a"]["id"]
    enter_and_confirm(second, org, [1, 3, 5])  # the correction
    assert client().get(standings).json()["rows"][0]["team_id"] == table["team_b"]["id"]
