"""A whole match scored from what a referee writes down at a physical table.

For a deal played with real cards the referee records only its finishing order (the seats in the
order they went out, until the deal ended), or an escape during it, or a seat leaving between
deals. :func:`score_match` folds those entries through the contract's rules: levels, dealers,
tribute counts, points, passing A and the end of the match.

>>> scored = score_match(first_dealer=0, entries=[OfflineEntry(finish=(0, 2, 4))])
>>> scored.points, str(scored.levels), scored.end
((6, -6, 6, -6, 6, -6), '3,2', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.daguai.deal import DEFAULT_RULES, Rules
from engine.daguai.match import MatchEnd
from engine.daguai.result import (
    SEATS,
    DealResult,
    EscapeResult,
    InvalidFinishError,
    Levels,
    Team,
    deal_result,
    escape_result,
    leave_result,
)
from engine.errors import EngineError

__all__ = ["OfflineEntry", "ScoredDeal", "ScoredMatch", "score_match"]


@dataclass(frozen=True, slots=True)
class OfflineEntry:
    """One deal as a referee records it: a finishing order, an escape, or a seat leaving.

    ``escape``: the seat that escaped during the deal (``finish`` lists who had gone out before);
    ``leave``: the seat that left between deals, before this deal was dealt (``finish`` empty).
    """

    finish: tuple[int, ...] = ()
    escape: int | None = None
    leave: int | None = None

    def __post_init__(self) -> None:
        if self.escape is not None and self.leave is not None:
            raise EngineError.of("daguai.escape_and_leave")
        if self.leave is not None and self.finish:
            raise EngineError.of("daguai.leave_with_finish")


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """A deal of the match: number, dealer, levels before it, its result and the tribute it asks."""

    number: int
    dealer: int
    levels: Levels
    result: DealResult | EscapeResult

    @property
    def level_rank(self) -> int:
        """The deal's level rank: the dealer team's level."""
        return int(self.levels[Team.of(self.dealer)])


@dataclass(frozen=True, slots=True)
class ScoredMatch:
    """Every deal scored, the points per seat, the ladder, and how the match ended (if it did)."""

    deals: tuple[ScoredDeal, ...]
    points: tuple[int, ...]
    ladder: tuple[Levels, ...]
    end: MatchEnd | None
    winner: Team | None
    left: EscapeResult | None = field(default=None)

    @property
    def levels(self) -> Levels:
        """The levels after the last deal."""
        return self.ladder[-1]

    def team_points(self) -> dict[Team, int]:
        """Each team's points: the sum over its seats."""
        return {t: sum(self.points[s] for s in t.seats) for t in Team}

    def to_json(self) -> dict[str, Any]:
        """A JSON summary: points, ladder, end, winner, and each deal's result."""
        return {
            "points": {str(s): p for s, p in enumerate(self.points)},
            "team_points": {t.value: p for t, p in self.team_points().items()},
            "ladder": [lv.to_json() for lv in self.ladder],
            "end": None if self.end is None else self.end.value,
            "winner": None if self.winner is None else self.winner.value,
            "deals": [
                {"number": d.number, "dealer": d.dealer, "result": d.result.to_json()}
                for d in self.deals
            ],
        }


def score_match(
    *,
    first_dealer: int,
    entries: Sequence[OfflineEntry],
    rules: Rules = DEFAULT_RULES,
    base: int = 1,
) -> ScoredMatch:
    """Score a match from its entries; raises :class:`EngineError` naming the first bad entry.

    An entry after the match has ended (deals played, A passed, an escape, a leaver) is refused,
    as is a finishing order that cannot happen.
    """
    if first_dealer not in SEATS:
        raise EngineError.of("daguai.first_dealer", value=first_dealer)
    dealer = first_dealer
    levels = Levels()
    ladder = [levels]
    points = [0] * 6
    deals: list[ScoredDeal] = []
    end: MatchEnd | None = None
    winner: Team | None = None
    left: EscapeResult | None = None
    for number, entry in enumerate(entries, 1):
        if end is not None:
            raise EngineError.of("daguai.match_ended", end=end.value).within(deal=number)
        result: DealResult | EscapeResult
        try:
            if entry.leave is not None:
                if entry.leave not in SEATS:
                    raise EngineError.of("daguai.not_a_seat", seat=entry.leave)
                left = leave_result(entry.leave, base=base)
                _add(points, left.points)
                end = MatchEnd.LEFT
                continue
            if entry.escape is not None:
                if entry.escape in entry.finish:
                    raise InvalidFinishError.of("daguai.escaped_after_out", seat=entry.escape)
                result = escape_result(entry.escape, entry.finish, base=base)
                end = MatchEnd.ESCAPE
            else:
                result = deal_result(
                    entry.finish, dealer_team=Team.of(dealer), levels=levels, base=base
                )
        except EngineError as exc:
            raise exc.within(deal=number) from None
        deals.append(ScoredDeal(number=number, dealer=dealer, levels=levels, result=result))
        _add(points, result.points)
        if isinstance(result, DealResult):
            levels = result.levels
            dealer = result.next_dealer
            if result.passed_a:
                end, winner = MatchEnd.PASSED_A, result.winner
            elif number >= rules.deals_per_match:
                end = MatchEnd.DEALS
        ladder.append(levels)
    return ScoredMatch(
        deals=tuple(deals),
        points=tuple(points),
        ladder=tuple(ladder),
        end=end,
        winner=winner,
        left=left,
    )


def _add(points: list[int], more: Sequence[int]) -> None:
    for s in SEATS:
        points[s] += more[s]
