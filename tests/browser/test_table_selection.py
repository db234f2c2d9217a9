"""Selecting cards at a 上海斗地主 table on a phone (issue 26): holding 2S 2H 2D 2D 2C and leading,
a person taps 2H, not the lowest-suit copy, reads that it leads 单牌 2, sees 出牌 enabled and plays
2H itself (2S stays in the hand); a wrong combination is explained on screen, in Chinese and in
English."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from engine.cards import format_cards
from games.models import Table
from games.play import services as play_services
from games.play import state as selectors
from games.tables import services as tables_services
from tests.browser.conftest import ARTIFACTS
from tests.engine.shanghai_doudizhu.helpers import rig

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"
TWOS = "2S 2H 2D 2D 2C"

WORDS = {
    "zh-hans": ("你首出 单牌 2。", "两张牌只有同点时才成牌型（对牌）。"),
    "en": (
        "You lead 单牌 (single) 2.",
        "Two cards make a play only as a pair (对牌): two of one rank.",
    ),
}


def landlord_leads() -> Table:
    """A table of four people; seat 0 holds five 2s, bids 1 and leads after three passes."""
    users = [get_user_model().objects.create_user(f"d{s}", password=PASSWORD) for s in range(4)]
    players = [tables_services.player_create(name=f"玩家{s}", user=u) for s, u in enumerate(users)]
    table = tables_services.table_create(name="斗地主桌", players=players, game="shanghai_doudizhu")
    deal = rig({0: f"{TWOS} 3S 4S 5H 6D 7C 9S 9H"}, marked=(0, "2S"))
    first = {
        "seed": "copies",
        "hands": [format_cards(h) for h in deal.initial_hands],
        "kitty": format_cards(deal.kitty),
        "marked": {"seat": 0, "card": "2S"},
    }
    play_services.match_start(table=table, seed=1, turn_seconds=600, first_deal=first)
    for seat, kind, text in ((0, "bid", "1"), (1, "pass", ""), (2, "pass", ""), (3, "pass", "")):
        seq = selectors.table_state(table=table)["seq"]
        play_services.seat_act(table=table, seat=seat, kind=kind, cards=text, seq=seq)
    state = selectors.table_state(table=table)
    if state["deal"]["phase"] == "report":
        play_services.seat_act(table=table, seat=0, kind="report", seq=state["seq"])
    state = selectors.table_state(table=table)
    assert state["deal"]["phase"] == "play" and state["deal"]["awaiting"] == [0]
    return table


def open_page(browser: Any, base: str, language: str) -> tuple[Any, list[str]]:
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
    page.fill("#id_username", "d0")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/me/")
    return page, errors


def card(page: Any, token: str) -> Any:
    return page.locator(f'#hand button.card-face[data-token="{token}"]')


def message_is(page: Any, kind: str) -> None:
    page.wait_for_function(
        "(kind) => document.getElementById('message').className.split(' ').includes(kind)",
        arg=kind,
    )


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_person_taps_any_copy_of_a_rank_and_plays_it(
    live_asgi: str, browser: Any, language: str
) -> None:
    lead, wrong = WORDS[language]
    table = landlord_leads()
    page, errors = open_page(browser, live_asgi, language)
    page.goto(f"{live_asgi}/tables/{table.pk}/")
    page.wait_for_selector("#hand button.card-face")
    assert card(page, "2S").count() == 1 and card(page, "2D").count() == 2
    # a wrong combination: 2S and 3S make no play, and the page says why
    card(page, "2S").click()
    card(page, "3S").click()
    message_is(page, "bad")
    assert page.inner_text("#message") == wrong
    assert page.is_disabled("#btn-play")
    page.screenshot(path=str(ARTIFACTS / f"table-selection-wrong-{language}.png"))
    card(page, "2S").click()
    card(page, "3S").click()  # nothing selected again
    # 2H, not the lowest suit of the 2s: a play
    card(page, "2H").click()
    message_is(page, "ok")
    assert page.inner_text("#message") == lead
    assert page.is_enabled("#btn-play")
    before = page.evaluate("() => document.body.dataset.seq")
    page.click("#btn-play")
    page.wait_for_function(f"() => document.body.dataset.seq !== '{before}'")
    assert card(page, "2H").count() == 0 and card(page, "2S").count() == 1
    assert card(page, "2D").count() == 2
    assert page.locator('#trick [data-token="2H"]').count() == 1
    page.screenshot(path=str(ARTIFACTS / f"table-selection-played-{language}.png"))
    assert not errors, errors
