"""The pages of a started individual event (小路子, 上海斗地主) say nothing of teams: no '队伍', no
'按队伍' table, no side score 'A : B' (issue 26). The event page and the round page are covered in
test_event_pages_individual.py; these are the standings of every kind, the projector, a player's
page, the meet page, the organizer's dashboard and the API's table listing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Match, Table
from games.play import services as game_services
from tests.games.factories import BotFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.results import tallies
from tournaments.rounds import services as rounds_services
from tournaments.standings.selectors import standings_kinds

pytestmark = pytest.mark.django_db

#: a side score such as "0 : 0" or "3 : 2" (the figures of a team match)
SIDE_SCORE = re.compile(r"\d+\s:\s\d+")


@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_a_started_individual_event_has_no_team_words(game: str) -> None:
    event = EventFactory(game=game, table_mode=Table.Mode.ONLINE)
    unit = UnitFactory()
    people = [BotFactory(name=f"选手{i:02d}", bot_kind="random") for i in range(8)]
    for player in people:
        events_entries.membership_ensure(player=player, unit=unit)
    events_entries.registration_ensure(event=event, players=people)
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_, start_matches=False)
    # table 1 played out (what the workers would do), table 2 still to start
    match = game_services.match_start(
        table=round_.pairings.order_by("number")[0].table, seed=26, deals_per_match=2
    )
    for _ in range(20):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        if not game_services.bot_deal_play(match_id=match.pk, number=match.current_deal):
            game_services.deal_start(match_id=match.pk, number=match.current_deal + 1)
    assert match.status == Match.Status.FINISHED
    tallies.event_tallies_refresh(event=event, open_rounds_only=False)
    organizer = get_user_model().objects.create_user(username="org", password="x")
    events_staff.event_organizer_add(event=event, user=organizer)
    staff = Client()
    staff.force_login(organizer)

    urls = [f"/events/{event.pk}/standings/?kind={kind}" for kind in standings_kinds(event)]
    urls += [
        f"/events/{event.pk}/projector/",
        f"/events/{event.pk}/players/{people[0].pk}/",
        f"/meets/{event.meet.slug}/",
        f"/events/{event.pk}/manage/",
        f"/events/{event.pk}/",
        f"/events/{event.pk}/rounds/{round_.number}/",
        f"/events/{event.pk}/referee/",
        f"/events/{event.pk}/manage/tables/{round_.pairings.order_by('number')[0].pk}/result/",
        f"/events/{event.pk}/manage/rounds/{round_.number}/sheets/",
        f"/api/v1/rounds/{round_.pk}/",
    ]
    for url in urls:
        response = staff.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        found = [m.group(0) for m in re.finditer(r".{0,40}(队伍|\d+\s:\s\d+).{0,40}", page)]
        assert "队伍" not in page, (url, found)
        assert not SIDE_SCORE.search(page), (url, found)
        if url.endswith("/manage/"):  # the tables' states are still shown
            assert "已结束" in page and "未开始" in page
        if url.startswith("/api/"):  # seats, not sides: no team match at 0 : 0
            for table in response.json()["tables"]:
                assert not {"team_a", "team_b", "points_a", "points_b"} & set(table), table
                assert len(table["seats"]) == 4
        else:
            english = Client()
            english.force_login(organizer)
            english.cookies["django_language"] = "en"
            text = english.get(url).content.decode()
            words = re.findall(r">[^<]*\bteams?\b[^<]*<", text, flags=re.IGNORECASE)
            assert not words, (url, words)
