"""Reading the fields of a referee's score sheet (JSON), for the games' ``score_sheet``.

Every refusal is an :class:`~engine.errors.EngineError` worded ``deal N: FIELD: why`` (or
``sheet: FIELD: why`` for the sheet's header), in English; the site translates it.

>>> Fields({"bid": 4}, 2).integer("bid", low=1, high=3)
Traceback (most recent call last):
...
engine.errors.EngineError: deal 2: bid: must be a number 1-3, not 4
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, NoReturn

from engine.errors import EngineError

__all__ = ["Fields", "sheet_deals"]


def sheet_deals(entry: Any, header: Collection[str]) -> tuple[Fields, list[Fields]]:
    """The sheet's header fields and one :class:`Fields` per deal; raises for a sheet that is no
    object, deals that are no list, a deal that is no object, or an unknown header field."""
    if not isinstance(entry, dict):
        raise EngineError.of("sheet.object", value=entry).within(sheet=True)
    head = Fields(entry, None)
    head.only({"deals", *header})
    deals = entry.get("deals")
    if not isinstance(deals, list):
        raise EngineError.of("sheet.deals_list", value=deals).within(sheet=True, field="deals")
    rows = []
    for number, item in enumerate(deals, 1):
        if not isinstance(item, dict):
            raise EngineError.of("sheet.deal_object", value=item).within(deal=number)
        rows.append(Fields(item, number))
    return head, rows


class Fields:
    """One deal of a sheet (or its header when ``number`` is ``None``), read field by field;
    ``prefix`` names an object inside the deal (``"escape."``)."""

    def __init__(self, data: Mapping[str, Any], number: int | None, prefix: str = "") -> None:
        self.data = data
        self.number = number
        self.prefix = prefix  # of the field names, for an object inside a deal

    @property
    def where(self) -> str:
        return "sheet" if self.number is None else f"deal {self.number}"

    def located(self, error: EngineError, name: str) -> EngineError:
        """``error`` said of field ``name`` of this deal (or of the sheet's header)."""
        field = f"{self.prefix}{name}"
        if self.number is None:
            return error.within(sheet=True, field=field)
        return error.within(deal=self.number, field=field)

    def refuse(self, name: str, code: str, /, **params: Any) -> NoReturn:
        """Raise the refusal of field ``name``: error ``code`` with ``params``."""
        raise self.located(EngineError.of(code, **params), name)

    def ended(self, end: str) -> NoReturn:
        """Raise the refusal of a deal after the match ended (``end``: how)."""
        raise EngineError.of("sheet.match_ended", end=end).within(deal=self.number)

    def has(self, name: str) -> bool:
        """Whether the field is given (``null`` counts as not given)."""
        return self.data.get(name) is not None

    def only(self, allowed: Collection[str]) -> None:
        """Refuse a field not in ``allowed``."""
        for name in self.data:
            if name not in allowed:
                self.refuse(name, "sheet.unknown_field", allowed=", ".join(sorted(allowed)))

    def absent(self, name: str, code: str, /, **params: Any) -> None:
        """Refuse field ``name`` if it is given (error ``code``: why it cannot be)."""
        if self.has(name):
            self.refuse(name, code, **params)

    def integer(
        self, name: str, *, low: int, high: int | None = None, default: int | None = None
    ) -> int:
        """An integer ``low .. high``; ``default`` when not given (else refused as missing)."""
        value = self.data.get(name)
        if value is None:
            if default is None:
                self.refuse(name, "sheet.missing")
            return default
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < low
            or (high is not None and value > high)
        ):
            if high is None:
                self.refuse(name, "sheet.number_min", low=low, value=value)
            self.refuse(name, "sheet.number_range", low=low, high=high, value=value)
        return value

    def seat(self, name: str) -> int:
        """A seat 0-3 (refused as missing when not given)."""
        value = self.data.get(name)
        if value is None:
            self.refuse(name, "sheet.seat_missing")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
            self.refuse(name, "sheet.seat", value=value)
        return value

    def optional_seat(self, name: str) -> int | None:
        """A seat 0-3, or ``None`` when not given."""
        return self.seat(name) if self.has(name) else None

    def flag(self, name: str) -> bool:
        """``true`` or ``false`` (``false`` when not given)."""
        value = self.data.get(name, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            self.refuse(name, "sheet.flag", value=value)
        return value

    def choice(self, name: str, choices: Collection[str], default: str | None = None) -> str:
        """One of ``choices``; ``default`` when not given (else refused as missing)."""
        value = self.data.get(name)
        known = ", ".join(choices)
        if value is None:
            if default is None:
                self.refuse(name, "sheet.choice_missing", choices=known)
            return default
        if value not in choices:
            self.refuse(name, "sheet.choice", choices=known, value=value)
        return str(value)

    def seats(self, name: str) -> tuple[int, ...]:
        """A list of different seats 0-3 (empty when not given)."""
        value = self.data.get(name)
        if value is None:
            return ()
        if not isinstance(value, list):
            self.refuse(name, "sheet.seat_list", value=value)
        for s in value:
            if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3:
                self.refuse(name, "sheet.seat_in_list", seat=s, value=value)
        if len(set(value)) != len(value):
            self.refuse(name, "sheet.seat_twice", value=value)
        return tuple(value)

    def counts(self, name: str, high: int) -> tuple[int, ...] | None:
        """Four counts ``0 .. high``, one per seat, or ``None`` when not given."""
        value = self.data.get(name)
        if value is None:
            return None
        if (
            not isinstance(value, list)
            or len(value) != 4
            or any(not isinstance(n, int) or isinstance(n, bool) for n in value)
        ):
            self.refuse(name, "sheet.four_counts", value=value)
        if any(not 0 <= n <= high for n in value):
            self.refuse(name, "sheet.count_range", high=high, value=value)
        return tuple(value)
