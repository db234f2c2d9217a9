"""A table whose players are all away (issue 26: six absent players' table ran 30 minutes on
system plays with no word): the organizer's dashboard names it on the first screen of a phone,
says what happens there and what to do, in both languages; a 上海斗地主 table of four absent
players, whose all-pass deals are dealt again, is warned of as one that may not end at all."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.events import PASSWORD, log_in
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "zh-hans": ["第 1、2 桌：没有一位选手在桌上", "托管", "甚至不会自行结束", "结束本轮"],
    "en": [
        "Tables 1, 2: none of their players is at the table",
        "or not end at all",
        "complete the round without these tables",
    ],
}
FIRST_SCREEN = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight
    && r.right <= window.innerWidth;
}"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_dashboard_warns_of_tables_where_nobody_is_on_the_first_screen(
    live_asgi: str, browser: Any, language: str
) -> None:
    event = EventFactory(
        game="shanghai_doudizhu", table_mode=Table.Mode.ONLINE, pairing_format="swiss"
    )
    events_entries.registration_ensure(
        event=event, players=[PlayerFactory(name=f"选手{i}") for i in range(1, 9)]
    )
    organizer = UserFactory(username="organizer")
    organizer.set_password(PASSWORD)
    organizer.save()
    events_staff.event_organizer_add(event=event, user=organizer)
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=organizer)
    rounds_services.round_start(round=round_, user=organizer)  # nobody opens a table
    page = log_in(browser, live_asgi, "organizer", language)
    page.goto(f"{live_asgi}/events/{event.pk}/manage/")
    warning = page.locator("#deserted")
    assert warning.get_attribute("role") == "alert"
    text = warning.inner_text()
    for words in WORDS[language]:
        assert words in text, text
    assert page.evaluate(FIRST_SCREEN, "#deserted"), warning.bounding_box()
