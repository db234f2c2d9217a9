"""A round's state machine (issue 28): one table of allowed status changes, refused changes say why
(API 409, the dashboard and the admin a message, never a 500), and every path that changes a
round's status writes its log once."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from config.exceptions import ConflictError
from games.models import Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, RoundFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import staff as events_staff
from tournaments.knockout import deciding as knockout_deciding
from tournaments.knockout import services as knockout_services
from tournaments.models import Event, Round, RoundLog
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services
from tournaments.rounds.running import round_tables_start
from tournaments.rounds.state import TRANSITIONS, round_transition

pytestmark = pytest.mark.django_db

S = Round.Status
A = RoundLog.Action


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(table_mode=Table.Mode.OFFLINE, deals_per_match=1)
    organizer, checker = UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    events_staff.event_organizer_add(event=event, user=checker)
    for i in range(4):
        TeamFactory(event=event, unit=UnitFactory(), name=f"T{i}")
    return {"event": event, "organizer": organizer, "checker": checker}


@pytest.fixture
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


STEPS = (A.PAIRED, A.CONFIRMED, A.STARTED, A.COMPLETED)


def _actions(round: Round) -> Counter[str]:
    """How often the round's log names each step (results entered are logged too, apart)."""
    return Counter(round.log.filter(action__in=STEPS).values_list("action", flat=True))


def _play(round: Round, world: dict[str, Any]) -> None:
    """Every offline table of ``round``: side A goes out first, entered and confirmed."""
    for pairing in round.pairings.order_by("number"):
        submission = result_submit(
            pairing=pairing, user=world["organizer"], first_dealer=0, deals=[{"finish": [0, 2, 4]}]
        )
        result_confirm(submission=submission, user=world["checker"])


def test_the_table_allows_only_draft_confirmed_running_completed_in_order() -> None:
    assert TRANSITIONS == {
        (S.DRAFT, S.CONFIRMED): A.CONFIRMED,
        (S.CONFIRMED, S.RUNNING): A.STARTED,
        (S.RUNNING, S.COMPLETED): A.COMPLETED,
    }


@pytest.mark.parametrize(
    ("start", "to"),
    [pair for pair in itertools.product(S, S) if pair not in TRANSITIONS],
)
def test_every_other_change_is_refused_and_changes_nothing(
    english: None, start: Round.Status, to: Round.Status
) -> None:
    round = RoundFactory(status=start, number=1)
    with pytest.raises(ConflictError, match=rf"^Round 1 is {start.label}\b") as refused:
        round_transition(round, to, user=None)
    assert "cannot" in refused.value.message or "not" in refused.value.message
    round.refresh_from_db()
    assert round.status == start and not round.log.exists()


def test_an_allowed_change_saves_the_status_and_writes_the_log_once() -> None:
    round = RoundFactory(status=S.DRAFT)
    user = UserFactory()
    round_transition(round, S.CONFIRMED, user=user, detail="why")
    assert Round.objects.get(pk=round.pk).status == S.CONFIRMED
    assert list(round.log.values_list("action", "detail", "user")) == [
        (A.CONFIRMED, "why", user.pk)
    ]


def test_the_api_refuses_starting_a_draft_with_409_and_the_reason(world: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(world["organizer"])
    round = draw_services.round_create_paired(event=world["event"], user=world["organizer"])
    response = api.post(f"/api/v1/rounds/{round.pk}/start/")
    assert response.status_code == 409
    assert response.json()["detail"] == "第1轮的状态是“草稿”，不是“已确认”。"
    response = api.post(f"/api/v1/rounds/{round.pk}/complete/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["detail"] == "第1轮的状态是“草稿”，不是“进行中”。"
    round.refresh_from_db()
    assert round.status == S.DRAFT and A.STARTED not in _actions(round)


def test_the_dashboard_refuses_completing_a_confirmed_round_with_a_message(
    world: dict[str, Any],
) -> None:
    event = world["event"]
    round = draw_services.round_create_paired(event=event, user=world["organizer"], confirm=True)
    client = Client()
    client.force_login(world["organizer"])
    url = reverse("tournaments:round_action", args=[event.pk, "complete"])
    response = client.post(url, {"round": round.pk}, follow=True)
    assert response.status_code == 200  # back on the dashboard, which says why
    shown = [str(m) for m in response.context["messages"]]
    assert shown == ["第1轮的状态是“已确认”，不是“进行中”。"]
    round.refresh_from_db()
    assert round.status == S.CONFIRMED and A.COMPLETED not in _actions(round)


def test_the_admin_steps_a_round_and_refuses_a_wrong_step_with_a_message(
    world: dict[str, Any],
) -> None:
    round = draw_services.round_create_paired(event=world["event"], user=world["organizer"])
    client = Client()
    client.force_login(world["organizer"])
    url = reverse("admin:tournaments_round_changelist")

    def act(action: str) -> list[str]:
        response = client.post(
            url, {"action": action, ACTION_CHECKBOX_NAME: [round.pk], "index": 0}, follow=True
        )
        assert response.status_code == 200
        return [str(m) for m in response.context["messages"]]

    assert act("start_rounds") == [f"{round}: 第1轮的状态是“草稿”，不是“已确认”。"]
    round.refresh_from_db()
    assert round.status == S.DRAFT
    assert act("confirm_rounds") == [f"{round}: 已确认。"]
    round.refresh_from_db()
    assert round.status == S.CONFIRMED and _actions(round)[A.CONFIRMED] == 1
    assert act("confirm_rounds") == [f"{round}: 第1轮的状态是“已确认”，不是草稿。"]
    assert _actions(round)[A.CONFIRMED] == 1


def test_another_events_organizer_is_refused_in_the_admin(world: dict[str, Any]) -> None:
    round = draw_services.round_create_paired(event=world["event"], user=world["organizer"])
    other = UserFactory()
    events_staff.event_organizer_add(event=EventFactory(), user=other)
    client = Client()
    client.force_login(other)
    client.post(
        reverse("admin:tournaments_round_changelist"),
        {"action": "confirm_rounds", ACTION_CHECKBOX_NAME: [round.pk], "index": 0},
    )
    round.refresh_from_db()
    assert round.status == S.DRAFT and not _actions(round)[A.CONFIRMED]


def test_each_path_of_a_round_writes_each_step_once(world: dict[str, Any]) -> None:
    event, organizer = world["event"], world["organizer"]
    # the dashboard's and the API's services
    first = draw_services.round_create_paired(event=event, user=organizer, confirm=True)
    rounds_services.round_start(round=first, user=organizer)
    _play(first, world)
    rounds_services.round_complete(round=first, user=organizer)
    assert _actions(first) == {A.PAIRED: 1, A.CONFIRMED: 1, A.STARTED: 1, A.COMPLETED: 1}
    # the running command's path, and a new round that completes the last
    second = draw_services.round_create_paired(event=event, user=organizer, confirm=True)
    assert round_tables_start(round=second) == 0  # offline tables: no match starts
    _play(second, world)
    draw_services.round_create_paired(event=event, user=organizer)
    assert Round.objects.get(pk=second.pk).status == S.COMPLETED
    log = list(second.log.filter(action__in=STEPS).values_list("action", "detail"))
    assert Counter(a for a, _ in log) == {
        A.PAIRED: 1,
        A.CONFIRMED: 1,
        A.STARTED: 1,
        A.COMPLETED: 1,
    }
    assert (A.STARTED, "online matches started: 0") in log


def test_the_knockout_stage_writes_each_step_once(world: dict[str, Any]) -> None:
    event, organizer = world["event"], world["organizer"]
    group = draw_services.round_create_paired(event=event, user=organizer, confirm=True)
    rounds_services.round_start(round=group, user=organizer)
    _play(group, world)
    stage = knockout_services.knockout_break(
        event=event, size=4, user=organizer
    )  # completes the group
    assert _actions(group)[A.COMPLETED] == 1
    semi = knockout_services.knockout_confirm(stage=stage, user=organizer)
    assert _actions(semi) == {A.PAIRED: 1, A.CONFIRMED: 1}
    knockout_services.knockout_start(stage=stage, user=organizer)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    assert list(semi.log.filter(action=A.STARTED).values_list("detail", flat=True)) == [
        "online matches started: 0"
    ]
    with pytest.raises(ConflictError):
        rounds_services.round_start(round=semi, user=organizer)  # started already
    _play(semi, world)
    knockout_deciding.knockout_complete(stage=stage, user=organizer)
    assert _actions(semi) == {A.PAIRED: 1, A.CONFIRMED: 1, A.STARTED: 1, A.COMPLETED: 1}
