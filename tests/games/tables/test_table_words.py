"""The table page's words (issue 15): a practice table is titled in the reader's language whoever
opened it, a table of a round links back to its event and round and names its teams, and the
leave confirmation states what leaving costs in the table's own game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.registry import get_game
from games.models import Match, Table, TableSeat
from games.play import services as play_services
from games.play import state as selectors
from games.play.leaving import leave_terms
from games.play.practice import practice_table_open
from games.tables import services as tables_services
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _language_restored() -> Iterator[None]:
    with translation.override(settings.LANGUAGE_CODE):
        yield


def _client(user: Any, language: str | None = None) -> Client:
    client = Client()
    client.force_login(user)
    if language is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _config(body: str) -> dict[str, Any]:
    found = re.search(r'<script id="table-config" type="application/json">(.*?)</script>', body)
    assert found, "the page's config"
    return json.loads(found.group(1))


def _strings(body: str) -> dict[str, Any]:
    found = re.search(r'<script id="table-strings" type="application/json">(.*?)</script>', body)
    assert found, "the page's strings"
    return json.loads(found.group(1))


@pytest.mark.parametrize("opened_in", ["zh-hans", "en"])
def test_a_practice_table_is_titled_in_the_readers_language(opened_in: str) -> None:
    user = UserFactory(first_name="", last_name="")
    player = PlayerFactory(user=user, name="小明")
    with translation.override(opened_in):  # the language of the request that opened it
        table = practice_table_open(user=user, game="xiaoluzi")
    assert player.seats.filter(table=table).exists()
    url = reverse("games:table", args=[table.pk])
    chinese = _client(user).get(url).content.decode()
    english = _client(user, "en").get(url).content.decode()
    assert "<h1>练习 · 小明 " in chinese and "<title>练习 · 小明" in chinese
    assert "<h1>Practice · 小明 " in english and "<title>Practice · 小明" in english
    assert "练习" not in english
    me_zh = _client(user).get(reverse("accounts:me")).content.decode()
    me_en = _client(user, "en").get(reverse("accounts:me")).content.decode()
    assert "练习 · 小明" in me_zh and "Practice · 小明" in me_en
    # the bots' names are stored the same way and shown by the page in its language
    bots = TableSeat.objects.filter(table=table, player__is_bot=True)
    assert sorted(s.player.name for s in bots) == ["Bot 1", "Bot 2", "Bot 3"]
    assert _strings(chinese)["botName"] == "机器人 %(number)s"
    assert _strings(english)["botName"] == "Bot %(number)s"


def test_a_table_stored_in_chinese_before_is_shown_in_english_too() -> None:
    user = UserFactory()
    players = [PlayerFactory(user=user, name="小红"), *PlayerFactory.create_batch(3)]
    table = tables_services.table_create(name="练习 · 小红", players=players, game="xiaoluzi")
    english = _client(user, "en").get(reverse("games:table", args=[table.pk])).content.decode()
    assert "<h1>Practice · 小红 " in english


def _team_table() -> tuple[Any, Any]:
    event = EventFactory(name="职工运动会大怪路子")
    for name in ("研发一队", "销售二队"):
        TeamFactory(event=event, unit=UnitFactory(), name=name)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    return event, round_.pairings.get()


def test_a_table_of_a_round_links_back_and_names_its_teams() -> None:
    event, pairing = _team_table()
    url = reverse("games:table", args=[pairing.table_id])
    viewer = UserFactory()
    chinese = _client(viewer).get(url).content.decode()
    english = _client(viewer, "en").get(url).content.decode()
    event_url = reverse("tournaments:event_detail", args=[event.pk])
    round_url = reverse("tournaments:round_detail", args=[event.pk, 1])
    for body in (chinese, english):
        assert f'<a href="{event_url}">职工运动会大怪路子</a>' in body
        assert f'href="{round_url}"' in body
        names = _config(body)["sideNames"]
        assert names == {"A": pairing.team_a.name, "B": pairing.team_b.name}
        assert set(names.values()) == {"研发一队", "销售二队"}
    assert f"<h1>第1轮第{pairing.number}桌 " in chinese and ">第1轮</a>" in chinese
    assert f"<h1>Round 1, table {pairing.number} " in english and ">Round 1</a>" in english


def test_a_table_of_no_event_has_no_links_back() -> None:
    user = UserFactory()
    table = practice_table_open(user=user, game="daguai")
    body = _client(user).get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="table-crumbs"' not in body and _config(body)["sideNames"] == {}


# --- leaving --------------------------------------------------------------------------------------

#: what an escape at the start of the first deal costs (base 1): 大怪路子 18 × the base; 小路子 3 ×
#: the plain loss of mode none (2); 上海斗地主, before the landlord is fixed, 3 × 1 × 1.1 rounded up
ESCAPE = {"daguai": 18, "xiaoluzi": 6, "shanghai_doudizhu": 4}


def _people_table(game: str) -> tuple[Table, dict[int, Any]]:
    count = get_game(game).seat_count
    users = {seat: UserFactory() for seat in range(count)}
    players = [PlayerFactory(user=users[seat]) for seat in range(count)]
    table = tables_services.table_create(name="桌", players=players, game=game)
    return table, users


@pytest.mark.parametrize("game", sorted(ESCAPE))
def test_the_leave_confirmation_states_the_games_own_escape_cost(game: str) -> None:
    table, users = _people_table(game)
    url = reverse("api:table_leave", args=[table.pk])
    before = _client(users[0]).get(url)
    assert before.status_code == 200 and before.json()["kind"] == "none"
    refused = _client(users[0]).post(url)  # no match yet: nothing to leave, in the user's words
    assert refused.status_code == 400
    assert refused.json()["detail"] == "这张牌桌当前没有进行中的比赛。"
    refused = _client(users[0], "en").post(url)
    assert refused.json()["detail"] == "No match is being played at this table."
    play_services.match_start(table=table, seed=5, deals_per_match=2)
    chinese = _client(users[1]).get(url).json()
    english = _client(users[1], "en").get(url).json()
    cost = ESCAPE[game]
    assert chinese["kind"] == english["kind"] == "escape"
    assert chinese["points"] == english["points"] == cost
    assert f"逃跑：你将失去 {cost} 分，比赛结束" in chinese["text"]
    assert f"you lose {cost} points and the match ends" in english["text"]
    # asking changes nothing; the confirmed leave costs what was said
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.PLAYING
    assert _client(users[1]).post(url).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.points[1] == -cost
    # only a seated player asks
    assert _client(UserFactory()).get(url).status_code == 403
    assert Client().get(url).status_code in (401, 403)


@pytest.mark.parametrize(
    ("game", "cost"), [("daguai", 3), ("xiaoluzi", 3), ("shanghai_doudizhu", 0)]
)
def test_leaving_between_deals_is_stated_per_game(game: str, cost: int) -> None:
    count = get_game(game).seat_count
    table = tables_services.table_create(
        name="桌", players=BotFactory.create_batch(count), game=game
    )
    match = play_services.match_start(table=table, seed=5, deals_per_match=3)
    for _ in range(5):  # bots play the first deal out; the next is not dealt yet
        if play_services.bot_deal_play(match_id=match.pk, number=1):
            break
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.current_deal == 1
    with translation.override("zh-hans"):
        chinese = leave_terms(table=table, seat=1)
    with translation.override("en"):
        english = leave_terms(table=table, seat=1)
    assert chinese["kind"] == english["kind"] == "left"
    assert chinese["points"] == english["points"] == cost
    if cost:
        assert f"局间离开将扣你 {cost} 分，比赛结束" in chinese["text"]
        assert f"costs you {cost} points and ends the match" in english["text"]
    else:  # 上海斗地主: leaving between deals is no escape and scores nothing
        assert "局间离开不计分，但比赛随之结束" in chinese["text"]
        assert "scores nothing, but it ends the match" in english["text"]
    before = match.points[1]
    play_services.seat_escape(table=table, seat=1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.points[1] == before - cost


def test_a_bystander_of_xiaoluzi_is_told_it_cannot_escape_and_its_leave_is_noted() -> None:
    table, users = _people_table("xiaoluzi")
    play_services.match_start(table=table, seed=5, deals_per_match=2)
    roles: list[int] = []
    for wanted in ("declare", "counter"):  # 宣牌, then 反宣: the other two watch (旁观)
        for _ in range(4):
            state = selectors.table_state(table=table)
            seat = state["deal"]["awaiting"][0]
            legal = selectors.table_state(table=table, seat=seat)["you"]["legal"]
            kinds = [a["kind"] for a in legal]
            kind = wanted if wanted in kinds else kinds[-1]  # no_declare, no_counter
            play_services.seat_act(table=table, seat=seat, kind=kind, seq=state["seq"])
            if kind == wanted:
                roles.append(seat)
                break
    assert len(roles) == 2
    bystander = next(s for s in range(4) if s not in roles)
    url = reverse("api:table_leave", args=[table.pk])
    chinese = _client(users[bystander]).get(url).json()
    english = _client(users[bystander], "en").get(url).json()
    assert chinese["kind"] == english["kind"] == "noted" and chinese["points"] == 3
    assert "不能逃跑" in chinese["text"] and "扣 3 分" in chinese["text"]
    assert "cannot escape this deal" in english["text"] and "3 points" in english["text"]
    left = _client(users[bystander]).post(url)
    assert left.status_code == 200 and left.json()["leave"] == "noted"
    assert Match.objects.get(table=table).status == Match.Status.PLAYING
