"""Individual Swiss: each player for themselves, at tables of the game's size (four for 小路子
and 上海斗地主).

Pure: plain dataclasses in, plain dataclasses out, no Django (after Tabbycat's draw generators).
Players are given best first; the tables go down the standings. Tablemates are kept apart when
they have met before, then players of one unit; seats rotate by each player's seat history; a
field that does not divide into tables gets byes or bots, as the caller chooses.

>>> draw = individual_swiss([PairingPlayer(i) for i in range(1, 10)], fill=Fill.BYES)
>>> [table.seats for table in draw.tables], draw.byes
([(1, 2, 3, 4), (5, 6, 7, 8)], (9,))
>>> individual_swiss([PairingPlayer(i) for i in range(1, 7)], fill=Fill.BOTS).tables
(SeatedTable(seats=(1, 2, 3, None)), SeatedTable(seats=(4, 5, 6, None)))
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.draw.teams import PairingError, gettext_noop

__all__ = [
    "EXACT_MAX_PLAYERS",
    "REPAIR_TABLES",
    "Fill",
    "PairingError",
    "IndividualDraw",
    "PairingPlayer",
    "SeatedTable",
    "individual_swiss",
]

#: Fields up to this many seated players are grouped by an exhaustive search: the least repeated
#: tablemates, then the least same-unit tablemates, then the least moves from standing order.
EXACT_MAX_PLAYERS = 12
#: Larger fields: a player may swap with a player of a table up to this many tables away; first
#: the nearer reach until no swap helps, then the farther.
REPAIR_TABLES = (4, 32)


class Fill(StrEnum):
    """What to do with the players left over when the field does not divide into tables."""

    BYES = "byes"  #: the lowest-placed players with the fewest byes sit out
    BOTS = "bots"  #: bots take the empty seats, one to a table from the bottom up


@dataclass(frozen=True, slots=True)
class PairingPlayer:
    """A player as pairing sees them, listed in standing order (best first).

    ``tablemates``: players they have sat with; ``byes``: how many byes they have had; ``seats``:
    the seats (0 to the table's size - 1) they took in earlier rounds, in order.
    """

    id: int
    unit: int | None = None
    tablemates: frozenset[int] = frozenset()
    byes: int = 0
    seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """A table: the player in each seat from seat 0, None where a bot sits."""

    seats: tuple[int | None, ...]

    @property
    def players(self) -> tuple[int, ...]:
        """Return the players at the table (no bots), in seat order."""
        return tuple(p for p in self.seats if p is not None)


@dataclass(frozen=True, slots=True)
class IndividualDraw:
    """A round's tables (in table order), the players with a bye (best first), and how many
    pairs of tablemates have met before (``repeats``) or share a unit (``same_unit``)."""

    tables: tuple[SeatedTable, ...]
    byes: tuple[int, ...] = ()
    bots: int = 0
    repeats: int = 0
    same_unit: int = 0


def individual_swiss(
    players: Sequence[PairingPlayer], *, table_size: int = 4, fill: Fill = Fill.BYES
) -> IndividualDraw:
    """Return a Swiss round of ``players`` (given best first) at tables of ``table_size``.

    Players fill the tables down the standings. Tablemates who have met before are kept apart
    whenever a grouping allows it, then players of one unit; within that, players stay as near
    their place as they can. Up to ``EXACT_MAX_PLAYERS`` seated players this is exact (an
    exhaustive search). Above, the tables in standing order are repaired by swapping two players
    of tables up to 4 and then up to 32 apart (``REPAIR_TABLES``), nearest first, while a swap
    lowers the repeated tablemates (or, as many, the same-unit ones): at the end no swap of
    tables up to 32 apart lowers them (or the draw has no repeat and the fewest same-unit pairs
    that spreading each unit evenly allows).

    Each table's seats go to its players so that they sit the fewest times in a seat they have
    sat in before, then the fewest in the seat of their last round: four players who meet four
    rounds running sit once in each seat.

    With ``fill`` BYES the players left over (the field's count modulo ``table_size``) sit out:
    those with the fewest byes, the lowest-placed first. With BOTS, bots fill the empty seats,
    at most one to a table from the last table up while there are tables enough.

    Raises PairingError for a player listed twice, a table size below two, or too few players.
    """
    if table_size < 2:
        raise PairingError(gettext_noop("A table needs at least two seats."))
    if len({p.id for p in players}) != len(players):
        raise PairingError(gettext_noop("A player is listed twice."))
    needed = table_size if fill == Fill.BYES else 2
    if len(players) < needed:
        raise PairingError(gettext_noop("A round needs at least %(count)d players."), count=needed)
    byes: tuple[int, ...] = ()
    seated = list(players)
    if fill == Fill.BYES:
        left = len(players) % table_size
        if left:
            place = {p.id: i for i, p in enumerate(players)}
            out = sorted(players, key=lambda p: (p.byes, -place[p.id]))[:left]
            byes = tuple(sorted((p.id for p in out), key=place.__getitem__))
            seated = [p for p in players if p.id not in byes]
    tables = -(-len(seated) // table_size)
    bots = tables * table_size - len(seated)
    caps = [table_size] * tables
    for k in range(bots):
        caps[tables - 1 - k % tables] -= 1

    exact = len(seated) <= EXACT_MAX_PLAYERS
    groups = _exact(seated, caps) if exact else _repaired(seated, caps)
    repeats = same_unit = 0
    for group in groups:
        for i, j in itertools.combinations(group, 2):
            r, s = _conflict(seated[i], seated[j])
            repeats += r
            same_unit += s
    return IndividualDraw(
        tables=tuple(_seat([seated[i] for i in group], table_size) for group in groups),
        byes=byes,
        bots=bots,
        repeats=repeats,
        same_unit=same_unit,
    )


def _conflict(a: PairingPlayer, b: PairingPlayer) -> tuple[int, int]:
    """Return (1 if they met before, 1 if they share a unit) for two players."""
    return (
        int(b.id in a.tablemates or a.id in b.tablemates),
        int(a.unit is not None and a.unit == b.unit),
    )


def _blocks(caps: list[int]) -> list[int]:
    """Return the table of each place when the tables take the players in standing order."""
    return [t for t, cap in enumerate(caps) for _ in range(cap)]


def _exact(seated: list[PairingPlayer], caps: list[int]) -> list[list[int]]:
    """Return the groups of places (per table) of least (repeats, same unit, moves), where moves
    sum how many tables each player sits from their table in standing order; found depth-first
    (each player in standing order to a table, nearest first), pruned by the best so far."""
    block = _blocks(caps)
    groups: list[list[int]] = [[] for _ in caps]
    best: tuple[tuple[int, int, int], list[list[int]]] | None = None

    def place(i: int, cost: tuple[int, int, int]) -> None:
        nonlocal best
        if best is not None and cost >= best[0]:
            return
        if i == len(seated):
            best = (cost, [list(g) for g in groups])
            return
        for t in sorted(range(len(caps)), key=lambda t: (abs(t - block[i]), t)):
            if len(groups[t]) == caps[t]:
                continue
            r = s = 0
            for j in groups[t]:
                dr, ds = _conflict(seated[i], seated[j])
                r += dr
                s += ds
            groups[t].append(i)
            place(i + 1, (cost[0] + r, cost[1] + s, cost[2] + abs(t - block[i])))
            groups[t].pop()

    place(0, (0, 0, 0))
    assert best is not None
    return sorted(best[1], key=min)


def _repaired(seated: list[PairingPlayer], caps: list[int]) -> list[list[int]]:
    """Return the tables in standing order, repaired by swaps (see :func:`individual_swiss`)."""
    block = _blocks(caps)
    groups: list[list[int]] = [[] for _ in caps]
    for i, t in enumerate(block):
        groups[t].append(i)
    index = {p.id: i for i, p in enumerate(seated)}
    # Who met whom, both ways, by place; units by place (None: no unit, never a conflict).
    met: list[set[int]] = [set() for _ in seated]
    for i, player in enumerate(seated):
        for other in player.tablemates:
            j = index.get(other)
            if j is not None and j != i:
                met[i].add(j)
                met[j].add(i)
    unit = [p.unit for p in seated]
    units = [Counter(unit[i] for i in group if unit[i] is not None) for group in groups]

    def repeats(i: int, group: list[int], without: int) -> int:
        return sum(1 for j in group if j != without and j in met[i])

    def same(i: int, table: int, without: int) -> int:
        if unit[i] is None:
            return 0
        # ``i`` sits at ``table`` (then ``without`` is ``i``) or would take the seat of ``without``
        return units[table][unit[i]] - (unit[without] == unit[i])

    # (repeats, same unit) of the whole draw: each pair counted from both sides
    total = [
        sum(repeats(p, group, p) for group in groups for p in group) // 2,
        sum(same(p, t, p) for t, group in enumerate(groups) for p in group) // 2,
    ]
    floor = _least_same_unit(unit, caps)

    def swap_for(
        p: int, t: int, here: tuple[int, int], reach: int
    ) -> tuple[int, int, int, int] | None:
        """(table, player, change of repeats, of same unit) of the nearest helpful swap."""
        for distance in range(1, reach + 1):
            for u in (t + distance, t - distance):
                if not 0 <= u < len(groups):
                    continue
                for q in sorted(groups[u], key=lambda q: abs(q - p)):
                    # the units of p and q in the other's table, minus what they leave
                    d_same = same(p, u, q) + same(q, t, p) - here[1] - same(q, u, q)
                    r_q = repeats(q, groups[u], q)
                    if here[0] + r_q == 0 and d_same >= 0:
                        continue  # no repeat to lose, no unit to gain
                    d_rep = repeats(p, groups[u], q) + repeats(q, groups[t], p) - here[0] - r_q
                    if (d_rep, d_same) < (0, 0):
                        return u, q, d_rep, d_same
        return None

    for reach in REPAIR_TABLES:
        improved = True
        while improved:
            improved = False
            for t in range(len(groups)):
                for p in list(groups[t]):
                    if p not in groups[t]:
                        continue
                    here = (repeats(p, groups[t], p), same(p, t, p))
                    if here == (0, 0):
                        continue
                    if total == [0, floor]:  # nothing left that can be lowered
                        return _sorted(groups)
                    found = swap_for(p, t, here, reach)
                    if found is None:
                        continue
                    u, q, d_rep, d_same = found
                    groups[t][groups[t].index(p)] = q
                    groups[u][groups[u].index(q)] = p
                    for table, gone, come in ((t, p, q), (u, q, p)):
                        if unit[gone] is not None:
                            units[table][unit[gone]] -= 1
                        if unit[come] is not None:
                            units[table][unit[come]] += 1
                    total[0] += d_rep
                    total[1] += d_same
                    improved = True
    return _sorted(groups)


def _sorted(groups: list[list[int]]) -> list[list[int]]:
    for group in groups:
        group.sort()
    return groups


def _least_same_unit(unit: list[int | None], caps: list[int]) -> int:
    """Return a lower bound of the pairs of tablemates of one unit: each unit spread as evenly
    as the tables allow."""
    tables = len(caps)
    least = 0
    for count in Counter(u for u in unit if u is not None).values():
        each, more = divmod(count, tables)
        least += more * (each + 1) * each // 2 + (tables - more) * each * (each - 1) // 2
    return least


def _seat(group: list[PairingPlayer], table_size: int) -> SeatedTable:
    """Return the table with seats given so that its players sit the fewest times in a seat
    they took before, then the fewest in their last round's seat (bots take the rest)."""
    counts = [Counter(p.seats) for p in group]
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for seats in itertools.permutations(range(table_size), len(group)):
        cost = (
            sum(c[s] for c, s in zip(counts, seats, strict=True)),
            sum(1 for p, s in zip(group, seats, strict=True) if p.seats and p.seats[-1] == s),
        )
        if best is None or cost < best[0]:
            best = (cost, seats)
    assert best is not None
    row: list[int | None] = [None] * table_size
    for player, s in zip(group, best[1], strict=True):
        row[s] = player.id
    return SeatedTable(seats=tuple(row))
