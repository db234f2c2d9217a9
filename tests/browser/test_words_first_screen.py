"""The words fixes of issue 26, read as a person reads them: Chromium at 390x844, in Chinese and
in English, on the pages' first screen (or the section a person scrolls to):

- no English inside Chinese pages (the draw's log line "4 tables, unavoidable repeated
  tablemates: 2"), and no Chinese inside English ones;
- no team words on an individual event's pages ("队伍" column, "0 : 0");
- the round page says 进行中 / 观看直播 for a table in play, 成绩已录入，待确认 for an offline
  table whose result waits, 未开始 only for a table not begun;
- the knockout page names matches as people do (半决赛 2, not its raw id "1-1-2");
- My page lists a practice table with its game.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games.models import Table
from games.play.practice import practice_table_open
from tests.browser.events import build, log_in
from tournaments.draw import services as draw_services
from tournaments.results.services import result_submit
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["zh-hans", "en"]
ENGLISH_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def _text(page: Any, selector: str) -> str:
    return " ".join(page.locator(selector).all_inner_texts())


def _one_language(text: str, language: str, *, names: set[str]) -> None:
    """Chinese pages have no English word (CSV and Luzi excepted); English pages no Chinese
    word other than the names of people, units, teams and events, and the rule terms kept in
    Chinese."""
    for name in names:
        text = text.replace(name, "")
    if language == "zh-hans":
        words = set(ENGLISH_WORD.findall(text)) - {"CSV", "Luzi"}
        assert not words, (words, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_draw_log_and_an_individual_events_pages_read_in_one_language(
    live_asgi: str, browser: Any, language: str
) -> None:
    built = build("xiaoluzi")
    event = built.event
    page = log_in(browser, live_asgi, built.organizer.username, language)
    page.goto(f"{live_asgi}/events/{event.pk}/manage/")
    log = _text(page, "ul.log")
    names = {r.player.name for r in event.registrations.select_related("player")}
    names |= {event.name, built.organizer.username, built.checker.username}
    _one_language(log, language, names=names)
    assert ("瑞士制：2 桌" if language == "zh-hans" else "Swiss: 2 tables") in log, log
    body = page.locator("main, body").first.inner_text()
    team_words = ["队伍", "0 : 0"] if language == "zh-hans" else ["Team", "0 : 0"]
    for word in team_words:
        assert word not in body, word
    page.goto(f"{live_asgi}/events/{event.pk}/")
    body = page.locator("main, body").first.inner_text()
    assert ("0 支队伍" if language == "zh-hans" else "0 teams") not in body
    assert ("8 名选手" if language == "zh-hans" else "8 players") in body, body


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_round_page_says_what_each_table_is_doing(
    live_asgi: str, browser: Any, language: str
) -> None:
    built = build("daguai", start_knockout=False)
    event = built.event
    round_ = event.rounds.get(number=1)
    # round 2: table 1 online and playing, table 2 offline with a result waiting, the rest
    # offline and not begun
    rounds_services.round_complete(
        round=round_, user=built.organizer
    ) if round_.status != "completed" else None
    from tournaments.knockout import services as knockout

    knockout.knockout_cancel(stage=built.stage, user=built.organizer)
    second = draw_services.round_create_paired(event=event, user=built.organizer)
    tables = list(second.pairings.order_by("number"))
    Table.objects.filter(pk=tables[0].table_id).update(mode=Table.Mode.ONLINE)
    rounds_services.round_confirm(round=second, user=built.organizer)
    rounds_services.round_start(round=second, user=built.organizer)
    result_submit(
        pairing=tables[1],
        user=built.organizer,
        first_dealer=0,
        deals=[{"finish": [0, 2, 4]}],
    )
    page = log_in(browser, live_asgi, built.organizer.username, language)
    page.goto(f"{live_asgi}/events/{event.pk}/rounds/{second.number}/")
    rows = page.locator("table.pairings tbody tr")
    playing, waiting, idle = (rows.nth(i).locator("td").last.inner_text() for i in range(3))
    zh = language == "zh-hans"
    assert ("进行中" if zh else "playing") in playing and (
        "观看直播" if zh else "Watch live"
    ) in playing
    assert ("成绩已录入，待确认" if zh else "result entered, awaiting confirmation") in waiting
    assert ("未开始" if zh else "not started") not in waiting + playing
    assert ("观看直播" if zh else "Watch live") not in waiting + idle
    assert idle.strip() == ("未开始" if zh else "not started"), idle


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_knockout_page_names_its_matches(live_asgi: str, browser: Any, language: str) -> None:
    built = build("daguai")  # a bracket of four: two semi-finals running
    page = log_in(browser, live_asgi, built.organizer.username, language)
    page.goto(f"{live_asgi}/events/{built.event.pk}/manage/knockout/")
    text = page.locator("main, body").first.inner_text()
    assert not re.search(r"\b\d-\d-\d\b", text), text  # no raw ids such as 1-1-2
    zh = language == "zh-hans"
    for n in (1, 2):
        assert (f"半决赛 {n}" if zh else f"Semi-final {n}") in text, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_my_page_lists_a_practice_table_with_its_game(
    live_asgi: str, browser: Any, language: str
) -> None:
    built = build("shanghai_doudizhu", start_knockout=False)
    with translation.override(language):  # opened from a page in that language
        practice_table_open(user=built.organizer, game="xiaoluzi")
    page = log_in(browser, live_asgi, built.organizer.username, language)
    page.goto(f"{live_asgi}/accounts/me/")
    rows = page.locator("section.card:has(h2) ul.events li").all_inner_texts()
    practice = [row for row in rows if "小路子" in row]  # a game's name is a rule term
    assert practice, rows
    if language == "zh-hans":
        assert not ENGLISH_WORD.search(" ".join(practice)), practice
    assert not any(re.search(r"\bR\d", row) for row in rows), rows
