"""Check-in on a phone (issue 30), in Chromium at 390x844: the organizer's list filters as one
types, ticks a player (or team) in and the counts follow, and nothing scrolls sideways; a player
checks in with one tap. For each game."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import ARTIFACTS
from tests.browser.events import GAMES, NAMES, PASSWORD, log_in
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, TeamFactory
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import CheckIn

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = "() => document.scrollingElement.scrollWidth"
VISIBLE = (
    "() => [...document.querySelectorAll('.check-in-list > li')].filter((e) => !e.hidden).length"
)


@pytest.mark.parametrize("game", GAMES)
def test_check_in_on_a_phone(live_asgi: str, browser: Any, game: str) -> None:
    users = get_user_model().objects
    organizer = users.create_user(username=f"organizer-{game}", password=PASSWORD)
    me = users.create_user(username=f"player-{game}", password=PASSWORD)
    event = EventFactory(game=game, draw_checked_in_only=True)
    events_staff.event_organizer_add(event=event, user=organizer)
    if game == "daguai":
        teams = [TeamFactory(event=event, name=f"生产制造部{n}队") for n in "一二三四"]
        player = teams[0].members.first().player
        names = [t.name for t in teams]
    else:
        people = [PlayerFactory(name=name) for name in NAMES[:8]]
        events_entries.registration_ensure(event=event, players=people)
        player = people[0]
        names = [p.name for p in people]
    player.user = me
    player.save()

    page = log_in(browser, live_asgi, organizer.username)
    page.goto(f"{live_asgi}/events/{event.pk}/manage/check-in/")
    page.wait_for_load_state()
    assert page.evaluate(WIDTH) <= 390, page.screenshot(
        path=str(ARTIFACTS / f"check-in-wide-{game}.png"), full_page=True
    )
    assert page.evaluate(VISIBLE) == len(names)
    page.fill("[data-check-in-filter]", names[1])
    assert page.evaluate(VISIBLE) == 1
    page.fill("[data-check-in-filter]", "")
    assert page.evaluate(VISIBLE) == len(names)
    counts = page.inner_text(".check-in-counts")
    assert f"未到 {len(names)}" in counts and "已到 0" in counts
    page.locator(".check-in-list > li").nth(1).locator("button[value=in]").first.click()
    page.wait_for_load_state()
    counts = page.inner_text(".check-in-counts")
    assert "已到 1" in counts and f"未到 {len(names) - 1}" in counts
    page.screenshot(path=str(ARTIFACTS / f"check-in-{game}.png"), full_page=True)

    phone = log_in(browser, live_asgi, me.username)
    phone.goto(f"{live_asgi}/events/{event.pk}/check-in/")
    phone.wait_for_load_state()
    assert phone.evaluate(WIDTH) <= 390
    phone.click(".check-in-self button[type=submit]")
    phone.wait_for_load_state()
    assert CheckIn.objects.filter(event=event, player=player, round_number=1).exists()
    assert "你已签到第 1 轮" in phone.inner_text(".check-in-self")
