from __future__ import annotations

import pytest

from config.exceptions import ApplicationError
from engine.registry import get_game
from games.models import Table
from games.tables.selectors import table_seats
from games.tables.services import player_create, table_create
from tests.games.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_table_create_seats_six_players_in_play_order() -> None:
    players = PlayerFactory.create_batch(6)
    table = table_create(name="练习桌", players=players, mode=Table.Mode.OFFLINE)
    seats = list(table_seats(table=table))
    assert [s.player for s in seats] == players
    assert [get_game(table.game).side_of(s.seat) for s in seats] == ["A", "B", "A", "B", "A", "B"]
    assert table.mode == "offline" and table.status == "open"


@pytest.mark.parametrize("count", [0, 5, 7])
def test_table_create_needs_six_players(count: int) -> None:
    with pytest.raises(ApplicationError, match="exactly 6 players"):
        table_create(name="t", players=PlayerFactory.create_batch(count))
    assert not Table.objects.exists()


def test_table_create_refuses_a_player_twice() -> None:
    players = PlayerFactory.create_batch(5)
    with pytest.raises(ApplicationError, match="only one seat"):
        table_create(name="t", players=[*players, players[0]])


def test_player_create_checks_its_input() -> None:
    assert player_create(name="  李四 ").name == "李四"
    with pytest.raises(ApplicationError):
        player_create(name=" ")
    with pytest.raises(ApplicationError):
        player_create(name="bot", is_bot=True, user=UserFactory())
    with pytest.raises(ApplicationError):
        player_create(name="人", bot_kind="greedy")
