"""The projector pages through tables and standings that are taller than the screen: every row is
shown on some page, and no page runs past the bottom of the screen (issue 15)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import ARTIFACTS
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.services import round_create_paired

pytestmark = pytest.mark.django_db(transaction=True)

VISIBLE_ROWS = """() => {
  const slide = [...document.querySelectorAll('[data-slide]')].find((s) => !s.hidden);
  const rows = [...slide.querySelectorAll('tbody tr')].filter((r) => !r.hidden);
  return {
    page: document.body.dataset.page,
    heading: (slide.querySelector('h2') || {}).textContent || '',
    kind: slide.querySelector('table.standings') ? 'standings' : 'tables',
    rows: rows.map((r) => r.innerText.replace(/\\s+/g, ' ').trim()),
    bottom: Math.max(0, ...rows.map((r) => r.getBoundingClientRect().bottom)),
    height: window.innerHeight,
  };
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_projector_pages_through_rows_that_do_not_fit(
    live_asgi: str, browser: Any, size: tuple[int, int]
) -> None:
    event = EventFactory()
    names = [f"第{i}队" for i in range(1, 31)]
    for name in names:
        TeamFactory(event=event, name=name, unit=UnitFactory())
    round_create_paired(event=event, confirm=True)  # 15 tables on the first slide
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(f"{live_asgi}/events/{event.pk}/projector/?seconds=1")
    seen: dict[str, set[str]] = {"tables": set(), "standings": set()}
    pages: set[str] = set()

    def shown(kind: str) -> set[str]:
        return {n for n in names if any(f" {n} " in f" {r} " for r in seen[kind])}

    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and not (shown("tables") == shown("standings") == set(names)):
        try:
            state = page.evaluate(VISIBLE_ROWS)
        except PlaywrightError:  # the page reloads after its last page
            page.wait_for_load_state()
            continue
        if state["page"] is None:  # loading: the script has not paged it yet
            page.wait_for_timeout(100)
            continue
        if state["rows"]:
            assert state["bottom"] <= state["height"], state  # the page fits the screen
            assert "/" in state["heading"]  # "1 / 3": the slide says it pages
        seen[state["kind"]].update(state["rows"])
        pages.add(state["page"])
        page.wait_for_timeout(250)
    page.screenshot(path=str(ARTIFACTS / f"projector-{size[0]}.png"))
    assert shown("tables") == set(names)  # every table was on some page
    assert shown("standings") == set(names)  # every standing too
    assert len(pages) >= 4  # several pages of tables, then of standings
    assert page.locator(".projector-qr svg").count() == 1
    assert f"/events/{event.pk}/standings/" in page.locator(".short-url").inner_text()
