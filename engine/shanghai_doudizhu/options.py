"""上海斗地主's rules options as forms offer them: each option's name and help in Chinese and
English, and each choice in words (``Game.option_specs``)."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from engine.game import OptionSpec
from engine.shanghai_doudizhu import DEFAULT_RULES, Rules

__all__ = ["option_specs"]

_LABELS: dict[str, tuple[str, str]] = {
    "base": ("底分", "base score"),
    "first_bidder": ("首叫", "first bidder"),
    "huangfan": ("荒番", "all-pass deals"),
    "double_report": ("双报到", "double report"),
    "turn_seconds": ("出牌时限（秒）", "turn seconds"),
    "disconnect_seconds": ("掉线时限（秒）", "disconnect seconds"),
    "timeouts_to_escape": ("超时次数算逃跑", "timeouts to escape"),
    "deals": ("每场副数", "deals per match"),
    "timeouts_in_a_row": ("超时须连续", "timeouts in a row"),
    "active_escape_percent": ("主动逃跑罚分比例", "active escape percent"),
    "active_escape_rounding": ("逃跑罚分取整", "active escape rounding"),
    "report_loss_rating": ("报到输牌等级分", "report loss rating"),
}

#: What each option does, for people (Chinese, English).
_HELP: dict[str, tuple[str, str]] = {
    "first_bidder": (
        "谁先叫分：拿到标记牌的玩家，或上一副首叫的下家（第一副随机）。",
        "Who bids first: the holder of the marked card, or the seat after the previous deal's "
        "first bidder (a random seat in the first deal).",
    ),
    "huangfan": (
        "四家都不叫（荒番）后，下一副打的牌如何加倍。",
        "How deals where all four pass (荒番) double the next deal that is played.",
    ),
    "double_report": (
        "双报到的倍数：比报到多×2，或按报到的套数n计（打赢×2n，不打×n）。",
        "双报到's factor: one more ×2 than 报到, or by the number n of declared sets "
        "(打 won ×2n, 不打 ×n).",
    ),
    "turn_seconds": (
        "每次出牌或叫分的时限，超时由系统代打。",
        "Time for each bid or play; then the system acts.",
    ),
    "disconnect_seconds": (
        "一次掉线超过这么多秒即算逃跑。",
        "Disconnected longer than this in one stretch counts as an escape.",
    ),
    "timeouts_to_escape": (
        "一副牌中超时这么多次即算逃跑。",
        "This many timeouts in one deal count as an escape.",
    ),
    "deals": ("每场比赛打的副数。", "Deals in a match."),
    "timeouts_in_a_row": (
        "选中：超时须连续才算逃跑；不选：一副牌中累计。",
        "Ticked: only timeouts in a row count towards an escape; unticked: every timeout of "
        "the deal counts.",
    ),
    "active_escape_percent": (
        "主动离桌逃跑时按补偿总额的这个百分比罚分（至少100）。",
        "An active escape (leaving the table) pays this percentage of the compensation "
        "(at least 100).",
    ),
    "active_escape_rounding": (
        "主动逃跑罚分的取整方式。",
        "How the active escape's penalty is rounded.",
    ),
    "report_loss_rating": (
        "报到后打输（得分为0）时，等级分照常计算还是不计。",
        "Whether a 报到 打 lost by play moves the rating as usual or not at all.",
    ),
}

#: Each choice in words (value, Chinese, English).
_CHOICES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "first_bidder": (
        ("marked_card", "标记牌持有者", "holder of the marked card"),
        ("rotate", "轮流（上一副首叫的下家）", "in turn (the next seat)"),
    ),
    "huangfan": (
        ("flag", "只加倍一次", "doubles once"),
        ("multiply", "每个荒番×2", "×2 per all-pass deal"),
        ("queue", "累积，每副用一次", "queued, one per played deal"),
    ),
    "double_report": (
        ("x2", "比报到多×2", "one more ×2"),
        ("per_set", "按套数计", "by the number of sets"),
    ),
    "active_escape_rounding": (
        ("ceil", "向上取整", "round up"),
        ("half_up", "四舍五入", "round half up"),
    ),
    "report_loss_rating": (
        ("normal", "照常计算", "as usual"),
        ("void", "不计", "not counted"),
    ),
}


def _option_spec(field: dataclasses.Field[Any]) -> OptionSpec:
    name = "deals_per_match" if field.name == "deals" else field.name
    zh, en = _LABELS.get(field.name, (field.name, field.name.replace("_", " ")))
    help_zh, help_en = _HELP.get(field.name, ("", ""))
    default = getattr(DEFAULT_RULES, field.name)
    if isinstance(default, enum.Enum):
        choices = tuple(str(m.value) for m in type(default))
        labels = _CHOICES.get(field.name, ())
        return OptionSpec(
            name,
            "choice",
            str(default.value),
            zh,
            en,
            None,
            choices,
            help_zh=help_zh,
            help_en=help_en,
            choice_labels=labels,
        )
    if isinstance(default, bool):
        return OptionSpec(name, "bool", default, zh, en, help_zh=help_zh, help_en=help_en)
    low = 100 if field.name == "active_escape_percent" else 1
    return OptionSpec(name, "int", int(default), zh, en, low, help_zh=help_zh, help_en=help_en)


def option_specs() -> tuple[OptionSpec, ...]:
    """Every option of :class:`Rules`, in field order (``deals`` named ``deals_per_match``)."""
    return tuple(_option_spec(f) for f in dataclasses.fields(Rules))
