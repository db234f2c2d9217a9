"""The round clock in the browser (issue 30): on a phone (390x844) a table of a running round and
the projector count the time left down each second, under the site's Content-Security-Policy (the
browser fixture fails on any violation); when the organizer pauses the clock the table's page says
so without a reload (the table's WebSocket tells it to read the clock again). The organizer
starts, pauses and resumes it from the dashboard on another phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import ARTIFACTS
from tests.browser.events import PASSWORD, log_in
from tests.tournaments.rounds.test_round_clock import event_of
from tournaments.events import staff as events_staff
from tournaments.rounds import clock as rounds_clock
from tournaments.rounds import running

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = re.compile(r"^(\d\d):(\d\d)$")


def _seconds(text: str) -> int:
    found = SHOWN.match(text.strip())
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_a_phone_sees_the_countdown_on_a_table_and_the_projector(
    live_asgi: str, browser: Any
) -> None:
    event = event_of("daguai")
    round = event.rounds.get()
    running.round_tables_start(round=round, bots=True, bot_delay_ms=0)
    round.refresh_from_db()
    organizer = User.objects.create_user(username="clock-organizer", password=PASSWORD)
    events_staff.event_organizer_add(event=event, user=organizer)
    table_id = round.pairings.get().table_id

    # the organizer starts the clock from the dashboard, on a phone
    dashboard = log_in(browser, live_asgi, "clock-organizer")
    dashboard.goto(f"{live_asgi}/events/{event.pk}/manage/")
    dashboard.get_by_role("button", name="开始计时（40 分钟）").click()
    dashboard.wait_for_load_state()
    assert rounds_clock.clock_of(round).state == "running"

    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_asgi}/tables/{table_id}/")
    clock = page.locator("[data-round-clock]")
    clock.wait_for()
    time = clock.locator(".round-clock-time")
    first = _seconds(time.inner_text())
    assert 38 * 60 < first <= 40 * 60
    page.wait_for_function(
        "(start) => { const t = document.querySelector('.round-clock-time').textContent;"
        " const [m, s] = t.split(':').map(Number); return m * 60 + s <= start - 2; }",
        arg=first,
        timeout=10_000,
    )
    box = clock.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # fits the phone
    assert "剩余时间" in clock.inner_text()
    assert "不再开新的一副" in clock.inner_text()  # the rule, in words
    page.wait_for_function(
        "() => document.getElementById('conn').dataset.state === 'live'", timeout=15_000
    )

    dashboard.get_by_role("button", name="暂停计时").click()  # pushed to the table's page
    page.wait_for_function(
        "() => document.querySelector('[data-round-clock]').dataset.shown === 'paused'",
        timeout=15_000,
    )
    paused = _seconds(time.inner_text())
    page.wait_for_timeout(2200)
    assert _seconds(time.inner_text()) == paused  # a paused clock stands still
    assert "计时暂停" in clock.inner_text()
    page.screenshot(path=str(ARTIFACTS / "round-clock-table-390.png"))

    dashboard.wait_for_load_state()
    dashboard.get_by_role("button", name="继续计时").click()
    dashboard.wait_for_load_state()
    assert rounds_clock.clock_of(round).state == "running"
    projector = browser.new_page(viewport={"width": 390, "height": 844})
    projector.goto(f"{live_asgi}/events/{event.pk}/projector/")
    big = projector.locator(".round-clock-big .round-clock-time")
    big.wait_for()
    start = _seconds(big.inner_text())
    projector.wait_for_function(
        "(start) => { const t = document.querySelector('.round-clock-big .round-clock-time')"
        ".textContent; const [m, s] = t.split(':').map(Number); return m * 60 + s < start; }",
        arg=start,
        timeout=10_000,
    )
    assert projector.locator(".round-clock-big").get_attribute("data-shown") == "running"
    projector.screenshot(path=str(ARTIFACTS / "round-clock-projector-390.png"))
