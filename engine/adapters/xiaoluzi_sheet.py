"""小路子's score sheet: a match played with real cards, checked and scored deal by deal.

The sheet (JSON) is ``{"first_dealer": 0, "deals": [...]}`` (``first_dealer`` optional); each deal
is one of::

    {"mode": "declared", "declarer": 2, "finish": [2], "played": [0, 0, 8, 0]}
    {"mode": "countered", "declarer": 0, "counter": 1, "finish": [1], "slam": true}
    {"mode": "none", "finish": [3], "escape": 1}
    {"leave": 2}

``mode`` none / declared / countered; ``declarer`` and ``counter`` (the counter-declarer) as the
mode has them; ``finish`` the seats in the order they went out until the deal ended (three or
four in mode none, one otherwise); ``played`` the cards (or plays, ``slam_count="plays"``) each
seat played, or else ``slam`` (true/false, false when not given) — with both, they must agree;
``holder_7h`` (optional) the seat that held 7H, the deal's dealer on the sheet (else the
declarer, else ``first_dealer``). An escape names the seat in ``escape`` and the seats already
out in ``finish``; ``{"leave": seat}`` is a seat leaving between deals (also a seat that left
while out of the deal or a bystander, settled after it). Every refusal says ``deal N: FIELD:
why``. The figures after the start, each deal and a leaving are :func:`match_figures`: the
running silver, the declarations made and the slams won per seat.

>>> from engine.xiaoluzi import DEFAULT_RULES
>>> sheet = score_sheet({"deals": [{"mode": "declared", "declarer": 2, "finish": [2],
...                                  "played": [0, 0, 8, 0]}]}, rules=DEFAULT_RULES)
>>> sheet.points, sheet.figures[-1]["silver"]
((-2, -2, 6, -2), {'0': -2, '1': -2, '2': 6, '3': -2})
>>> sheet.figures[-1]["declared_won"], sheet.figures[-1]["slams"]
({'0': 0, '1': 0, '2': 1, '3': 0}, {'0': 0, '1': 0, '2': 1, '3': 0})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.adapters.sheet_fields import Fields, sheet_deals
from engine.errors import EngineError
from engine.game import ScoredSheet, SheetDeal
from engine.xiaoluzi import (
    HAND_SIZE,
    DealResult,
    EscapeResult,
    Mode,
    Rules,
    deal_result,
    declaration_made,
    escape_result,
    leave_result,
    places,
    slam_winners,
)

__all__ = ["match_figures", "score_sheet"]

_DEAL_FIELDS = ("mode", "declarer", "counter", "finish", "played", "slam", "holder_7h", "escape")
_MODES = tuple(m.value for m in Mode)


def match_figures(
    silver: Sequence[int], results: Iterable[DealResult | EscapeResult]
) -> dict[str, dict[str, int]]:
    """小路子's figures after ``results`` (a match's, or one deal's): the running ``silver`` and,
    per seat, the declarations made (``declared_won``, 宣牌成功) and the slams won (``slams``,
    全关), as ``docs/xiaoluzi.md`` (*Figures*) counts them. Online play, record replays and
    score sheets all count here.

    >>> match_figures([0, 0, 0, 0], [])["slams"]
    {'0': 0, '1': 0, '2': 0, '3': 0}
    """
    made, slams = [0, 0, 0, 0], [0, 0, 0, 0]
    for result in results:
        seat = declaration_made(result)
        if seat is not None:
            made[seat] += 1
        for s in slam_winners(result):
            slams[s] += 1
    return {
        "silver": {str(s): v for s, v in enumerate(silver)},
        "declared_won": {str(s): v for s, v in enumerate(made)},
        "slams": {str(s): v for s, v in enumerate(slams)},
    }


def _roles(row: Fields) -> tuple[Mode, int | None, int | None]:
    mode = Mode(row.choice("mode", _MODES))
    if mode is Mode.NONE:
        row.absent("declarer", "xiaoluzi_sheet.none_declarer")
        row.absent("counter", "xiaoluzi_sheet.none_counter")
        return mode, None, None
    declarer = row.seat("declarer")
    if mode is Mode.DECLARED:
        row.absent("counter", "xiaoluzi_sheet.declared_counter")
        return mode, declarer, None
    counter = row.seat("counter")
    if counter == declarer:
        row.refuse("counter", "xiaoluzi_sheet.declare_and_counter", seat=declarer)
    return mode, declarer, counter


def _bystanders(mode: Mode, declarer: int | None, counter: int | None) -> tuple[int, ...]:
    if mode is not Mode.COUNTERED:
        return ()
    return tuple(s for s in range(4) if s not in (declarer, counter))


def _played(
    mode: Mode, declarer: int | None, counter: int | None, out: tuple[int, ...], slam: bool
) -> tuple[int, ...]:
    """Counts of cards played that make the deal a slam or not, for a sheet that gives the
    slam flag only (every seat out played its hand; a seat not out played a card, or none when
    the slam says so)."""
    played = [HAND_SIZE if s in out[:3] else 1 for s in range(4)]
    if mode is Mode.NONE:
        return tuple(played)
    first = out[0]
    if mode is Mode.DECLARED and first == declarer:
        return tuple(HAND_SIZE if s == declarer else 0 if slam else 1 for s in range(4))
    loser = declarer if mode is Mode.DECLARED or first == counter else counter
    played[loser if loser is not None else 0] = 1 if slam else 2
    for s in _bystanders(mode, declarer, counter):
        played[s] = 0
    return tuple(played)


def _deal(row: Fields, rules: Rules) -> DealResult:
    mode, declarer, counter = _roles(row)
    out = row.seats("finish")
    need = "three or four seats" if mode is Mode.NONE else "one seat"
    if (mode is Mode.NONE and len(out) not in (3, 4)) or (mode is not Mode.NONE and len(out) != 1):
        row.refuse(
            "finish", "xiaoluzi_sheet.finish_count", mode=mode.value, need=need, out=list(out)
        )
    if mode is Mode.COUNTERED and out[0] not in (declarer, counter):
        row.refuse("finish", "xiaoluzi_sheet.bystander_out", seat=out[0])
    played = row.counts("played", HAND_SIZE)
    slam = row.flag("slam")
    if mode is Mode.NONE and slam:
        row.refuse("slam", "xiaoluzi_sheet.none_slam")
    if played is None:
        played = _played(mode, declarer, counter, out, slam)
    try:
        result = deal_result(
            mode,
            out,
            played,
            declarer=declarer,
            counter=counter,
            base_score=rules.base_score,
            base_silver=rules.base_silver,
            slam_count=rules.slam_count,
        )
    except EngineError as exc:
        raise row.located(exc, "played") from None
    if row.has("played") and row.has("slam") and slam != result.slam:
        made = "xiaoluzi_sheet.slam_made" if result.slam else "xiaoluzi_sheet.slam_not_made"
        row.refuse("slam", made)
    return result


def _escape(row: Fields, rules: Rules, seat: int) -> EscapeResult:
    mode, declarer, counter = _roles(row)
    out = row.seats("finish")
    for name in ("played", "slam"):
        row.absent(name, "xiaoluzi_sheet.escape_no_played")
    if (mode is Mode.NONE and len(out) >= 3) or (mode is not Mode.NONE and out):
        row.refuse("finish", "xiaoluzi_sheet.nobody_escapes", out=list(out))
    if seat in out:
        row.refuse("escape", "xiaoluzi_sheet.escape_out", seat=seat)
    if seat in _bystanders(mode, declarer, counter):
        row.refuse("escape", "xiaoluzi_sheet.escape_bystander", seat=seat)
    try:
        return escape_result(
            seat,
            mode,
            out,
            declarer=declarer,
            counter=counter,
            base_score=rules.base_score,
            base_silver=rules.base_silver,
        )
    except EngineError as exc:
        raise row.located(exc, "escape") from None


def _result_json(row: Fields, result: DealResult | EscapeResult) -> dict[str, Any]:
    data = result.to_json()
    if isinstance(result, DealResult) and not row.has("played"):
        data["played"] = None  # the sheet gave the slam flag, not the cards played
    return data


def score_sheet(entry: Any, *, rules: Rules) -> ScoredSheet:
    """Check and score a sheet of 小路子 (``rules`` with the base score and silver); raises
    :class:`~engine.errors.EngineError` worded ``deal N: FIELD: why`` for the first bad deal."""
    head, rows = sheet_deals(entry, ("first_dealer",))
    first_dealer = head.optional_seat("first_dealer")
    points, silver = [0, 0, 0, 0], [0, 0, 0, 0]
    results: list[DealResult | EscapeResult] = []
    figures = [match_figures(silver, results)]
    deals: list[SheetDeal] = []
    end: str | None = None
    left: int | None = None
    for row in rows:
        if end is not None:
            row.ended(end)
        if row.has("leave"):
            row.only(("leave",))
            left = row.seat("leave")
            gone = leave_result(left, base_score=rules.base_score, base_silver=rules.base_silver)
            for s in range(4):
                points[s] += gone.points[s]
                silver[s] += gone.silver[s]
            results.append(gone)
            figures.append(match_figures(silver, results))
            end = "left"
            continue
        row.only(_DEAL_FIELDS)
        escaper = row.optional_seat("escape")
        result: DealResult | EscapeResult = (
            _deal(row, rules) if escaper is None else _escape(row, rules, escaper)
        )
        holder = row.optional_seat("holder_7h")
        dealer = holder if holder is not None else result.declarer
        for s in range(4):
            points[s] += result.points[s]
            silver[s] += result.silver[s]
        results.append(result)
        figures.append(match_figures(silver, results))
        deals.append(
            SheetDeal(
                number=row.number or 0,
                dealer=dealer if dealer is not None else first_dealer or 0,
                level_rank=None,
                result=_result_json(row, result),
                finish=result.finish,
                points=result.points,
                escape=result.seat if isinstance(result, EscapeResult) else None,
            )
        )
        if isinstance(result, EscapeResult):
            end = "escape"
        elif len(deals) >= rules.deals_per_match:
            end = "deals_played"
    winner = None
    if end is not None:
        firsts = [s for s, place in enumerate(places(points, silver)) if place == 1]
        winner = str(firsts[0]) if len(firsts) == 1 else None
    return ScoredSheet(
        deals=tuple(deals),
        points=tuple(points),
        figures=tuple(figures),
        end_reason=end,
        winner=winner,
        left=left,
    )
