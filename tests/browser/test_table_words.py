"""The table page's words in the browser (issue 15): the leave dialog states what leaving costs in
the table's own game (in Chinese and in English), a table of a team event names its teams at the
seats and links back to its event and round, and a practice table's bots are named in the page's
language."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Match
from games.play import services as play_services
from games.play import state as selectors
from games.tables import services as tables_services
from tests.browser.conftest import ARTIFACTS
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery staple"


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/me/")


def open_page(browser: Any, base: str, username: str, language: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    if language == "en":
        host = base.split("//", 1)[1].split(":")[0]
        context.add_cookies(
            [{"name": "django_language", "value": "en", "domain": host, "path": "/"}]
        )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    log_in(page, base, username)
    return page, errors


@pytest.mark.parametrize(
    ("game", "language", "words"),
    [
        ("daguai", "zh-hans", "你将失去 18 分"),
        ("xiaoluzi", "zh-hans", "你将失去 6 分"),
        ("shanghai_doudizhu", "en", "you lose 4 points"),
    ],
)
def test_the_leave_dialog_states_the_games_escape_cost(
    live_asgi: str, browser: Any, game: str, language: str, words: str
) -> None:
    User = get_user_model()
    count = 6 if game == "daguai" else 4
    users = [User.objects.create_user(f"w{s}", password=PASSWORD) for s in range(count)]
    players = [tables_services.player_create(name=f"玩家{s}", user=u) for s, u in enumerate(users)]
    table = tables_services.table_create(name="离桌", players=players, game=game)
    match = play_services.match_start(table=table, seed=4, turn_seconds=600)
    page, errors = open_page(browser, live_asgi, "w1", language)
    page.goto(f"{live_asgi}/tables/{table.pk}/")
    page.wait_for_selector("#hand button.card-face")
    with page.expect_event("dialog") as asked:
        page.click("#btn-leave", no_wait_after=True)  # the dialog comes after a fetch
    dialog = asked.value
    assert words in dialog.message, dialog.message
    if game == "daguai":  # no other game's penalty in another game's dialog, and vice versa
        assert "18" in dialog.message
    else:
        assert "18" not in dialog.message
    dialog.dismiss()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    with page.expect_event("dialog") as asked:
        page.click("#btn-leave", no_wait_after=True)  # the dialog comes after a fetch
    asked.value.accept()
    page.wait_for_selector("#match-over", state="visible", timeout=10_000)
    match.refresh_from_db()
    assert match.end_reason == Match.EndReason.ESCAPE
    assert not errors, errors


def test_a_team_tables_page_names_the_teams_and_links_back(live_asgi: str, browser: Any) -> None:
    User = get_user_model()
    event = EventFactory(name="运动会大怪路子")
    teams = [TeamFactory(event=event, unit=UnitFactory(), name=n) for n in ("研发一队", "销售二队")]
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    pairing = round_.pairings.get()
    seat_0 = pairing.table.seats.get(seat=0).player
    user = User.objects.create_user("captain", password=PASSWORD)
    seat_0.user = user
    seat_0.save(update_fields=["user"])
    if pairing.table.matches.filter(status=Match.Status.PLAYING).exists() is False:
        play_services.match_start(table=pairing.table, seed=4, turn_seconds=600)
    assert {pairing.team_a.name, pairing.team_b.name} == {t.name for t in teams}
    for language in ("zh-hans", "en"):
        page, errors = open_page(browser, live_asgi, "captain", language)
        page.goto(f"{live_asgi}/tables/{pairing.table_id}/")
        page.wait_for_selector("#seat-0 .seat-head")
        tags = page.inner_text("#seat-0 .seat-head") + page.inner_text("#seat-1 .seat-head")
        assert pairing.team_a.name in tags and pairing.team_b.name in tags
        assert "A 队" not in tags and "Team A" not in tags
        levels = page.inner_text("#level-info")  # the levels and points read by team
        assert pairing.team_a.name in levels and pairing.team_b.name in levels, levels
        crumbs = page.locator("#table-crumbs a")
        assert crumbs.nth(0).inner_text() == "运动会大怪路子"
        assert crumbs.nth(1).inner_text() == ("第1轮" if language == "zh-hans" else "Round 1")
        page.screenshot(path=str(ARTIFACTS / f"table-team-names-{language}.png"), full_page=True)
        crumbs.nth(1).click()
        page.wait_for_url(f"{live_asgi}/events/{event.pk}/rounds/1/")
        assert not errors, errors


def test_a_practice_tables_bots_are_named_in_the_pages_language(
    live_asgi: str, browser: Any, settings: Any
) -> None:
    settings.LUZI_PRACTICE_BOT_DELAY_MS = 0
    User = get_user_model()
    User.objects.create_user("solo", password=PASSWORD)
    page, errors = open_page(browser, live_asgi, "solo", "zh-hans")
    page.select_option("#practice-game", "xiaoluzi")
    page.click("#practice")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#seat-1 .seat-head")
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert page.inner_text("h1").startswith("练习 · solo")
    names = [page.inner_text(f"#seat-{s} .seat-head strong") for s in (1, 2, 3)]
    assert sorted(names) == ["机器人 1", "机器人 2", "机器人 3"], names
    english, more = open_page(browser, live_asgi, "solo", "en")
    english.goto(f"{live_asgi}/tables/{table_id}/")
    english.wait_for_selector("#seat-1 .seat-head")
    assert english.inner_text("h1").startswith("Practice · solo")
    names = [english.inner_text(f"#seat-{s} .seat-head strong") for s in (1, 2, 3)]
    assert sorted(names) == ["Bot 1", "Bot 2", "Bot 3"], names
    assert selectors.table_state_of(table_id=table_id) is not None
    assert not errors and not more, errors + more
