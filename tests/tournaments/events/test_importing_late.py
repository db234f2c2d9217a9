"""Issue 26, import: a running individual event takes late players (they join from the next
round); a running team event says in the preview, before any button, why import is closed and
what to do; re-imported names (no employee number) are named as likely duplicates."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.events.registration_import import event_import, event_import_plan
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, Registration

pytestmark = pytest.mark.django_db

ROWS = "姓名,部门\n甲,研发\n乙,研发\n丙,研发\n丁,市场\n"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def _organized(**fields: Any) -> tuple[Event, Client]:
    event = EventFactory(**fields)
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    client = Client()
    client.force_login(organizer)
    return event, client


def _preview(client: Client, event: Event, rows: str = ROWS) -> str:
    response = client.post(
        f"/events/{event.pk}/manage/import/",
        {
            "step": "preview",
            "file": SimpleUploadedFile("p.csv", rows.encode()),
            "create_units": "1",
        },
    )
    assert response.status_code == 200
    return response.content.decode()


def test_a_running_individual_event_takes_late_players() -> None:
    event, client = _organized(game="xiaoluzi", status=Event.Status.RUNNING)
    page = _preview(client, event)
    assert 'value="import"' in page and 'id="import-closed"' not in page
    response = client.post(f"/events/{event.pk}/manage/import/", {"step": "import"})
    assert response.status_code in (200, 302)
    assert Registration.objects.filter(event=event).count() == 4
    assert not event.teams.exists()  # an individual event registers each player


def test_a_running_team_event_says_why_before_the_button() -> None:
    event, client = _organized(status=Event.Status.RUNNING)
    form = client.get(f"/events/{event.pk}/manage/import/").content.decode()
    assert 'id="import-closed"' in form  # said before a file is even chosen
    page = _preview(client, event)
    assert 'id="import-closed"' in page and 'value="import"' not in page
    with translation.override("en"):  # the requests above left Chinese active
        plan = event_import_plan(event=event, filename="p.csv", content=ROWS.encode())
    assert "during registration" in plan.closed and "admin" in plan.closed


def test_re_imported_names_are_named_as_likely_duplicates() -> None:
    event, client = _organized(game="xiaoluzi")
    event_import(event=event, filename="p.csv", content=ROWS.encode())
    plan = event_import_plan(
        event=event, filename="p.csv", content="姓名,部门\n甲,研发\n戊,研发\n".encode()
    )
    [warning] = [w for w in plan.warnings if "Likely duplicates" in w]
    assert "row 2 甲" in warning and "戊" not in warning
    page = _preview(client, event, "姓名,部门\n甲,研发\n")
    assert "甲" in page and 'class="tag warn"' in page
