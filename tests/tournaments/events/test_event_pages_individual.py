"""The event page and the home page of an individual event (issue 26): they count and list the
registered players, not the event's (absent) teams."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Table
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_an_individual_event_page_lists_its_players_by_unit(game: str) -> None:
    event = EventFactory(game=game, table_mode=Table.Mode.ONLINE)
    units = [UnitFactory(name="研发部"), UnitFactory(name="财务部")]
    people = [PlayerFactory(name=f"选手{i:02d}") for i in range(8)]
    for i, player in enumerate(people):
        events_entries.membership_ensure(player=player, unit=units[i % 2])
    events_entries.registration_ensure(event=event, players=people)
    Registration.objects.filter(event=event, player=people[7]).update(withdrawn=True)

    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "7 名选手" in page
    assert "支队伍" not in page and "尚无报名队伍" not in page
    for person in people:
        assert person.name in page
    assert "研发部" in page and "财务部" in page
    assert "已退赛" in page  # the withdrawn player is marked

    home = Client().get("/").content.decode()
    assert "7 名选手" in home
    assert "0 支队伍" not in home


@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_an_individual_event_without_players_says_so(game: str) -> None:
    event = EventFactory(game=game)
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "尚无报名选手" in page
    assert "尚无报名队伍" not in page
    english = Client()
    english.cookies["django_language"] = "en"
    assert "No players registered yet." in english.get(f"/events/{event.pk}/").content.decode()


def test_a_team_event_page_still_counts_teams_and_players() -> None:
    event = EventFactory(game="daguai")
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "0 支队伍 · 0 名选手" in page
    assert "尚无报名队伍" in page


@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_an_individual_event_states_its_own_tie_breaks_and_no_team_words(game: str) -> None:
    # Issue 26: an individual event's page listed the team tie-breaks (head-to-head, opponents'
    # points, levels gained) and its round page a "by team" table.
    from engine.registry import get_game

    event = EventFactory(game=game, table_mode=Table.Mode.ONLINE)
    people = [PlayerFactory(name=f"选手{i:02d}") for i in range(8)]
    events_entries.registration_ensure(event=event, players=people)
    page = Client().get(f"/events/{event.pk}/").content.decode()
    order = [f.label_zh for f in get_game(game).figure_specs if f.holder == "seat"]
    assert " › ".join([*order, "平均名次更好", "局数更多"]) in page
    assert "相互胜负" not in page and "对手总分" not in page and "升级数" not in page
    round = draw_services.round_create_paired(event=event, confirm=True)
    shown = Client().get(f"/events/{event.pk}/rounds/{round.number}/").content.decode()
    assert "按队伍" not in shown and "队伍" not in shown
