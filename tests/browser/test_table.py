"""A person logs in, opens a practice table, plays by clicking until the deal ends and sees its
result; a spectator in a second browser context sees the plays arrive without reloading. Bots and
timers run on a real Celery worker process; the pages talk to a real ASGI server."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Match, Table, TableSeat
from tests.browser.conftest import ARTIFACTS
from tests.workers import celery_workers

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"

# what the player's page waits for: their move, or the end of the deal
READY = """() => {
  const shown = (id) => { const el = document.getElementById(id); return el && !el.hidden; };
  const usable = (id) => {
    const el = document.getElementById(id);
    return el && !el.hidden && !el.disabled;
  };
  return shown('deal-result') || shown('match-over') || document.getElementById('deal-result')
    || usable('btn-pass') || !document.getElementById('btn-return').hidden
    || (document.getElementById('prompt').textContent && usable('btn-hint'));
}"""


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/me/")


def take_turn(page: Any, shot: str = "") -> str:
    """Act once as a person would: return a card, or pick the first hinted play, or pass."""
    if page.is_visible("#btn-return"):
        page.click("#hand button.card-face >> nth=-1")
        page.wait_for_function("() => !document.getElementById('btn-return').disabled")
        page.click("#btn-return")
        return "return"
    page.click("#btn-hint")
    chips = page.locator("#hints button.hint")
    if chips.count():
        chips.first.click()
        # the server explains the selection before it is sent
        page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
        assert "ok" in page.get_attribute("#message", "class")
        if shot:  # the hand, the hints and the server's word on the selection
            page.screenshot(path=shot, full_page=True)
        page.click("#btn-play")
        return "play"
    page.click("#btn-hint")  # close the list
    if not page.is_enabled("#btn-pass"):
        return "moved on"  # the table changed meanwhile (the turn is no longer ours)
    page.click("#btn-pass")
    return "pass"


def test_a_person_plays_a_practice_deal_in_the_browser_and_a_spectator_watches(
    live_asgi: str, browser: Any, settings: Any
) -> None:
    settings.LUZI_PRACTICE_BOT_DELAY_MS = 0
    settings.LUZI_PRACTICE_TURN_SECONDS = 120  # a slow machine must not time the person out
    User = get_user_model()
    User.objects.create_user("xiaoming", password=PASSWORD)
    User.objects.create_user("watcher", password=PASSWORD)
    base = live_asgi

    with celery_workers(1):  # with beat: its watchdog re-queues any lost task
        player = browser.new_context(viewport={"width": 1000, "height": 900}, locale="zh-CN")
        page = player.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        log_in(page, base, "xiaoming")
        page.click("#practice")
        page.wait_for_url(f"{base}/tables/*/")
        seat = TableSeat.objects.select_related("table").get(player__user__username="xiaoming")
        table: Table = seat.table
        assert table.seats.filter(player__is_bot=True).count() == 5
        assert "小怪" in page.content() or page.locator("#hand button").count() == 27

        watcher = browser.new_context(viewport={"width": 420, "height": 900})  # a phone
        spectator = watcher.new_page()
        log_in(spectator, base, "watcher")
        spectator.goto(f"{base}/tables/{table.pk}/")
        assert spectator.locator("#hand").count() == 0  # no hand for a spectator
        spectator.evaluate("() => { window.__notReloaded = true; }")
        seen_seq = int(spectator.evaluate("() => Number(document.body.dataset.seq)"))

        moves: list[str] = []
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            try:
                page.wait_for_function(READY, timeout=60_000)
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "table-failure.png"), full_page=True)
                raise AssertionError(
                    f"stuck after moves {moves}: {page.inner_text('#prompt')!r} "
                    f"{page.inner_text('#message')!r} {page.inner_text('#conn')!r}"
                ) from None
            if page.is_visible("#deal-result") or page.is_visible("#match-over"):
                break
            before = page.evaluate("() => document.body.dataset.seq")
            first = "play" not in moves
            moves.append(take_turn(page, str(ARTIFACTS / "table-playing.png") if first else ""))
            if moves[-1] == "moved on":
                continue
            page.wait_for_function(
                f"() => document.body.dataset.seq !== '{before}'"
                " || document.getElementById('message').className.includes('bad')",
                timeout=30_000,
            )
            assert "bad" not in (page.get_attribute("#message", "class") or ""), page.inner_text(
                "#message"
            )
        else:
            raise AssertionError(f"the deal did not end; moves so far: {moves}")

        assert "play" in moves
        result = page.inner_text("#result")
        assert "第 1 局" in result or "deal 1" in result.lower() or result.strip()
        page.screenshot(path=str(ARTIFACTS / "table-player.png"), full_page=True)

        # the spectator's page followed the plays without a reload
        spectator.wait_for_function(
            f"() => Number(document.body.dataset.seq) > {seen_seq} || "
            "Number(document.body.dataset.deal) > 1",
            timeout=10_000,
        )
        assert spectator.evaluate("() => window.__notReloaded === true")
        spectator.screenshot(path=str(ARTIFACTS / "table-spectator.png"), full_page=True)
        assert spectator.locator("#hand").count() == 0
        assert not errors, errors
        match = Match.objects.get(table=table)
        assert match.deals.filter(number=1, status="finished").exists()


# Every WebSocket the page opens is kept in window.__sockets; while window.__block is set, new
# ones go to a path the server refuses (the network is away).
SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__block = false;
  function Tracked(url, protocols) {
    const s = new Native(window.__block ? url.replace('/ws/', '/ws-away/') : url, protocols);
    window.__sockets.push(s);
    return s;
  }
  Tracked.prototype = Native.prototype;
  Tracked.CONNECTING = 0; Tracked.OPEN = 1; Tracked.CLOSING = 2; Tracked.CLOSED = 3;
  window.WebSocket = Tracked;
})();"""


def test_a_dropped_connection_shows_away_reconnects_and_only_the_confirmed_leave_escapes(
    live_asgi: str, browser: Any
) -> None:
    """Issue 15: the player whose connection drops sees a banner and comes back by themselves;
    the others see the seat away (离线); nothing ends the match but the confirmed leave."""
    from games.play import services as play_services
    from games.tables import services as tables_services

    User = get_user_model()
    table = Table.objects.create(name="断线桌")
    for seat in range(6):
        user = User.objects.create_user(f"p{seat}", password=PASSWORD)
        player = tables_services.player_create(name=f"玩家{seat}", user=user)
        TableSeat.objects.create(table=table, seat=seat, player=player)
    match = play_services.match_start(table=table, seed=2, turn_seconds=600)
    base = live_asgi
    pages = {}
    errors: list[str] = []
    for seat in (0, 3):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
        context.add_init_script(SOCKETS)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        log_in(page, base, f"p{seat}")
        page.goto(f"{base}/tables/{table.pk}/")
        page.wait_for_function("() => document.getElementById('conn').dataset.state === 'live'")
        pages[seat] = page
    me, other = pages[0], pages[3]
    other.wait_for_function("() => !document.querySelector('#seat-0 .tag.away')")
    assert other.locator("#seat-1 .tag.away").count() == 1  # nobody has seat 1's page open

    me.evaluate("() => { window.__block = true; window.__sockets.forEach((s) => s.close()); }")
    me.wait_for_selector("#away-banner.offline", state="visible", timeout=10_000)
    assert "没有离开" in me.inner_text("#away-banner")
    other.wait_for_function("() => !!document.querySelector('#seat-0 .tag.away')", timeout=10_000)
    me.screenshot(path=str(ARTIFACTS / "table-connection-lost.png"), full_page=True)
    other.screenshot(path=str(ARTIFACTS / "table-seat-away.png"), full_page=True)

    me.evaluate("() => { window.__block = false; }")  # the network is back
    me.wait_for_function(
        "() => document.getElementById('conn').dataset.state === 'live'", timeout=20_000
    )
    me.wait_for_selector("#away-banner", state="hidden")
    other.wait_for_function("() => !document.querySelector('#seat-0 .tag.away')", timeout=10_000)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and not match.end_reason

    # a stale answer (409) keeps the selection: the cards are still held
    me.click("#btn-hint")
    me.locator("#hints button.hint").first.click()
    me.wait_for_function("() => document.getElementById('message').className.includes('ok')")
    chosen = me.locator("#hand button.selected").count()
    assert chosen >= 1
    stale = {"detail": "Stale action", "seq": 0}
    me.route("**/actions/", lambda route: route.fulfill(status=409, json=stale))
    me.click("#btn-play")
    me.wait_for_function("() => document.getElementById('message').textContent.includes('刷新')")
    me.wait_for_function(f"() => document.querySelectorAll('#hand .selected').length === {chosen}")
    me.unroute("**/actions/")
    me.wait_for_function("() => !document.getElementById('btn-play').disabled")
    me.click("#btn-play")  # the same selection, sent again, is played
    me.wait_for_function("() => document.body.dataset.seq === '1'")
    assert me.locator("#hand button.card-face").count() == 27 - chosen

    with me.expect_event("dialog") as asked:  # asked (the game's own cost), and said no
        me.click("#btn-leave", no_wait_after=True)  # the dialog comes after a fetch
    assert "你将失去 18 分" in asked.value.message
    asked.value.dismiss()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    with me.expect_event("dialog") as asked:
        me.click("#btn-leave", no_wait_after=True)  # the dialog comes after a fetch
    asked.value.accept()
    me.wait_for_selector("#match-over", state="visible", timeout=10_000)
    other.wait_for_selector("#match-over", state="visible", timeout=10_000)
    match.refresh_from_db()
    assert match.end_reason == Match.EndReason.ESCAPE and match.points[0] < 0
    assert not errors, errors
