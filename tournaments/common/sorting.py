"""Natural order of names: 研发一队, 研发二队, ..., 研发十队 and team 2 before team 10.

>>> sorted(["三队", "十队", "一队", "二队"], key=natural_key)
['一队', '二队', '三队', '十队']
>>> sorted(["team 10", "team 2"], key=natural_key)
['team 2', 'team 10']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_DIGITS |= {"七": 7, "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_NUMBER = re.compile(r"\d+|[〇零一二两三四五六七八九十百千]+")


def chinese_number(text: str) -> int:
    """The value of a Chinese numeral written with 一..九, 十, 百, 千 (``二十一`` is 21).

    >>> chinese_number("十二"), chinese_number("一百零五"), chinese_number("二〇二六")
    (12, 105, 2026)
    """
    if not any(c in _UNITS for c in text):  # digit by digit: 二〇二六
        value = 0
        for c in text:
            value = value * 10 + _DIGITS[c]
        return value
    total, digit = 0, 0
    for c in text:
        if c in _DIGITS:
            digit = _DIGITS[c]
        else:
            total += (digit or 1) * _UNITS[c]
            digit = 0
    return total + digit


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers in ``name`` (digits or Chinese numerals) by value."""
    key: list[tuple[int, int | str]] = []
    at = 0
    for match in _NUMBER.finditer(name):
        if match.start() > at:
            key.append((1, name[at : match.start()].casefold()))
        token = match.group()
        key.append((0, int(token) if token.isdigit() else chinese_number(token)))
        at = match.end()
    if at < len(name):
        key.append((1, name[at:].casefold()))
    return tuple(key)


def naturally(items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """``items`` sorted by the natural order of their ``name``."""
    return sorted(items, key=lambda item: natural_key(name(item)))
