"""An organizer seats an individual event's draft by hand on a phone: a choice per seat, saved,
then shown back; the page does not run off the screen. Real Chromium against the ASGI server."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from tests.browser.conftest import ARTIFACTS
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import Event, RoundEntry

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def test_an_organizer_seats_a_table_of_four_by_hand_on_a_phone(
    live_asgi: str, browser: Any
) -> None:
    event = EventFactory(
        game="xiaoluzi",
        pairing_format=Event.PairingFormat.MANUAL,
        table_mode=Table.Mode.OFFLINE,
        fill_with_bots=True,
    )
    people = [PlayerFactory(name=f"选手{i}") for i in range(1, 6)]
    events_entries.registration_ensure(event=event, players=people)
    user = get_user_model().objects.create_user(username="organizer", password=PASSWORD)
    events_staff.event_organizer_add(event=event, user=user)
    round_ = draw_services.round_create_paired(event=event, user=user)

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_asgi}/accounts/login/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_asgi}/events/{event.pk}/manage/")
    for seat, value in enumerate(["选手3", "选手1", "机器人", "选手5"]):
        page.select_option(f"select[name=s1_{seat}]", label=value)
    page.click("form.seats-draft button[type=submit]")
    page.wait_for_load_state()
    assert "对阵已保存" in page.content()
    pairing = round_.pairings.get()
    seated = list(pairing.table.seats.order_by("seat").select_related("player"))
    assert [s.player.name for s in seated[:2]] + [seated[3].player.name] == [
        "选手3",
        "选手1",
        "选手5",
    ]
    assert seated[2].player.is_bot
    byes = RoundEntry.objects.filter(round=round_, pairing__isnull=True)
    assert sorted(e.player.name for e in byes) == ["选手2", "选手4"]
    # the saved seats come back chosen, and the page is no wider than the phone
    assert page.input_value("select[name=s1_0]") == str(people[2].pk)
    assert page.input_value("select[name=s1_2]") == "bot"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "manual_draw_phone.png"), full_page=True)
