"""Nothing scrolls sideways on a phone (issue 26: the organizer's knockout page was 407 px wide
at 390): the bracket pages, the dashboard, the standings, the projector, My page and the codes
page of an event of each game, in Chromium at 390x844, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.events import GAMES, build, log_in

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = "() => document.scrollingElement.scrollWidth"
WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > 391 && !e.closest('.scroll, [data-bracket]'))
  .slice(0, 5)
  .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_no_page_of_an_event_scrolls_sideways_on_a_phone(
    live_asgi: str, browser: Any, game: str, language: str
) -> None:
    built = build(game, start_knockout=False)
    pk = built.event.pk
    page = log_in(browser, live_asgi, built.organizer.username, language)
    paths = [
        f"/events/{pk}/manage/knockout/",  # seeds to check
        f"/events/{pk}/manage/",
        f"/events/{pk}/standings/",
        f"/events/{pk}/projector/",
        f"/events/{pk}/manage/codes/",
        "/accounts/me/",
        f"/events/{pk}/",
        f"/events/{pk}/rounds/1/",
    ]
    too_wide: dict[str, Any] = {}

    def measure(path: str) -> None:
        page.goto(f"{live_asgi}{path}")
        page.wait_for_load_state()
        width = page.evaluate(WIDTH)
        if width > 390:
            too_wide[path] = (width, page.evaluate(WIDEST))
            page.screenshot(path=str(ARTIFACTS / f"too-wide-{game}-{language}.png"), full_page=True)

    for path in paths:
        measure(path)
    from tournaments.knockout import services as knockout

    knockout.knockout_confirm(stage=built.stage, user=built.organizer)
    knockout.knockout_start(stage=built.stage, user=built.organizer)
    for path in [
        f"/events/{pk}/manage/knockout/",  # the bracket running
        f"/events/{pk}/bracket/",
        f"/events/{pk}/manage/",
        f"/events/{pk}/rounds/2/",
    ]:
        measure(path)
    assert not too_wide, too_wide
