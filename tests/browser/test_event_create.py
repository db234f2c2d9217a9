"""Issue 26: an organizer creates a 上海斗地主 event from the site on a phone, in Chinese and in
English, with its rule options named in words, and lands on its dashboard. Real Chromium at
390x844 against the real ASGI server."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import ARTIFACTS
from tests.tournaments.factories import EventFactory
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def _page(browser: Any, base: str, language: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    if language == "en":
        host = base.split("//", 1)[1].split(":")[0]
        context.add_cookies(
            [{"name": "django_language", "value": "en", "domain": host, "path": "/"}]
        )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    return page, errors


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "zh-hans",
            {
                "create": "创建赛事",
                "first_bidder": "首叫",
                "rotate": "轮流（上一副首叫的下家）",
                "rounding": "四舍五入",
                "submit": "创建赛事",
                "dashboard": "组织者控制台",
            },
        ),
        (
            "en",
            {
                "create": "Create an event",
                "first_bidder": "first bidder",
                "rotate": "in turn (the next seat)",
                "rounding": "round half up",
                "submit": "Create the event",
                "dashboard": "Organizer dashboard",
            },
        ),
    ],
)
def test_an_organizer_creates_a_shanghai_doudizhu_event_on_a_phone(
    live_asgi: str, browser: Any, language: str, words: dict[str, str]
) -> None:
    user = get_user_model().objects.create_user(username="organizer", password=PASSWORD)
    event_organizer_add(event=EventFactory(), user=user)
    page, errors = _page(browser, live_asgi, language)
    page.goto(f"{live_asgi}/")
    page.locator("a.button", has_text=words["create"]).click()
    page.wait_for_load_state()
    page.locator(".game-picks a", has_text="上海斗地主").click()
    page.wait_for_load_state()
    form = page.locator("form.event-form")
    assert "lead_to_teammate" not in page.content()  # 大怪路子's options are not offered
    label = form.locator("label[for=id_option_first_bidder]")
    assert label.inner_text() == words["first_bidder"]
    page.fill("#id_meet_name", f"周末联赛 {language}")
    page.fill("#id_name", f"上海斗地主个人赛 {language}")
    page.select_option("#id_option_first_bidder", label=words["rotate"])
    page.select_option("#id_option_active_escape_rounding", label=words["rounding"])
    page.fill("#id_option_turn_seconds", "25")
    # the form fits the phone's width: nothing to scroll sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / f"event-new-390-{language}.png"), full_page=True)
    # After a full-page screenshot Chromium puts the page's scroll back only at the next input
    # (here: the tap, which then lands beside the button); scroll once first, as a thumb would.
    page.mouse.wheel(0, -200)
    page.wait_for_function("() => true")
    with page.expect_navigation(url="**/manage/"):  # the dashboard, once the event is made
        form.locator("button[type=submit]").click()
    event = Event.objects.get(name=f"上海斗地主个人赛 {language}")
    assert page.url.endswith(f"/events/{event.pk}/manage/")
    assert page.locator("h1").inner_text() == words["dashboard"]
    assert event.name in page.content()
    assert page.locator("#organizers").is_visible()  # co-organizers and referees are added here
    page.screenshot(path=str(ARTIFACTS / f"event-dashboard-390-{language}.png"), full_page=True)
    assert event.game == "shanghai_doudizhu" and event.organizers.get() == user
    assert event.rule_options["first_bidder"] == "rotate"
    assert event.rule_options["active_escape_rounding"] == "half_up"
    assert event.rule_options["turn_seconds"] == 25
    assert errors == []
