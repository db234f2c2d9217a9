"""The site's pages work under its Content-Security-Policy (issue 25): what the policy refuses is
reported in the console, which every browser test watches (conftest.CspWatchedBrowser), and the
printable sheets' "Print", an inline handler before, is a script file's."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def test_an_inline_script_is_refused_and_reported(live_asgi: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    response = page.goto(f"{live_asgi}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.injected = 1'; document.body.append(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.injected") is None
    assert any("inline script" in v for v in browser.violations), browser.violations
    browser.violations.clear()  # seen: the watch works


def test_print_on_a_score_sheet_prints(live_asgi: str, browser: Any) -> None:
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    user = get_user_model().objects.create_user(username="referee", password=PASSWORD)
    event_organizer_add(event=event, user=user)
    round_ = round_create_paired(event=event, confirm=True)
    pairing = round_.pairings.get()

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_asgi}/accounts/login/")
    page.fill("#id_username", "referee")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    for path in (
        f"/events/{event.pk}/manage/tables/{pairing.pk}/sheet/",
        f"/events/{event.pk}/manage/rounds/{round_.number}/sheets/",
    ):
        page.goto(live_asgi + path)
        page.evaluate(
            "() => { window.printed = 0; window.print = () => { window.printed += 1; }; }"
        )
        page.click("[data-print]")
        assert page.evaluate("() => window.printed") == 1, path
