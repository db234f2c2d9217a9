"""The database itself refuses what the card room's data must never hold."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from games.models import Action, Deal, LevelStep, Match, Player, Table, TableSeat, level_label
from tests.games.factories import BotFactory, PlayerFactory, TableFactory, UserFactory

pytestmark = pytest.mark.django_db


def assert_refused(make: Callable[[], Any]) -> None:
    """Assert that the database rejects what ``make`` writes."""
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def test_seats_get_sides_by_parity() -> None:
    table = TableFactory()
    sides = list(table.seats.order_by("seat").values_list("side", flat=True))
    assert sides == ["A", "B", "A", "B", "A", "B"]
    assert table.seats.filter(side="A").count() == 3


def test_one_player_per_seat() -> None:
    table = TableFactory()
    assert_refused(lambda: TableSeat.objects.create(table=table, seat=0, player=PlayerFactory()))


def test_one_seat_per_player_at_a_table() -> None:
    table = TableFactory(seated=False)
    player = PlayerFactory()
    TableSeat.objects.create(table=table, seat=0, player=player)
    assert_refused(lambda: TableSeat.objects.create(table=table, seat=1, player=player))


@pytest.mark.parametrize("seat", [6, 7, 100])
def test_only_six_seats(seat: int) -> None:
    table = TableFactory(seated=False)
    assert_refused(lambda: TableSeat.objects.create(table=table, seat=seat, player=PlayerFactory()))


def test_a_player_may_sit_at_several_tables() -> None:
    player = PlayerFactory()
    for _ in range(2):
        TableSeat.objects.create(table=TableFactory(seated=False), seat=0, player=player)
    assert player.tables.count() == 2


def test_bot_has_no_account() -> None:
    user = UserFactory()
    assert_refused(lambda: Player.objects.create(name="机器人", is_bot=True, user=user))


def test_only_bots_have_a_bot_kind() -> None:
    assert_refused(lambda: Player.objects.create(name="张三", bot_kind="greedy"))
    assert BotFactory().bot_kind == "heuristic"


def _match(**kwargs: Any) -> Match:
    return Match.objects.create(table=kwargs.pop("table", None) or TableFactory(), **kwargs)


@pytest.mark.parametrize("level", [1, 15])
def test_match_levels_stay_within_2_to_a(level: int) -> None:
    assert_refused(lambda: _match(level_a=level))
    assert_refused(lambda: _match(level_b=level))


def test_match_level_a_is_allowed() -> None:
    assert _match(level_a=14, level_b=2).level_a == 14


def test_one_unfinished_match_per_table() -> None:
    table = TableFactory()
    _match(table=table)
    assert_refused(lambda: _match(table=table))
    Match.objects.filter(table=table).update(status="finished", end_reason="deals_played")
    _match(table=table)  # a finished match frees the table for the next one


def test_finished_match_names_its_end() -> None:
    assert_refused(lambda: _match(status="finished"))


def test_match_side_points_are_the_sums_of_their_seats() -> None:
    assert_refused(lambda: _match(points_0=6, points_a=5))
    match = _match(points_0=6, points_2=6, points_4=6, points_a=18, points_1=-6, points_b=-6)
    assert match.seat_points == [6, -6, 6, 0, 6, 0]


def test_match_current_deal_within_its_deals() -> None:
    assert_refused(lambda: _match(deals_per_match=3, current_deal=4))
    assert_refused(lambda: _match(deals_per_match=0))
    assert_refused(lambda: _match(base_score=0))


def _deal(match: Match | None = None, **kwargs: Any) -> Deal:
    fields = {"number": 1, "dealer_seat": 0, "level_rank": 2, "seed": 7, **kwargs}
    return Deal.objects.create(match=match or _match(), **fields)


def test_deal_number_unique_per_match() -> None:
    deal = _deal()
    assert_refused(lambda: _deal(deal.match, number=1))
    assert _deal(deal.match, number=2).number == 2


@pytest.mark.parametrize(
    "fields",
    [{"dealer_seat": 6}, {"level_rank": 1}, {"level_rank": 15}, {"number": 0}, {"status": "x"}],
)
def test_deal_fields_checked(fields: dict[str, Any]) -> None:
    assert_refused(lambda: _deal(**fields))


def test_action_seq_unique_per_deal() -> None:
    deal = _deal()
    Action.objects.create(deal=deal, seq=1, seat=0, kind="play", cards="3S")
    assert_refused(lambda: Action.objects.create(deal=deal, seq=1, seat=1, kind="pass"))
    other = _deal(deal.match, number=2)
    Action.objects.create(deal=other, seq=1, seat=1, kind="pass")


@pytest.mark.parametrize("fields", [{"seat": 6}, {"seq": 0}, {"kind": "cheat"}])
def test_action_fields_checked(fields: dict[str, Any]) -> None:
    deal = _deal()
    values = {"seq": 1, "seat": 0, "kind": "pass", **fields}
    assert_refused(lambda: Action.objects.create(deal=deal, **values))


def test_actions_are_append_only() -> None:
    action = Action.objects.create(deal=_deal(), seq=1, seat=0, kind="play", cards="BJ")
    action.cards = "SJ"
    with pytest.raises(TypeError, match="append-only"):
        action.save()
    with pytest.raises(TypeError, match="append-only"):
        Action.objects.filter(pk=action.pk).update(cards="SJ")
    action.refresh_from_db()
    assert action.cards == "BJ"


def test_level_ladder_one_step_per_deal_within_2_to_a() -> None:
    match = _match()
    LevelStep.objects.create(match=match, deal_number=0, level_a=2, level_b=2)
    assert_refused(
        lambda: LevelStep.objects.create(match=match, deal_number=0, level_a=3, level_b=2)
    )
    assert_refused(
        lambda: LevelStep.objects.create(match=match, deal_number=1, level_a=15, level_b=2)
    )
    step = LevelStep.objects.create(match=match, deal_number=1, level_a=14, level_b=11)
    assert str(step) == "A : J"


def test_table_mode_and_status_checked() -> None:
    assert_refused(lambda: Table.objects.create(name="x", mode="pigeon"))
    assert_refused(lambda: Table.objects.create(name="x", status="lost"))


def test_level_labels() -> None:
    assert [level_label(r) for r in (2, 10, 11, 12, 13, 14)] == ["2", "10", "J", "Q", "K", "A"]
