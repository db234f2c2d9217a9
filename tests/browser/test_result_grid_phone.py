"""On a phone (390x844) the referee's result grid shows each deal as a card of labelled fields, so
the 5th place, the escape and every other field of a deal are reachable without a sideways scroll,
for the three games, in Chinese and in English (issue 26). Real Chromium against the real ASGI
server."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_result_entry import _log_in, _organizer
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.models import ResultSubmission
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)

#: per game and language: (deal, label, value) picked by the label a person sees; "check" ticks
#: a box, a number is typed
PICKS: dict[tuple[str, str], list[tuple[int, str, str]]] = {
    ("daguai", "zh-hans"): [
        (1, "第1名", "0"),
        (1, "第2名", "1"),
        (1, "第3名", "2"),
        (1, "第4名", "3"),
        (1, "第5名", "4"),
        (2, "第1名", "1"),
        (2, "逃跑", "3"),
    ],
    ("daguai", "en"): [
        (1, "Place 1", "0"),
        (1, "Place 2", "1"),
        (1, "Place 3", "2"),
        (1, "Place 4", "3"),
        (1, "Place 5", "4"),
        (2, "Place 1", "1"),
        (2, "Escaped (逃跑)", "3"),
    ],
    ("xiaoluzi", "zh-hans"): [
        (1, "方式", "declared"),
        (1, "声明者", "2"),
        (1, "第1名", "2"),
        (1, "关牌", "check"),
        (2, "方式", "none"),
        (2, "第1名", "3"),
        (2, "第2名", "1"),
        (2, "第3名", "0"),
    ],
    ("shanghai_doudizhu", "zh-hans"): [
        (1, "成绩", "landlord"),
        (1, "地主", "0"),
        (1, "叫分", "2"),
        (2, "成绩", "farmers"),
        (2, "地主", "1"),
        (2, "叫分", "3"),
        (2, "标记王", "check"),
    ],
}
ENTERED = {"daguai": [{"finish": [0, 1, 2, 3, 4]}, {"finish": [1], "escape": 3}]}
BUTTONS = {"zh-hans": ("预览", "录入这份成绩"), "en": ("Preview", "Enter this result")}


def _table(game: str) -> tuple[Any, Any]:
    event = EventFactory(game=game, table_mode=Table.Mode.OFFLINE)
    if game == "daguai":
        for _ in range(2):
            TeamFactory(event=event, unit=UnitFactory())
    else:
        unit = UnitFactory()
        people = PlayerFactory.create_batch(4)
        for player in people:
            events_entries.membership_ensure(player=player, unit=unit)
        events_entries.registration_ensure(event=event, players=people)
    _organizer(event, "referee")
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_)
    return event, round_.pairings.get()


@pytest.mark.parametrize(("game", "language"), sorted(PICKS))
def test_every_field_of_a_deal_is_reachable_on_a_phone(
    game: str, language: str, live_asgi: str, browser: Any
) -> None:
    event, pairing = _table(game)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_asgi}])
    page = context.new_page()
    _log_in(page, live_asgi, "referee")
    page.goto(f"{live_asgi}/events/{event.pk}/manage/tables/{pairing.pk}/result/")

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    deals = page.locator("form.result-form table.pickers tbody tr")
    first = deals.nth(0)
    heading = first.get_by_role("heading")
    assert heading.is_visible() and "1" in heading.inner_text()
    controls = first.locator("select, input")
    assert controls.count() >= 6
    for i in range(controls.count()):
        control = controls.nth(i)
        box = control.bounding_box()
        assert control.is_visible() and box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, control.get_attribute("name")
        label = control.locator("xpath=ancestor::label[1]/span[@class='cell-label']")
        assert label.is_visible() and label.inner_text().strip()

    for deal, label, value in PICKS[game, language]:
        card = deals.nth(deal - 1)
        card.locator(".cell-label", has_text=label).first.scroll_into_view_if_needed()
        field = card.get_by_label(label, exact=True) if game != "daguai" else None
        if field is None:  # the places are named "Deal 1 · Place 5"
            field = card.get_by_label(label)
        if value == "check":
            field.tap()
            assert field.is_checked()
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.tap()
            field.select_option(value)
        else:
            field.tap()
            field.fill(value)
    preview, enter = BUTTONS[language]
    page.get_by_role("button", name=preview, exact=True).tap()
    page.locator("#preview").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not ResultSubmission.objects.exists()  # nothing entered yet
    page.screenshot(path=str(ARTIFACTS / f"result-grid-390-{game}-{language}.png"), full_page=True)
    with page.expect_navigation():
        page.locator("#preview").get_by_role("button", name=enter).tap()
    deals_entered = ResultSubmission.objects.get().deals
    assert len(deals_entered) == 2
    if game in ENTERED:
        assert deals_entered == ENTERED[game]
