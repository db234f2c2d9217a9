"""A team's login codes on a phone (issue 26): each player's name stays on one line beside the
long links (the names were broken into single letters). Real Chromium at 390x844."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Player
from tests.accounts.test_services import make_team
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def test_the_codes_page_keeps_each_name_whole_on_a_phone(live_asgi: str, browser: Any) -> None:
    organizer = get_user_model().objects.create_user(username="organizer", password=PASSWORD)
    team = make_team(organizer)
    for i, member in enumerate(team.members.all()):
        Player.objects.filter(pk=member.player_id).update(name=["欧阳明远", "张伟", "李娜娜"][i])
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_asgi}/accounts/login/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_asgi}/accounts/teams/{team.pk}/codes/")
    page.click("form.card button[type=submit]")
    page.wait_for_selector("table.codes td.name")
    lines = page.evaluate(
        """() => [...document.querySelectorAll('table.codes tbody tr td:first-child')].map(td => {
             const range = document.createRange(); range.selectNodeContents(td);
             return [td.textContent, new Set([...range.getClientRects()].map(r => r.top)).size];
           })"""
    )
    assert sorted(name for name, _ in lines) == sorted(["欧阳明远", "张伟", "李娜娜"])
    assert all(count == 1 for _name, count in lines), lines
    page.screenshot(path=str(ARTIFACTS / "team_codes_phone.png"), full_page=True)
