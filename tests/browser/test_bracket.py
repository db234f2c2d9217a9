"""The knockout stage in a real browser (issue 18): an organizer breaks the top eight on the
knockout page and confirms; the public bracket page on a phone shows the seeds, results as they
come in, who goes through, placeholders for later matches, the stated rules and a provisional
placement; once the bracket is played, the champion, the winner's path and the final places."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from tests.browser.conftest import ARTIFACTS
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import staff as events_staff
from tournaments.knockout import deciding as knockout_deciding
from tournaments.knockout import services as knockout_services
from tournaments.models import KnockoutMatch, KnockoutStage
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"
A_SWEEPS = [{"finish": [0, 2, 4]}]

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


def _enter_open_matches(stage: KnockoutStage, referee: Any, checker: Any) -> None:
    """Every open knockout table: side A (the better-placed entrant) sweeps."""
    for match in KnockoutMatch.objects.filter(stage=stage, result=[]):
        sub = result_submit(pairing=match.pairing, user=referee, first_dealer=0, deals=A_SWEEPS)
        result_confirm(submission=sub, user=checker)


def test_the_bracket_page_follows_the_knockout_stage_on_a_phone(
    live_asgi: str, browser: Any
) -> None:
    event = EventFactory(table_mode=Table.Mode.OFFLINE, deals_per_match=1, name="大怪路子团体赛")
    for i in range(10):
        TeamFactory(event=event, unit=UnitFactory(name=f"部门{i}"), name=f"第{i}队")
    users = get_user_model().objects
    referee = users.create_user(username="referee", password=PASSWORD)
    checker = users.create_user(username="checker", password=PASSWORD)
    events_staff.event_organizer_add(event=event, user=referee)
    events_staff.event_organizer_add(event=event, user=checker)
    group = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=group)
    for pairing in group.pairings.all():
        sub = result_submit(pairing=pairing, user=referee, first_dealer=0, deals=A_SWEEPS)
        result_confirm(submission=sub, user=checker)

    organizer = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    organizer.goto(f"{live_asgi}/accounts/login/")
    organizer.fill("#id_username", "referee")
    organizer.fill("#id_password", PASSWORD)
    organizer.click("form.form button[type=submit]")
    organizer.wait_for_load_state()
    organizer.goto(f"{live_asgi}/events/{event.pk}/manage/")
    organizer.click("a.button:has-text('淘汰赛')")  # the dashboard's way to the knockout stage
    organizer.wait_for_url(f"**/events/{event.pk}/manage/knockout/")
    organizer.select_option("select[name=size]", "8")
    organizer.select_option("select[name=places_played]", "4")
    organizer.click("form[data-form=break] button[type=submit]")
    organizer.wait_for_load_state()
    assert "请核对种子排位" in organizer.locator(".messages").inner_text()
    assert organizer.locator("select[name=seed_8]").count() == 1
    organizer.click("text=确认种子并排出淘汰赛第一轮")
    organizer.wait_for_load_state()
    organizer.click("text=开始第 2 轮")
    organizer.wait_for_load_state()

    stage = KnockoutStage.objects.get(event=event)
    seeds = {e.seed: e.team.name for e in stage.entrants.select_related("team")}
    _enter_open_matches(stage, referee, checker)
    knockout_deciding.knockout_complete(stage=stage, user=referee)  # quarter-finals decided

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_asgi}/events/{event.pk}/bracket/")
    assert page.locator("h1").inner_text() == "淘汰赛"
    rounds = page.locator(".bracket-round h3").all_inner_texts()
    assert rounds == ["四分之一决赛", "半决赛", "决赛"]
    quarter = page.locator("[data-match='1-1-1']")
    assert seeds[1] in quarter.inner_text() and seeds[8] in quarter.inner_text()
    assert quarter.locator("li.through").inner_text().find(seeds[1]) >= 0
    assert "已决出" in quarter.inner_text()
    semi = page.locator("[data-match='2-1-1']")
    assert seeds[1] in semi.inner_text() and seeds[4] in semi.inner_text()
    assert "未开始" in semi.inner_text()
    final = page.locator("[data-match='3-1-1']")
    assert "半决赛 1 胜者" in final.inner_text() and "半决赛 2 胜者" in final.inner_text()
    assert page.locator("[data-match='3-3-1']").inner_text().find("三四名决赛") >= 0
    rules = page.locator("ul.rules").inner_text()
    assert "加赛一副" in rules and "先出完" in rules and "种子按小组赛排名" in rules
    placement = page.locator("[data-placement] tbody tr")
    assert placement.count() == 10
    assert "仍在比赛" in placement.nth(0).inner_text()  # the semi-finalists' places are open
    assert placement.nth(4).locator("td").nth(0).inner_text() == "5="  # quarter-final losers
    assert page.evaluate(NO_SIDEWAYS_SCROLL)  # the page fits the phone; the bracket scrolls
    assert page.locator("[data-bracket]").evaluate("b => b.scrollWidth > b.clientWidth")
    page.screenshot(path=str(ARTIFACTS / "bracket-phone-running.png"), full_page=True)

    for _round in range(2):  # semi-finals, then the final and the third-place match
        knockout_services.knockout_start(stage=stage, user=referee)
        _enter_open_matches(stage, referee, checker)
        knockout_deciding.knockout_complete(stage=stage, user=referee)
    page.reload()
    assert f"冠军：{seeds[1]}" in page.locator(".champion").inner_text()
    path = page.locator(".bracket-match.champion-path")
    assert path.count() == 3  # the champion's quarter-final, semi-final and final
    places = page.locator("[data-placement] tbody tr td:first-child").all_inner_texts()
    assert places[:4] == ["1", "2", "3", "4"]
    names = page.locator("[data-placement] tbody tr td:nth-child(2)").all_inner_texts()
    assert names[:4] == [seeds[1], seeds[2], seeds[3], seeds[4]]
    page.screenshot(path=str(ARTIFACTS / "bracket-phone-final.png"), full_page=True)

    projector = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    projector.goto(f"{live_asgi}/events/{event.pk}/bracket/?projector=1")
    assert projector.locator(".projector-qr svg").count() == 1
    assert projector.locator(".bracket-round").count() == 3
    projector.screenshot(path=str(ARTIFACTS / "bracket-projector.png"))
