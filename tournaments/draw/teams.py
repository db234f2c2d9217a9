"""Pairing of teams for a round: Swiss, round robin, and the fair choice of who sits in seats 0/2/4.

Pure: plain dataclasses in, plain dataclasses out, no Django (after Tabbycat's draw generators).
tournaments/services.py reads the models, calls these functions, and writes the result.

>>> teams = [PairingTeam(id=i) for i in (1, 2, 3, 4, 5)]
>>> draw = swiss_pair(teams)
>>> [(t.team_a, t.team_b) for t in draw.tables], draw.bye
([(1, 2), (4, 3)], 5)
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import networkx as nx

__all__ = [
    "Draw",
    "PairingError",
    "PairingTeam",
    "PairedTable",
    "assign_sides",
    "round_robin_pair",
    "round_robin_rounds",
    "swiss_pair",
]

#: Fields up to this size are paired by one matching over every pair of teams: exact in every
#: criterion (rematches, same-unit tables, the bye's place, closeness in the standings).
EXACT_MAX_TEAMS = 64
#: Larger fields: teams this many places around each conflict (a pair of neighbours in the
#: standings who met before or share a unit) are re-paired by a matching, stage by stage.
WINDOWS = (1, 2, 8, 32, 128)
#: A stretch of up to this many places (the bye counted as one) is matched by trying every way
#: to pair it (dynamic programming): exact as the matching, and far quicker than building a graph.
ENUMERATE_MAX = 10
#: A stretch is cut at this many times the window, even where conflicts go on.
STRETCH_FACTOR = 8
#: A stretch of the standings up to this size gets a matching over all its pairs; a longer one
#: over the pairs of near neighbours and of each team's nearest good partners.
COMPLETE_SEGMENT_MAX = 16
#: How many near neighbours (and nearest good partners) each team gets in a long stretch; twice
#: as many partners it has not met are drawn from anywhere in the stretch.
NEIGHBOURS = 4


def gettext_noop(message: str) -> str:
    """Return ``message`` unchanged: marks it for makemessages while this module stays free of
    Django."""
    return message


class PairingError(ValueError):
    """The teams cannot be paired as asked (too few teams, every round-robin round played).

    ``str()`` is the English message; ``template`` (a msgid) and ``params`` let the caller show it
    in the user's language: ``gettext(error.template) % error.params``.
    """

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template % params)
        self.template = template
        self.params = params


@dataclass(frozen=True, slots=True)
class PairingTeam:
    """A team as pairing sees it, listed in standing order (best first).

    ``opponents``: teams it has met; ``byes``: how many byes it has had; ``side_a``: how many more
    times it sat in seats 0/2/4 than in 1/3/5 (negative: more often in 1/3/5).
    """

    id: int
    unit: int | None = None
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    side_a: int = 0


@dataclass(frozen=True, slots=True)
class PairedTable:
    """Two teams at a table: ``team_a`` takes seats 0/2/4, ``team_b`` seats 1/3/5."""

    team_a: int
    team_b: int


@dataclass(frozen=True, slots=True)
class Draw:
    """A round's tables (in table order) and the team with a bye, if any.

    ``rematches`` and ``same_unit`` count the pairs that could not be avoided.
    """

    tables: tuple[PairedTable, ...]
    bye: int | None = None
    rematches: int = 0
    same_unit: int = 0
    notes: tuple[str, ...] = field(default=())


def _rematch(a: PairingTeam, b: PairingTeam) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def _same_unit(a: PairingTeam, b: PairingTeam) -> bool:
    return a.unit is not None and a.unit == b.unit


def swiss_pair(teams: Sequence[PairingTeam], *, exact_max_teams: int = EXACT_MAX_TEAMS) -> Draw:
    """Return a Swiss draw of ``teams`` (given best first): neighbours in the standings meet.

    A maximum-weight matching (networkx) whose weights rank, in this order: the fewest rematches,
    the fewest tables of two teams of one unit, the bye for the lowest-placed team among those
    with the fewest byes (a higher one only when that avoids a rematch or a same-unit table), and
    teams placed nearest each other (the least sum of the differences in place, then of their
    squares, so that 1-3 and 2-4 beat 1-4 and 2-3). The counts of rematches and same-unit tables
    are the least possible at any size: fields up to ``EXACT_MAX_TEAMS`` are matched over every
    pair (exact in all four criteria); larger ones keep neighbours together and re-match the
    stretches around each conflict, and when the counts are not proved least (none, or the
    least a unit larger than half the field forces) widen the stretches, up to a matching over
    every pair; there the bye's place and the closeness are the best within each re-matched
    stretch. A field where one unit holds more than half the teams is first drawn by giving every
    other team a partner of that unit (the only draws with the least same-unit tables) and
    pairing the rest of that unit among themselves; that draw is kept when its counts are the
    least possible. ``exact_max_teams`` (tests) moves the size from which the stretches are
    used. Raises PairingError for fewer than two teams or a team listed twice.
    """
    if len({t.id for t in teams}) != len(teams):
        raise PairingError(gettext_noop("A team is listed twice."))
    if len(teams) < 2:
        raise PairingError(gettext_noop("A round needs at least two teams."))
    pool = list(teams)
    n = len(pool)
    bye_ranks: list[int] = []
    if n % 2:
        fewest = min(t.byes for t in pool)
        bye_ranks = [i for i, t in enumerate(pool) if t.byes == fewest]
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    if n > exact_max_teams:
        floor = _least_same_unit(pool, bye_ranks)
        found = _pair_around_majority(pool, bye_ranks) if floor else None
        if found is not None and _counts(pool, found[0]) == (0, floor):
            pairs, bye = found
        else:
            for window in WINDOWS:
                pairs, bye = _pair_by_stretches(pool, bye_ranks, window, NEIGHBOURS)
                if _counts(pool, pairs) == (0, floor):
                    break
            else:
                pairs, bye = _match(pool, 0, n, bye_ranks, None)
    else:
        pairs, bye = _match(pool, 0, n, bye_ranks, None)
    pairs.sort()
    rematches, same_unit = _counts(pool, pairs)
    tables = assign_sides([(pool[i], pool[j]) for i, j in pairs])
    return Draw(
        tables=tables,
        bye=None if bye is None else pool[bye].id,
        rematches=rematches,
        same_unit=same_unit,
    )


def _counts(pool: list[PairingTeam], pairs: list[tuple[int, int]]) -> tuple[int, int]:
    """Return (rematches, same-unit tables) of ``pairs`` of places in ``pool``."""
    rematches = sum(1 for i, j in pairs if _rematch(pool[i], pool[j]))
    same_unit = sum(1 for i, j in pairs if _same_unit(pool[i], pool[j]))
    return rematches, same_unit


def _least_same_unit(pool: list[PairingTeam], bye_ranks: list[int]) -> int:
    """Return a lower bound of the same-unit tables of any draw of ``pool``: a unit of more than
    half the paired teams meets itself at least that excess over half of them."""
    sizes = Counter(t.unit for t in pool if t.unit is not None)
    if not sizes:
        return 0
    unit, size = max(sizes.items(), key=lambda item: item[1])
    paired = len(pool) - len(pool) % 2
    if len(pool) % 2 and any(pool[i].unit == unit for i in bye_ranks):
        size -= 1
    return max(0, size - paired // 2)


def _pair_around_majority(
    pool: list[PairingTeam], bye_ranks: list[int]
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Return a draw (pairs of places, the bye's place) of a field where one unit holds more than
    half the paired teams, or None when it is not one or the draw meets a rematch.

    Such a draw has the least same-unit tables exactly when every team of another unit sits with
    a team of the big unit: the bye goes to the lowest-placed candidate of the big unit (if one
    is a candidate, which saves a same-unit table), each other team, from the top, takes the
    nearest free team of the big unit it has not met, and the big unit's teams left over pair
    off down the standings, their rematches repaired as in :func:`swiss_pair` (as if of no unit).
    """
    sizes = Counter(t.unit for t in pool if t.unit is not None)
    if not sizes:
        return None
    big = max(sizes.items(), key=lambda item: item[1])[0]
    bye: int | None = None
    if bye_ranks:
        in_big = [r for r in bye_ranks if pool[r].unit == big]
        bye = in_big[-1] if in_big else bye_ranks[-1]
    free = [i for i, t in enumerate(pool) if t.unit == big and i != bye]
    others = [i for i, t in enumerate(pool) if t.unit != big and i != bye]
    if len(free) <= len(others):
        return None
    pairs: list[tuple[int, int]] = []
    for i in others:
        at = bisect.bisect_left(free, i)
        below, above = at, at - 1
        chosen = -1
        while below < len(free) or above >= 0:
            # The nearer of the next free teams below and above (the one above on a tie).
            if above >= 0 and (below >= len(free) or i - free[above] <= free[below] - i):
                j, above = free[above], above - 1
            else:
                j, below = free[below], below + 1
            if not _rematch(pool[i], pool[j]):
                chosen = j
                break
        if chosen < 0:
            return None
        free.remove(chosen)
        pairs.append((min(i, chosen), max(i, chosen)))
    rest = [replace(pool[i], unit=None) for i in free]
    if len(rest) > EXACT_MAX_TEAMS:
        rest_pairs: list[tuple[int, int]] = []
        for window in WINDOWS:
            rest_pairs, _bye = _pair_by_stretches(rest, [], window, NEIGHBOURS)
            if _counts(rest, rest_pairs)[0] == 0:
                break
    else:
        rest_pairs, _bye = _match(rest, 0, len(rest), [], None)
    pairs += [(free[i], free[j]) for i, j in rest_pairs]
    return pairs, bye


def _pair_by_stretches(
    pool: list[PairingTeam], bye_ranks: list[int], window: int, neighbours: int
) -> tuple[list[tuple[int, int]], int | None]:
    """Return pairs of places (and the bye's place): neighbours pair off two by two, except in
    the stretches of ``window`` places around each conflict (and around the lowest bye
    candidate), each of which (cut every ``STRETCH_FACTOR * window`` places) is re-paired by a
    matching of its own (over the pairs of ``neighbours`` near and good partners, see
    :func:`_near_edges`, when it is longer than ``COMPLETE_SEGMENT_MAX``)."""
    n = len(pool)
    marks = [0] * (n + 1)
    for i in range(n - 1):
        a, b = pool[i], pool[i + 1]
        if _rematch(a, b) or _same_unit(a, b):
            marks[max(0, i - window)] += 1
            marks[min(n, i + 2 + window)] -= 1
    default_bye = bye_ranks[-1] if bye_ranks else -1
    if default_bye >= 0:
        marks[max(0, default_bye - window)] += 1
        marks[min(n, default_bye + 1 + window)] -= 1
    marked = list(itertools.accumulate(marks[:n]))
    longest = STRETCH_FACTOR * window
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    i = 0
    while i < n:
        if not marked[i] and i + 1 < n and not marked[i + 1]:
            pairs.append((i, i + 1))
            i += 2
            continue
        j = i + 1
        while j < n:
            real = j - i - (1 if i <= default_bye < j else 0)
            if real % 2 == 0 and (
                j - i >= longest or (j + 1 < n and not marked[j] and not marked[j + 1])
            ):
                break
            j += 1
        candidates = [r for r in bye_ranks if i <= r < j] if i <= default_bye < j else []
        sparse = neighbours if j - i > COMPLETE_SEGMENT_MAX else None
        found, found_bye = _match(pool, i, j, candidates, sparse)
        pairs += found
        if found_bye is not None:
            bye = found_bye
        i = j
    return pairs, bye


def _match(
    pool: list[PairingTeam], lo: int, hi: int, bye_ranks: Sequence[int], neighbours: int | None
) -> tuple[list[tuple[int, int]], int | None]:
    """Return the pairs of places (and the bye's place) of the places ``lo`` to ``hi`` that a
    maximum-weight matching finds, over every pair or (given ``neighbours``) over each team's
    near and good partners, then over every pair if those leave a team alone."""
    span = hi - lo
    # Each priority outweighs every lower one summed over a whole draw of ``span`` teams.
    unit_sq = 1
    unit_diff = span**3 + 1
    unit_bye = unit_diff * span * span
    unit_same = unit_bye * (span + 1)
    unit_rematch = unit_same * (span + 1)
    top = unit_rematch * (span + 1)

    def weight(i: int, j: int) -> int:
        a, b = pool[i], pool[j]
        cost = abs(i - j) * unit_diff + (i - j) ** 2 * unit_sq
        if _rematch(a, b):
            cost += unit_rematch
        if _same_unit(a, b):
            cost += unit_same
        return top - cost

    bye_weight = {r: top - place * unit_bye for place, r in enumerate(reversed(bye_ranks))}
    if span + (1 if bye_ranks else 0) <= ENUMERATE_MAX:
        return _match_by_trying(lo, hi, bye_weight, weight)
    graph = nx.Graph()
    graph.add_nodes_from(range(lo, hi))
    if neighbours is None:
        graph.add_weighted_edges_from(
            (i, j, weight(i, j)) for i in range(lo, hi) for j in range(i + 1, hi)
        )
    else:
        graph.add_weighted_edges_from(_near_edges(pool, lo, hi, neighbours, weight))
    bye_node = -1
    for r, w in bye_weight.items():
        graph.add_edge(bye_node, r, weight=w)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        if neighbours is not None:
            return _match(pool, lo, hi, bye_ranks, None)
        raise AssertionError("a complete graph of an even count has a perfect matching")
    pairs = []
    bye = None
    for u, v in matching:
        if bye_node in (u, v):
            bye = max(u, v)
        else:
            pairs.append((min(u, v), max(u, v)))
    return pairs, bye


def _match_by_trying(
    lo: int, hi: int, bye_weight: dict[int, int], weight: Callable[[int, int], int]
) -> tuple[list[tuple[int, int]], int | None]:
    """The matching of :func:`_match` for a few places: of every way to pair the places ``lo`` to
    ``hi`` (a team of ``bye_weight`` may take the bye, worth that weight), the heaviest (by
    dynamic programming over the sets of places still to pair, the first of them paired first)."""
    size = hi - lo
    w = [[weight(lo + i, lo + j) if i < j else 0 for j in range(size)] for i in range(size)]
    byes = [bye_weight.get(lo + i) for i in range(size)]
    memo: dict[tuple[int, bool], tuple[int, int, int] | None] = {}

    def best(left: int, bye_free: bool) -> int | None:
        """The heaviest pairing of the places in the bit set ``left``; None: there is none."""
        if not left:
            return 0
        key = (left, bye_free)
        if key in memo:
            found = memo[key]
            return None if found is None else found[0]
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        choice: tuple[int, int, int] | None = None
        bye = byes[first]
        if bye_free and bye is not None:
            after = best(rest, False)
            if after is not None:
                choice = (after + bye, first, -1)
        others = rest
        while others:
            other = (others & -others).bit_length() - 1
            others &= others - 1
            after = best(rest & ~(1 << other), bye_free)
            if after is not None and (choice is None or after + w[first][other] > choice[0]):
                choice = (after + w[first][other], first, other)
        memo[key] = choice
        return None if choice is None else choice[0]

    full = (1 << size) - 1
    total = best(full, bool(bye_weight))
    assert total is not None, "a stretch with a bye candidate for an odd count can be paired"
    pairs: list[tuple[int, int]] = []
    taken: int | None = None
    left, bye_free = full, bool(bye_weight)
    while left:
        found = memo[(left, bye_free)]
        assert found is not None
        _total, first, other = found
        if other < 0:
            taken, bye_free = lo + first, False
            left &= ~(1 << first)
        else:
            pairs.append((lo + first, lo + other))
            left &= ~((1 << first) | (1 << other))
    return pairs, taken


def _near_edges(
    pool: list[PairingTeam],
    lo: int,
    hi: int,
    neighbours: int,
    weight: Callable[[int, int], int],
) -> Iterator[tuple[int, int, int]]:
    """Yield the weighted pairs of each place with its ``neighbours`` next places, and with its
    ``neighbours`` nearest partners above and below that it has not met, as many of those that
    are not of its unit either, and up to ``2 * neighbours`` partners it has not met drawn
    anywhere in the stretch (deterministically)."""
    seen: set[tuple[int, int]] = set()
    rng = random.Random(hi * len(pool) + lo)
    for i in range(lo, hi):
        a = pool[i]
        for j in range(i + 1, min(hi, i + 1 + neighbours)):
            seen.add((i, j))
        for step, stop in ((1, hi), (-1, lo - 1)):
            new = good = 0
            for j in range(i + step, stop, step):
                b = pool[j]
                if _rematch(a, b):
                    continue
                pair = (min(i, j), max(i, j))
                if new < neighbours:
                    seen.add(pair)
                    new += 1
                if good < neighbours and not _same_unit(a, b):
                    seen.add(pair)
                    good += 1
                if new == neighbours and good == neighbours:
                    break
        # A few partners it has not met from anywhere in the stretch, drawn by a generator seeded
        # by the stretch: enough for a perfect matching without rematch where the nearest
        # partners of many teams are the same few (a random graph of this degree has one).
        for j in rng.sample(range(lo, hi), min(2 * neighbours, hi - lo)):
            if j != i and not _rematch(a, pool[j]):
                seen.add((min(i, j), max(i, j)))
    for i, j in sorted(seen):
        yield i, j, weight(i, j)


def assign_sides(pairs: Sequence[tuple[PairingTeam, PairingTeam]]) -> tuple[PairedTable, ...]:
    """Return the tables with sides chosen fairly: the team that sat in seats 0/2/4 less often gets
    them; on a tie the first of the pair (the better placed) gets them on odd tables, the second
    on even ones, so that seats alternate down the room.

    >>> assign_sides([(PairingTeam(1, side_a=1), PairingTeam(2))])
    (PairedTable(team_a=2, team_b=1),)
    """
    tables = []
    for number, (first, second) in enumerate(pairs, start=1):
        if first.side_a < second.side_a:
            a, b = first, second
        elif second.side_a < first.side_a:
            a, b = second, first
        else:
            a, b = (first, second) if number % 2 else (second, first)
        tables.append(PairedTable(team_a=a.id, team_b=b.id))
    return tuple(tables)


def round_robin_rounds(team_count: int) -> int:
    """Return how many rounds a round robin of ``team_count`` teams has.

    >>> round_robin_rounds(4), round_robin_rounds(5)
    (3, 5)
    """
    return team_count - 1 if team_count % 2 == 0 else team_count


def round_robin_pair(teams: Sequence[PairingTeam], *, round_number: int) -> Draw:
    """Return round ``round_number`` (1-based) of a round robin of ``teams`` by the circle method.

    The list order fixes the schedule, so pass the teams in a stable order (by id) every round.
    With an odd count one team sits out each round. Sides alternate as in :func:`assign_sides`.
    Raises PairingError for fewer than two teams or a round past the last.

    >>> [(t.team_a, t.team_b) for t in round_robin_pair([PairingTeam(i) for i in range(4)],
    ...                                                  round_number=1).tables]
    [(0, 3), (2, 1)]
    """
    if len(teams) < 2:
        raise PairingError(gettext_noop("A round needs at least two teams."))
    rounds = round_robin_rounds(len(teams))
    if not 1 <= round_number <= rounds:
        raise PairingError(
            gettext_noop(
                "A round robin of %(teams)d teams ends with round %(rounds)d; round %(round)d is "
                "past the last."
            ),
            teams=len(teams),
            rounds=rounds,
            round=round_number,
        )
    slots: list[PairingTeam | None] = list(teams)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    fixed, rest = slots[0], slots[1:]
    shift = (round_number - 1) % (n - 1)
    rotated = rest[-shift:] + rest[:-shift] if shift else rest
    order = [fixed, *rotated]
    pairs = []
    bye = None
    for i in range(n // 2):
        x, y = order[i], order[n - 1 - i]
        if x is None or y is None:
            bye = (y if x is None else x).id  # type: ignore[union-attr]
            continue
        pairs.append((x, y))
    return Draw(tables=assign_sides(pairs), bye=bye)
