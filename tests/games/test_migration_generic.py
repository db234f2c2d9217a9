"""The migration that made the card room game-neutral carries every 大怪路子 row over (issue 12):
points per seat and per side into JSON, levels into the match's figures, the ladder into figure
steps; tables and matches become 大怪路子's."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0002_play_state")]
AFTER = [("games", "0003_generic_card_room")]


@pytest.mark.django_db(transaction=True)
def test_rows_made_before_the_generic_card_room_are_carried_over() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    table = old.get_model("games", "Table").objects.create(name="一号桌", mode="online")
    Player = old.get_model("games", "Player")
    for seat in range(6):
        player = Player.objects.create(name=f"选手{seat}")
        old.get_model("games", "TableSeat").objects.create(table=table, seat=seat, player=player)
    seat_points = {f"points_{s}": p for s, p in enumerate([6, -6, 6, -6, 6, -6])}
    match = old.get_model("games", "Match").objects.create(
        table=table,
        status="finished",
        end_reason="deals_played",
        current_deal=1,
        level_a=5,
        level_b=2,
        winner_side="A",
        points_a=18,
        points_b=-18,
        **seat_points,
    )
    old.get_model("games", "Deal").objects.create(
        match=match,
        number=1,
        dealer_seat=0,
        level_rank=2,
        seed=7,
        status="finished",
        points_a=18,
        points_b=-18,
        **seat_points,
    )
    LevelStep = old.get_model("games", "LevelStep")
    LevelStep.objects.create(match=match, deal_number=0, level_a=2, level_b=2)
    LevelStep.objects.create(match=match, deal_number=1, level_a=5, level_b=2)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    moved = new.get_model("games", "Match").objects.get(pk=match.pk)
    assert moved.game == "daguai"
    assert moved.points == [6, -6, 6, -6, 6, -6]
    assert moved.side_points == {"A": 18, "B": -18}
    assert moved.figures == {"level": {"A": 5, "B": 2}}
    assert moved.winner == "A"
    deal = new.get_model("games", "Deal").objects.get(match_id=match.pk)
    assert deal.points == [6, -6, 6, -6, 6, -6] and deal.side_points == {"A": 18, "B": -18}
    steps = new.get_model("games", "FigureStep").objects.filter(match_id=match.pk)
    assert [(s.deal_number, s.figures) for s in steps.order_by("deal_number")] == [
        (0, {"level": {"A": 2, "B": 2}}),
        (1, {"level": {"A": 5, "B": 2}}),
    ]
    moved_table = new.get_model("games", "Table").objects.get(pk=table.pk)
    assert (moved_table.game, moved_table.seat_count) == ("daguai", 6)

    # and back again, so a deployment can roll back
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(BEFORE)
    back = executor.loader.project_state(BEFORE).apps
    again = back.get_model("games", "Match").objects.get(pk=match.pk)
    assert (again.level_a, again.points_a, again.points_5, again.winner_side) == (5, 18, -6, "A")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
