"""The organizer's dashboard on the day (issue 15): each seat's connection, tables that make no
progress, and a log that counts right and speaks the page's language."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import timezone

from games.live import presence
from games.models import Action, Deal, Match, Table, TableSeat
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.models import RoundLog
from tournaments.rounds.log import log_detail
from tournaments.rounds.running import round_tables_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    caches["presence"].clear()
    event = EventFactory(table_mode=Table.Mode.ONLINE)
    for _ in range(4):
        TeamFactory(event=event, unit=UnitFactory())
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    round_ = round_create_paired(event=event, confirm=True, user=organizer)
    started = round_tables_start(round=round_)
    client = Client()
    client.force_login(organizer)
    return {"event": event, "round": round_, "started": started, "client": client}


def test_the_log_counts_the_matches_that_started(running) -> None:
    # Issue 15: the log said "online matches started: 0" when 2 had started.
    assert running["started"] == 2
    entry = running["round"].log.get(action=RoundLog.Action.STARTED)
    assert entry.detail == "online matches started: 2"
    page = running["client"].get(f"/events/{running['event'].pk}/manage/").content.decode()
    assert "已开始 2 场线上比赛" in page and "online matches started" not in page


def test_log_details_speak_the_pages_language() -> None:
    from django.utils import translation

    with translation.override("zh-hans"):
        assert log_detail("瑞士制: 8 tables, bye: 研发一队") == "瑞士制：8 桌；轮空：研发一队"
        assert log_detail("Swiss: 8 tables") == "瑞士制：8 桌"
        assert log_detail("table 3 v2: 顺序不对") == "第3桌第2版；原因：顺序不对"
        assert log_detail("something else") == "something else"
        # an individual event's draw (issue 26: it was shown in English on Chinese pages)
        assert log_detail(
            "瑞士制: 4 tables, byes: 张伟、李娜, bots: 3, unavoidable repeated tablemates: 2, "
            "same-unit tablemates: 1"
        ) == (
            "瑞士制：4 桌；轮空：张伟、李娜；机器人补位：3 个座位；无法避免的重复同桌：2 对；"
            "同单位同桌：1 对"
        )
    with translation.override("en"):
        assert log_detail("瑞士制: 8 tables") == "Swiss: 8 tables"
        assert log_detail("forced; unfinished tables: [2, 5]; 停电") == (
            "completed with unfinished tables: 2, 5; reason: 停电"
        )


def test_the_dashboard_shows_each_seats_connection(running) -> None:
    pairing = running["round"].pairings.order_by("number").first()
    seat = TableSeat.objects.select_related("player").get(table=pairing.table, seat=0)
    presence.presence(pairing.table_id, 0, +1)
    page = running["client"].get(f"/events/{running['event'].pk}/manage/").content.decode()
    assert f'<li class="online" title="在座">1 {seat.player.name}' in page
    assert page.count('class="away"') == 11  # the other seats of both tables
    assert f'href="/tables/{pairing.table_id}/"' in page  # the organizer can watch it


def test_the_dashboard_warns_about_tables_that_make_no_progress(running, settings) -> None:
    settings.LUZI_WORKER_STALL_SECONDS = 60
    url = f"/events/{running['event'].pk}/manage/"
    assert "没有进展" not in running["client"].get(url).content.decode()
    pairing = running["round"].pairings.order_by("number").first()
    old = timezone.now() - timedelta(minutes=10)
    match = Match.objects.get(table=pairing.table)
    Match.objects.filter(pk=match.pk).update(started_at=old, created_at=old)
    Deal.objects.filter(match=match).update(started_at=old, turn_deadline=old, finished_at=None)
    assert not Action.objects.filter(deal__match=match).exists()  # no worker ran here
    page = running["client"].get(url).content.decode()
    assert f"第 {pairing.number} 桌已超过 60 秒没有进展" in page
    assert 'class="stalled"' in page


def test_live_tables_are_one_click_from_the_public_pages(running) -> None:
    # Issue 15: the round page, the team page, the player page and the projector link live tables.
    event = running["event"]
    pairing = running["round"].pairings.order_by("number").first()
    link = f'href="/tables/{pairing.table_id}/"'
    seat = TableSeat.objects.get(table=pairing.table, seat=1)
    spectator = Client()
    for url in [
        f"/events/{event.pk}/rounds/1/",
        f"/events/{event.pk}/projector/",
        f"/teams/{pairing.team_a_id}/",
        f"/events/{event.pk}/players/{seat.player_id}/",
    ]:
        page = spectator.get(url).content.decode()
        assert link in page, url
    assert spectator.get(f"/tables/{pairing.table_id}/").status_code == 200


def test_the_dashboard_warns_of_a_table_whose_players_are_all_away(running) -> None:
    # Issue 26: a table whose six players were all absent took 30 minutes to end, with no word
    # on the dashboard.
    first, second = running["round"].pairings.order_by("number")
    for seat in TableSeat.objects.filter(table=first.table):
        presence.presence(first.table_id, seat.seat, +1)
    presence.presence(second.table_id, 0, +1)
    page = running["client"].get(f"/events/{running['event'].pk}/manage/").content.decode()
    assert 'id="deserted"' not in page  # someone sits at each table
    presence.presence(second.table_id, 0, -1)
    page = running["client"].get(f"/events/{running['event'].pk}/manage/").content.decode()
    warning = re.search(r'<p class="alert warn" role="alert" id="deserted">(.*?)</p>', page, re.S)
    assert warning is not None
    assert f"第 {second.number} 桌：没有一位选手在桌上" in warning.group(1)
    assert f"第 {first.number} 桌" not in warning.group(1)
