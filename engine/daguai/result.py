"""The result of a deal from its finishing order, and the points of an escape.

Contract: ``shared/rules/daguai.md``, sections *End of a deal and its result*, *Tribute* and
*Match, escapes and timeouts*. Everything here is a pure function of a finishing order.

>>> r = deal_result([0, 2, 4], dealer_team=Team.A, levels=Levels.parse("2,2"))
>>> r.outcome.value, r.winner, r.multiplier, r.tributes, str(r.levels)
('win', Team.A, 6, ((1, 2), (3, 4), (5, 0)), '3,2')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Rank
from engine.daguai.plays import parse_level
from engine.errors import EngineError, InvalidFinishError

__all__ = [
    "SEATS",
    "EscapeResult",
    "InvalidFinishError",
    "Levels",
    "Outcome",
    "DealResult",
    "Team",
    "deal_result",
    "escape_result",
    "leave_result",
    "match_tributes",
    "streak_escape_result",
    "validate_finish",
]

#: The six seats, in play order.
SEATS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)

#: Multiplier of the base score by the number of payers (1, 2 or 3); a draw is 0.
MULTIPLIERS = {0: 0, 1: 1, 2: 3, 3: 6}

#: Escape during a deal: what the escaper loses, and what each opponent wins.
ESCAPE_PENALTY = 18
#: Leaving between deals: what the leaver loses, and what each opponent wins.
LEAVE_PENALTY = 3
LEAVE_BONUS = 1


class Team(enum.Enum):
    """The two teams: A holds seats 0, 2, 4 and B holds seats 1, 3, 5."""

    A = "A"
    B = "B"

    @classmethod
    def of(cls, seat: int) -> Team:
        """The team of ``seat``."""
        return Team.A if seat % 2 == 0 else Team.B

    @classmethod
    def parse(cls, token: str) -> Team:
        """Read ``A`` or ``B``; raises :class:`EngineError` for anything else."""
        try:
            return Team(token.strip().upper())
        except ValueError:
            raise EngineError(f"unknown team {token.strip()!r} (use A or B)") from None

    @property
    def seats(self) -> tuple[int, int, int]:
        """The team's three seats."""
        return (0, 2, 4) if self is Team.A else (1, 3, 5)

    @property
    def other(self) -> Team:
        """The opposing team."""
        return Team.B if self is Team.A else Team.A

    def __repr__(self) -> str:
        return f"Team.{self.value}"


@dataclass(frozen=True, slots=True)
class Levels:
    """Both teams' levels on the ladder 2 .. A.

    >>> Levels.parse("10,A")
    Levels.parse('10,A')
    """

    a: Rank = Rank.TWO
    b: Rank = Rank.TWO

    def __post_init__(self) -> None:
        for rank in (self.a, self.b):
            if not Rank.TWO <= rank <= Rank.ACE:
                raise EngineError(f"a level is 2..A, not {rank!r}")

    @classmethod
    def parse(cls, text: str) -> Levels:
        """Read ``LA,LB`` (``2,2``, ``10,K``); raises :class:`EngineError` naming the text."""
        parts = [p for p in text.replace(" ", ",").split(",") if p]
        if len(parts) != 2:
            raise EngineError(f"levels are two ranks LA,LB, not {text!r}")
        return cls(parse_level(parts[0]), parse_level(parts[1]))

    def __getitem__(self, team: Team) -> Rank:
        return self.a if team is Team.A else self.b

    def raised(self, team: Team) -> Levels:
        """These levels with ``team`` one level up (A stays A)."""
        if team is Team.A:
            return Levels(Rank(min(self.a + 1, Rank.ACE)), self.b)
        return Levels(self.a, Rank(min(self.b + 1, Rank.ACE)))

    def to_json(self) -> dict[str, str]:
        """``{"A": "2", "B": "10"}``."""
        return {"A": self.a.token, "B": self.b.token}

    @classmethod
    def from_json(cls, data: Any) -> Levels:
        """The inverse of :meth:`to_json`."""
        if not isinstance(data, dict) or set(data) != {"A", "B"}:
            raise EngineError(f"levels must be {{'A': rank, 'B': rank}}, not {data!r}")
        return cls(parse_level(str(data["A"])), parse_level(str(data["B"])))

    def __str__(self) -> str:
        return f"{self.a.token},{self.b.token}"

    def __repr__(self) -> str:
        return f"Levels.parse({str(self)!r})"


class Outcome(enum.Enum):
    """How a deal ended: a win, a draw, or an escape (which ends the match)."""

    WIN = "win"
    DRAW = "draw"
    ESCAPE = "escape"


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a finished deal means: winner, tribute, points, next dealer and levels.

    ``points`` are per seat and already multiplied by ``base``.
    """

    finish: tuple[int, ...]
    dealer_team: Team
    levels_before: Levels
    base: int
    outcome: Outcome
    winner: Team | None
    payers: tuple[int, ...]
    receivers: tuple[int, ...]
    tributes: tuple[tuple[int, int], ...]
    multiplier: int
    points: tuple[int, ...]
    next_dealer: int
    levels: Levels
    passed_a: bool

    @property
    def unfinished(self) -> tuple[int, ...]:
        """The seats still holding cards when the deal ended, in seat order."""
        return tuple(s for s in SEATS if s not in self.finish)

    def to_json(self) -> dict[str, Any]:
        """The result as the CLI prints it (points keyed by seat numbers as strings)."""
        return {
            "outcome": self.outcome.value,
            "winner": self.winner.value if self.winner else None,
            "multiplier": self.multiplier,
            "payers": list(self.payers),
            "receivers": list(self.receivers),
            "tributes": [list(t) for t in self.tributes],
            "finish": list(self.finish),
            "dealer_team": self.dealer_team.value,
            "next_dealer": self.next_dealer,
            "levels_before": self.levels_before.to_json(),
            "levels": self.levels.to_json(),
            "passed_a": self.passed_a,
            "base": self.base,
            "points": points_json(self.points),
        }


@dataclass(frozen=True, slots=True)
class EscapeResult:
    """The points of an escape during a deal (``during_deal``) or of leaving between deals."""

    seat: int
    during_deal: bool
    finish: tuple[int, ...]
    base: int
    points: tuple[int, ...]

    outcome = Outcome.ESCAPE

    def to_json(self) -> dict[str, Any]:
        """The escape as the CLI prints it."""
        return {
            "outcome": Outcome.ESCAPE.value,
            "seat": self.seat,
            "during_deal": self.during_deal,
            "finish": list(self.finish),
            "base": self.base,
            "points": points_json(self.points),
        }


def points_json(points: Sequence[int]) -> dict[str, int]:
    """Points keyed by seat numbers as strings: ``{"0": 6, "1": -6, ...}``."""
    return {str(seat): p for seat, p in enumerate(points)}


def validate_finish(finish: Iterable[int], *, ended: bool) -> tuple[int, ...]:
    """Check a finishing order: distinct seats 0..5, nothing after the deal ended.

    With ``ended`` the order must end the deal (a whole team out, exactly at its last seat);
    without it the deal must still be going on. Raises :class:`InvalidFinishError`.
    """
    order = tuple(finish)
    seen: set[int] = set()
    out = {Team.A: 0, Team.B: 0}
    for i, seat in enumerate(order):
        if not isinstance(seat, int) or seat not in SEATS:
            raise InvalidFinishError.of("daguai.finish_not_seat", seat=seat, order=order)
        if seat in seen:
            raise InvalidFinishError.of("daguai.finish_twice", seat=seat, order=order)
        seen.add(seat)
        team = Team.of(seat)
        out[team] += 1
        if out[team] == 3 and i != len(order) - 1:
            raise InvalidFinishError.of(
                "daguai.finish_goes_on", team=team.value, seat=seat, order=order
            )
    complete = 3 in out.values()
    if ended and not complete:
        raise InvalidFinishError.of("daguai.finish_not_ended", order=order)
    if not ended and complete:
        raise InvalidFinishError.of("daguai.finish_ended", order=order)
    return order


def match_tributes(payers: Sequence[int], receivers: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Pair payers with receivers **[decided]**: repeatedly the pair of smallest forward distance
    ``(receiver - payer) mod 6``, ties to the earlier receiver (``receivers`` in finishing order).

    Returns ``(payer, receiver)`` pairs in payer seat order.

    >>> match_tributes([1, 3, 5], [0, 2, 4])
    ((1, 2), (3, 4), (5, 0))
    >>> match_tributes([3, 5], [4, 0])
    ((3, 4), (5, 0))
    """
    if len(payers) != len(receivers):
        raise EngineError(f"{len(payers)} payers but {len(receivers)} receivers")
    left_p = list(payers)
    left_r = list(receivers)
    pairs: list[tuple[int, int]] = []
    while left_p:
        best = min(
            ((p, r) for p in left_p for r in left_r),
            key=lambda pr: ((pr[1] - pr[0]) % 6, left_r.index(pr[1])),
        )
        pairs.append(best)
        left_p.remove(best[0])
        left_r.remove(best[1])
    return tuple(sorted(pairs))


def deal_result(
    finish: Iterable[int], *, dealer_team: Team, levels: Levels, base: int = 1
) -> DealResult:
    """The result of a deal from the seats in the order they went out, until the deal ended.

    Raises :class:`InvalidFinishError` when the order is impossible.
    """
    order = validate_finish(finish, ended=True)
    if base < 0:
        raise EngineError.of("daguai.base_negative", base=base)
    first = Team.of(order[0])
    completed = Team.A if all(s in order for s in Team.A.seats) else Team.B
    unfinished = tuple(s for s in SEATS if s not in order)
    next_dealer = order[0]
    points = [0] * 6
    if first is completed:
        winner: Team | None = first
        payers = unfinished
        receivers = tuple(s for s in order if Team.of(s) is first)[: len(payers)]
        tributes = match_tributes(payers, receivers)
        multiplier = MULTIPLIERS[len(payers)]
        for s in SEATS:
            points[s] = multiplier * base * (1 if Team.of(s) is first else -1)
        outcome = Outcome.WIN
    else:
        winner = None
        payers = receivers = ()
        tributes = ()
        multiplier = 0
        outcome = Outcome.DRAW
    passed_a = False
    new_levels = levels
    if winner is not None and winner is dealer_team:
        if levels[winner] == Rank.ACE:
            passed_a = True
        else:
            new_levels = levels.raised(winner)
    return DealResult(
        finish=order,
        dealer_team=dealer_team,
        levels_before=levels,
        base=base,
        outcome=outcome,
        winner=winner,
        payers=payers,
        receivers=receivers,
        tributes=tributes,
        multiplier=multiplier,
        points=tuple(points),
        next_dealer=next_dealer,
        levels=new_levels,
        passed_a=passed_a,
    )


def escape_result(seat: int, finish: Iterable[int] = (), *, base: int = 1) -> EscapeResult:
    """The points of ``seat`` escaping during a deal in which ``finish`` had gone out.

    The escaper loses 18 base; each opponent wins 3 base when the opponents hold 1st and 2nd
    place, else 2 when they hold 1st, else 1; the escaper's teammates score nothing. A seat that
    has already gone out cannot escape (:class:`InvalidFinishError`).

    >>> escape_result(1, [0, 2]).points
    (3, -18, 3, 0, 3, 0)
    """
    if seat not in SEATS:
        raise EngineError.of("daguai.not_a_seat", seat=seat)
    order = validate_finish(finish, ended=False)
    if seat in order:
        raise InvalidFinishError.of("daguai.escape_gone_out", seat=seat, order=order)
    return streak_escape_result(seat, order, base=base)


def streak_escape_result(seat: int, finish: Sequence[int], *, base: int = 1) -> EscapeResult:
    """The points of the escape implied by too many consecutive system plays of ``seat``.

    The same points as :func:`escape_result`, without its check that ``seat`` still holds cards:
    the system play that reaches the limit may be the seat's last cards, and records stored
    since the first version replay that way **[decided]**.
    """
    order = tuple(finish)
    opponents = Team.of(seat).other
    holds = [Team.of(s) is opponents for s in order[:2]]
    bonus = 3 if holds == [True, True] else 2 if holds[:1] == [True] else 1
    points = [0] * 6
    for s in opponents.seats:
        points[s] = bonus * base
    points[seat] = -ESCAPE_PENALTY * base
    return EscapeResult(seat=seat, during_deal=True, finish=order, base=base, points=tuple(points))


def leave_result(seat: int, *, base: int = 1) -> EscapeResult:
    """The points of ``seat`` leaving between deals: the leaver −3 base, each opponent +1 base.

    >>> leave_result(4).points
    (0, 1, 0, 1, -3, 1)
    """
    if seat not in SEATS:
        raise EngineError.of("daguai.not_a_seat", seat=seat)
    points = [0] * 6
    for s in Team.of(seat).other.seats:
        points[s] = LEAVE_BONUS * base
    points[seat] = -LEAVE_PENALTY * base
    return EscapeResult(seat=seat, during_deal=False, finish=(), base=base, points=tuple(points))
