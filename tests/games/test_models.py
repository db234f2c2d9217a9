"""The database itself refuses what the card room's data must never hold."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from config.exceptions import ApplicationError
from games.models import MAX_SEATS, Action, Deal, FigureStep, Match, Player, Table, TableSeat
from games.tables.services import table_create
from tests.games.factories import BotFactory, PlayerFactory, TableFactory, UserFactory

pytestmark = pytest.mark.django_db


def assert_refused(make: Callable[[], Any]) -> None:
    """Assert that the database rejects what ``make`` writes."""
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def test_a_table_has_its_games_seats() -> None:
    table = TableFactory()
    assert (table.game, table.seat_count) == ("daguai", 6)
    four = [PlayerFactory() for _ in range(4)]
    small = table_create(name="四人桌", players=four, game="xiaoluzi")
    assert (small.game, small.seat_count) == ("xiaoluzi", 4)
    assert list(small.seats.order_by("seat").values_list("seat", flat=True)) == [0, 1, 2, 3]
    with pytest.raises(ApplicationError):
        table_create(name="x", players=four, game="daguai")
    with pytest.raises(ApplicationError):
        table_create(name="x", players=four, game="no-such-game")


@pytest.mark.parametrize("count", [0, 1, MAX_SEATS + 1])
def test_seat_counts_are_checked(count: int) -> None:
    assert_refused(lambda: Table.objects.create(name="x", seat_count=count))
    assert_refused(lambda: Table.objects.create(name="x", game=""))


def test_one_player_per_seat() -> None:
    table = TableFactory()
    assert_refused(lambda: TableSeat.objects.create(table=table, seat=0, player=PlayerFactory()))


def test_one_seat_per_player_at_a_table() -> None:
    table = TableFactory(seated=False)
    player = PlayerFactory()
    TableSeat.objects.create(table=table, seat=0, player=player)
    assert_refused(lambda: TableSeat.objects.create(table=table, seat=1, player=player))


@pytest.mark.parametrize("seat", [MAX_SEATS, 100])
def test_seats_stay_in_range(seat: int) -> None:
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


def test_one_unfinished_match_per_table() -> None:
    table = TableFactory()
    _match(table=table)
    assert_refused(lambda: _match(table=table))
    Match.objects.filter(table=table).update(status="finished", end_reason="deals_played")
    _match(table=table)  # a finished match frees the table for the next one


def test_finished_match_names_its_end() -> None:
    assert_refused(lambda: _match(status="finished"))


def test_points_are_stored_per_seat_and_per_side() -> None:
    match = _match(points=[6, -6, 6, 0, 6, 0], side_points={"A": 18, "B": -6})
    match.refresh_from_db()
    assert match.points == [6, -6, 6, 0, 6, 0] and match.side_points == {"A": 18, "B": -6}


def test_match_length_and_base_are_checked() -> None:
    # A game may deal more deals than count towards its length (上海斗地主's all-pass deals are
    # dealt again), so the deal number is not bounded by deals_per_match in the database.
    assert _match(deals_per_match=3, current_deal=4).current_deal == 4
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
    [{"dealer_seat": MAX_SEATS}, {"number": 0}, {"status": "x"}],
)
def test_deal_fields_checked(fields: dict[str, Any]) -> None:
    assert_refused(lambda: _deal(**fields))


def test_action_seq_unique_per_deal() -> None:
    deal = _deal()
    Action.objects.create(deal=deal, seq=1, seat=0, kind="play", cards="3S")
    assert_refused(lambda: Action.objects.create(deal=deal, seq=1, seat=1, kind="pass"))
    other = _deal(deal.match, number=2)
    Action.objects.create(deal=other, seq=1, seat=1, kind="pass")


@pytest.mark.parametrize("fields", [{"seat": MAX_SEATS}, {"seq": 0}, {"kind": ""}])
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


def test_figures_one_step_per_deal() -> None:
    match = _match()
    FigureStep.objects.create(match=match, deal_number=0, figures={"level": {"A": 2, "B": 2}})
    assert_refused(lambda: FigureStep.objects.create(match=match, deal_number=0, figures={}))
    step = FigureStep.objects.create(match=match, deal_number=1, figures={"level": {"A": 14}})
    step.refresh_from_db()
    assert step.figures == {"level": {"A": 14}}


def test_table_mode_and_status_checked() -> None:
    assert_refused(lambda: Table.objects.create(name="x", mode="pigeon"))
    assert_refused(lambda: Table.objects.create(name="x", status="lost"))
