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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.errors import EngineError, register_messages
from engine.game import ScoredSheet, SheetDeal
from engine.sheets import (
    Fields,
    PickMissing,
    SheetColumn,
    SheetField,
    SheetSpec,
    seat_name,
    sheet_deals,
    words,
)
from engine.sheets import places as place_fields
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

__all__ = ["SHEET_SPEC", "describe_deal", "form_deal", "match_figures", "score_sheet"]

register_messages(
    {
        "xiaoluzi_sheet.none_declarer": "mode none has no declarer",
        "xiaoluzi_sheet.none_counter": "mode none has no counter-declarer",
        "xiaoluzi_sheet.declared_counter": "mode declared has no counter-declarer",
        "xiaoluzi_sheet.declare_and_counter": "seat {seat} cannot declare and counter-declare",
        "xiaoluzi_sheet.finish_count": "mode {mode} ends with {need} out, not {out}",
        "xiaoluzi_sheet.bystander_out": "seat {seat} is a bystander and cannot go out",
        "xiaoluzi_sheet.none_slam": "mode none has no slam",
        "xiaoluzi_sheet.slam_made": "the cards played make a slam",
        "xiaoluzi_sheet.slam_not_made": "the cards played make no slam",
        "xiaoluzi_sheet.escape_no_played": "an escape is settled without the cards played",
        "xiaoluzi_sheet.nobody_escapes": "the deal was over with {out} out: nobody escapes",
        "xiaoluzi_sheet.escape_out": "seat {seat} was out already and cannot escape",
        "xiaoluzi_sheet.escape_bystander": "seat {seat} is a bystander and cannot escape",
    }
)

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


# --- The sheet on the site's form, its preview and the printed sheet ---------------------------

#: Places picked in a deal's finishing order (mode none ends with three or four out).
_PLACES = 4


def form_deal(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """A deal of the sheet from one row of the form (:attr:`SHEET_SPEC`'s fields), ``None`` for
    a blank row; raises :class:`~engine.sheets.PickMissing` for a leaving without its seat."""
    mode = row.get("mode")
    if not mode and row.get("leave") is not None:
        mode = "leave"  # only the seat that left is picked
    if not mode:
        return None
    if mode == "leave":
        if row.get("leave") is None:
            raise PickMissing("leave")
        return {"leave": row["leave"]}
    deal: dict[str, Any] = {"mode": mode}
    for name in ("declarer", "counter"):
        if row.get(name) is not None:
            deal[name] = row[name]
    deal["finish"] = [row[str(k)] for k in range(1, _PLACES + 1) if row.get(str(k)) is not None]
    if row.get("escape") is not None:
        deal["escape"] = row["escape"]
        return deal
    if row.get("slam"):
        deal["slam"] = True
    played = row.get("played") or []
    if any(p is not None for p in played):
        deal["played"] = list(played)
    return deal


def describe_deal(
    result: Mapping[str, Any], seats: Sequence[str], sides: Mapping[str, str], english: bool
) -> str:
    """A deal of 小路子 in words: the mode, the declarer and the counter-declarer, the slam."""
    mode = result.get("mode")
    name = seat_name(seats, result.get("declarer"))
    if mode == "declared":
        parts = [words(english, "{name} 声明", "{name} declared", name=name)]
    elif mode == "countered":
        counter = seat_name(seats, result.get("counter"))
        parts = [
            words(
                english,
                "{name} 声明，{counter} 反声明",
                "{name} declared, {counter} counter-declared",
                name=name,
                counter=counter,
            )
        ]
    else:
        parts = [words(english, "无声明", "No declaration")]
    if result.get("kind") == "escape":
        escaper = seat_name(seats, result.get("seat"))
        parts.append(words(english, "{name}逃跑", "{name} escaped (逃跑)", name=escaper))
    if result.get("slam"):
        parts.append(words(english, "关牌", "slam (关牌)"))
    return " · ".join(parts)


SHEET_SPEC = SheetSpec(
    fields=(
        SheetField(
            "mode",
            "choice",
            "方式",
            "Mode",
            choices=(
                ("none", "无声明", "No declaration (无声明)"),
                ("declared", "声明", "Declared (声明)"),
                ("countered", "反声明", "Counter-declared (反声明)"),
                ("leave", "开局前离开", "Left before the deal"),
            ),
        ),
        SheetField("declarer", "seat", "声明者", "Declarer (声明)"),
        SheetField("counter", "seat", "反声明者", "Counter-declarer (反声明)"),
        *place_fields(_PLACES),
        SheetField("slam", "flag", "关牌", "Slam (关牌)"),
        SheetField("played", "seat_numbers", "出牌数：{name}", "Cards played: {name}", maximum=99),
        SheetField("escape", "seat", "逃跑", "Escaped (逃跑)"),
        SheetField("leave", "seat", "开局前离开", "Left before it"),
    ),
    form_deal=form_deal,
    columns=(
        SheetColumn("模式（无 / 声明 / 反声明）", "Mode (无 / 声明 / 反声明)"),
        SheetColumn("声明者", "Declarer (声明)"),
        SheetColumn("反声明者", "Counter-declarer (反声明)"),
        *(SheetColumn(f"第{k}个出完", f"Out {k}") for k in range(1, _PLACES + 1)),
        SheetColumn("关牌", "Slam (关牌)"),
        SheetColumn("出牌数，{seat} 号座位", "Cards played, seat {seat}", per_seat=True),
        SheetColumn("逃跑（座位）", "Escape (seat)"),
        SheetColumn("开局前离开（座位）", "Left before it (seat)"),
    ),
    first_dealer_zh="首位庄家（可不填）",
    first_dealer_en="First dealer (optional)",
    first_dealer_print_zh="首局庄家（座位号）",
    first_dealer_print_en="First dealer (seat)",
    help_zh=(
        "每局填写：模式、声明者和反声明者、到本局结束为止按出完顺序排列的选手，以及是否关牌或"
        "每人出牌张数；逃跑时填写逃跑者和已出完的选手。逃跑或开局前离开即结束比赛。"
    ),
    help_en=(
        "For each deal: the mode, the declarer and the counter-declarer, the players in the "
        "order they went out until the deal ended, and the slam (关牌) or the cards each player "
        "played; an escape names who escaped and who was already out. An escape, or a player "
        "leaving before a deal, ends the match."
    ),
    print_help_zh=(
        "按出完顺序写座位号，直到本局结束；关牌打勾，或写每人出牌张数。积分和银子由 Luzi 计算。"
    ),
    print_help_en=(
        "Write the seat numbers in the order the players went out, until the deal ended; tick "
        "the slam or write the cards each player played. Luzi computes the points and silver."
    ),
    extra_rows=2,
    print_extra_rows=4,
    describe=describe_deal,
)
