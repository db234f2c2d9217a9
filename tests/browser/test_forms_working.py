"""An organizer's round buttons on a phone (issue 26): 确认对阵 asks first, and a "no" sends
nothing. Real Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import Round, RoundLog

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_confirming_the_tables_asks_first(live_asgi: str, browser: Any, language: str) -> None:
    event = EventFactory(game="shanghai_doudizhu", table_mode=Table.Mode.OFFLINE)
    events_entries.registration_ensure(
        event=event, players=[PlayerFactory(name=f"选手{i}") for i in range(1, 9)]
    )
    user = get_user_model().objects.create_user(username="organizer", password=PASSWORD)
    events_staff.event_organizer_add(event=event, user=user)
    round_ = draw_services.round_create_paired(event=event, user=user)

    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_asgi}])
    page = context.new_page()
    page.goto(f"{live_asgi}/accounts/login/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_asgi}/events/{event.pk}/manage/")
    confirm = page.locator("form[data-confirm] button[type=submit]").first
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    confirm.click()
    expected = "确认这些对阵吗" if language == "zh-hans" else "Confirm these tables?"
    assert asked and expected in asked[0]
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT  # said no: nothing was sent

    # said yes: sent once, and the next step (开始本轮) asks in its turn
    page.once("dialog", lambda dialog: dialog.accept())
    confirm.click()
    page.wait_for_selector("form[data-confirm] button[type=submit]", timeout=15000)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CONFIRMED
    assert RoundLog.objects.filter(round=round_, action=RoundLog.Action.CONFIRMED).count() == 1
