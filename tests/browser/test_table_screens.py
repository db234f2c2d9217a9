"""What a person meets on a phone (390×844) at the table, in every game (issue 26): the reason a
tap is refused is read on the first screen beside the hand; a deal's end shows a result screen
that stays until the player continues, and a deal history with points; coming back to a table
where the system played for them, they see 托管, how many system plays are left before it is an
escape, and why the match ended; after the match nothing says 待压, 实时 or "not your turn"; deals
are counted as people count them (a 荒番 redeal is no new deal). Each game's match is played to
its end by tapping cards (no hints) against bots on a real Celery worker."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Match, Table
from games.play import services as play_services
from games.play import state as selectors
from games.play.apis import action_as_text
from games.tables import services as tables_services
from tests.browser.conftest import ARTIFACTS
from tests.workers import celery_workers

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"
PHONE = {"width": 390, "height": 844}

# on the first screen and not covered (by the hand's fixed panel or anything else): the element
# itself (or something inside it) is what a finger at its centre would touch
ON_SCREEN = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return 'missing';
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not shown';
  if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) {
    return `off screen ${r.left},${r.top},${r.right},${r.bottom}`;
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (hit && (hit === el || el.contains(hit))) return 'ok';
  return `covered by ${hit && hit.outerHTML.slice(0, 80)}`;
}"""


def seat_count(game: str) -> int:
    return 6 if game == "daguai" else 4


def people_table(game: str, prefix: str) -> Table:
    users = [
        get_user_model().objects.create_user(f"{prefix}{s}", password=PASSWORD)
        for s in range(seat_count(game))
    ]
    players = [tables_services.player_create(name=f"玩家{s}", user=u) for s, u in enumerate(users)]
    return tables_services.table_create(name=f"{prefix}桌", players=players, game=game)


def open_table(browser: Any, base: str, username: str, language: str, table: Table) -> Any:
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    if language == "en":
        host = base.split("//", 1)[1].split(":")[0]
        context.add_cookies(
            [{"name": "django_language", "value": "en", "domain": host, "path": "/"}]
        )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/me/")
    page.goto(f"{base}/tables/{table.pk}/")
    page.wait_for_selector("#deal-info")
    return page


def on_screen(page: Any, selector: str) -> None:
    assert page.evaluate(ON_SCREEN, selector) == "ok", (
        selector,
        page.evaluate(ON_SCREEN, selector),
    )


def move_on(table: Table, *, timed_out: set[int], legal_first: bool = False) -> dict[str, Any]:
    """One step of the table, driven from outside the page: the seats in ``timed_out`` let their
    time run out (the system plays for them), the others act (a bid or a play before a pass, or
    the first legal action with ``legal_first``); a deal over is followed by the next."""
    state = selectors.table_state(table=table)
    match = state["match"]
    deal = state["deal"]
    if deal is None or deal["phase"] == "over" or not deal.get("awaiting"):
        play_services.deal_start(match_id=match["id"], number=state["deal_number"] + 1)
        return selectors.table_state(table=table)
    seat = deal["awaiting"][0]
    if seat in timed_out:
        play_services.seat_timeout(
            match_id=match["id"], number=state["deal_number"], seq=state["seq"], seat=seat
        )
    else:
        legal = selectors.table_state(table=table, seat=seat)["you"]["legal"]
        # no 宣牌 (a short deal of one against three), the highest bid, a play before a pass
        declining = [a for a in legal if a["kind"] in ("no_declare", "no_counter")]
        acting = declining or [a for a in legal if a["kind"] != "pass"] or legal
        pick = legal[0] if legal_first else acting[-1 if acting[0]["kind"] == "bid" else 0]
        kind, cards = action_as_text(table, seat, pick)
        play_services.seat_act(
            table=table,
            seat=seat,
            kind=kind,
            cards=cards,
            seq=state["seq"],
            deal=state["deal_number"],
        )
    return selectors.table_state(table=table)


@pytest.mark.parametrize(
    ("game", "language", "reason"),
    [
        ("shanghai_doudizhu", "zh-hans", "还没轮到你"),
        ("shanghai_doudizhu", "en", "not your turn"),
        ("xiaoluzi", "zh-hans", "还没轮到你"),
        ("xiaoluzi", "en", "not your turn"),
        ("daguai", "en", "not your turn"),
    ],
)
def test_a_refused_tap_shows_its_reason_beside_the_hand(
    live_asgi: str, browser: Any, game: str, language: str, reason: str
) -> None:
    table = people_table(game, "r")
    play_services.match_start(table=table, seed=4, turn_seconds=600)
    awaiting = selectors.table_state(table=table)["deal"]["awaiting"]
    seat = next(s for s in range(seat_count(game)) if s not in awaiting)
    page = open_table(browser, live_asgi, f"r{seat}", language, table)
    page.wait_for_selector("#hand button.card-face")
    page.click("#hand button.card-face >> nth=0")  # a tap on a card while it is not their turn
    page.wait_for_function(
        "() => document.getElementById('message').className.includes('bad')"
        " && document.getElementById('message').textContent.length > 0"
    )
    assert reason in page.inner_text("#message").lower(), page.inner_text("#message")
    on_screen(page, "#message")
    on_screen(page, "#hand")
    page.screenshot(path=str(ARTIFACTS / f"table-refused-{game}-{language}.png"))
    assert not page.errors, page.errors


@pytest.mark.parametrize(
    ("game", "language", "rules"),
    [
        ("shanghai_doudizhu", "zh-hans", {}),
        ("shanghai_doudizhu", "en", {}),
        ("xiaoluzi", "zh-hans", {}),
        ("daguai", "en", {}),
    ],
)
def test_back_at_the_table_the_player_sees_the_system_playing_for_them_and_why_it_ended(
    live_asgi: str, browser: Any, game: str, language: str, rules: dict[str, Any]
) -> None:
    table = people_table(game, "t")
    match = play_services.match_start(table=table, seed=4, turn_seconds=600, rule_options=rules)
    # the page is closed: seat 0's time runs out at each of its turns, the others play
    left = None
    for _ in range(2000):
        state = selectors.table_state(table=table)
        block = state["system_play"][0] if state["system_play"] else None
        if block and block["used"] and block["left"] == 1:
            left = block
            break
        move_on(table, timed_out={0})
    assert left is not None, "seat 0 never came one system play short of the limit"
    zh = language != "en"
    page = open_table(browser, live_asgi, "t0", language, table)
    page.wait_for_selector("#away-banner", state="visible")
    banner = page.inner_text("#away-banner")
    used = left["used"]
    if zh:
        assert f"系统已{'连续' if left['in_a_row'] else ''}为你代打 {used} 次" in banner, banner
        assert "再代打 1 次即算逃跑" in banner, banner
    else:
        assert f"the system has played for you {used} times" in banner, banner
        assert "One more system play is an escape" in banner, banner
    on_screen(page, "#away-banner")
    on_screen(page, "#hand")
    assert page.inner_text("#seat-0 .tag.auto") == "托管"
    info = page.inner_text("#seat-0 .seat-info")
    assert (f"托管 {used}/{left['limit']} 次" if zh else f"托管 {used} of {left['limit']}") in info
    page.screenshot(path=str(ARTIFACTS / f"table-auto-{game}-{language}.png"))
    page.close()

    # still away: one more time-out is an escape, and the match ends
    for _ in range(2000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        move_on(table, timed_out={0})
    assert match.end_reason == Match.EndReason.ESCAPE
    page = open_table(browser, live_asgi, "t0", language, table)
    page.wait_for_selector("#deal-over", state="visible")
    on_screen(page, "#btn-continue")
    words = page.inner_text("#deal-over")
    limit = left["limit"]
    if zh:
        assert f"玩家0 逃跑：系统已为其托管代打 {limit} 次，达到规则上限，比赛结束。" in words, (
            words
        )
        assert "比赛结束" in words and "最终得分" in words
    else:
        assert f"玩家0 escaped (逃跑): the system played for them (托管) {limit} times" in words
        assert "Final points" in words
    page.screenshot(path=str(ARTIFACTS / f"table-auto-escape-{game}-{language}.png"))
    page.click("#btn-continue")
    page.wait_for_selector("#deal-over", state="hidden")
    # after the match: no 待压, no 实时 badge, and a tap on a card says the match is over
    centre = page.inner_text("#trick")
    assert "待压" not in centre and "to beat" not in centre
    assert ("比赛结束" if zh else "The match is over") in centre, centre
    assert ("逃跑" in centre) and ("玩家0" in centre), centre
    conn = page.inner_text("#conn")
    assert conn == ("比赛结束" if zh else "match over"), conn
    prompt = page.inner_text("#bar-prompt")
    assert ("比赛结束" if zh else "The match is over") in prompt
    if page.locator("#hand button.card-face").count():
        page.click("#hand button.card-face >> nth=0")
        page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
        said = page.inner_text("#message")
        assert "还没轮到你" not in said and "not your turn" not in said.lower()
        assert ("比赛已结束" if zh else "The match is over") in said, said
        on_screen(page, "#message")
    assert not page.errors, page.errors


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_huangfan_redeal_is_no_new_deal_in_the_count(
    live_asgi: str, browser: Any, language: str
) -> None:
    table = people_table("shanghai_doudizhu", "h")
    match = play_services.match_start(
        table=table, seed=4, turn_seconds=600, rule_options={"timeouts_to_escape": 99}
    )
    # nobody bids, twice: two 荒番 deals dealt again, and the third deal is on
    everyone = set(range(4))
    for _ in range(40):
        state = selectors.table_state(table=table)
        if state["deal_number"] == 3 and state["deal"]["phase"] != "over":
            break
        move_on(table, timed_out=everyone)
    match.refresh_from_db()
    assert match.current_deal == 3
    page = open_table(browser, live_asgi, "h0", language, table)
    page.wait_for_selector("#hand button.card-face")
    info = page.inner_text("#deal-info")
    assert info == ("第 1 局 / 共 3 局" if language != "en" else "deal 1 of 3"), info
    on_screen(page, "#deal-info")
    history = page.inner_text("#history-table")
    assert ("第 1 局" if language != "en" else "deal 1") in history
    assert "第 2 局" not in history and "deal 2" not in history
    assert not page.errors, page.errors


def test_counts_are_written_in_each_languages_plural(live_asgi: str, browser: Any) -> None:
    table = people_table("shanghai_doudizhu", "p")
    play_services.match_start(table=table, seed=4, turn_seconds=600)
    english = open_table(browser, live_asgi, "p1", "en", table)
    english.wait_for_selector("#seat-0 .seat-info")
    assert re.search(r"\b25 cards\b", english.inner_text("#seat-0 .seat-info"))
    # the words the page writes for one card, one bomb, many
    said = english.evaluate(
        "() => { const L = window.LuziTable; return [L.fmt(L.T.cardsLeft, {n: 1}),"
        " L.fmt(L.T.cardsLeft, {n: 2}), L.fmt(L.T.bombsLeft, {n: 1}),"
        " L.fmt(L.T.bombsLeft, {n: 3})]; }"
    )
    assert said == ["1 card", "2 cards", "1 bomb left", "3 bombs left"], said
    chinese = open_table(browser, live_asgi, "p2", "zh-hans", table)
    chinese.wait_for_selector("#seat-0 .seat-info")
    assert "25 张" in chinese.inner_text("#seat-0 .seat-info")
    said = chinese.evaluate(
        "() => { const L = window.LuziTable; return [L.fmt(L.T.cardsLeft, {n: 1}),"
        " L.fmt(L.T.bombsLeft, {n: 1})]; }"
    )
    assert said == ["1 张", "还可炸 1 次"], said
    assert not english.errors and not chinese.errors


# --- a whole match by taps ------------------------------------------------------------------

READY = """() => {
  const shown = (id) => { const el = document.getElementById(id); return el && !el.hidden; };
  const choices = document.getElementById('choices');
  return shown('deal-over') || !!document.getElementById('match-over')
    || (choices && !choices.hidden && !!choices.querySelector('button:not([disabled])'))
    || document.body.dataset.turn === 'mine';
}"""

LEGAL = """async () => {
  const config = JSON.parse(document.getElementById('table-config').textContent);
  const r = await fetch(config.stateUrl, { credentials: 'same-origin' });
  const s = await r.json();
  return { seq: s.seq, legal: (s.you && s.you.legal) || [], turn: s.deal && s.deal.turn,
           phase: s.deal && s.deal.phase };
}"""

CHOICE_ORDER = ("bid", "declare", "counter", "open", "report", "fight", "pass", "no_declare")


def tap_cards(page: Any, cards: str) -> None:
    """Tap each card of ``cards`` in the hand (a card not yet selected, for a pair of equals)."""
    for token in cards.split():
        page.locator(f'#hand button.card-face[data-token="{token}"]:not(.selected)').first.click()


def tap_turn(page: Any) -> str:
    """Act once as a person would, by tapping: a decision's button, else the cards of a legal
    play then 出牌, a card to return then 还贡, else 不出."""
    if page.is_visible("#choices"):
        buttons = page.locator("#choices button")
        kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
        for wanted in CHOICE_ORDER:
            if wanted in kinds:
                buttons.nth(len(kinds) - 1 - kinds[::-1].index(wanted)).click()
                return wanted
        buttons.first.click()
        return "choice"
    seen = page.evaluate(LEGAL)
    plays = [a for a in seen["legal"] if a.get("cards") and a["kind"] in ("play", "return")]
    if plays:
        page.click("#btn-clear")
        tap_cards(page, plays[0]["cards"])
        page.wait_for_function(
            "() => /\\b(ok|bad)\\b/.test(document.getElementById('message').className)"
        )
        on_screen(page, "#message")  # the server's word on the selection, beside the hand
        if "ok" not in (page.get_attribute("#message", "class") or ""):
            return "moved on"
        page.click("#btn-return" if plays[0]["kind"] == "return" else "#btn-play")
        return plays[0]["kind"]
    if any(a["kind"] == "pass" for a in seen["legal"]) and page.is_enabled("#btn-pass"):
        page.click("#btn-pass")
        return "pass"
    return "moved on"


def bot_table(game: str, username: str) -> Table:
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    person = tables_services.player_create(name="小明", user=user)
    bots = [
        tables_services.player_create(name=f"Bot {n}", is_bot=True, bot_kind="heuristic")
        for n in range(1, seat_count(game))
    ]
    return tables_services.table_create(name="整场", players=[person, *bots], game=game)


@pytest.mark.parametrize(
    ("game", "language", "deals"),
    [("daguai", "zh-hans", 1), ("xiaoluzi", "en", 2), ("shanghai_doudizhu", "zh-hans", 1)],
)
def test_a_whole_match_is_played_by_taps_with_a_result_screen_after_each_deal(
    live_asgi: str, browser: Any, game: str, language: str, deals: int
) -> None:
    zh = language != "en"
    table = bot_table(game, "solo")
    with celery_workers(1):
        match = play_services.match_start(
            table=table, seed=7, turn_seconds=180, bot_delay_ms=0, deals_per_match=deals
        )
        page = open_table(browser, live_asgi, "solo", language, table)
        moves: list[str] = []
        screens = 0
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            try:
                page.wait_for_function(READY, timeout=90_000)
            except Exception:
                page.screenshot(path=str(ARTIFACTS / f"table-match-{game}-failure.png"))
                raise AssertionError(
                    f"stuck after {moves}: {page.inner_text('#prompt')!r}"
                ) from None
            if page.is_visible("#deal-over"):
                screens += 1
                # the result: on the first screen, over the hand's panel, until tapped away
                on_screen(page, "#deal-over-title")
                on_screen(page, "#btn-continue")
                words = page.inner_text("#deal-over")
                assert ("本局得分" if zh else "Points of this deal") in words, words
                assert page.locator("#deal-over-points td").count() == seat_count(game)
                figures = page.inner_text("#deal-over-figures")
                assert figures.strip(), figures
                page.screenshot(path=str(ARTIFACTS / f"table-match-{game}-result-{screens}.png"))
                page.wait_for_timeout(5_000)  # longer than the pause between deals
                assert page.is_visible("#deal-over") and page.inner_text("#deal-over") == words
                over = page.locator("#deal-over-match").count() > 0
                page.click("#btn-continue")
                page.wait_for_selector("#deal-over", state="hidden")
                if over:
                    break
                continue
            if page.locator("#match-over").count():
                break
            before = page.evaluate("() => document.body.dataset.seq")
            moves.append(tap_turn(page))
            if moves[-1] == "moved on":
                page.wait_for_timeout(150)
                continue
            page.wait_for_function(
                f"() => document.body.dataset.seq !== '{before}'"
                " || document.getElementById('message').className.includes('bad')",
                timeout=30_000,
            )
            if language == "en":  # no "1 cards" nor "1 bombs left" at any seat
                seats = page.inner_text(".felt")
                assert not re.search(r"\b1 (cards|bombs)\b", seats), seats
        else:
            raise AssertionError(f"the match did not end; moves so far: {moves}")
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED, match.status
        assert screens >= deals and set(moves) & {"play", "return"}
        # the deal history: one row per deal with the points of every player
        rows = page.locator("#history-table tr.history-deal")
        finished = match.deals.filter(status="finished").count()
        assert rows.count() == finished
        for i in range(rows.count()):
            cells = [c for c in rows.nth(i).locator("td").all_inner_texts()]
            assert len(cells) == seat_count(game) and all(
                re.fullmatch(r"[+-]?\d+|0", c) for c in cells
            )
        final = page.inner_text("#trick")
        assert ("比赛结束" if zh else "The match is over") in final
        page.screenshot(path=str(ARTIFACTS / f"table-match-{game}-end.png"), full_page=True)
        assert not page.errors, page.errors
