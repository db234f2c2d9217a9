"""A referee enters an offline table's result by picking names, sees the engine's preview before
entering it, and a second organizer sees the same preview before confirming; then the entry form
goes away (issue 15). Real Chromium against the real ASGI server."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from tests.browser.conftest import ARTIFACTS
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.models import ResultSubmission
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def _organizer(event: Any, username: str) -> Any:
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    event_organizer_add(event=event, user=user)
    return user


def _log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()


def test_the_referee_and_the_confirmer_see_the_same_preview(live_asgi: str, browser: Any) -> None:
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    _organizer(event, "referee")
    _organizer(event, "checker")
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    pairing = round_.pairings.get()
    names = {s.seat: s.player.name for s in pairing.table.seats.select_related("player")}
    url = f"{live_asgi}/events/{event.pk}/manage/tables/{pairing.pk}/result/"

    referee = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    _log_in(referee, live_asgi, "referee")
    assert referee.url.endswith(f"/events/{event.pk}/manage/")  # the organizer's dashboard
    referee.goto(url)
    for place, seat in enumerate([0, 2, 4], start=1):
        referee.select_option(f"select[name=d1_{place}]", str(seat))
    for place, seat in enumerate([1, 0], start=1):
        referee.select_option(f"select[name=d2_{place}]", str(seat))
    referee.select_option("select[name=d2_escape]", "3")
    referee.click("form.result-form button[type=submit]")
    preview = referee.locator("#preview")
    preview.wait_for()
    text = preview.inner_text()
    total = preview.locator(".preview-total").inner_text()
    assert names[0] in text and names[3] in text and "逃跑" in text
    assert not ResultSubmission.objects.exists()  # nothing entered yet
    referee.screenshot(path=str(ARTIFACTS / "result-preview-390.png"), full_page=True)
    referee.click("#preview button[type=submit]")
    referee.wait_for_load_state()
    assert ResultSubmission.objects.get().deals == [
        {"finish": [0, 2, 4]},
        {"finish": [1, 0], "escape": 3},
    ]

    checker = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    _log_in(checker, live_asgi, "checker")
    checker.goto(url)
    version = checker.locator("article.version").first
    seen = version.inner_text()
    assert names[3] in seen and "逃跑" in seen
    assert version.locator(".preview-total").inner_text() == total  # the same figures
    version.locator("button", has_text="确认").click()
    checker.wait_for_load_state()
    assert ResultSubmission.objects.get().status == ResultSubmission.Status.CONFIRMED
    assert not checker.locator("form.result-form").is_visible()  # the form has gone away
    checker.screenshot(path=str(ARTIFACTS / "result-confirmed-1366.png"), full_page=True)
