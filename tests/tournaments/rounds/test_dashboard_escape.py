"""The dashboard's counters after a table ends by escape (issue 26: "1 进行中的桌", "0 逃跑"
after table 2 of a 上海斗地主 round ended by an escape by time-outs)."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from games.models import Match, Table
from tests.browser.test_table_screens import move_on
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)


def _stats(page: str) -> dict[str, str]:
    return {
        label.strip(): value.strip()
        for value, label in re.findall(r'<div class="stat"><b>([^<]*)</b>([^<]*)</div>', page)
    }


@pytest.mark.parametrize("game", ["shanghai_doudizhu", "xiaoluzi"])
def test_a_table_ended_by_time_outs_counts_as_finished_and_as_an_escape(game: str) -> None:
    event = EventFactory(game=game, table_mode=Table.Mode.ONLINE, pairing_format="swiss")
    events_entries.registration_ensure(
        event=event, players=[PlayerFactory(name=f"选手{i}") for i in range(1, 9)]
    )
    organizer = UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=organizer)
    rounds_services.round_start(round=round_, user=organizer)
    table = round_.pairings.get(number=2).table
    match = Match.objects.get(table=table)
    for _ in range(3000):  # seat 0 is away: its time runs out at every turn, the others play
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        move_on(table, timed_out={0})
    assert match.end_reason == Match.EndReason.ESCAPE
    client = Client()
    client.cookies["django_language"] = "zh-hans"
    client.force_login(organizer)
    stats = _stats(client.get(f"/events/{event.pk}/manage/").content.decode())
    assert stats["第1轮已完成桌数"] == "1 / 2", stats
    assert stats["进行中的桌"] == "1", stats
    assert stats["逃跑"] == "1", stats


def test_tables_whose_players_are_all_away_end_by_escape_on_a_real_worker() -> None:
    """Nobody opens the table: the worker's time-outs play every turn for them, until one seat's
    system plays run out; the dashboard counts both tables finished, by escape. (小路子: a
    上海斗地主 table of four absent players passes every bid, and its all-pass deals are dealt again
    with each deal's time-outs counted afresh, so it does not end; see the report.)"""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Deal
    from tests.workers import celery_workers

    event = EventFactory(game="xiaoluzi", table_mode=Table.Mode.ONLINE, pairing_format="swiss")
    events_entries.registration_ensure(
        event=event, players=[PlayerFactory(name=f"选手{i}") for i in range(1, 9)]
    )
    organizer = UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=organizer)
    rounds_services.round_start(round=round_, user=organizer)
    Match.objects.update(turn_seconds=1)  # a one-second turn timer, to keep the test short
    Deal.objects.update(turn_deadline=timezone.now() - timedelta(seconds=1))
    client = Client()
    client.cookies["django_language"] = "zh-hans"
    client.force_login(organizer)
    with celery_workers(1):
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if not Match.objects.filter(status=Match.Status.PLAYING).exists():
                break
            time.sleep(1)
    ends = list(Match.objects.values_list("end_reason", flat=True))
    assert ends == [Match.EndReason.ESCAPE] * 2, ends
    stats = _stats(client.get(f"/events/{event.pk}/manage/").content.decode())
    assert stats["第1轮已完成桌数"] == "2 / 2", stats
    assert stats["进行中的桌"] == "0", stats
    assert stats["逃跑"] == "2", stats
