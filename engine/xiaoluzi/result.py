"""Settling a deal of 小路子: points and silver from the mode, the finish and what was played.

Contract: ``docs/xiaoluzi.md``, sections *Scoring*, *Slams*, *Silver* and *Timeouts and escapes*.
Every seat gets a multiplier m and wins m·X points and m·Y silver (X the base score, Y the base
silver). Everything here is a pure function.

>>> r = deal_result(Mode.DECLARED, [2], [0, 0, 8, 0], declarer=2)
>>> r.multipliers, r.slam
((-2, -2, 6, -2), True)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import CannotEscapeError, InvalidFinishError
from engine.xiaoluzi.actions import SEATS

__all__ = [
    "CannotEscapeError",
    "DealResult",
    "EscapeResult",
    "InvalidFinishError",
    "Mode",
    "deal_result",
    "declaration_made",
    "escape_result",
    "leave_result",
    "roles",
    "slam_winners",
]

#: Cards in a hand.
HAND_SIZE = 8


class Mode(enum.Enum):
    """How a deal is played: all for places, one against three, or one against one."""

    NONE = "none"  # 普通模式
    DECLARED = "declared"  # 一打三
    COUNTERED = "countered"  # 一对一

    @property
    def chinese(self) -> str:
        """The mode's Chinese name."""
        return {"none": "普通模式", "declared": "一打三", "countered": "一对一"}[self.value]


def _seat(value: int | None, what: str) -> int:
    if value is None:
        raise InvalidFinishError.of("xiaoluzi.seat_needed", field=what)
    if value not in SEATS:
        raise InvalidFinishError.of("xiaoluzi.not_a_seat", field=what, value=value)
    return value


def roles(mode: Mode, declarer: int | None, counter: int | None) -> tuple[int, ...]:
    """Check the roles of ``mode`` and return the bystanders (旁观), which only mode countered has.

    Raises :class:`InvalidFinishError` for a missing, extra or repeated role.
    """
    if mode is Mode.NONE:
        if declarer is not None or counter is not None:
            raise InvalidFinishError.of("xiaoluzi.none_no_roles")
        return ()
    d = _seat(declarer, "declarer")
    if mode is Mode.DECLARED:
        if counter is not None:
            raise InvalidFinishError.of("xiaoluzi.declared_no_counter")
        return ()
    c = _seat(counter, "counter-declarer")
    if c == d:
        raise InvalidFinishError.of("xiaoluzi.declare_and_counter", seat=d)
    return tuple(s for s in SEATS if s not in (d, c))


def _finish(finish: Sequence[int]) -> tuple[int, ...]:
    for s in finish:
        _seat(s, "finish")
    if len(set(finish)) != len(finish):
        raise InvalidFinishError.of("xiaoluzi.finish_twice", finish=list(finish))
    return tuple(finish)


@dataclass(frozen=True, slots=True)
class DealResult:
    """A deal played to its end: the roles, the finish, what each seat played (cards, or plays
    with ``slam_count="plays"``), whether it was a slam, and both ledgers."""

    mode: Mode
    declarer: int | None
    counter: int | None
    finish: tuple[int, ...]
    played: tuple[int, ...]
    slam: bool
    multipliers: tuple[int, ...]
    points: tuple[int, ...]
    silver: tuple[int, ...]

    @property
    def winner(self) -> int:
        """The seat that went out first (the first place, or the winning side's player)."""
        return self.finish[0]

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object."""
        return {
            "kind": "deal",
            "mode": self.mode.value,
            "declarer": self.declarer,
            "counter": self.counter,
            "finish": list(self.finish),
            "played": list(self.played),
            "slam": self.slam,
            "multipliers": list(self.multipliers),
            "points": list(self.points),
            "silver": list(self.silver),
        }


@dataclass(frozen=True, slots=True)
class EscapeResult:
    """An escape during a deal (``kind`` "escape") or leaving between deals ("leave")."""

    kind: str
    seat: int
    mode: Mode | None
    declarer: int | None
    counter: int | None
    finish: tuple[int, ...]
    multipliers: tuple[int, ...]
    points: tuple[int, ...]
    silver: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object."""
        return {
            "kind": self.kind,
            "seat": self.seat,
            "mode": None if self.mode is None else self.mode.value,
            "declarer": self.declarer,
            "counter": self.counter,
            "finish": list(self.finish),
            "multipliers": list(self.multipliers),
            "points": list(self.points),
            "silver": list(self.silver),
        }


def deal_result(
    mode: Mode,
    finish: Sequence[int],
    played: Sequence[int],
    *,
    declarer: int | None = None,
    counter: int | None = None,
    base_score: int = 1,
    base_silver: int = 1,
    slam_count: str = "cards",
) -> DealResult:
    """Settle a deal that ended: ``finish`` the seats in the order they went out until it ended
    (three in mode none, the fourth may follow; one otherwise), ``played`` what each seat played
    by then (cards, or plays when ``slam_count`` is ``"plays"``).

    Raises :class:`InvalidFinishError` for roles, a finish or counts no deal can have.

    >>> deal_result(Mode.NONE, [3, 1, 0], [8, 8, 5, 8], base_score=2, base_silver=5).silver
    (-5, 5, -10, 10)
    """
    bystanders = roles(mode, declarer, counter)
    out = _finish(finish)
    if len(played) != 4 or any(not isinstance(n, int) or n < 0 for n in played):
        raise InvalidFinishError.of("xiaoluzi.played_counts", played=list(played))
    if any(n > HAND_SIZE for n in played):
        raise InvalidFinishError.of("xiaoluzi.played_hand", hand=HAND_SIZE, played=list(played))
    if mode is Mode.NONE:
        if len(out) == 4:
            out = out[:3]
        if len(out) != 3:
            raise InvalidFinishError.of("xiaoluzi.none_ends_third", finish=list(finish))
    elif len(out) != 1:
        raise InvalidFinishError.of(
            "xiaoluzi.mode_ends_first", mode=mode.value, finish=list(finish)
        )
    if mode is Mode.COUNTERED and out[0] not in (declarer, counter):
        raise InvalidFinishError.of("xiaoluzi.bystander_out", seat=out[0])
    for s in SEATS:
        if s in bystanders and played[s]:
            raise InvalidFinishError.of("xiaoluzi.bystander_plays", seat=s)
        if slam_count == "cards":
            if s in out and played[s] != HAND_SIZE:
                raise InvalidFinishError.of("xiaoluzi.out_played_all", seat=s, hand=HAND_SIZE)
            if s not in out and played[s] == HAND_SIZE:
                raise InvalidFinishError.of("xiaoluzi.played_all_out", seat=s, hand=HAND_SIZE)
        elif s in out and played[s] == 0:
            raise InvalidFinishError.of("xiaoluzi.out_played", seat=s)
    first = out[0]
    m = [0, 0, 0, 0]
    slam = False
    if mode is Mode.NONE:
        last = next(s for s in SEATS if s not in out)
        for s, value in zip((*out, last), (2, 1, -1, -2), strict=True):
            m[s] = value
    elif mode is Mode.DECLARED:
        assert declarer is not None
        sign = 1 if first == declarer else -1
        for s in SEATS:
            m[s] = 3 * sign if s == declarer else -sign
        if first == declarer:
            slam = all(played[s] == 0 for s in SEATS if s != declarer)
        else:
            slam = played[declarer] <= 1
    else:
        assert declarer is not None and counter is not None
        loser = counter if first == declarer else declarer
        m[first], m[loser] = 4, -4
        slam = played[loser] <= 1
    if slam:
        m = [2 * v for v in m]
    return DealResult(
        mode=mode,
        declarer=declarer,
        counter=counter,
        finish=tuple(finish) if mode is Mode.NONE and len(finish) == 4 else out,
        played=tuple(played),
        slam=slam,
        multipliers=tuple(m),
        points=tuple(v * base_score for v in m),
        silver=tuple(v * base_silver for v in m),
    )


def declaration_made(result: DealResult | EscapeResult) -> int | None:
    """The seat that made what it declared (宣牌成功) in a deal played to its end: the declarer who
    went out first (一打三 or 一对一), or the counter-declarer who did (一对一). ``None`` in mode
    none, when an opponent of the declarer went out first, and for an escape or a leaving (no deal
    was played out). Contract: ``docs/xiaoluzi.md``, *Figures*.

    >>> declaration_made(deal_result(Mode.COUNTERED, [1], [3, 8, 0, 0], declarer=0, counter=1))
    1
    >>> declaration_made(deal_result(Mode.DECLARED, [3], [5, 2, 4, 8], declarer=0)) is None
    True
    """
    if not isinstance(result, DealResult) or result.mode is Mode.NONE:
        return None
    first = result.finish[0]
    return first if first in (result.declarer, result.counter) else None


def slam_winners(result: DealResult | EscapeResult) -> tuple[int, ...]:
    """The seats that won a slam (全关): in a slam deal, those whose doubled multiplier is a win
    (the declarer of 三家全关, the three opponents of a slammed declarer, the winner of 一对一).
    None for a deal without a slam, an escape or a leaving. Contract: ``docs/xiaoluzi.md``,
    *Figures*.

    >>> slam_winners(deal_result(Mode.DECLARED, [1], [1, 8, 0, 0], declarer=0))
    (1, 2, 3)
    >>> slam_winners(deal_result(Mode.DECLARED, [0], [8, 0, 0, 0], declarer=0))
    (0,)
    """
    if not isinstance(result, DealResult) or not result.slam:
        return ()
    return tuple(s for s in SEATS if result.multipliers[s] > 0)


def escape_result(
    seat: int,
    mode: Mode,
    finish: Sequence[int] = (),
    *,
    declarer: int | None = None,
    counter: int | None = None,
    base_score: int = 1,
    base_silver: int = 1,
) -> EscapeResult:
    """Settle ``seat`` escaping (逃跑) during a deal of ``mode`` after ``finish`` went out.

    Raises :class:`CannotEscapeError` when that seat cannot escape (out already, a bystander,
    or the deal was over) and :class:`InvalidFinishError` for roles or a finish no deal has.

    >>> escape_result(1, Mode.NONE, [3]).multipliers
    (1, -6, 1, 2)
    """
    bystanders = roles(mode, declarer, counter)
    out = _finish(finish)
    _seat(seat, "escaping seat")
    if (mode is Mode.NONE and len(out) >= 3) or (mode is not Mode.NONE and out):
        raise CannotEscapeError.of("xiaoluzi.cannot_escape_over", seat=seat)
    if seat in out:
        raise CannotEscapeError.of("xiaoluzi.cannot_escape_out", seat=seat)
    if seat in bystanders:
        raise CannotEscapeError.of("xiaoluzi.cannot_escape_bystander", seat=seat)
    m = [0, 0, 0, 0]
    if mode is Mode.NONE:
        for s in SEATS:
            m[s] = -6 if s == seat else 2 if out and s == out[0] else 1
    elif mode is Mode.DECLARED:
        if seat == declarer:
            m = [-9 if s == seat else 1 for s in SEATS]
        else:
            assert declarer is not None
            m[seat], m[declarer] = -6, 3
    else:
        other = counter if seat == declarer else declarer
        assert other is not None
        m[seat], m[other] = -12, 4
    return EscapeResult(
        kind="escape",
        seat=seat,
        mode=mode,
        declarer=declarer,
        counter=counter,
        finish=out,
        multipliers=tuple(m),
        points=tuple(v * base_score for v in m),
        silver=tuple(v * base_silver for v in m),
    )


def leave_result(seat: int, *, base_score: int = 1, base_silver: int = 1) -> EscapeResult:
    """Settle ``seat`` leaving between deals before the match's deals are played: −3, others +1.

    >>> leave_result(2).multipliers
    (1, 1, -3, 1)
    """
    _seat(seat, "leaving seat")
    m = tuple(-3 if s == seat else 1 for s in SEATS)
    return EscapeResult(
        kind="leave",
        seat=seat,
        mode=None,
        declarer=None,
        counter=None,
        finish=(),
        multipliers=m,
        points=tuple(v * base_score for v in m),
        silver=tuple(v * base_silver for v in m),
    )
