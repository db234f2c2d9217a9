"""Tables of four in the browser: a person opens a practice table of 小路子 and of 上海斗地主 from
their page and plays a deal by clicking (bids, declarations, plays) against bots on a real Celery
worker; on a phone (390×844) the hand and the buttons stay on screen and the seats sit around the
table, at tables of four and of six."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Match, Table, TableSeat
from games.play import services as play_services
from games.tables import services as tables_services
from tests.browser.conftest import ARTIFACTS
from tests.workers import celery_workers

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"

# the player's page waits for: a decision (bid, 宣牌...), their play, or the end of the deal
READY = """() => {
  const usable = (id) => {
    const el = document.getElementById(id);
    return el && !el.hidden && !el.disabled;
  };
  const choices = document.getElementById('choices');
  return !!document.getElementById('deal-result') || !!document.getElementById('match-over')
    || (choices && !choices.hidden && choices.querySelector('button:not([disabled])'))
    || usable('btn-pass') || (document.body.dataset.turn === 'mine');
}"""

MY_TURN = """() => {
  const hint = document.getElementById('btn-hint');
  return hint && !hint.disabled;
}"""

CHOICE_ORDER = ("bid", "declare", "counter", "open", "report", "fight", "pass", "no_declare")


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/me/")


def take_turn(page: Any) -> str:
    """Act once as a person would: a decision by its button (the highest bid, declaring), else
    the first hinted play, else pass."""
    if page.is_visible("#choices"):
        buttons = page.locator("#choices button")
        kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
        for wanted in CHOICE_ORDER:
            if wanted in kinds:
                index = len(kinds) - 1 - kinds[::-1].index(wanted)  # the highest bid
                buttons.nth(index).click()
                return wanted
        buttons.first.click()
        return kinds[0] or "choice"
    if not page.evaluate(MY_TURN):
        return "moved on"
    page.click("#btn-hint")
    chips = page.locator("#hints button.hint")
    if chips.count():
        chips.first.click()
        page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
        if "ok" in (page.get_attribute("#message", "class") or ""):
            page.click("#btn-play")
            return "play"
    elif page.is_visible("#hints"):
        page.click("#btn-hint")  # close the list
    if not page.is_enabled("#btn-pass"):
        return "moved on"
    page.click("#btn-pass")
    return "pass"


@pytest.mark.parametrize(
    ("game", "words"),
    [("xiaoluzi", ("宣牌", "不宣")), ("shanghai_doudizhu", ("标记牌", "叫分"))],
)
def test_a_person_plays_a_deal_of_a_game_of_four_by_clicking(
    live_asgi: str, browser: Any, settings: Any, game: str, words: tuple[str, ...]
) -> None:
    settings.LUZI_PRACTICE_BOT_DELAY_MS = 0
    settings.LUZI_PRACTICE_TURN_SECONDS = 120
    get_user_model().objects.create_user("xiaoming", password=PASSWORD)
    base = live_asgi
    with celery_workers(1):
        context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="zh-CN")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        log_in(page, base, "xiaoming")
        page.select_option("#practice-game", game)
        page.click("#practice")
        page.wait_for_url(f"{base}/tables/*/")
        table: Table = TableSeat.objects.get(player__user__username="xiaoming").table
        assert table.game == game and table.seats.filter(player__is_bot=True).count() == 3
        assert page.locator(".felt .seat").count() == 4
        assert page.locator("#seat-0.pos-0").count() == 1  # the viewer sits at the bottom
        page.wait_for_selector("#facts", state="visible")
        facts = page.inner_text("#facts")
        assert any(w in facts or w in page.inner_text("#table-app") for w in words), facts
        moves: list[str] = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                page.wait_for_function(READY, timeout=60_000)
            except Exception:
                page.screenshot(path=str(ARTIFACTS / f"table-{game}-failure.png"), full_page=True)
                raise AssertionError(
                    f"stuck after moves {moves}: {page.inner_text('#prompt')!r} "
                    f"{page.inner_text('#message')!r}"
                ) from None
            if page.locator("#deal-result").count() or page.locator("#match-over").count():
                break
            before = page.evaluate("() => document.body.dataset.seq")
            moves.append(take_turn(page))
            if moves[-1] == "moved on":
                page.wait_for_timeout(100)
                continue
            page.wait_for_function(
                f"() => document.body.dataset.seq !== '{before}'"
                " || document.getElementById('message').className.includes('bad')",
                timeout=30_000,
            )
            assert "bad" not in (page.get_attribute("#message", "class") or ""), page.inner_text(
                "#message"
            )
            if len(moves) == 3:
                page.screenshot(path=str(ARTIFACTS / f"table-{game}-playing.png"), full_page=True)
        else:
            raise AssertionError(f"the deal did not end; moves so far: {moves}")
        assert moves and set(moves) - {"moved on"}
        page.screenshot(path=str(ARTIFACTS / f"table-{game}-result.png"), full_page=True)
        result = page.inner_text("#result")
        assert "第 1 局" in result or "1" in result
        assert not any(code in result for code in (" SJ", " BJ", "10H"))
        assert not errors, errors
        match = Match.objects.get(table=table)
        assert match.deals.filter(number=1, status="finished").exists()


IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return 'missing';
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not shown';
  const ok = r.top >= 0 && r.left >= 0
    && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  return ok ? 'ok' : `${r.left},${r.top},${r.right},${r.bottom}`;
}"""


def people_table(game: str, seats: int, prefix: str) -> Table:
    users = [
        get_user_model().objects.create_user(f"{prefix}{s}", password=PASSWORD)
        for s in range(seats)
    ]
    players = [tables_services.player_create(name=f"玩家{s}", user=u) for s, u in enumerate(users)]
    return tables_services.table_create(name=f"{prefix}桌", players=players, game=game)


@pytest.mark.parametrize(
    ("game", "seats"), [("daguai", 6), ("xiaoluzi", 4), ("shanghai_doudizhu", 4)]
)
def test_on_a_phone_the_hand_and_the_buttons_stay_on_screen(
    live_asgi: str, browser: Any, game: str, seats: int
) -> None:
    table = people_table(game, seats, "m")
    play_services.match_start(table=table, seed=4, turn_seconds=600)
    from games.play import state as selectors

    awaiting = selectors.table_state(table=table)["deal"]["awaiting"][0]
    base = live_asgi
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    log_in(page, base, f"m{awaiting}")
    page.goto(f"{base}/tables/{table.pk}/")
    page.wait_for_selector("#hand button.card-face")
    assert page.evaluate("() => window.scrollY") == 0
    buttons = ["#hand", "#btn-pass", "#btn-hint"]
    buttons.append("#btn-play" if game == "daguai" else "#choices button")
    for selector in buttons:
        assert page.evaluate(IN_VIEW, selector) == "ok", selector
    # the last card of the hand too (the whole hand is on screen)
    # read in one go: a push may redraw the hand between two separate reads
    bottom = page.evaluate(
        "() => { const c = document.querySelectorAll('#hand button.card-face');"
        " return c.length ? c[c.length - 1].getBoundingClientRect().bottom : null; }"
    )
    assert bottom is not None and bottom <= 844
    # the seats around the table: the viewer at the bottom, the opposite seat at the top
    boxes = [page.locator(f".seat.pos-{p}").bounding_box() for p in range(seats)]
    top = seats // 2
    assert boxes[top]["y"] < boxes[1]["y"] < boxes[0]["y"]
    assert boxes[top]["y"] <= min(b["y"] for b in boxes)
    assert boxes[1]["x"] > boxes[top]["x"] > boxes[seats - 1]["x"]  # right, middle, left
    page.screenshot(path=str(ARTIFACTS / f"table-phone-{game}.png"), full_page=False)
    assert not errors, errors
