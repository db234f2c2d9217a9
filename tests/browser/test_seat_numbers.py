"""Seats as people read them (issue 26): counted from 1 on every page a person reads, as the
draft, the projector and the replay already did. An organizer's dashboard (the draft's seat
columns and each table's seats), the round page of a team event, a player's page and the deal
sheets of a duplicate round, in Chromium at 390x844 in both languages."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Table
from tests.browser.events import PASSWORD, log_in
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)

SEAT = {"zh-hans": "{n} 号座位", "en": "Seat {n}"}
SIDES = {"zh-hans": ["1、3、5号座", "2、4、6号座"], "en": ["Seats 1, 3, 5", "Seats 2, 4, 6"]}


def _organizer(event: Any) -> Any:
    user = get_user_model().objects.create_user(username=f"o{event.pk}", password=PASSWORD)
    events_staff.event_organizer_add(event=event, user=user)
    return user


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_page_counts_seats_from_one(live_asgi: str, browser: Any, language: str) -> None:
    # an individual event's draft: one column per seat
    solo = EventFactory(game="xiaoluzi", table_mode=Table.Mode.OFFLINE, pairing_format="swiss")
    players = [PlayerFactory(name=f"选手{i}") for i in range(1, 5)]
    events_entries.registration_ensure(event=solo, players=players)
    organizer = _organizer(solo)
    draw_services.round_create_paired(event=solo, user=organizer)
    page = log_in(browser, live_asgi, organizer.username, language)
    page.goto(f"{live_asgi}/events/{solo.pk}/manage/")
    heads = page.locator("form.seats-draft thead th").all_inner_texts()
    assert heads[1:5] == [SEAT[language].format(n=n) for n in (1, 2, 3, 4)], heads
    labels = page.locator("form.seats-draft tbody tr").first.locator("select")
    assert labels.first.get_attribute("aria-label").endswith("1")  # table 1, seat 1

    # a team event's round page: side A sits at seats 1, 3, 5
    team_event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for i in range(2):
        TeamFactory(event=team_event, unit=UnitFactory(), name=f"第{i}队")
    round_ = draw_services.round_create_paired(event=team_event, confirm=True)
    rounds_services.round_start(round=round_)
    page.goto(f"{live_asgi}/events/{team_event.pk}/rounds/{round_.number}/")
    heads = page.locator("table.pairings thead th").all_inner_texts()
    assert heads[1:3] == SIDES[language], heads
    body = page.locator("main, body").first.inner_text()
    assert ("0、2、4" if language == "zh-hans" else "0, 2, 4") not in body

    # a player's page: the seat they had, from 1
    pairing = round_.pairings.get()
    checker = _organizer(team_event)
    events_staff.event_organizer_add(event=team_event, user=organizer)
    submission = result_submit(
        pairing=pairing, user=organizer, first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    result_confirm(submission=submission, user=checker)
    first = pairing.table.seats.get(seat=0).player
    page.goto(f"{live_asgi}/events/{team_event.pk}/players/{first.pk}/")
    cells = page.locator("table tbody tr").first.locator("td").all_inner_texts()
    assert cells[2] == "1", cells

    # the deal sheets of a duplicate round: seats 1 to 6, and the first dealer from 1
    from engine.duplicate import first_dealer

    duplicate = EventFactory(duplicate=True, table_mode=Table.Mode.OFFLINE)
    for i in range(2):
        TeamFactory(event=duplicate, unit=UnitFactory(), name=f"复式{i}队")
    duplicate.organizers.add(organizer)
    round_ = draw_services.round_create_paired(event=duplicate, confirm=True)
    rounds_services.round_start(round=round_)
    round_.refresh_from_db()
    page.goto(live_asgi + reverse("tournaments:deal_sheets", args=[duplicate.pk, round_.number]))
    sheet = page.locator("section.deal-sheet").first
    seats = [h.split("·")[0].strip() for h in sheet.locator("h3").all_inner_texts()[:6]]
    assert seats == [SEAT[language].format(n=n) for n in range(1, 7)], seats
    dealer = first_dealer("daguai", round_.deal_seed)
    if dealer is not None:
        said = sheet.locator("p").filter(has_text="庄家").first.inner_text()
        assert str(dealer + 1) in said, said
