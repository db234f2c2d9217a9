"""The pure individual Swiss: tables of four down the standings, no repeated tablemates while
avoidable, units apart, seats rotated, byes or bots for a field that does not divide."""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples
from tournaments.draw import players as pairing_individual
from tournaments.draw.players import (
    EXACT_MAX_PLAYERS,
    REPAIR_TABLES,
    Fill,
    IndividualDraw,
    PairingPlayer,
    individual_swiss,
)
from tournaments.draw.teams import PairingError


def test_doctests() -> None:
    assert doctest.testmod(pairing_individual).failed == 0


def _groups(draw: IndividualDraw) -> list[frozenset[int]]:
    return [frozenset(t.players) for t in draw.tables]


def _met_at_tables(groups: list[list[int]]) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for group in groups:
        for p in group:
            met.setdefault(p, set()).update(q for q in group if q != p)
    return met


def _counts(players: list[PairingPlayer], groups) -> tuple[int, int]:
    by_id = {p.id: p for p in players}
    repeats = same = 0
    for group in groups:
        for a, b in itertools.combinations(sorted(group), 2):
            pa, pb = by_id[a], by_id[b]
            repeats += b in pa.tablemates or a in pb.tablemates
            same += pa.unit is not None and pa.unit == pb.unit
    return repeats, same


def test_tables_go_down_the_standings() -> None:
    draw = individual_swiss([PairingPlayer(i) for i in range(1, 13)])
    assert [t.seats for t in draw.tables] == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]
    assert draw.byes == () and draw.bots == 0 and draw.repeats == 0


def test_last_rounds_tablemates_are_spread_when_the_field_is_large() -> None:
    # 40 players (beyond the exhaustive search) who all sat with their standing neighbours last
    # round: the tables in standing order would all repeat, the repaired ones repeat nothing.
    count = 40
    assert count > EXACT_MAX_PLAYERS
    met = _met_at_tables([list(range(k, k + 4)) for k in range(0, count, 4)])
    players = [PairingPlayer(p, tablemates=frozenset(met[p])) for p in range(count)]
    draw = individual_swiss(players)
    assert draw.repeats == 0 == _counts(players, _groups(draw))[0]
    assert sorted(p for g in _groups(draw) for p in g) == list(range(count))


def test_a_swiss_of_sixty_four_players_over_five_rounds_never_repeats_a_tablemate() -> None:
    rng = random.Random(2)
    ids = list(range(64))
    mates: dict[int, set[int]] = {p: set() for p in ids}
    score = dict.fromkeys(ids, 0)
    for _round in range(5):
        order = sorted(ids, key=lambda p: (-score[p], p))
        draw = individual_swiss([PairingPlayer(p, tablemates=frozenset(mates[p])) for p in order])
        assert draw.repeats == 0
        for table in draw.tables:
            for p in table.players:
                mates[p].update(q for q in table.players if q != p)
                score[p] += rng.randrange(4)


def test_players_of_one_unit_are_kept_apart() -> None:
    # standing order puts each unit together: every table would be one unit
    players = [PairingPlayer(p, unit=p // 4) for p in range(16)]
    draw = individual_swiss(players)
    assert draw.same_unit == 0
    assert all(len({p // 4 for p in t.players}) == 4 for t in draw.tables)
    large = [PairingPlayer(p, unit=p // 4) for p in range(80)]
    assert individual_swiss(large).same_unit == 0


def test_a_repeat_is_worse_than_a_same_unit_table() -> None:
    # units of two: only tables with one player of each unit keep units apart, and every such
    # grouping seats 0 with 2 or 3, whom 0 has met
    units = [1, 1, 2, 2, 3, 3, 4, 4]
    met = {0: {2, 3}, 2: {0}, 3: {0}}
    players = [
        PairingPlayer(p, unit=units[p], tablemates=frozenset(met.get(p, ()))) for p in range(8)
    ]
    draw = individual_swiss(players)
    assert draw.repeats == 0 and draw.same_unit == 2
    fresh = individual_swiss([PairingPlayer(p, unit=units[p]) for p in range(8)])
    assert fresh.same_unit == 0 and fresh.repeats == 0


def test_four_players_who_meet_four_rounds_sit_once_in_each_seat() -> None:
    seats: dict[int, list[int]] = {p: [] for p in range(1, 5)}
    for _round in range(4):
        draw = individual_swiss([PairingPlayer(p, seats=tuple(seats[p])) for p in range(1, 5)])
        for seat, p in enumerate(draw.tables[0].seats):
            assert p is not None
            seats[p].append(seat)
    assert all(sorted(s) == [0, 1, 2, 3] for s in seats.values())


def test_nobody_keeps_the_seat_they_always_had() -> None:
    players = [PairingPlayer(p, seats=(p - 1,) * 3) for p in range(1, 5)]
    seats = individual_swiss(players).tables[0].seats
    assert all(seats[p - 1] != p for p in range(1, 5))


def test_byes_go_to_the_lowest_placed_players_without_one() -> None:
    players = [PairingPlayer(p, byes=1 if p in (9, 10) else 0) for p in range(1, 11)]
    draw = individual_swiss(players, fill=Fill.BYES)
    assert draw.byes == (7, 8)
    assert sorted(p for g in _groups(draw) for p in g) == [1, 2, 3, 4, 5, 6, 9, 10]
    assert draw.bots == 0


def test_bots_fill_the_empty_seats_one_to_a_table_from_the_bottom() -> None:
    draw = individual_swiss([PairingPlayer(p) for p in range(1, 11)], fill=Fill.BOTS)
    assert draw.byes == () and draw.bots == 2
    assert [t.seats.count(None) for t in draw.tables] == [0, 1, 1]
    draw = individual_swiss([PairingPlayer(p) for p in range(1, 6)], fill=Fill.BOTS)
    assert draw.bots == 3 and sorted(t.seats.count(None) for t in draw.tables) == [1, 2]


def test_other_table_sizes() -> None:
    draw = individual_swiss([PairingPlayer(p) for p in range(7)], table_size=3)
    assert [len(t.seats) for t in draw.tables] == [3, 3] and len(draw.byes) == 1


def test_bad_fields_are_refused() -> None:
    with pytest.raises(PairingError, match="twice"):
        individual_swiss([PairingPlayer(1)] * 4)
    with pytest.raises(PairingError, match="at least 4 players"):
        individual_swiss([PairingPlayer(p) for p in range(3)])
    with pytest.raises(PairingError, match="at least 2 players"):
        individual_swiss([PairingPlayer(1)], fill=Fill.BOTS)
    with pytest.raises(PairingError, match="two seats"):
        individual_swiss([PairingPlayer(p) for p in range(4)], table_size=1)


def _random_field(seed: int, count: int, rounds: int, units: int) -> list[PairingPlayer]:
    rng = random.Random(seed)
    ids = list(range(count))
    mates: dict[int, set[int]] = {p: set() for p in ids}
    seats: dict[int, list[int]] = {p: [] for p in ids}
    for _round in range(rounds):
        rng.shuffle(ids)
        for k in range(0, count - count % 4, 4):
            table = ids[k : k + 4]
            for seat, p in enumerate(table):
                seats[p].append(seat)
                mates[p].update(q for q in table if q != p)
    rng.shuffle(ids)
    return [
        PairingPlayer(
            p,
            unit=rng.randrange(units),
            tablemates=frozenset(mates[p]),
            seats=tuple(seats[p]),
        )
        for p in ids
    ]


@pytest.mark.parametrize("fill", list(Fill))
def test_no_swap_within_reach_lowers_the_conflicts_of_a_large_field(fill: Fill) -> None:
    players = _random_field(4, 203, rounds=12, units=12)
    draw = individual_swiss(players, fill=fill)
    assert draw == individual_swiss(list(players), fill=fill)  # deterministic
    groups = [set(g) for g in _groups(draw)]
    assert (draw.repeats, draw.same_unit) == _counts(players, groups)
    for t, u in itertools.combinations(range(len(groups)), 2):
        if u - t > REPAIR_TABLES[-1]:
            continue
        before = _counts(players, [groups[t], groups[u]])
        for p, q in itertools.product(sorted(groups[t]), sorted(groups[u])):
            after = _counts(players, [groups[t] - {p} | {q}, groups[u] - {q} | {p}])
            assert not after < before, (p, q)
    # seats: no other way to seat a table puts its players fewer times in a seat they had
    by_id = {p.id: p for p in players}

    def sat_before(seats) -> int:
        return sum(Counter(by_id[p].seats)[s] for s, p in enumerate(seats) if p is not None)

    for table in draw.tables:
        assert sat_before(table.seats) == min(
            sat_before(other) for other in itertools.permutations(table.seats)
        )


def _brute_force(players: list[PairingPlayer], caps: list[int]) -> tuple[int, int]:
    """The least (repeats, same unit) over every way to seat ``players`` at tables of ``caps``."""
    best = None
    groups: list[list[int]] = [[] for _ in caps]

    def assign(i: int) -> None:
        nonlocal best
        if i == len(players):
            cost = _counts(players, groups)
            best = cost if best is None or cost < best else best
            return
        for t, cap in enumerate(caps):
            if len(groups[t]) < cap:
                groups[t].append(players[i].id)
                assign(i + 1)
                groups[t].pop()

    assign(0)
    assert best is not None
    return best


@st.composite
def _small_fields(draw_from) -> tuple[list[PairingPlayer], Fill]:
    fill = draw_from(st.sampled_from(list(Fill)))
    count = draw_from(st.integers(min_value=4 if fill == Fill.BYES else 2, max_value=10))
    pairs = list(itertools.combinations(range(count), 2))
    met_pairs = draw_from(st.lists(st.sampled_from(pairs), unique=True))
    met: dict[int, set[int]] = {p: set() for p in range(count)}
    for a, b in met_pairs:
        met[a].add(b)
        met[b].add(a)
    units = draw_from(st.lists(st.sampled_from([None, 1, 2]), min_size=count, max_size=count))
    byes = draw_from(st.lists(st.integers(0, 2), min_size=count, max_size=count))
    order = draw_from(st.permutations(range(count)))
    players = [
        PairingPlayer(p, unit=units[p], tablemates=frozenset(met[p]), byes=byes[p]) for p in order
    ]
    return players, fill


@settings(max_examples=examples(120), deadline=None)
@given(_small_fields())
def test_small_fields_have_the_least_conflicts_of_any_seating(field) -> None:
    players, fill = field
    draw = individual_swiss(players, fill=fill)
    place = {p.id: i for i, p in enumerate(players)}
    seated = [p for t in draw.tables for p in t.players]
    assert sorted(seated + list(draw.byes)) == sorted(place)  # everyone once
    assert all(len(t.seats) == 4 for t in draw.tables)
    if fill == Fill.BYES:
        assert draw.bots == 0 and len(draw.byes) == len(players) % 4
        by_id = {p.id: p for p in players}
        key = {p.id: (p.byes, -place[p.id]) for p in players}
        assert all(key[b] <= key[s] for b in draw.byes for s in seated)
        assert list(draw.byes) == sorted(draw.byes, key=place.__getitem__)
        pool = [by_id[p] for p in sorted(seated, key=place.__getitem__)]
    else:
        assert draw.byes == () and draw.bots == -len(players) % 4
        assert sum(t.seats.count(None) for t in draw.tables) == draw.bots
        if draw.bots <= len(draw.tables):
            assert all(t.seats.count(None) <= 1 for t in draw.tables)
        pool = players
    caps = [len(t.players) for t in draw.tables]
    assert (draw.repeats, draw.same_unit) == _brute_force(pool, caps)


def test_a_large_field_of_few_units_spreads_them_over_the_tables() -> None:
    # five units over 400 players at 100 tables: each table can take four different units
    rng = random.Random(3)
    players = [
        PairingPlayer(p, unit=rng.randrange(5), tablemates=frozenset(rng.sample(range(400), 20)))
        for p in range(400)
    ]
    draw = individual_swiss(players)
    assert (draw.repeats, draw.same_unit) == (0, 0) == _counts(players, _groups(draw))
    # one unit for everyone: every pair at every table, nothing to repair
    draw = individual_swiss([PairingPlayer(p, unit=7) for p in range(400)])
    assert draw.same_unit == 6 * 100
    assert [t.seats for t in draw.tables[:2]] == [(0, 1, 2, 3), (4, 5, 6, 7)]
