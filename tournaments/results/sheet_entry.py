"""Offline tables' score sheets as referees enter them, for every game, from the game's spec.

A result version carries the game's own sheet (``{"first_dealer"?, "deals": [...]}``, the format
of :meth:`engine.game.Game.score_sheet`). The game describes its sheet once
(:attr:`engine.game.Game.sheet_spec`, :class:`engine.sheets.SheetSpec`): this module reads the
generic form's picks into the game's deals (:func:`picked_deals`), the typed lines of a game
whose deals are finishing orders (:func:`lines_parse`, :func:`deals_parse`), and checks the
deals as sent before the engine checks every rule, which refuses naming the deal and the field.
No game is named here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from engine.game import Game
from engine.registry import get_game
from engine.sheets import PickMissing, SheetField, SheetSpec

__all__ = [
    "PickError",
    "deals_parse",
    "finish_deals",
    "lines_parse",
    "picked_deals",
    "sheet_deals_check",
    "spec_of",
]


def spec_of(game: Game | str) -> SheetSpec:
    """The game's score sheet; raises ApplicationError for a game without score sheets."""
    if isinstance(game, str):
        game = get_game(game)
    spec = getattr(game, "sheet_spec", None)
    if not game.score_sheets or spec is None:
        raise ApplicationError(_("This game has no score sheets for offline tables."))
    assert isinstance(spec, SheetSpec)
    return spec


def sheet_deals_check(deals: Any) -> list[dict[str, Any]]:
    """The deals of a game's sheet as sent: a non-empty list of objects (the engine checks the
    fields); raises ApplicationError naming the first deal that is no object."""
    if not isinstance(deals, list) or not deals:
        raise ApplicationError(_("Enter at least one deal."))
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict):
            raise ApplicationError(
                _("Deal %(deal)d: a deal is an object of the game's fields.") % {"deal": number}
            )
    return deals


class PickError(ValueError):
    """A posted pick that is not a number (a seat, a bid, a count) or no seat of the table, or
    missing where the row needs it (the seat that left)."""

    def __init__(self, deal: int, field: str, *, seats: int = 0) -> None:
        super().__init__(f"deal {deal}: {field}")
        self.deal = deal
        self.field = field
        self.seats = seats  # the table's seats, for a pick that is no seat

    @property
    def message(self) -> str:
        if self.seats:
            return _(
                "Deal %(deal)d: %(field)s: pick a player of the table (seats 1 to %(count)d)."
            ) % {"deal": self.deal, "field": self.field, "count": self.seats}
        return _("Deal %(deal)d: %(field)s: pick a number.") % {
            "deal": self.deal,
            "field": self.field,
        }


def _number(value: Any, deal: int, field: SheetField) -> int | None:
    text = str(value if value is not None else "").strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and len(text) <= 3:
        return int(text)
    raise PickError(deal, field.refused_as)


def _seat(value: Any, deal: int, field: SheetField, seats: int) -> int | None:
    text = str(value if value is not None else "").strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and int(text) < seats:
        return int(text)
    raise PickError(deal, field.refused_as, seats=seats)


def _flag(value: Any) -> bool:
    return str(value if value is not None else "") in ("1", "on", "true")


def row_values(spec: SheetSpec, post: Mapping[str, Any], n: int, seats: int) -> dict[str, Any]:
    """Row ``n`` of the form as typed values by field name (what ``spec.form_deal`` reads);
    raises :class:`PickError` for a pick that is not a number or no seat."""
    values: dict[str, Any] = {}
    for field in spec.fields:
        name = f"d{n}_{field.name}"
        if field.kind == "seat":
            values[field.name] = _seat(post.get(name), n, field, seats)
        elif field.kind == "number":
            values[field.name] = _number(post.get(name), n, field)
        elif field.kind == "flag":
            values[field.name] = _flag(post.get(name))
        elif field.kind == "seat_numbers":
            values[field.name] = [_number(post.get(f"{name}_{s}"), n, field) for s in range(seats)]
        else:
            values[field.name] = str(post.get(name, "")).strip() or None
    return values


def picked_deals(game: Game | str, post: Mapping[str, Any], rows: int) -> list[dict[str, Any]]:
    """The deals of ``game``'s sheet from the form's picks (rows without a pick are skipped);
    raises :class:`PickError` for a pick that is not a number, or a row that lacks one."""
    if isinstance(game, str):
        game = get_game(game)
    spec = spec_of(game)
    deals = []
    for n in range(1, rows + 1):
        try:
            deal = spec.form_deal(row_values(spec, post, n, game.seat_count))
        except PickMissing as missing:
            raise PickError(n, missing.field) from None
        if deal is not None:
            deals.append(deal)
    return deals


# --- Sheets typed as lines (a game whose deals are finishing orders: ``typed="lines"``) --------

_WORDS = {"escape": "escape", "逃跑": "escape", "leave": "leave", "离开": "leave"}


def _lines(text: str, seat_of: Any, bad: Any) -> list[dict[str, Any]]:
    deals: list[dict[str, Any]] = []
    for number, line in enumerate(text.replace(",", " ").replace("，", " ").splitlines(), 1):
        tokens = line.split()
        if not tokens:
            continue
        deal: dict[str, Any] = {"finish": []}
        try:
            i = 0
            while i < len(tokens):
                word = _WORDS.get(tokens[i].lower())
                if word is not None:
                    deal[word] = seat_of(tokens[i + 1])
                    i += 2
                else:
                    deal["finish"].append(seat_of(tokens[i]))
                    i += 1
        except (ValueError, IndexError):
            raise ApplicationError(bad(number, line.strip())) from None
        deals.append(deal)
    return deals


def deals_parse(text: str, seats: int | None = None) -> list[dict[str, Any]]:
    """The deals of a referee's sheet typed as the API's lines, seats as stored (from 0): one
    line per deal, the seats in the order they went out (``0 2 4``), then ``escape S`` if seat S
    escaped during it (``0 1 escape 3``), or only ``leave S`` for a seat that left before it.
    ``seats``: the table's, for the message. Raises ApplicationError naming the bad line.

    >>> deals_parse("0 2 4\\n1 0 escape 3\\nleave 5")
    [{'finish': [0, 2, 4]}, {'finish': [1, 0], 'escape': 3}, {'finish': [], 'leave': 5}]
    """

    def bad(number: int, line: str) -> str:
        if seats is None:
            return _(
                "Line %(line)d (“%(text)s”): write seats separated by spaces, then "
                "'escape S' or only 'leave S'."
            ) % {"line": number, "text": line}
        return _(
            "Line %(line)d (“%(text)s”): write seats 0-%(last)d separated by spaces, then "
            "'escape S' or only 'leave S'."
        ) % {"line": number, "text": line, "last": seats - 1}

    return _lines(text, int, bad)


def lines_parse(text: str, names: Sequence[str]) -> list[dict[str, Any]]:
    """The deals of a sheet typed as people write it: one line per deal, the players in the
    order they went out, each by name or by seat number counted from 1 (``1 3 5``, ``张三 李四
    王五``), then ``escape``/``逃跑`` and a player, or only ``leave``/``离开`` and a player. The
    deals name seats as stored (from 0). Raises ApplicationError naming the bad line.

    >>> lines_parse("1 3 5\\n乙 甲 逃跑 4\\n离开 6", ["甲", "乙", "丙", "丁", "戊", "己"])
    [{'finish': [0, 2, 4]}, {'finish': [1, 0], 'escape': 3}, {'finish': [], 'leave': 5}]
    """
    by_name = {name: seat for seat, name in enumerate(names) if name}

    def seat_of(token: str) -> int:
        if token in by_name:
            return by_name[token]
        if token.isascii() and token.isdigit() and 1 <= int(token) <= len(names):
            return int(token) - 1
        raise ValueError(token)

    def bad(number: int, line: str) -> str:
        return _(
            "Line %(line)d (“%(text)s”): write the players in the order they went out, by name "
            "or seat (1 to %(count)d), then “escape” and a player, or only “leave” and a player."
        ) % {"line": number, "text": line, "count": len(names)}

    return _lines(text, seat_of, bad)


def _stored_seat(value: Any) -> int:
    """A seat given as a whole number (``2`` or ``"2"``); ValueError for anything else: a float
    (``2.2`` is no seat, and ``1e400`` is no number), a bool, a list."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value)
    raise ValueError(value)


def finish_deals(deals: Any, seats: int) -> list[dict[str, Any]]:
    """The deals as sent of a game whose deals are finishing orders (``{"finish", "escape",
    "leave"}``), checked for seats ``0 .. seats - 1``; raises ApplicationError naming the deal."""
    if not isinstance(deals, list) or not deals:
        raise ApplicationError(_("Enter at least one deal."))
    last = seats - 1
    out: list[dict[str, Any]] = []
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict) or not isinstance(deal.get("finish", []), list):
            raise ApplicationError(
                _("Deal %(deal)d: give 'finish' as a list of seats.") % {"deal": number}
            )
        wrong = _("Deal %(deal)d: seats are numbers 0 to %(last)d.") % {
            "deal": number,
            "last": last,
        }
        try:
            finish = [_stored_seat(s) for s in deal.get("finish", [])]
            escape = None if deal.get("escape") is None else _stored_seat(deal["escape"])
            leave = None if deal.get("leave") is None else _stored_seat(deal["leave"])
        except ValueError:
            raise ApplicationError(wrong) from None
        if any(
            not 0 <= s <= last for s in (*finish, *(x for x in (escape, leave) if x is not None))
        ):
            raise ApplicationError(wrong)
        if escape is not None and leave is not None:
            raise ApplicationError(
                _("Deal %(deal)d: an escape or a leaving, not both.") % {"deal": number}
            )
        if leave is not None and finish:
            raise ApplicationError(
                _("Deal %(deal)d: a seat leaving between deals has no order.") % {"deal": number}
            )
        row: dict[str, Any] = {"finish": finish}
        if escape is not None:
            row["escape"] = escape
        if leave is not None:
            row["leave"] = leave
        out.append(row)
    return out
