"""The table's state says, the same way for every game, what the system has played for each seat
(托管) against the rules' limit, counts deals as people count them and lists each ended deal's
points (issue 26: the page read 大怪路子's ``streaks`` only, and counted 荒番 redeals as deals)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from games.play import services as play_services
from games.play import state as selectors
from games.tables import services as tables_services

pytestmark = pytest.mark.django_db

LIMITS = {"daguai": (5, True), "xiaoluzi": (3, True), "shanghai_doudizhu": (5, False)}


def people_table(game: str) -> Table:
    count = 6 if game == "daguai" else 4
    users = [get_user_model().objects.create_user(f"{game}{s}") for s in range(count)]
    players = [tables_services.player_create(name=f"玩家{s}", user=u) for s, u in enumerate(users)]
    return tables_services.table_create(name="桌", players=players, game=game)


def time_out_awaited(table: Table) -> dict[str, Any]:
    state = selectors.table_state(table=table)
    seat = state["deal"]["awaiting"][0]
    play_services.seat_timeout(
        match_id=state["match"]["id"], number=state["deal_number"], seq=state["seq"], seat=seat
    )
    return selectors.table_state(table=table, seat=seat)


@pytest.mark.parametrize("game", sorted(LIMITS))
def test_each_seats_system_plays_are_one_block_whatever_the_game(game: str) -> None:
    table = people_table(game)
    play_services.match_start(table=table, seed=4, turn_seconds=600)
    before = selectors.table_state(table=table)
    limit, in_a_row = LIMITS[game]
    assert before["system_play"][0] == {
        "used": 0, "limit": limit, "left": limit, "in_a_row": in_a_row, "last": False,
        "reached": False,
    }  # fmt: skip
    seat = before["deal"]["awaiting"][0]
    after = time_out_awaited(table)
    block = after["system_play"][seat]
    if block["used"]:  # (小路子's 不宣 on a timeout is no system play that counts)
        assert block["left"] == limit - 1 and block["last"] is True
        assert after["seats"][seat]["auto"] is True  # the seat's 托管 mark
    assert block["limit"] == limit


def test_a_huangfan_redeal_keeps_the_place_of_the_deal_it_replaces() -> None:
    table = people_table("shanghai_doudizhu")
    play_services.match_start(
        table=table, seed=4, turn_seconds=600, rule_options={"timeouts_to_escape": 99}
    )
    for _ in range(4):  # nobody bids: 荒番
        time_out_awaited(table)
    state = selectors.table_state(table=table)
    assert state["deal"]["phase"] == "over" and state["deal_ordinal"] == 1
    play_services.deal_start(match_id=state["match"]["id"], number=2)
    state = selectors.table_state(table=table)
    assert (state["deal_number"], state["deal_ordinal"]) == (2, 1)
    history = state["match"]["history"]
    assert [(h["number"], h["ordinal"]) for h in history] == [(1, 1)]
    assert history[0]["points"] == [0, 0, 0, 0] and history[0]["result"]["outcome"] == "all_pass"
