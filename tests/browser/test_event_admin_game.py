"""Issue 26: on the admin's add page, choosing another game shows that game's rule options only
(the page reloads for it, keeping what was typed). Real Chromium against the real ASGI server."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def test_choosing_a_game_on_the_add_page_shows_its_options(live_asgi: str, browser: Any) -> None:
    get_user_model().objects.create_superuser(username="root", password=PASSWORD)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_asgi}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.goto(f"{live_asgi}/admin/tournaments/event/add/")
    assert page.locator("#id_option_lead_to_teammate").count() == 1
    page.fill("#id_name", "小路子个人赛")
    with page.expect_navigation():
        page.select_option("#id_game", "xiaoluzi")
    assert "game=xiaoluzi" in page.url
    assert page.locator("#id_option_slam_count").count() == 1
    assert page.locator("#id_option_lead_to_teammate").count() == 0
    assert page.input_value("#id_name") == "小路子个人赛"  # what was typed stays
    assert page.input_value("#id_deals_per_match") == "4"  # the game's default
    labels = page.locator("#id_option_slam_count option").all_inner_texts()
    assert labels == ["按张数", "按手数"]
    assert errors == []
