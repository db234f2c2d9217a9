"""What a table shows, built once per state of the table and process: one query while nothing
changed, each seat only its own hand from the shared build, and any change of the rows seen."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.models import Match
from games.play import services
from games.play import state as selectors
from tests.games.leakcheck import assert_no_leak
from tests.games.play.test_apis import _first_legal, people_table

pytestmark = pytest.mark.django_db


def test_an_unchanged_table_is_read_with_one_query(django_assert_num_queries: Any) -> None:
    table, _users = people_table((0, 3))
    services.match_start(table=table, seed=5)
    first = selectors.table_state_of(table_id=table.pk, seat=0)
    for seat in (0, 3, None):  # both people's parts were built with the state
        with django_assert_num_queries(1):
            again = selectors.table_state_of(table_id=table.pk, seat=seat)
        assert again is not None and again["seq"] == first["seq"]  # type: ignore[index]
    assert selectors.table_state_of(table_id=999999) is None


def test_each_seat_gets_only_its_own_part_of_the_shared_state() -> None:
    table, _users = people_table((0, 3))
    services.match_start(table=table, seed=5)
    mine = selectors.table_state(table=table, seat=0)
    kept = copy.deepcopy(mine)
    spectator = selectors.table_state(table=table)
    theirs = selectors.table_state(table=table, seat=3)
    bot = selectors.table_state(table=table, seat=1)  # not prepared with the state: built on asking
    assert spectator["you"] is None
    assert mine["you"]["seat"] == 0 and theirs["you"]["seat"] == 3 and bot["you"]["seat"] == 1
    assert len({mine["you"]["hand"], theirs["you"]["hand"], bot["you"]["hand"]}) == 3
    for state, viewer in ((mine, 0), (spectator, None), (theirs, 3), (bot, 1)):
        assert_no_leak(state, table, viewer)
    # handing out the others' parts changed nothing that seat 0 was given, nor its next read
    assert mine == kept == selectors.table_state(table=table, seat=0)


def test_an_action_and_a_change_of_the_match_row_are_seen() -> None:
    table, users = people_table((4,))
    services.match_start(table=table, seed=5)
    before = selectors.table_state(table=table, seat=4)
    assert before["deal"]["awaiting"] == [4]  # seed 5: seat 4 leads the first deal
    body = _first_legal(before)
    services.seat_act(
        table=table, seat=4, kind=body["action"], cards=body["cards"], seq=body["seq"]
    )
    after = selectors.table_state(table=table, seat=4)
    assert after["seq"] == before["seq"] + 1 and after["you"]["hand"] != before["you"]["hand"]
    # a row changed behind the services' back (no action, no save()) is still seen
    Match.objects.filter(table=table).update(
        status=Match.Status.FINISHED, end_reason=Match.EndReason.DEALS_PLAYED
    )
    state = selectors.table_state_of(table_id=table.pk, seat=4)
    assert state is not None and state["match"]["status"] == Match.Status.FINISHED


def test_a_state_with_a_turn_deadline_is_also_read_with_one_query(
    django_assert_num_queries: Any,
) -> None:
    table, _users = people_table(tuple(range(6)))  # people only: a deadline runs from the start
    services.match_start(table=table, seed=5)
    first = selectors.table_state_of(table_id=table.pk, seat=2)
    assert first is not None and first["deadline"] is not None
    with django_assert_num_queries(1):
        again = selectors.table_state_of(table_id=table.pk, seat=2)
    assert again == first


def test_a_state_is_exactly_the_version_it_was_read_at() -> None:
    """Actions committed after a table's version was read are not in the state built for it."""
    from games.models import Deal, Match
    from games.play import engine_state

    table, _users = people_table(tuple(range(6)))
    match = services.match_start(table=table, seed=5)
    old_match = Match.objects.get(pk=match.pk)
    old_deal = Deal.objects.get(match=match, number=1)
    deal = engine_state.engine_match(old_match, old_deal).deal
    assert deal is not None
    seat = deal.awaiting()[0]
    services.seat_act(table=table, seat=seat, kind="play", cards=str(deal.hand(seat)[0]), seq=0)
    for cached in (False, True):  # rebuilt from the rows, or caught up from an older state
        engine_state.forget()
        if cached:
            engine_state.remember(
                old_match, old_deal, engine_state.engine_match(old_match, old_deal)
            )
        engine = engine_state.engine_match(old_match, old_deal)
        assert engine.deal is not None and len(engine.deal.actions) == old_deal.seq == 0


def test_connections_at_a_table_share_a_read_made_after_the_change(
    django_assert_num_queries: Any,
) -> None:
    import time

    table, _users = people_table(tuple(range(6)))
    services.match_start(table=table, seed=5)
    announced = time.monotonic()  # a change is announced; then one connection reads
    first = selectors.table_state_of(table_id=table.pk, seat=1, fresh_since=announced)
    assert first is not None
    with django_assert_num_queries(0):  # the other connections reuse that read
        for seat in (2, None):
            again = selectors.table_state_of(table_id=table.pk, seat=seat, fresh_since=announced)
            assert again is not None and again["seq"] == first["seq"]
    deal = first["deal"]
    seat = deal["awaiting"][0]
    card = first["you"]["hand"].split()[0] if seat == 1 else None
    if card is None:
        mine = selectors.table_state_of(table_id=table.pk, seat=seat)
        assert mine is not None
        card = mine["you"]["hand"].split()[0]
    services.seat_act(table=table, seat=seat, kind="play", cards=card, seq=first["seq"])
    later = time.monotonic()  # the next change: an older read no longer serves
    after = selectors.table_state_of(table_id=table.pk, seat=None, fresh_since=later)
    assert after is not None and after["seq"] == first["seq"] + 1  # read again


def test_an_action_is_answered_with_the_state_it_committed(
    django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    import time

    table, _users = people_table(tuple(range(6)))
    services.match_start(table=table, seed=5)
    before = selectors.table_state(table=table, seat=None)
    seat = before["deal"]["awaiting"][0]
    hand = selectors.table_state(table=table, seat=seat)["you"]["hand"]
    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        seq = services.seat_act(
            table=table, seat=seat, kind="play", cards=hand.split()[0], seq=before["seq"]
        )
    with django_assert_num_queries(0):  # the committed rows and engine state serve as they are
        answer = selectors.table_state(table=table, seat=seat, fresh_since=began)
    assert answer["seq"] == seq == before["seq"] + 1
    assert answer["you"]["hand"] != hand  # the card left the hand
    fresh = selectors.table_state_of(table_id=table.pk, seat=seat)  # read from the database
    assert fresh == answer


def test_the_version_read_carries_the_deal_beside_the_match_row() -> None:
    """The current deal's version is read with the match and travels beside it, typed: the match
    row holds its model's fields only (nothing read with it is left on it)."""
    table, _users = people_table((0, 3))
    match = services.match_start(table=table, seed=5)
    row = selectors._version_row(table.pk)
    assert row is not None and row.match.pk == match.pk and row.match.table.pk == table.pk
    fields = {f.attname for f in Match._meta.concrete_fields}
    assert set(vars(row.match)) <= fields | {"_state"}
    deal = match.deals.get(number=match.current_deal)
    assert row.deal == selectors.DealVersion.of(deal)
    assert row.deal is not None and row.deal.deadline == deal.turn_deadline
