"""Pairing of teams for a round: Swiss, round robin, and the fair choice of who sits in seats 0/2/4.

Pure: plain dataclasses in, plain dataclasses out, no Django (after Tabbycat's draw generators).
tournaments/services.py reads the models, calls these functions, and writes the result.

>>> teams = [PairingTeam(id=i) for i in (1, 2, 3, 4, 5)]
>>> draw = swiss_pair(teams)
>>> [(t.team_a, t.team_b) for t in draw.tables], draw.bye
([(1, 2), (4, 3)], 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

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

#: Costs of a pair of teams: a rematch is avoided first, then two teams of one unit, then distance
#: in the standings (one per place).
REMATCH_COST = 1_000_000
SAME_UNIT_COST = 10_000
#: How many of the lowest-placed teams (with the fewest byes) may take an odd round's bye.
BYE_CANDIDATES = 4
#: Events up to this size get an exhaustive (bounded) search when the repair leaves a rematch.
SEARCH_MAX_TEAMS = 40


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


def _cost(a: PairingTeam, b: PairingTeam, place: dict[int, int]) -> int:
    cost = abs(place[a.id] - place[b.id])
    if b.id in a.opponents or a.id in b.opponents:
        cost += REMATCH_COST
    if a.unit is not None and a.unit == b.unit:
        cost += SAME_UNIT_COST
    return cost


def swiss_pair(
    teams: Sequence[PairingTeam], *, max_passes: int = 4, max_distance: int = 60
) -> Draw:
    """Return a Swiss draw of ``teams`` (given best first): neighbours in the standings meet.

    A rematch is avoided whenever possible, then two teams of one unit; within that, teams meet
    those placed nearest to them. With an odd count the lowest-placed team with the fewest byes
    sits out (or one of the next few such teams, when that avoids a rematch or a same-unit
    table). Greedy from the top, then repaired by swapping partners between two tables (up to
    ``max_distance`` tables apart, nearest first) while that avoids a rematch or a same-unit pair.
    Raises PairingError for fewer than two teams or a team listed twice.
    """
    if len({t.id for t in teams}) != len(teams):
        raise PairingError(gettext_noop("A team is listed twice."))
    if len(teams) < 2:
        raise PairingError(gettext_noop("A round needs at least two teams."))
    if len(teams) % 2 == 0:
        return _pair_even(list(teams), max_passes=max_passes, max_distance=max_distance)
    # The bye goes to the lowest-placed team with the fewest byes, unless giving it to one of the
    # next few such teams up lets the rest avoid a rematch or a same-unit table.
    fewest = min(t.byes for t in teams)
    candidates = [t for t in reversed(teams) if t.byes == fewest][:BYE_CANDIDATES]
    best: Draw | None = None
    for candidate in candidates:
        draw = _pair_even(
            [t for t in teams if t is not candidate],
            max_passes=max_passes,
            max_distance=max_distance,
        )
        draw = replace(draw, bye=candidate.id)
        if best is None or (draw.rematches, draw.same_unit) < (best.rematches, best.same_unit):
            best = draw
        if not draw.rematches and not draw.same_unit:
            break
    assert best is not None
    return best


def _pair_even(pool: list[PairingTeam], *, max_passes: int, max_distance: int) -> Draw:
    """Pair an even number of teams (given best first); see :func:`swiss_pair`."""
    bye: int | None = None
    place = {t.id: i for i, t in enumerate(pool)}

    # Greedy: the best unpaired team takes the nearest partner of lowest cost within a window.
    window = 12
    unpaired = list(pool)
    pairs: list[list[PairingTeam]] = []
    while unpaired:
        top = unpaired.pop(0)
        best_i = 0
        best = _cost(top, unpaired[0], place)
        for i in range(1, min(window, len(unpaired))):
            if best < SAME_UNIT_COST:
                break
            c = _cost(top, unpaired[i], place)
            if c < best:
                best, best_i = c, i
        pairs.append([top, unpaired.pop(best_i)])

    # Repair: for each costly pair, swap partners with the nearest table where that helps.
    costs = [_cost(a, b, place) for a, b in pairs]
    for _ in range(max_passes):
        improved = False
        for i in range(len(pairs)):
            if costs[i] < SAME_UNIT_COST:
                continue
            for distance in range(1, min(len(pairs), max_distance + 1)):
                done = False
                for j in (i - distance, i + distance):
                    if not 0 <= j < len(pairs):
                        continue
                    (a, b), (c, d) = pairs[i], pairs[j]
                    for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
                        new = _cost(*first, place) + _cost(*second, place)
                        if new < costs[i] + costs[j] and (new // SAME_UNIT_COST) < (
                            (costs[i] + costs[j]) // SAME_UNIT_COST
                        ):
                            pairs[i], pairs[j] = list(first), list(second)
                            costs[i], costs[j] = _cost(*first, place), _cost(*second, place)
                            improved = done = True
                            break
                    if done:
                        break
                if done:
                    break
        if not improved:
            break

    if len(pool) <= SEARCH_MAX_TEAMS and any(c >= REMATCH_COST for c in costs):
        found = _search_without_rematch(pool, place)
        if found is not None:
            pairs = found
    pairs.sort(key=lambda pair: min(place[pair[0].id], place[pair[1].id]))
    rematches = sum(1 for a, b in pairs if b.id in a.opponents or a.id in b.opponents)
    same_unit = sum(1 for a, b in pairs if a.unit is not None and a.unit == b.unit)
    tables = assign_sides([(a, b) for a, b in pairs])
    return Draw(tables=tables, bye=bye, rematches=rematches, same_unit=same_unit)


def _search_without_rematch(
    pool: list[PairingTeam], place: dict[int, int], *, budget: int = 20_000
) -> list[list[PairingTeam]] | None:
    """Return a pairing of ``pool`` without a rematch, found depth-first (the best placed team
    first, its cheapest partners first), or None when there is none within ``budget`` steps. The
    local repair of :func:`swiss_pair` can miss one late in a small event; this does not."""
    steps = 0

    def solve(rest: list[PairingTeam]) -> list[list[PairingTeam]] | None:
        nonlocal steps
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        candidates = sorted(
            (o for o in others if o.id not in top.opponents and top.id not in o.opponents),
            key=lambda o: _cost(top, o, place),
        )
        for partner in candidates:
            steps += 1
            if steps > budget:
                return None
            tail = solve([o for o in others if o is not partner])
            if tail is not None:
                return [[top, partner], *tail]
        return None

    return solve(list(pool))


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
