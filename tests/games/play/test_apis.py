"""The play API: state for players and spectators, actions with 400/403/409, CSRF, hidden hands,
and exactly one of many identical concurrent actions applied."""

from __future__ import annotations

import json
import logging
import re
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Action, Match, Table, TableSeat
from games.play import services
from games.play import state as selectors
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.games.leakcheck import assert_no_leak

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def people_table(humans: tuple[int, ...] = (0,)) -> tuple[Table, dict[int, Any]]:
    """A table with logged-in people at ``humans`` and bots elsewhere; returns the users."""
    table = Table.objects.create(name="测试桌")
    users = {}
    for seat in range(6):
        if seat in humans:
            user = UserFactory()
            users[seat] = user
            player = PlayerFactory(user=user)
        else:
            player = BotFactory()
        TableSeat.objects.create(table=table, seat=seat, player=player)
    return table, users


def client_for(user: Any, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def state_url(table: Table) -> str:
    return reverse("api:table_state", args=[table.pk])


def action_url(table: Table) -> str:
    return reverse("api:table_actions", args=[table.pk])


def act(client: Client, table: Table, **body: Any) -> Any:
    return client.post(action_url(table), body, content_type="application/json")


def current(table: Table) -> dict[str, Any]:
    return selectors.table_state(table=table)


def test_state_before_a_match_and_for_an_unknown_table(client: Client) -> None:
    table, _users = people_table()
    response = client.get(state_url(table))
    assert response.status_code == 200
    body = response.json()
    assert body["match"] is None and body["you"] is None
    assert [s["side"] for s in body["seats"]] == ["A", "B", "A", "B", "A", "B"]
    assert client.get("/api/v1/tables/999999/state/").status_code == 404


def test_a_seated_player_sees_their_hand_and_legal_plays_others_only_the_public_view() -> None:
    table, users = people_table((0, 3))
    services.match_start(table=table, seed=5)
    mine = client_for(users[0]).get(state_url(table)).json()
    assert mine["you"]["seat"] == 0 and len(mine["you"]["hand"].split()) == 27
    theirs = client_for(users[3]).get(state_url(table)).json()
    assert theirs["you"]["seat"] == 3 and theirs["you"]["hand"] != mine["you"]["hand"]
    spectator = client_for(UserFactory()).get(state_url(table)).json()
    anonymous = Client().get(state_url(table)).json()
    for body, viewer in ((mine, 0), (theirs, 3), (spectator, None), (anonymous, None)):
        assert_no_leak(body, table, viewer)
    assert spectator["you"] is None and anonymous["you"] is None


def _first_legal(state: dict[str, Any]) -> dict[str, Any]:
    legal = state["you"]["legal"]
    plays = [a for a in legal if a["kind"] != "pass"]
    choice = plays[0] if plays else legal[0]
    return {"action": choice["kind"], "cards": choice.get("cards", ""), "seq": state["seq"]}


def _drive_bots(table: Table) -> None:
    """Do what the worker does: bots act while the deal waits only for bots; deal the next."""
    for _ in range(400):
        state = current(table)
        match = Match.objects.get(pk=state["match"]["id"])
        if match.status != Match.Status.PLAYING:
            return
        deal = state["deal"]
        if deal is None or deal["phase"] == "over":
            services.deal_start(match_id=match.pk, number=match.current_deal + 1)
            continue
        bots = [s for s in deal["awaiting"] if state["seats"][s]["is_bot"]]
        if not bots:
            return
        services.bot_act(
            match_id=match.pk, number=match.current_deal, seq=state["seq"], seat=bots[0]
        )
    raise AssertionError("bots did not stop")


CARD_TOKEN = re.compile(r"(?<![\w])(?:10|[2-9JQKA])[SHDC](?![\w])|(?<![\w])[SB]J(?![\w])")


def test_whole_deals_never_show_a_seat_another_seats_cards(caplog: Any) -> None:
    """Play a whole match through the API (two people, four bots), scanning every payload each
    seat and a spectator receive, and every log line written meanwhile (which names no card)."""
    caplog.set_level(logging.DEBUG)
    table, users = people_table((0, 3))
    services.match_start(table=table, seed=20261129, deals_per_match=2)
    clients = {seat: client_for(user) for seat, user in users.items()}
    watcher = client_for(UserFactory())
    checked = actions = 0
    for _ in range(600):
        _drive_bots(table)
        state = current(table)
        for seat, client in clients.items():
            checked += assert_no_leak(client.get(state_url(table)).json(), table, seat)
        checked += assert_no_leak(watcher.get(state_url(table)).json(), table, None)
        if state["match"]["status"] != "playing":
            break
        seat = next(s for s in state["deal"]["awaiting"] if s in clients)
        mine = clients[seat].get(state_url(table)).json()
        response = act(clients[seat], table, **_first_legal(mine))
        assert response.status_code == 200, response.json()
        checked += assert_no_leak(response.json(), table, seat)
        actions += 1
    else:
        raise AssertionError("the match did not end")
    assert actions > 10 and checked > 100
    logged = [r.getMessage() for r in caplog.records if CARD_TOKEN.search(r.getMessage())]
    assert not logged, logged[:3]
    final = watcher.get(state_url(table)).json()
    assert final["match"]["status"] == "finished"
    assert final["match"]["results"]  # the deals' results are shown


def test_actions_answer_400_403_409_with_a_message() -> None:
    table, users = people_table((0, 3))
    services.match_start(table=table, seed=5)
    _drive_bots(table)
    state = current(table)
    turn = state["deal"]["turn"]
    assert turn in users, "the seed gives a person the turn"
    other = 3 if turn == 0 else 0
    player, bystander = client_for(users[turn]), client_for(users[other])
    seq = state["seq"]
    # 403: not seated, anonymous, another seat's player trying this seat's turn is refused by
    # the engine (400) since a request never names a seat: it acts for its own seat only
    response = act(client_for(UserFactory()), table, action="pass", seq=seq)
    assert response.status_code == 403 and response.json()["detail"]
    assert act(Client(), table, action="pass", seq=seq).status_code == 403
    response = act(bystander, table, action="play", cards="3H", seq=seq)
    assert response.status_code == 400 and "还没轮到" in response.json()["detail"]
    # 400: malformed
    for body in (
        {"action": "dance", "seq": seq},
        {"action": "play", "cards": "3X", "seq": seq},
        {"action": "play", "cards": "3H"},
        {"action": "play", "cards": "3H", "seq": -1},
        {"action": "play", "cards": "3H " * 100, "seq": seq},
        {"action": "play", "cards": ["3H"], "seq": "x"},
    ):
        response = act(player, table, **body)
        assert response.status_code == 400, body
        assert response.json()["detail"], body
    response = player.post(action_url(table), "not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["detail"]
    # 400: illegal (cards not held, or no play)
    hand = player.get(state_url(table)).json()["you"]["hand"].split()
    response = act(player, table, action="play", cards=" ".join(hand[:4]), seq=seq)
    assert response.status_code == 400 and response.json()["detail"]
    # 409: stale
    response = act(player, table, action="pass", seq=seq + 1)
    assert response.status_code == 409 and response.json()["detail"]
    assert Action.objects.filter(deal__match__table=table).count() == seq
    # 405: the action endpoint takes POST only
    assert player.get(action_url(table)).status_code == 405


def test_csrf_is_required_for_actions() -> None:
    table, users = people_table()
    services.match_start(table=table, seed=5)
    client = client_for(users[0], csrf=True)
    state = client.get(state_url(table)).json()
    response = act(client, table, action="pass", seq=state["seq"])
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    client.get(reverse("games:table", args=[table.pk]))  # sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        action_url(table),
        {"action": "pass", "seq": state["seq"] + 99},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert response.status_code == 409  # past CSRF: the stale seq is what is refused


def test_check_explains_a_selection_in_words() -> None:
    table, users = people_table()
    services.match_start(table=table, seed=5)
    _drive_bots(table)
    client = client_for(users[0])
    url = reverse("api:table_check", args=[table.pk])
    state = client.get(state_url(table)).json()
    legal = [a for a in state["you"]["legal"] if a["kind"] == "play"]
    assert state["deal"]["turn"] == 0 and legal
    good = client.post(url, {"cards": legal[0]["cards"]}, content_type="application/json").json()
    assert good["ok"] and good["action"] == "play" and good["message"]
    hand = state["you"]["hand"].split()
    four = client.post(url, {"cards": " ".join(hand[:4])}, content_type="application/json")
    assert not four.json()["ok"] and four.json()["message"]
    empty = client.post(url, {"cards": ""}, content_type="application/json").json()
    assert not empty["ok"] and empty["message"]
    not_held = client.post(url, {"cards": "3H 3H 3H 3H"}, content_type="application/json")
    assert not_held.status_code == 200 and not not_held.json()["ok"]
    bad = client.post(url, {"cards": "ZZ"}, content_type="application/json")
    assert bad.status_code == 200 and not bad.json()["ok"]
    stranger = client_for(UserFactory())
    assert stranger.post(url, {"cards": "3H"}, content_type="application/json").status_code == 403


def test_a_player_may_leave_and_the_escape_is_recorded() -> None:
    table, users = people_table()
    services.match_start(table=table, seed=5)
    client = client_for(users[0])
    response = client.post(reverse("api:table_leave", args=[table.pk]))
    assert response.status_code == 200
    body = response.json()
    assert body["match"]["status"] == "finished"
    assert body["match"]["end_reason"] == "escape"
    assert body["match"]["points"][0] < 0
    assert client.post(reverse("api:table_leave", args=[table.pk])).status_code == 400


@pytest.mark.django_db(transaction=True)
def test_twenty_identical_concurrent_actions_apply_exactly_once() -> None:
    table, users = people_table()
    services.match_start(table=table, seed=5)
    _drive_bots(table)
    state = current(table)
    assert state["deal"]["awaiting"] == [0]
    client = client_for(users[0])
    body = _first_legal(client.get(state_url(table)).json())
    clients = [client_for(users[0]) for _ in range(20)]
    barrier = threading.Barrier(len(clients))
    codes: list[int] = []
    lock = threading.Lock()

    def send(c: Client) -> None:
        try:
            barrier.wait()
            response = act(c, table, **body)
            with lock:
                codes.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200] + [409] * 19, codes
    assert Action.objects.filter(deal__match__table=table, seat=0).count() == 1


def test_the_play_api_is_in_the_openapi_schema(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    for name in ("state", "actions", "check", "leave"):
        assert f"/api/v1/tables/{{table_id}}/{name}/" in paths
    action = paths["/api/v1/tables/{table_id}/actions/"]["post"]
    assert {"200", "400", "403", "409"} <= set(action["responses"])
