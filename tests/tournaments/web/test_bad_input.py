"""Malformed forms and API bodies are refused with a 4xx and a message, and change nothing
(issue 11: each of these was a 500)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Match, Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.models import ResultSubmission, Round, RoundLog
from tournaments.results.services import result_submit
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture
def world():
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for unit in (UnitFactory(), UnitFactory()):
        TeamFactory(event=event, unit=unit)
    referee, checker = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=referee)
    event_organizer_add(event=event, user=checker)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    return {"event": event, "round": round_, "pairing": round_.pairings.get(), "referee": referee}


def _web(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def _api(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    client.cookies["django_language"] = "en"
    return client


@pytest.mark.parametrize("value", ["abc", "", "-1", "0", "1.5", "٣", "9" * 30])
def test_a_round_action_with_a_malformed_round_is_a_400(world, value: str) -> None:
    event = world["event"]
    before = (list(Round.objects.values_list("pk", "status")), RoundLog.objects.count())
    response = _web(world["referee"]).post(
        f"/events/{event.pk}/manage/rounds/confirm/", {"round": value}
    )
    assert response.status_code == 400
    assert "round" in response.content.decode()
    assert (list(Round.objects.values_list("pk", "status")), RoundLog.objects.count()) == before


def test_a_table_edit_with_a_huge_count_or_team_is_refused_at_once(world) -> None:
    event = world["event"]
    draft = Round.objects.create(event=event, number=2)
    web = _web(world["referee"])
    url = f"/events/{event.pk}/manage/rounds/tables/"
    for form in (
        {"round": draft.pk, "count": str(10**15)},  # was a loop of 10**15 steps
        {"round": draft.pk, "count": "1", "a1": "9" * 30, "b1": "1"},
        {"round": draft.pk, "count": "1", "a1": "-1", "b1": "1"},
    ):
        response = web.post(url, form, follow=True)
        assert response.status_code == 200
        assert "Choose two teams for every table." in response.content.decode()
    assert not draft.pairings.exists()


@pytest.mark.parametrize("value", ["abc", "", "0", "1e3", "9" * 30])
def test_a_result_review_with_a_malformed_submission_is_a_400(world, value: str) -> None:
    event, pairing = world["event"], world["pairing"]
    submission = result_submit(
        pairing=pairing, user=world["referee"], first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    checker = UserFactory()
    event_organizer_add(event=event, user=checker)
    response = _web(checker).post(
        f"/events/{event.pk}/manage/tables/{pairing.pk}/result/",
        {"action": "confirm", "submission": value},
    )
    assert response.status_code == 400
    assert "submission" in response.content.decode()
    submission.refresh_from_db()
    assert submission.status == ResultSubmission.Status.PENDING
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "deals",
    [
        '[{"finish": [1e400]}]',  # an OverflowError in int(inf)
        '[{"finish": [0.9, 2.2, 4.7]}]',  # was stored as [0, 2, 4]
        '[{"finish": [0.0, 2, 4]}]',
        '[{"finish": [true, 2, 4]}]',
        '[{"finish": [0, 2, 4], "escape": 1.5}]',
        '[{"finish": [], "leave": -1e400}]',
        '[{"finish": ["0x1"]}]',
        '[{"finish": ["1.0"]}]',
        f'[{{"finish": [{10**30}]}}]',
        '[{"finish": [[0], {"a": 1}]}]',
    ],
)
def test_the_results_api_refuses_seats_that_are_not_whole_numbers(world, deals: str) -> None:
    pairing = world["pairing"]
    response = _api(world["referee"]).post(
        f"/api/v1/tables/{pairing.pk}/results/",
        f'{{"first_dealer": 0, "deals": {deals}}}',
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    assert "seats are numbers 0 to 5" in response.json()["detail"]
    assert not ResultSubmission.objects.exists()


def test_seats_as_whole_numbers_or_digits_are_still_read(world) -> None:
    pairing = world["pairing"]
    response = _api(world["referee"]).post(
        f"/api/v1/tables/{pairing.pk}/results/",
        {"first_dealer": 0, "deals": [{"finish": [0, "2", 4]}]},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert ResultSubmission.objects.get().deals == [{"finish": [0, 2, 4]}]


@pytest.mark.parametrize("body", ["null", "[]", '"text"', "1e400", "[1, 2]"])
def test_completing_a_round_with_a_body_that_is_no_object_is_a_400(world, body: str) -> None:
    round_ = world["round"]
    response = _api(world["referee"]).post(
        f"/api/v1/rounds/{round_.pk}/complete/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert "JSON object" in response.json()["detail"]
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING
