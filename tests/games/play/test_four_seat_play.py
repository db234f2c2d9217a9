"""Tables of four (小路子, 上海斗地主) through the play API: every action the state lists in
``you.legal`` is sent back as it is; no payload shows a seat, a bystander or a spectator a card the
rules hide, over whole deals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, Table
from games.play import services as play_services
from games.play import state as selectors
from games.tables import services as tables_services
from tests.games.factories import PlayerFactory, UserFactory
from tests.games.leakcheck import assert_no_leak

pytestmark = pytest.mark.django_db

GAMES = ("xiaoluzi", "shanghai_doudizhu")


def four_people(game: str) -> tuple[Table, dict[int, Client]]:
    users = [UserFactory() for _ in range(4)]
    players = [PlayerFactory(user=u) for u in users]
    table = tables_services.table_create(name="四人桌", players=players, game=game)
    clients = {}
    for seat, user in enumerate(users):
        client = Client()
        client.force_login(user)
        clients[seat] = client
    return table, clients


def state_of(client: Client, table: Table) -> dict[str, Any]:
    response = client.get(reverse("api:table_state", args=[table.pk]))
    assert response.status_code == 200
    return response.json()


def post(client: Client, table: Table, body: dict[str, Any]) -> Any:
    return client.post(
        reverse("api:table_actions", args=[table.pk]), body, content_type="application/json"
    )


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action: 小路子 — declare and counter when offered (so bystanders appear),
    otherwise a random one; 斗地主 — a random one."""
    legal = state["you"]["legal"]
    assert legal, state["deal"]
    for wanted in ("declare", "counter"):
        for action in legal:
            if action["kind"] == wanted:
                return action
    return rng.choice(legal)


@pytest.mark.parametrize("game", GAMES)
def test_whole_deals_by_the_legal_actions_show_no_hidden_card(game: str) -> None:
    table, clients = four_people(game)
    play_services.match_start(table=table, seed=20261201, deals_per_match=2)
    watcher = Client()
    watcher.force_login(UserFactory())
    rng = random.Random(7)
    checked = actions = 0
    bystanders_seen = False
    for _ in range(800):
        match = Match.objects.get(table=table)
        spectator = state_of(watcher, table)
        checked += assert_no_leak(spectator, table, None)
        assert spectator["you"] is None
        if match.status != Match.Status.PLAYING:
            break
        deal = spectator["deal"]
        if deal["phase"] == "over":
            assert deal["result"] is not None
            play_services.deal_start(match_id=match.pk, number=match.current_deal + 1)
            continue
        assert deal["result"] is None and deal["moves"] == spectator["seq"]
        states = {seat: state_of(c, table) for seat, c in clients.items()}
        for seat, mine in states.items():
            checked += assert_no_leak(mine, table, seat)
            assert mine["you"]["seat"] == seat and mine["you"]["hand"]
            assert (mine["you"]["legal"] != []) == (seat in deal["awaiting"])
        if game == "xiaoluzi" and deal.get("bystanders"):
            bystanders_seen = True
            for seat in deal["bystanders"]:
                assert states[seat]["you"]["hand"]  # a bystander holds and sees their own hand
        seat = deal["awaiting"][0]
        action = choose(states[seat], rng)
        # as it is, or inside "action"
        body = {**action, "seq": states[seat]["seq"]}
        if actions % 2:
            body = {"action": action, "seq": states[seat]["seq"]}
        response = post(clients[seat], table, body)
        assert response.status_code == 200, (action, response.json())
        checked += assert_no_leak(response.json(), table, seat)
        actions += 1
    else:
        raise AssertionError("the match did not end")
    assert actions > 10 and checked > 100
    final = state_of(watcher, table)
    assert final["match"]["status"] == "finished" and final["match"]["results"]
    assert final["deal"]["result"] is not None
    if game == "xiaoluzi":
        assert bystanders_seen


def test_the_landlord_alone_sees_the_kitty_until_he_plays_open() -> None:
    table, clients = four_people("shanghai_doudizhu")
    play_services.match_start(table=table, seed=3, deals_per_match=1)
    for _ in range(8):
        deal = selectors.table_state(table=table)["deal"]
        if deal["landlord"] is not None:
            break
        seat = deal["awaiting"][0]
        mine = state_of(clients[seat], table)
        bid = max((a for a in mine["you"]["legal"] if a["kind"] == "bid"), key=lambda a: a["value"])
        assert post(clients[seat], table, {**bid, "seq": mine["seq"]}).status_code == 200
    landlord = deal["landlord"]
    assert landlord is not None
    for seat, client in clients.items():
        shown = state_of(client, table)["deal"]
        assert (shown["kitty"] is not None) == (seat == landlord or shown["open_hand"])
    assert selectors.table_state(table=table)["deal"]["kitty"] is None or deal["open_hand"]


@pytest.mark.parametrize("game", GAMES)
def test_today_s_form_and_bad_actions(game: str) -> None:
    table, clients = four_people(game)
    play_services.match_start(table=table, seed=11, deals_per_match=1)
    deal = selectors.table_state(table=table)["deal"]
    seat = deal["awaiting"][0]
    other = (seat + 1) % 4
    mine = state_of(clients[seat], table)
    legal = mine["you"]["legal"][0]
    # an action naming another seat: 403; malformed or foreign: 400 with a message
    response = post(clients[seat], table, {**legal, "seat": other, "seq": mine["seq"]})
    assert response.status_code == 403 and response.json()["detail"]
    for bad in ({"kind": "tribute"}, {"kind": 5}, {"kind": "play", "cards": "ZZ"}):
        response = post(clients[seat], table, {"action": bad, "seq": mine["seq"]})
        assert response.status_code == 400 and response.json()["detail"], bad
    response = post(clients[seat], table, {**legal})  # no seq
    assert response.status_code == 400 and "seq" in response.json()["detail"]
    # a seat whose turn it is not: the engine's refusal
    theirs = state_of(clients[other], table)
    response = post(clients[other], table, {**legal, "seat": other, "seq": theirs["seq"]})
    assert response.status_code == 400 and response.json()["detail"]
    # today's form: the kind and the text
    text = {"declare": "", "no_declare": "", "pass": "", "bid": str(legal.get("value", ""))}
    response = post(
        clients[seat],
        table,
        {"action": legal["kind"], "cards": text[legal["kind"]], "seq": mine["seq"]},
    )
    assert response.status_code == 200, response.json()
    assert response.json()["seq"] == mine["seq"] + 1


@pytest.mark.parametrize("game", GAMES)
def test_a_selection_is_explained_by_the_table_s_game(game: str) -> None:
    table, clients = four_people(game)
    play_services.match_start(table=table, seed=11, deals_per_match=1)
    seat = selectors.table_state(table=table)["deal"]["awaiting"][0]
    other = (seat + 1) % 4
    hand = state_of(clients[other], table)["you"]["hand"].split()
    url = reverse("api:table_check", args=[table.pk])
    body = clients[other].post(url, {"cards": hand[0]}, "application/json")
    assert body.status_code == 200
    verdict = body.json()
    assert verdict["ok"] is False and verdict["message"]
    response = clients[other].post(url, {"cards": "ZZ"}, "application/json")
    assert response.status_code == 200 and response.json()["ok"] is False


@pytest.mark.parametrize("game", GAMES)
def test_the_scan_sees_another_seat_s_hand(game: str) -> None:
    table, clients = four_people(game)
    play_services.match_start(table=table, seed=5, deals_per_match=1)
    theirs = state_of(clients[1], table)
    assert_no_leak(theirs, table, 1)
    for viewer in (0, None):
        with pytest.raises(AssertionError):
            assert_no_leak({"shown": theirs["you"]["hand"]}, table, viewer)


@pytest.mark.parametrize(("game", "bots"), [("xiaoluzi", 3), ("shanghai_doudizhu", 3), ("", 5)])
def test_practice_opens_a_table_of_the_game_chosen(game: str, bots: int) -> None:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    response = client.post(reverse("games:practice"), {"game": game} if game else {})
    assert response.status_code == 302
    table = Table.objects.get(seats__player__user=user)
    assert table.game == (game or "daguai") and table.seat_count == bots + 1
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.seats.filter(player__is_bot=True).count() == bots
    assert Match.objects.get(table=table).status == Match.Status.PLAYING
    assert (
        client.post(reverse("games:practice"), {"game": game})["Location"] == (response["Location"])
    )
    page = client.get(response["Location"])
    assert page.status_code == 200
    # the player's page offers each game
    me = client.get(reverse("accounts:me")).content.decode()
    for key in ("daguai", *GAMES):
        assert f'value="{key}"' in me


def test_practice_of_an_unknown_game_is_refused_with_a_message() -> None:
    client = Client()
    client.force_login(UserFactory())
    response = client.post(reverse("games:practice"), {"game": "mahjong"})
    assert response.status_code == 400
    assert "mahjong" in response.content.decode() and "xiaoluzi" in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_every_push_shows_each_viewer_only_what_the_rules_let_them_see(game: str) -> None:
    """Over a whole deal, each seat (小路子's bystanders included), a logged-in spectator and an
    anonymous one get every change over their WebSocket, scanned for hidden cards."""
    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async

    from games.play.apis import action_as_text
    from tests.games.live.test_realtime import next_state, session_cookie, socket

    table, _clients = four_people(game)
    play_services.match_start(table=table, seed=99, deals_per_match=1)
    users = {s.seat: s.player.user for s in table.seats.select_related("player__user")}
    viewers: dict[str, tuple[int | None, bytes]] = {
        f"seat{seat}": (seat, session_cookie(user)) for seat, user in users.items()
    }
    viewers["watcher"] = (None, session_cookie(UserFactory()))
    viewers["anonymous"] = (None, b"")
    rng = random.Random(3)

    def act_once() -> bool:
        state = selectors.table_state(table=table)
        if state["match"]["status"] != "playing":
            return False
        if state["deal"]["phase"] == "over":
            match = Match.objects.get(table=table)
            play_services.deal_start(match_id=match.pk, number=match.current_deal + 1)
            return True
        seat = state["deal"]["awaiting"][0]
        mine = selectors.table_state(table=table, seat=seat)
        kind, cards = action_as_text(table, seat, choose(mine, rng))
        play_services.seat_act(table=table, seat=seat, kind=kind, cards=cards, seq=mine["seq"])
        return True

    async def run() -> int:
        comms = {}
        for name, (seat, cookie) in viewers.items():
            comm = socket(table, cookie)
            connected, _code = await comm.connect()
            assert connected, name
            first = await next_state(comm)
            await database_sync_to_async(assert_no_leak)(first, table, seat)
            comms[name] = comm
        pushes = 0
        for _ in range(600):
            if not await database_sync_to_async(act_once)():
                break
            for name, (seat, _cookie) in viewers.items():
                pushed = await next_state(comms[name], timeout=2.0)
                await database_sync_to_async(assert_no_leak)(pushed, table, seat)
                assert (pushed["you"] or {}).get("seat") == seat
                pushes += 1
        else:
            raise AssertionError("the match did not end")
        for comm in comms.values():
            await comm.disconnect(timeout=10)
        return pushes

    assert async_to_sync(run)() > 50


@pytest.mark.parametrize("game", GAMES)
def test_the_table_page_of_four_names_its_game_and_draws_four_seats(game: str) -> None:
    table, clients = four_people(game)
    play_services.match_start(table=table, seed=8, deals_per_match=1)
    page = clients[2].get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="seat pos-') == 4 and f'data-game="{game}"' in html
    assert '"seatCount": 4' in html and f'"game": "{game}"' in html
    assert 'id="choices"' in html and 'id="facts"' in html
    watcher = Client()
    watcher.force_login(UserFactory())
    spectator = watcher.get(reverse("games:table", args=[table.pk]))
    assert spectator.status_code == 200  # a table of no event is public
    assert 'id="hand"' not in spectator.content.decode()
    assert 'class="seat pos-' in spectator.content.decode()
