"""大怪路子's score sheet on the site: the fields a referee picks per deal, the printed sheet, and
each deal's result in words (``docs/rules.md``, *Offline tables*).

A deal is its finishing order (the seats in the order they went out, until a whole side was
out: five places at most), an escape during it, or a seat leaving before it; the sheet's JSON is
``{"first_dealer": 0, "deals": [{"finish": [0, 2, 4]}, {"finish": [1], "escape": 3}]}``, and
:func:`engine.daguai.offline.score_match` scores it. The referee may also type it as lines
(``typed="lines"``).

>>> form_deal({"1": 0, "2": 2, "3": 4, "4": None, "5": None, "escape": None, "leave": None})
{'finish': [0, 2, 4]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.sheets import SheetColumn, SheetField, SheetSpec, places, seat_name, words

__all__ = ["SHEET_SPEC", "describe_deal", "form_deal"]

#: Places a referee picks per deal: a deal ends once a whole side is out, by the fifth at most.
PICKED_PLACES = 5
#: Places on the printed sheet (room for every seat).
PRINTED_PLACES = 6


def form_deal(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """A deal from one row of the form, ``None`` for a blank row."""
    finish = [row[str(k)] for k in range(1, PICKED_PLACES + 1) if row.get(str(k)) is not None]
    escape, leave = row.get("escape"), row.get("leave")
    if not finish and escape is None and leave is None:
        return None
    deal: dict[str, Any] = {"finish": finish}
    if escape is not None:
        deal["escape"] = escape
    if leave is not None:
        deal["leave"] = leave
    return deal


def _levels_why(result: Mapping[str, Any], sides: Mapping[str, str], english: bool) -> str:
    """Why the levels moved after a deal, or why they did not: only the dealer team goes up."""
    winner, dealer = result.get("winner"), result.get("dealer_team")
    before, after = result.get("levels_before") or {}, result.get("levels") or {}
    if winner is None:
        return words(english, "平局：双方都不升级。", "A draw: nobody goes up.")
    team = sides.get(winner, winner)
    if result.get("passed_a"):
        return words(
            english,
            "{team}过A，赢得本场比赛。",
            "{team} passed A and wins the match (过A).",
            team=team,
        )
    if before.get(winner) != after.get(winner):
        return words(
            english,
            "{team}作为庄家方获胜：从{before}升到{after}。",
            "{team} won as the dealer team: up from {before} to {after}.",
            team=team,
            before=before.get(winner),
            after=after.get(winner),
        )
    if winner != dealer:
        return words(
            english,
            "{team}获胜，但不是庄家方：不升级（只有庄家方升级）；下一局由{team}坐庄。",
            "{team} won but was not the dealer team: no level up (only the dealer team goes "
            "up); {team} deals next.",
            team=team,
        )
    return words(
        english, "{team}获胜，但级数不变。", "{team} won at its level: no level up.", team=team
    )


def describe_deal(
    result: Mapping[str, Any], seats: Sequence[str], sides: Mapping[str, str], english: bool
) -> str:
    """A deal of 大怪路子 in words: an escape, the tribute (进贡), the levels and why they moved
    (or did not)."""
    if result.get("outcome") == "escape":
        name = seat_name(seats, result.get("seat"))
        return " · ".join(
            (
                words(english, "{name}逃跑", "{name} escaped (逃跑)", name=name),
                words(english, "有人逃跑，比赛结束。", "An escape ends the match."),
            )
        )
    parts: list[str] = []
    multiplier = int(result.get("multiplier") or 0)
    if multiplier > 1:
        parts.append(f"×{multiplier}")
    payers = "、".join(seat_name(seats, s) for s in result.get("payers") or [])
    if payers:
        receivers = "、".join(seat_name(seats, s) for s in result.get("receivers") or [])
        parts.append(
            words(
                english,
                "进贡：{payers} → {receivers}",
                "Tribute (进贡): {payers} → {receivers}",
                payers=payers,
                receivers=receivers,
            )
        )
    before, after = result.get("levels_before") or {}, result.get("levels") or {}
    if after:
        parts.append(
            words(
                english,
                "级数：{a}:{b} → {c}:{d}",
                "Levels: {a}:{b} → {c}:{d}",
                a=before.get("A", ""),
                b=before.get("B", ""),
                c=after.get("A", ""),
                d=after.get("B", ""),
            )
        )
    parts.append(_levels_why(result, sides, english))
    return " · ".join(parts)


SHEET_SPEC = SheetSpec(
    fields=(
        *places(PICKED_PLACES),
        SheetField("escape", "seat", "逃跑", "Escaped (逃跑)"),
        SheetField("leave", "seat", "开局前离开", "Left before it"),
    ),
    form_deal=form_deal,
    columns=(
        *(SheetColumn(f"第{k}个出完", f"Out {k}") for k in range(1, PRINTED_PLACES + 1)),
        SheetColumn("逃跑／离开（座位号）", "Escape / leave (seat)"),
    ),
    first_dealer_zh="首局庄家",
    first_dealer_en="First dealer",
    first_dealer_print_zh="首局庄家（座位号）",
    first_dealer_print_en="First dealer (seat)",
    first_dealer_required=True,
    help_zh=(
        "每一局按出完牌的先后选择选手（一方全部出完即本局结束）；局中逃跑或开局前离开都会结束整场比赛。"
    ),
    help_en=(
        "For each deal, pick the players in the order they went out (a deal ends when a whole "
        "side is out); an escape during the deal, or a player leaving before it, ends the match."
    ),
    print_help_zh="按出完牌的先后顺序填写座位号，直到本局结束。进贡、积分和级数由路子计算。",
    print_help_en=(
        "Write the seat numbers in the order the players went out, until the deal ended. Luzi "
        "computes tribute, points and levels."
    ),
    typed="lines",
    describe=describe_deal,
)
