"""The process's one cache of table states (games.state_cache): whatever changed in the
committed rows, a table's state read through the cache is exactly the one built from the rows alone;
the cache is bounded; two matches that got the same row id never share an entry."""

from __future__ import annotations

from datetime import timedelta
from operator import attrgetter
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import state_cache
from games.models import Deal, Match, Table, TableSeat
from games.play import engine_state, services
from games.play import state as selectors
from tests.games.factories import BotFactory, PlayerFactory
from tests.games.play.test_apis import _first_legal, people_table

pytestmark = pytest.mark.django_db


def uncached(table: Table, seat: int | None) -> dict[str, Any]:
    """The table's state built from its rows alone (this process's cache emptied first)."""
    state_cache.cache.forget()
    return selectors.table_state(table=Table.objects.get(pk=table.pk), seat=seat)


def assert_cache_serves_the_committed_state(table: Table, seats: tuple[int | None, ...]) -> None:
    """Read through the cache (as built before the change), then compare with a rebuild."""
    for seat in seats:
        cached = selectors.table_state(table=Table.objects.get(pk=table.pk), seat=seat)
        assert cached == uncached(table, seat)
    for seat in seats:  # and again, once the rebuilt state is the one cached
        assert selectors.table_state(table=table, seat=seat) == uncached(table, seat)


def act(table: Table, match: Match) -> None:
    """The next seat acts: a person their first legal action, a bot its own."""
    state = selectors.table_state(table=table, seat=None)
    seat = state["deal"]["awaiting"][0]
    if state["seats"][seat]["is_bot"]:
        assert services.bot_act(
            match_id=match.pk, number=state["deal_number"], seq=state["seq"], seat=seat
        )
        return
    body = _first_legal(selectors.table_state(table=table, seat=seat))
    services.seat_act(
        table=table, seat=seat, kind=body["action"], cards=body["cards"], seq=body["seq"]
    )


def test_every_kind_of_change_is_seen_through_the_cache() -> None:
    table, _users = people_table((0, 3))
    match = services.match_start(table=table, seed=5, deals_per_match=2, between_deals_seconds=5)
    seats = (0, 3, None)
    before = selectors.table_state(table=table, seat=0)
    assert_cache_serves_the_committed_state(table, seats)

    # an action of a person, then of a bot (the deal's log grows)
    for _ in range(2):
        act(table, match)
        assert_cache_serves_the_committed_state(table, seats)
    assert selectors.table_state(table=table, seat=0)["seq"] == before["seq"] + 2

    # the turn's deadline moves (a timer, the watchdog), behind the services' back
    Deal.objects.filter(match=match, number=1).update(
        turn_deadline=timezone.now() + timedelta(seconds=99)
    )
    assert_cache_serves_the_committed_state(table, seats)

    # the match row is saved (its turn time), and the table is renamed
    row = Match.objects.get(pk=match.pk)
    row.turn_seconds = 45
    row.save()
    Table.objects.filter(pk=table.pk).update(name="改名的桌")
    assert_cache_serves_the_committed_state(table, seats)
    assert selectors.table_state(table=table)["table"]["name"] == "改名的桌"

    # the deal ends (points, figures, the ladder), then the next deal is dealt
    for _ in range(400):
        state = selectors.table_state(table=table, seat=None)
        if state["deal"]["phase"] == "over":
            break
        act(table, match)
    assert_cache_serves_the_committed_state(table, seats)
    assert len(selectors.table_state(table=table)["match"]["ladder"]) == 2
    assert services.deal_start(match_id=match.pk, number=2)
    assert_cache_serves_the_committed_state(table, seats)
    assert selectors.table_state(table=table)["deal_number"] == 2

    # a seat escapes: the match ends
    services.seat_escape(table=table, seat=3)
    assert_cache_serves_the_committed_state(table, seats)
    assert selectors.table_state(table=table)["match"]["status"] == Match.Status.FINISHED

    # the seats change between matches: the next match shows its own players
    newcomer = PlayerFactory(name="新来的")
    TableSeat.objects.filter(table=table, seat=1).update(player=newcomer)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.OPEN)
    services.match_start(table=Table.objects.get(pk=table.pk), seed=6)
    assert_cache_serves_the_committed_state(table, seats)
    assert selectors.table_state(table=table)["seats"][1]["player"] == "新来的"


def test_two_matches_that_got_the_same_row_id_never_share_an_entry() -> None:
    first_table, _users = people_table((0,))
    second_table, _users = people_table((2,))
    TableSeat.objects.filter(table=second_table, seat=4).update(player=BotFactory(name="另一桌"))
    with transaction.atomic():  # a match whose rows are gone again (a test, a restored backup)
        first = services.match_start(table=first_table, seed=1)
        first_state = selectors.table_state(table=first_table, seat=0)
        first_deal = Deal.objects.get(match=first, number=1)
        engine_state.remember(first, first_deal, engine_state.engine_match(first, first_deal))
        transaction.set_rollback(True)
    if connection.vendor == "postgresql":  # a sequence is not rolled back: give the id again
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, false)",
                [Match._meta.db_table, first.pk],
            )
    for kind in (state_cache.ENGINE, state_cache.SEATS, state_cache.FIGURES, state_cache.PAGE):
        assert state_cache.cache.peek(kind, first.pk) is not None  # the first match's entries
    second = services.match_start(table=second_table, seed=2)
    assert second.pk == first.pk  # the same row id, another match
    second_deal = Deal.objects.get(match=second, number=1)
    engine = engine_state.engine_match(second, second_deal)
    assert engine.deal is not None
    hands = [engine.deal.hand(s) for s in range(6)]
    state = selectors.table_state(table=second_table, seat=2)
    assert state["match"]["id"] == first_state["match"]["id"]
    assert state["table"]["id"] == second_table.pk and state["seats"][4]["player"] == "另一桌"
    assert state == uncached(second_table, 2)
    engine_state.forget()
    rebuilt = engine_state.engine_match(second, second_deal).deal
    assert rebuilt is not None and hands == [rebuilt.hand(s) for s in range(6)]


def test_a_kind_serves_only_the_part_of_the_version_it_was_built_from() -> None:
    table, _users = people_table((0,))
    match = services.match_start(table=table, seed=5)
    deal = Deal.objects.get(match=match, number=1)
    version = state_cache.version_of(match, deal, table)
    cache = state_cache.StateCache()
    kinds = (state_cache.SEATS, state_cache.ENGINE, state_cache.FIGURES, state_cache.PAGE)
    for kind in kinds:
        cache.put(kind, match.pk, version, kind.name)
    assert version.updated is not None and version.deal_id is not None
    moved: dict[str, dict[str, Any]] = {
        "an action": {"seq": version.seq + 1},
        "a saved match row": {"updated": version.updated + timedelta(seconds=1)},
        "a new deal": {"deal": 2, "deal_id": version.deal_id + 1, "seq": 0},
        "a deadline": {"deadline": timezone.now()},
        "a renamed table": {"table": (table.pk, "别的", table.mode, table.status)},
        "a leaver": {"left": 3},
        "a finished match": {"status": Match.Status.FINISHED},
        "another match with the id": {"seed": version.seed + 1},
    }
    served = {
        change: {k.name for k in kinds if cache.get(k, match.pk, version._replace(**fields))}
        for change, fields in moved.items()
    }
    assert served == {
        "an action": {"seats", "figures"},
        "a saved match row": {"seats", "engine"},
        "a new deal": {"seats"},
        "a deadline": {"seats", "engine", "figures"},
        "a renamed table": {"seats", "engine", "figures"},
        "a leaver": {"seats", "figures"},
        "a finished match": {"seats", "figures"},
        "another match with the id": set(),
    }
    assert {k.name for k in kinds if cache.get(k, match.pk, version)} == {
        "seats",
        "engine",
        "figures",
        "page",
    }


def test_the_cache_is_bounded_and_drops_the_least_recently_used() -> None:
    small = state_cache.Kind("small", 3, attrgetter("real"))
    cache = state_cache.StateCache((small,))
    for owner in range(3):
        cache.put(small, owner, owner, f"v{owner}")
    assert cache.get(small, 0, 0) == "v0"  # used: now the most recent
    cache.put(small, 3, 3, "v3")
    assert cache.size(small) == 3
    assert cache.get(small, 1, 1) is None  # the least recently used went
    assert [cache.get(small, o, o) for o in (0, 2, 3)] == ["v0", "v2", "v3"]
    assert cache.get(small, 0, 1) is None  # another version of the owner: not served
    assert cache.take(small, 0) == (0, "v0") and cache.get(small, 0, 0) is None
    cache.put(small, 2, 5, "newer")
    cache.put(small, 2, 4, "older", unless=lambda held: held >= 4)
    assert cache.peek(small, 2) == (5, "newer")
    cache.forget(small, 2)
    assert cache.peek(small, 2) is None and cache.size(small) == 1
    cache.forget()
    assert cache.size(small) == 0
