"""Manual draws of individual events (issue 12): an organizer seats registered players at tables
of the game's size by hand, through the API and the dashboard; bots only where the event fills
its tables with bots; byes for the rest; clear 4xx errors; withdrawn players are left out."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Player, Table, TableSeat
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import Event, Pairing, Registration, Round, RoundEntry, RoundLog
from tournaments.rounds import services as rounds_services
from tournaments.rounds.log import log_detail

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(
        game="xiaoluzi",
        pairing_format=Event.PairingFormat.MANUAL,
        table_mode=Table.Mode.OFFLINE,
    )
    people = [PlayerFactory(name=f"选手{i:02d}") for i in range(1, 10)]
    events_entries.registration_ensure(event=event, players=people)
    organizer, stranger = UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    round = draw_services.round_create_paired(event=event, user=organizer)
    return {
        "event": event,
        "people": people,
        "ids": [p.pk for p in people],
        "organizer": organizer,
        "stranger": stranger,
        "round": round,
    }


def api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _seated(round: Round) -> list[list[int]]:
    return [
        list(p.table.seats.order_by("seat").values_list("player_id", flat=True))
        for p in round.pairings.order_by("number")
    ]


def _byes(round: Round) -> list[int]:
    return sorted(
        RoundEntry.objects.filter(round=round, pairing__isnull=True).values_list(
            "player_id", flat=True
        )
    )


def _put(world: dict[str, Any], tables: Any, user: Any = "organizer", **extra: Any) -> Any:
    who = world[user] if isinstance(user, str) else user
    return api(who).put(
        f"/api/v1/rounds/{world['round'].pk}/tables/",
        {"tables": tables, **extra},
        format="json",
    )


def test_an_organizer_seats_players_by_hand_through_the_api(world) -> None:
    ids = world["ids"]
    response = _put(world, [[ids[3], ids[0], ids[7], ids[5]], [ids[1], ids[2], ids[4], ids[6]]])
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [[s["player"] for s in t["seats"]] for t in body["tables"]] == [
        [ids[3], ids[0], ids[7], ids[5]],
        [ids[1], ids[2], ids[4], ids[6]],
    ]
    assert [s["seat"] for s in body["tables"][0]["seats"]] == [0, 1, 2, 3]
    assert body["tables"][0]["seats"][0]["name"] == "选手04"
    assert [b["id"] for b in body["byes"]] == [ids[8]]
    round = world["round"]
    assert _seated(round) == [[ids[3], ids[0], ids[7], ids[5]], [ids[1], ids[2], ids[4], ids[6]]]
    assert _byes(round) == [ids[8]]
    assert set(Table.objects.filter(pairing__round=round).values_list("mode", flat=True)) == {
        "offline"
    }
    # every seated player has their place in the round, at their table
    entries = RoundEntry.objects.filter(round=round, pairing__isnull=False)
    assert sorted(entries.values_list("player_id", flat=True)) == sorted(ids[:8])
    log = RoundLog.objects.get(round=round, action=RoundLog.Action.EDITED)
    assert log.detail == (
        "tables: 选手04·选手01·选手08·选手06, 选手02·选手03·选手05·选手07; byes: 1"
    )
    assert log_detail(log.detail) == (
        "牌桌：选手04·选手01·选手08·选手06、选手02·选手03·选手05·选手07；轮空：1"  # 、 in Chinese
    )

    # an edit replaces the tables (and their byes) as a whole, with a mode per table
    response = _put(world, [[ids[8], ids[7], ids[6], ids[5]]], modes=["online"])
    assert response.status_code == 200, response.json()
    assert _seated(round) == [[ids[8], ids[7], ids[6], ids[5]]]
    assert _byes(round) == sorted(ids[:5])
    assert Pairing.objects.filter(round=round).count() == 1
    assert Table.objects.get(pairing__round=round).mode == "online"
    assert not Table.objects.filter(name__startswith=str(round), pairing__isnull=True).exists()
    # the draft is confirmed and played as a drawn one
    confirmed = api(world["organizer"]).post(f"/api/v1/rounds/{round.pk}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"


def test_a_swiss_draft_of_an_individual_event_can_be_edited_by_hand(world) -> None:
    event = EventFactory(game="shanghai_doudizhu")
    people = PlayerFactory.create_batch(8)
    events_entries.registration_ensure(event=event, players=people)
    events_staff.event_organizer_add(event=event, user=world["organizer"])
    round = draw_services.round_create_paired(event=event, user=world["organizer"])
    drawn = _seated(round)
    swapped = [[drawn[1][0], *drawn[0][1:]], [drawn[0][0], *drawn[1][1:]]]
    response = api(world["organizer"]).put(
        f"/api/v1/rounds/{round.pk}/tables/", {"tables": swapped}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert _seated(round) == swapped and _byes(round) == []


def test_bots_take_empty_seats_only_when_the_event_fills_with_bots(world) -> None:
    ids = world["ids"]
    response = _put(world, [[ids[0], None, ids[1], ids[2]]])
    assert response.status_code == 400
    assert "空座" in response.json()["detail"] and "轮空" in response.json()["detail"]
    assert not Pairing.objects.filter(round=world["round"]).exists()

    Event.objects.filter(pk=world["event"].pk).update(fill_with_bots=True)
    response = _put(world, [[ids[0], None, ids[1], ids[2]], [ids[3], ids[4], ids[5], ids[6]]])
    assert response.status_code == 200, response.json()
    seats = response.json()["tables"][0]["seats"]
    assert [s["bot"] for s in seats] == [False, True, False, False]
    bot = Player.objects.get(pk=seats[1]["player"])
    assert bot.is_bot and not Registration.objects.filter(player=bot).exists()
    assert _byes(world["round"]) == sorted(ids[7:])
    # bots are not a player's place in the round; a table of bots alone is refused
    assert not RoundEntry.objects.filter(round=world["round"], player=bot).exists()
    response = _put(world, [[None, None, None, None]])
    assert response.status_code == 400 and "只有机器人" in response.json()["detail"]
    # an edit takes the replaced tables' bots away with them
    assert _put(world, [[ids[0], ids[1], ids[2], None]]).status_code == 200
    assert not Player.objects.filter(pk=bot.pk).exists()
    assert Player.objects.filter(is_bot=True).count() == 1


@pytest.mark.parametrize(
    ("tables", "words"),
    [
        # a player twice, at two tables or two seats of one
        (lambda i, o: [[i[0], i[1], i[2], i[3]], [i[0], i[4], i[5], i[6]]], ["选手01"]),
        (lambda i, o: [[i[0], i[1], i[2], i[0]]], ["选手01"]),
        # a table of three or five seats
        (lambda i, o: [[i[0], i[1], i[2]]], ["3", "4"]),
        (lambda i, o: [[i[0], i[1], i[2], i[3], i[4]]], ["5", "4"]),
        # a player of no registration in this event (named by id only: another event's player
        # is not this organizer's to look up), and an id that is nobody
        (lambda i, o: [[i[0], i[1], i[2], o]], ["#{o}"]),
        (lambda i, o: [[i[0], i[1], i[2], o], [o, i[4], i[5], i[6]]], ["#{o}"]),
        (lambda i, o: [[i[0], i[1], i[2], 987654321]], ["#987654321"]),
    ],
)
def test_a_wrong_table_is_refused_with_a_reason_and_changes_nothing(world, tables, words) -> None:
    ids = world["ids"]
    before = _put(world, [[ids[0], ids[1], ids[2], ids[3]]])
    assert before.status_code == 200
    outsider = PlayerFactory(name="外人")
    response = _put(world, tables(ids, outsider.pk))
    assert response.status_code == 400, response.json()
    detail = response.json()["detail"]
    assert all(word.format(o=outsider.pk) in detail for word in words), detail
    assert "外人" not in detail
    assert _seated(world["round"]) == [[ids[0], ids[1], ids[2], ids[3]]]
    assert _byes(world["round"]) == sorted(ids[4:])


def test_a_team_event_takes_pairs_only(world) -> None:
    event = EventFactory()
    teams = [TeamFactory(event=event) for _ in range(4)]
    events_staff.event_organizer_add(event=event, user=world["organizer"])
    round = draw_services.round_create_paired(event=event, user=world["organizer"])
    response = api(world["organizer"]).put(
        f"/api/v1/rounds/{round.pk}/tables/",
        {"tables": [[t.pk for t in teams]]},
        format="json",
    )
    assert response.status_code == 400 and "两支队伍" in response.json()["detail"]
    response = api(world["organizer"]).put(
        f"/api/v1/rounds/{round.pk}/tables/",
        {"tables": [[teams[0].pk, None]]},
        format="json",
    )
    assert response.status_code == 400


def test_a_withdrawn_player_is_refused_and_left_out_of_the_byes(world) -> None:
    ids, people = world["ids"], world["people"]
    org = api(world["organizer"])
    url = f"/api/v1/events/{world['event'].pk}/players/{ids[8]}/withdraw/"
    assert api(world["stranger"]).post(url, {}, format="json").status_code == 403
    assert api().post(url, {}, format="json").status_code == 403
    response = org.post(url, {}, format="json")
    assert response.status_code == 200 and response.json() == {
        "player": ids[8],
        "withdrawn": True,
    }
    response = _put(world, [[ids[8], ids[1], ids[2], ids[3]]])
    assert response.status_code == 400 and people[8].name in response.json()["detail"]
    assert "退赛" in response.json()["detail"]
    response = _put(world, [[ids[0], ids[1], ids[2], ids[3]], [ids[4], ids[5], ids[6], ids[7]]])
    assert response.status_code == 200
    assert _byes(world["round"]) == []  # the withdrawn player has no bye either
    # brought back, they are seated again; a player of another event is no registration here
    assert org.post(url, {"withdrawn": False}, format="json").json()["withdrawn"] is False
    assert _put(world, [[ids[8], ids[1], ids[2], ids[3]]]).status_code == 200
    other = PlayerFactory()
    response = org.post(
        f"/api/v1/events/{world['event'].pk}/players/{other.pk}/withdraw/", {}, format="json"
    )
    assert response.status_code == 400 and f"#{other.pk}" in response.json()["detail"]
    assert other.name not in response.json()["detail"]


def test_a_withdrawn_player_is_not_drawn_by_swiss() -> None:
    event = EventFactory(game="xiaoluzi")
    people = PlayerFactory.create_batch(9)
    events_entries.registration_ensure(event=event, players=people)
    from tournaments.draw.manual import registration_withdraw

    registration_withdraw(event=event, player=people[4])
    round = draw_services.round_create_paired(event=event)
    seated = {p for table in _seated(round) for p in table}
    assert people[4].pk not in seated and people[4].pk not in _byes(round)
    assert len(seated) == 8 and _byes(round) == []


def test_only_organizers_and_only_drafts(world) -> None:
    ids = world["ids"]
    tables = [[ids[0], ids[1], ids[2], ids[3]]]
    # writes need a login; a draft is its organizers' alone: to anyone else it does not exist
    assert _put(world, tables, user=None).status_code == 403
    assert _put(world, tables, user="stranger").status_code == 404
    assert not Pairing.objects.filter(round=world["round"]).exists()
    assert _put(world, tables).status_code == 200
    rounds_services.round_confirm(round=world["round"], user=world["organizer"])
    response = _put(world, [[ids[4], ids[5], ids[6], ids[7]]])
    assert response.status_code == 409 and "只有草稿可以修改" in response.json()["detail"]
    # a published round: whoever is not its organizer is refused
    assert _put(world, tables, user="stranger").status_code == 403
    assert _put(world, tables, user=None).status_code == 403
    assert _seated(world["round"]) == tables
    # bad shapes are a 400, never a 500
    for bad in ({"tables": [[ids[0]]]}, {"tables": [["x", 1, 2, 3]]}, {"tables": "x"}, [1]):
        response = api(world["organizer"]).put(
            f"/api/v1/rounds/{world['round'].pk}/tables/", bad, format="json"
        )
        assert response.status_code == 400, bad


# --- The dashboard --------------------------------------------------------------------------------


def _page(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(world: dict[str, Any], rows: list[list[str]], modes: list[str] | None = None) -> dict:
    data: dict[str, str] = {"round": str(world["round"].pk), "count": str(len(rows))}
    for n, row in enumerate(rows, start=1):
        for seat, value in enumerate(row):
            data[f"s{n}_{seat}"] = value
        data[f"mode{n}"] = (modes or ["offline"] * len(rows))[n - 1]
    return data


def test_the_dashboard_seats_players_by_hand(world) -> None:
    ids = [str(i) for i in world["ids"]]
    page = _page(world["organizer"])
    dashboard = reverse("tournaments:dashboard", args=[world["event"].pk])
    html = page.get(dashboard).content.decode()
    # an empty manual draft: rows of four seat choices of the registered players, no bot
    assert 'name="s1_3"' in html and 'name="s1_4"' not in html
    assert "选手09" in html and 'value="bot"' not in html
    url = reverse("tournaments:round_action", args=[world["event"].pk, "tables"])
    response = page.post(
        url, _form(world, [ids[4:8], ["", "", "", ""], ids[0:4]], ["online", "offline", "offline"])
    )
    assert response.status_code == 302
    assert _seated(world["round"]) == [[int(i) for i in ids[4:8]], [int(i) for i in ids[0:4]]]
    assert _byes(world["round"]) == [int(ids[8])]
    html = page.get(dashboard).content.decode()
    assert "对阵已保存。" in html
    # the saved seats come back selected in the form
    assert f'<option value="{ids[4]}" selected>选手05</option>' in html
    assert [t.mode for t in Table.objects.filter(pairing__round=world["round"]).order_by("pk")] == [
        "online",
        "offline",
    ]


def test_the_dashboard_says_what_is_wrong_and_changes_nothing(world) -> None:
    ids = [str(i) for i in world["ids"]]
    page = _page(world["organizer"])
    url = reverse("tournaments:round_action", args=[world["event"].pk, "tables"])
    dashboard = reverse("tournaments:dashboard", args=[world["event"].pk])
    response = page.post(url, _form(world, [[ids[0], ids[1], ids[0], ids[3]]]), follow=True)
    assert response.status_code == 200
    assert "选手01" in response.content.decode() and not _seated(world["round"])
    response = page.post(url, _form(world, [[ids[0], ids[1], "", ids[3]]]), follow=True)
    assert "座位 2" in response.content.decode() and not _seated(world["round"])
    response = page.post(url, _form(world, [[ids[0], ids[1], "bot", ids[3]]]), follow=True)
    assert "空座" in response.content.decode() and not _seated(world["round"])
    # a form this page does not send: 400, nothing changed
    assert page.post(url, _form(world, [[ids[0], "x", ids[2], ids[3]]])).status_code == 400
    assert page.post(url, {"round": world["round"].pk, "count": "many"}).status_code == 400
    # another organizer's event: 403
    stranger = _page(world["stranger"])
    assert stranger.post(url, _form(world, [ids[0:4]])).status_code == 403
    assert stranger.get(dashboard).status_code == 403
    assert not _seated(world["round"])


def test_the_dashboard_withdraws_and_brings_back_a_player(world) -> None:
    page = _page(world["organizer"])
    url = reverse("tournaments:player_withdraw", args=[world["event"].pk])
    target = world["people"][2]
    assert _page(world["stranger"]).post(url, {"player": target.pk}).status_code == 403
    assert page.post(url, {"player": "x"}).status_code == 400
    response = page.post(url, {"player": target.pk}, follow=True)
    assert response.status_code == 200
    assert Registration.objects.get(event=world["event"], player=target).withdrawn
    html = response.content.decode()
    assert "退赛" in html and f'name="player" value="{target.pk}"' in html
    # a withdrawn player is no choice in the draft's seats
    assert f'<option value="{target.pk}">' not in html
    page.post(url, {"player": target.pk, "withdrawn": "0"})
    assert not Registration.objects.get(event=world["event"], player=target).withdrawn
    assert TableSeat.objects.count() == 0
