"""The replay viewer in the browser: a finished deal opens at step 0 (or at ``?step=N``), steps
with the buttons, the arrow keys, Home/End and the slider, keeps the step in the URL, draws every
hand as cards, and fits a phone (390×844) as well as a desktop; a logged-in player starts a
challenge from it and lands at the challenge's table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from engine.registry import get_game
from games.models import Challenge, Deal
from tests.browser.conftest import ARTIFACTS
from tests.games.replay.test_replay import finished_match

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def step_of(page: Any) -> int:
    return int(page.eval_on_selector("#step-slider", "el => el.value"))


def hand_tokens(page: Any, seat: int) -> list[str]:
    selector = f'#seats .rseat[data-seat="{seat}"] .rhand .card-face'
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.token)")


def expected_hands(deal: Deal, step: int) -> list[list[str]]:
    steps = get_game(deal.match.game).replay_steps(deal.record)
    return [h.split() for h in steps[step].hands]


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_the_viewer_steps_with_buttons_keys_slider_and_link(
    live_asgi: str, browser: Any, size: tuple[int, int]
) -> None:
    match = finished_match("daguai", seed=6, deals=2)
    deal = match.deals.exclude(record="").order_by("-number").first()
    assert deal is not None
    total = len(json.loads(deal.record)["actions"])
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_asgi}/deals/{deal.pk}/replay/")
    page.wait_for_selector("#seats .rseat .rhand .card-face")
    assert step_of(page) == 0
    assert f"第 0 / {total} 步" in page.inner_text("#step-count")
    # every hand face up, as cards (no card codes in the text), as the engine dealt them
    for seat in range(6):
        assert hand_tokens(page, seat) == expected_hands(deal, 0)[seat]
    assert "BJ" not in page.inner_text("#seats") and "SJ" not in page.inner_text("#seats")
    page.click("#btn-next")
    page.click("#btn-next")
    assert step_of(page) == 2 and page.url.endswith("?step=2")
    page.click("#btn-prev")
    assert step_of(page) == 1
    page.locator("body").press("ArrowRight")
    page.locator("body").press("ArrowRight")
    page.locator("body").press("ArrowRight")
    assert step_of(page) == 4
    page.locator("body").press("ArrowLeft")
    assert step_of(page) == 3 and page.url.endswith("?step=3")
    for seat in range(6):
        assert hand_tokens(page, seat) == expected_hands(deal, 3)[seat]
    page.locator("body").press("End")
    assert step_of(page) == total
    assert page.is_visible("#replay-result")
    page.locator("body").press("Home")
    assert step_of(page) == 0 and not page.is_visible("#replay-result")
    # the slider
    page.eval_on_selector(
        "#step-slider",
        "(el, n) => { el.value = n; el.dispatchEvent(new Event('input', {bubbles: true})); }",
        10,
    )
    assert step_of(page) == 10 and page.url.endswith("?step=10")
    assert page.get_attribute("#step-link", "href").endswith("?step=10")
    # a link opens at its step; a step past the end opens at the last one
    page.goto(f"{live_asgi}/deals/{deal.pk}/replay/?step=7")
    page.wait_for_selector("#seats .rseat .rhand .card-face")
    assert step_of(page) == 7
    for seat in range(6):
        assert hand_tokens(page, seat) == expected_hands(deal, 7)[seat]
    page.screenshot(path=str(ARTIFACTS / f"replay-{size[0]}-step7.png"), full_page=True)
    # the step's text names who acted
    action = json.loads(deal.record)["actions"][6]
    seat_name = page.inner_text(f'#seats .rseat[data-seat="{action["seat"]}"] .seat-head strong')
    assert seat_name in page.inner_text("#step-text")
    page.goto(f"{live_asgi}/deals/{deal.pk}/replay/?step=99999")
    page.wait_for_selector("#seats .rseat .rhand .card-face")
    assert step_of(page) == total
    # the controls stay on the screen and nothing is wider than it
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0] + 1, f"the page is {width}px wide"
    box = page.locator(".replay-bar").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1
    page.screenshot(path=str(ARTIFACTS / f"replay-{size[0]}.png"))
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_the_viewer_draws_the_games_of_four(live_asgi: str, browser: Any, game: str) -> None:
    deal = finished_match(game, seed=3, deals=1).deals.get(number=1)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_asgi}/deals/{deal.pk}/replay/?step=3")
    page.wait_for_selector("#seats .rseat .rhand .card-face")
    for seat in range(4):
        assert hand_tokens(page, seat) == expected_hands(deal, 3)[seat]
    facts = page.inner_text("#facts")
    assert ("叫分" in facts) if game == "shanghai_doudizhu" else ("宣牌 / 反宣" in facts)
    if game == "shanghai_doudizhu":
        assert page.locator("#fact-kitty .card-face").count() == 8
    page.locator("body").press("End")
    assert page.is_visible("#replay-result")
    page.screenshot(path=str(ARTIFACTS / f"replay-{game}-390.png"), full_page=True)
    # the table page, after the deal, links to the replays of its deals
    page.goto(f"{live_asgi}/tables/{deal.match.table_id}/")
    page.wait_for_selector("#replays .replay-link")
    links = page.eval_on_selector_all("#replays .replay-link", "els => els.map(e => e.href)")
    assert f"{live_asgi}/deals/{deal.pk}/replay/" in links
    assert not errors, errors
    page.close()


def test_a_player_starts_a_challenge_from_the_replay(live_asgi: str, browser: Any) -> None:
    deal = finished_match("xiaoluzi", seed=9, deals=1).deals.get(number=1)
    get_user_model().objects.create_user("ann", password=PASSWORD)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_asgi}/deals/{deal.pk}/replay/")
    page.click("#challenge a[href*='/accounts/login/']")
    page.fill("#id_username", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{live_asgi}/deals/{deal.pk}/replay/**")
    page.select_option("#challenge-seat", "3")
    page.click("#btn-challenge")
    page.wait_for_url(f"{live_asgi}/tables/**")
    challenge = Challenge.objects.get(source=deal)
    assert challenge.seat == 2 and page.url.endswith(f"/tables/{challenge.match.table_id}/")
    page.wait_for_selector("#hand .card-face")
    page.close()
