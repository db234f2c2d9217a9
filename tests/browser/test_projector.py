"""The projector pages through tables and standings that are taller than the screen: every row is
shown on some page, and no page runs past the bottom of the screen (issue 15)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import ARTIFACTS
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired

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


VISIBLE_SLIDE = """() => {
  const slide = [...document.querySelectorAll('[data-slide]')].find((s) => !s.hidden);
  const rows = [...slide.querySelectorAll('tbody tr')].filter((r) => !r.hidden);
  return {
    page: document.body.dataset.page,
    slide: slide.dataset.slide,
    heading: (slide.querySelector('h2') || {}).textContent || '',
    headers: [...slide.querySelectorAll('thead th')].map((th) => th.innerText.trim()),
    rows: rows.map((r) => [...r.cells].map((c) => c.innerText.replace(/\\s+/g, ' ').trim())),
    bottom: Math.max(0, ...rows.map((r) => r.getBoundingClientRect().bottom)),
    right: Math.max(0, ...rows.map((r) => r.getBoundingClientRect().right)),
    width: document.documentElement.clientWidth,
    height: window.innerHeight,
  };
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_projector_of_an_individual_event_pages_through_tables_players_and_units(
    live_asgi: str, browser: Any, size: tuple[int, int]
) -> None:
    from tests.games.factories import PlayerFactory
    from tournaments.events.entries import membership_ensure, registration_ensure

    event = EventFactory(game="shanghai_doudizhu", unit_best=2)
    units = [UnitFactory(name=f"第{i}部") for i in range(1, 21)]
    people = [PlayerFactory(name=f"选手{i:02d}") for i in range(1, 41)]
    for i, player in enumerate(people):
        membership_ensure(player=player, unit=units[i % len(units)])
    registration_ensure(event=event, players=people)
    round_create_paired(event=event, confirm=True)  # 10 tables of four
    names = {p.name for p in people}
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(f"{live_asgi}/events/{event.pk}/projector/?seconds=1")
    # the QR code of the public standings, as for team events (read before the page reloads)
    assert page.locator(".projector-qr svg").count() == 1
    assert f"/events/{event.pk}/standings/" in page.locator(".short-url").inner_text()
    seen: dict[str, list[list[str]]] = {"tables": [], "players": [], "units": []}
    headers: dict[str, list[str]] = {}
    pages: set[str] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
        {c for r in seen["tables"] for c in r[1:5]} >= names
        and {r[1] for r in seen["players"]} >= names
        and {r[1] for r in seen["units"]} >= {u.name for u in units}
    ):
        try:
            state = page.evaluate(VISIBLE_SLIDE)
        except PlaywrightError:  # the page reloads after its last page
            page.wait_for_load_state()
            continue
        if state["page"] is None:
            page.wait_for_timeout(100)
            continue
        if state["rows"]:
            assert state["bottom"] <= state["height"], state  # the page fits the screen
            assert state["right"] <= state["width"], state  # and is not cut off at the side
            assert "/" in state["heading"], state  # "1 / 3": the slide says it pages
        seen[state["slide"]].extend(state["rows"])
        headers[state["slide"]] = state["headers"]
        pages.add(state["page"])
        if len(pages) == 1:
            page.screenshot(path=str(ARTIFACTS / f"projector-individual-{size[0]}-tables.png"))
        page.wait_for_timeout(250)
    page.screenshot(path=str(ARTIFACTS / f"projector-individual-{size[0]}.png"))
    # every table of four, each seat a player's name, and every player seated once
    assert {len(r) for r in seen["tables"]} == {6}  # table, four seats, result
    assert {c for r in seen["tables"] for c in r[1:5]} == names
    assert headers["tables"][1:5] == ["1号座", "2号座", "3号座", "4号座"]
    # every player in the standings, with the game's figures; every unit, by its best two
    assert {r[1] for r in seen["players"]} == names
    assert headers["players"][:4] == ["#", "选手", "单位", "积分"]
    assert "等级分" in headers["players"] and "地主胜局" in headers["players"]
    assert {r[1] for r in seen["units"]} == {u.name for u in units}
    assert {r[2] for r in seen["units"]} == {"2/2"}  # each unit counts its best two of two
