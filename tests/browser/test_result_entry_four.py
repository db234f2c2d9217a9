"""A referee of a 上海斗地主 or 小路子 table picks each deal's fields by name, sees the engine's
preview (points per player, the game's figures) before entering it, and a second organizer
confirms it after seeing the same preview (issue 16). Real Chromium against the real ASGI
server."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match, Table
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_result_entry import _log_in, _organizer
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.models import ResultSubmission
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)

#: (select or checkbox, value) per game: a deal won by the landlord at 2, then 头撂 and the
#: marked joker lost by seat 1; 小路子: seat 2 declares and goes out first, then a deal
#: without declaration
PICKS: dict[str, list[tuple[str, str]]] = {
    "shanghai_doudizhu": [
        ("d1_end", "landlord"),
        ("d1_landlord", "0"),
        ("d1_bid", "2"),
        ("d2_end", "farmers"),
        ("d2_landlord", "1"),
        ("d2_bid", "3"),
        ("d2_head_bid", "check"),
        ("d2_marked_joker", "check"),
    ],
    "xiaoluzi": [
        ("d1_mode", "declared"),
        ("d1_declarer", "2"),
        ("d1_1", "2"),
        ("d1_slam", "check"),
        ("d2_mode", "none"),
        ("d2_1", "3"),
        ("d2_2", "1"),
        ("d2_3", "0"),
    ],
}
FIGURE = {"shanghai_doudizhu": "等级分", "xiaoluzi": "银子"}


@pytest.mark.parametrize("game", sorted(PICKS))
def test_a_four_seat_sheet_is_picked_previewed_and_confirmed(
    game: str, live_asgi: str, browser: Any
) -> None:
    event = EventFactory(game=game, table_mode=Table.Mode.OFFLINE)
    unit = UnitFactory()
    people = PlayerFactory.create_batch(4)
    for player in people:
        events_entries.membership_ensure(player=player, unit=unit)
    events_entries.registration_ensure(event=event, players=people)
    _organizer(event, "referee")
    _organizer(event, "checker")
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_)
    pairing = round_.pairings.get()
    names = {s.seat: s.player.name for s in pairing.table.seats.select_related("player")}
    url = f"{live_asgi}/events/{event.pk}/manage/tables/{pairing.pk}/result/"

    referee = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    _log_in(referee, live_asgi, "referee")
    referee.goto(url)
    for name, value in PICKS[game]:
        field = referee.locator(f"form.result-form [name={name}]")
        if value == "check":
            field.check()
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    referee.click("form.result-form button[type=submit]")
    preview = referee.locator("#preview")
    preview.wait_for()
    text = preview.inner_text()
    assert all(name in text for name in names.values()) and FIGURE[game] in text
    assert not ResultSubmission.objects.exists()  # nothing entered yet
    referee.screenshot(path=str(ARTIFACTS / f"result-preview-{game}.png"), full_page=True)
    referee.click("#preview button[type=submit]")
    referee.wait_for_load_state()
    assert len(ResultSubmission.objects.get().deals) == 2

    checker = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    _log_in(checker, live_asgi, "checker")
    checker.goto(url)
    version = checker.locator("article.version").first
    assert version.locator(".seats-preview tfoot").inner_text() in text  # the same figures
    version.locator("button", has_text="确认").click()
    checker.wait_for_load_state()
    assert ResultSubmission.objects.get().status == ResultSubmission.Status.CONFIRMED
    assert Match.objects.get(table=pairing.table).deals.count() == 2
