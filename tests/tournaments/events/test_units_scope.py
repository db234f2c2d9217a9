"""Issue 25, units: a parent unit whose departments an event uses is that event's too (another
meet's organizer may not rename it in the admin), and an import resolves unit names within the
event's meet (it never makes another meet's unit its own)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.events.registration_import import event_import
from tournaments.events.staff import event_organizer_add, organizer_group_ensure
from tournaments.models import Membership, Unit

pytestmark = pytest.mark.django_db


def _organizer(event: Any) -> Any:
    user = UserFactory(is_staff=True)
    user.groups.add(organizer_group_ensure())
    event_organizer_add(event=event, user=user)
    return user


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _rename(client: Client, unit: Unit, name: str) -> int:
    empty = {"memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"}
    response = client.post(
        f"/admin/tournaments/unit/{unit.pk}/change/", {"name": name, "kind": unit.kind, **empty}
    )
    return response.status_code


def test_a_parent_unit_of_another_meets_departments_is_out_of_reach() -> None:
    a_event, b_event = EventFactory(), EventFactory()
    company = UnitFactory(name="华东精工集团", kind=Unit.Kind.COMPANY)
    TeamFactory(event=a_event, unit=UnitFactory(name="研发中心", parent=company))
    b = _organizer(b_event)
    client = _client(b)
    assert _rename(client, company, "改名") in (403, 404)
    company.refresh_from_db()
    assert company.name == "华东精工集团"
    listed = client.get("/admin/tournaments/unit/").content.decode()
    assert "华东精工集团" not in listed
    # A reaches it, and may rename it while no other event holds it.
    a = _organizer(a_event)
    assert _rename(_client(a), company, "华东精工") == 302


def test_a_parent_unit_shared_within_a_meet_is_read_only() -> None:
    a_event = EventFactory()
    c_event = EventFactory(meet=a_event.meet)
    company = UnitFactory(name="集团")
    TeamFactory(event=a_event, unit=UnitFactory(name="一部", parent=company))
    TeamFactory(event=c_event, unit=UnitFactory(name="二部", parent=company))
    assert _rename(_client(_organizer(c_event)), company, "改名") == 403


def test_an_import_resolves_units_within_the_events_meet() -> None:
    a_event, b_event = EventFactory(), EventFactory()
    theirs = UnitFactory(name="研发中心")
    TeamFactory(event=a_event, unit=theirs)
    b = _organizer(b_event)
    rows = "姓名,部门\n甲,研发中心\n乙,研发中心\n丙,研发中心\n"
    event_import(event=b_event, filename="p.csv", content=rows.encode(), user=b)
    made = b_event.teams.get().unit
    assert made != theirs and made.name == "研发中心" and made.meet == b_event.meet
    assert not Membership.objects.filter(unit=theirs, player__registrations__event=b_event)
    assert _rename(_client(b), theirs, "改名") in (403, 404)
    assert _rename(_client(b), made, "研发部") == 302
    # Without creating units, another meet's unit is unknown here.
    c_event = EventFactory()
    plan_rows = "姓名,部门\n丁,研发部\n"
    from tournaments.events.registration_import import event_import_plan

    with translation.override("en"):
        plan = event_import_plan(
            event=c_event, filename="p.csv", content=plan_rows.encode(), create_units=False
        )
    assert [p.message for p in plan.problems] == ["unknown unit: 研发部"]
    # A second import into B's meet finds B's unit again.
    again = EventFactory(meet=b_event.meet)
    event_import(event=again, filename="p.csv", content="姓名,部门\n戊,研发部\n".encode())
    assert Membership.objects.get(player__name="戊").unit == made
