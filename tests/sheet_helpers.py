"""The score sheet that the tests' trick games share (玩具牌, tests/toygame.py; 对墩,
tests/pairsgame.py): per deal the tricks each seat won, or an escape, or a seat leaving before
the deal. Each game says the rest: how a deal reads in words and the printed sheet's help."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.sheets import SheetColumn, SheetField, SheetSpec

__all__ = ["tricks_form_deal", "tricks_sheet"]

#: how a deal's result reads: (result, seats' names, sides' names, english) -> text
Describe = Callable[[Mapping[str, Any], Sequence[str], Mapping[str, str], bool], str]


def tricks_form_deal(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """A deal of the sheet from one row of the site's form: the tricks per seat, an escape, or
    a seat leaving before the deal; ``None`` for a blank row."""
    if row.get("leave") is not None:
        return {"leave": row["leave"]}
    if row.get("escape") is not None:
        return {"escape": row["escape"]}
    tricks = row.get("tricks") or []
    if all(t is None for t in tricks):
        return None
    return {"tricks": [t or 0 for t in tricks]}


def tricks_sheet(*, describe: Describe, print_help_zh: str, print_help_en: str) -> SheetSpec:
    """The sheet of the tricks each seat won (4 in all), or an escape, or a leaving."""
    return SheetSpec(
        fields=(
            SheetField("tricks", "seat_numbers", "墩数：{name}", "Tricks: {name}", maximum=4),
            SheetField("escape", "seat", "逃跑", "Escaped (逃跑)"),
            SheetField("leave", "seat", "开局前离开", "Left before it"),
        ),
        form_deal=tricks_form_deal,
        columns=(
            SheetColumn("墩数，{seat} 号座位", "Tricks, seat {seat}", per_seat=True),
            SheetColumn("逃跑／离开（座位号）", "Escape / leave (seat)"),
        ),
        first_dealer_zh="首局发牌（可不填）",
        first_dealer_en="First dealer (optional)",
        first_dealer_print_zh="首局发牌（座位号）",
        first_dealer_print_en="First dealer (seat)",
        help_zh="每局填写每人赢的墩数（共 4 墩），或谁逃跑、谁在开局前离开。",
        help_en="For each deal: the tricks each player won (4 in all), or who escaped or left.",
        print_help_zh=print_help_zh,
        print_help_en=print_help_en,
        describe=describe,
    )
