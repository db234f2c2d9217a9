"""A 上海斗地主 player taps any copy of a rank (issue 26): holding 2S 2H 2D 2D 2C and leading, the
check API takes 2H (it answered "现在不能出 2H。" while 2S went), the play API plays 2H itself, the
action log and the state carry 2H, and the engine rebuilt from the log holds the same hand; a
wrong selection is explained in words, in Chinese and in English."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import format_cards
from games.models import Action, Table
from games.play import engine_state
from games.play import services as play_services
from games.tables import services as tables_services
from tests.engine.shanghai_doudizhu.helpers import rig
from tests.games.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

TWOS = "2S 2H 2D 2D 2C"


def first_deal() -> dict[str, Any]:
    """A deal whose seat 0 holds five 2s and is marked (bids first)."""
    deal = rig({0: f"{TWOS} 3S 4S 5H 6D 7C 9S 9H"}, marked=(0, "2S"))
    return {
        "seed": "copies",
        "hands": [format_cards(h) for h in deal.initial_hands],
        "kitty": format_cards(deal.kitty),
        "marked": {"seat": 0, "card": "2S"},
    }


def state_of(client: Client, table: Table) -> dict[str, Any]:
    response = client.get(reverse("api:table_state", args=[table.pk]))
    assert response.status_code == 200
    return response.json()


def act(client: Client, table: Table, action: str, cards: str = "") -> dict[str, Any]:
    seq = state_of(client, table)["seq"]
    response = client.post(
        reverse("api:table_actions", args=[table.pk]),
        {"action": action, "cards": cards, "seq": seq},
        content_type="application/json",
    )
    assert response.status_code == 200, response.json()
    return response.json()


def check(client: Client, table: Table, cards: str, english: bool = False) -> dict[str, Any]:
    if english:
        client.cookies["django_language"] = "en"
    response = client.post(
        reverse("api:table_check", args=[table.pk]), {"cards": cards}, "application/json"
    )
    client.cookies.pop("django_language", None)
    assert response.status_code == 200
    return response.json()


@pytest.fixture
def leading() -> tuple[Table, dict[int, Client]]:
    """Seat 0 is the landlord (bid 1, three passes) and leads."""
    users = [UserFactory() for _ in range(4)]
    players = [PlayerFactory(user=u) for u in users]
    table = tables_services.table_create(name="斗地主桌", players=players, game="shanghai_doudizhu")
    clients = {}
    for seat, user in enumerate(users):
        clients[seat] = Client()
        clients[seat].force_login(user)
    play_services.match_start(table=table, seed=1, deals_per_match=1, first_deal=first_deal())
    act(clients[0], table, "bid", "1")
    for seat in (1, 2, 3):
        act(clients[seat], table, "pass")
    state = state_of(clients[0], table)
    if state["deal"]["phase"] == "report":
        act(clients[0], table, "report")
    state = state_of(clients[0], table)
    assert state["deal"]["phase"] == "play" and state["deal"]["awaiting"] == [0]
    return table, clients


def test_any_copy_of_a_rank_is_checked_played_logged_and_rebuilt(
    leading: tuple[Table, dict[int, Client]],
) -> None:
    table, clients = leading
    before = Counter(state_of(clients[0], table)["you"]["hand"].split())
    for cards in ("2H", "2D", "2C", "2H 2D", "2D 2D 2C", "2H 2D 2D 2C", TWOS):
        verdict = check(clients[0], table, cards)
        assert verdict["ok"] and verdict["cards"] == cards, (cards, verdict)
    assert check(clients[0], table, "2H")["message"] == "你首出 单牌 2。"
    assert check(clients[0], table, "2H", english=True)["message"] == "You lead 单牌 (single) 2."
    state = act(clients[0], table, "play", "2H")
    after = Counter(state["you"]["hand"].split())
    assert before - after == Counter(["2H"]) and after["2S"] == 1
    assert state["deal"]["trick"]["actions"][-1]["cards"] == "2H"
    logged = Action.objects.filter(deal__match__table=table, kind="play").get()
    assert logged.cards == "2H"
    engine_state.forget()  # the engine rebuilt from the action log holds the same hand
    assert Counter(state_of(clients[0], table)["you"]["hand"].split()) == after


def test_a_wrong_selection_is_explained_in_chinese_and_english(
    leading: tuple[Table, dict[int, Client]],
) -> None:
    table, clients = leading
    zh = check(clients[0], table, "2H 3S")
    assert not zh["ok"] and zh["message"] == "两张牌只有同点时才成牌型（对牌）。"
    en = check(clients[0], table, "2H 3S", english=True)
    assert en["message"] == "Two cards make a play only as a pair (对牌): two of one rank."
    act(clients[0], table, "play", "9S 9H")
    hand = state_of(clients[1], table)["you"]["hand"].split()
    single = hand[-1]  # the lowest card: a single is no pair
    zh = check(clients[1], table, single)
    assert zh["message"].startswith("要压的是 对牌 9：请出更大的对牌（2 张同点的牌）或炸弹，或不出")
    en = check(clients[1], table, single, english=True)
    assert en["message"].startswith(
        "The play to beat is 对牌 (pair) 9: play a higher pair (2 cards of one rank)"
    )
