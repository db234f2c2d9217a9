"""The one entry form, and the one printed sheet, of every game's score sheet, rendered from the
game's spec (:class:`engine.sheets.SheetSpec`): rows of cells with their labels, choices and
what was picked, the seats with their players (counted from 1 for people; the values posted are
the stored seats, from 0), and the reading of what the form posts. No game is named here."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from engine.game import Game
from engine.sheets import SheetSpec
from tournaments.models import Pairing
from tournaments.results.sheet_entry import PickError, deals_parse, lines_parse, picked_deals

__all__ = [
    "deals_text",
    "entry_rows",
    "form_rows",
    "posted_sheet",
    "printed_sheet",
    "printed_rows",
    "seat_people",
]


def _chinese() -> bool:
    return translation.get_language() != "en"


def form_rows(spec: SheetSpec, deals_per_match: int) -> int:
    """Rows of the entry form: the deals per match and the game's extra rows."""
    return max(deals_per_match, 1) + spec.extra_rows


def printed_rows(spec: SheetSpec, deals_per_match: int) -> int:
    """Rows of a printed sheet: the deals per match and the game's room for corrections and
    deals that do not count."""
    return deals_per_match + spec.print_extra_rows


def seat_people(pairing: Pairing, game: Game) -> list[dict[str, Any]]:
    """The table's seats for people: the seat (stored, from 0), its number (from 1), the
    player's name and, in a team game, the team."""
    teams = _teams(pairing, game)
    return [
        {
            "seat": s.seat,
            "number": s.seat + 1,
            "name": s.player.name,
            "team": teams.get(game.side_of(s.seat) or "", "") if teams else "",
        }
        for s in pairing.table.seats.select_related("player").order_by("seat")
    ]


def _teams(pairing: Pairing, game: Game) -> dict[str, str]:
    if pairing.team_a is None or pairing.team_b is None or len(game.sides) != 2:
        return {}
    return {game.sides[0]: pairing.team_a.name, game.sides[1]: pairing.team_b.name}


def _options(
    choices: Sequence[tuple[str, str]], value: str, blank: bool
) -> list[tuple[str, str, bool]]:
    out = [("", "–", value == "")] if blank else []
    return out + [(key, text, value == key) for key, text in choices]


def entry_rows(
    spec: SheetSpec, people: Sequence[Mapping[str, Any]], post: Mapping[str, Any], rows: int
) -> dict[str, Any]:
    """The form as the template renders it: the header's seat picker, the column headings and
    each row's cells, with what was posted in them (for the form shown again)."""
    chinese = _chinese()
    seats = [(str(p["seat"]), str(p["name"])) for p in people]
    headings: list[str] = []
    for field in spec.fields:
        if field.kind == "seat_numbers":
            headings += [field.label(chinese=chinese, name=str(p["name"])) for p in people]
        else:
            headings.append(field.label(chinese=chinese))
    table = []
    for n in range(1, rows + 1):
        cells: list[dict[str, Any]] = []
        for field in spec.fields:
            name = f"d{n}_{field.name}"
            value = str(post.get(name, ""))
            label = field.label(chinese=chinese)
            cell: dict[str, Any] = {"kind": field.kind, "name": name, "label": label}
            if field.kind == "seat":
                cell["options"] = _options(seats, value, True)
            elif field.kind == "choice":
                cell["options"] = _options(field.choice_labels(chinese=chinese), value, field.blank)
            elif field.kind == "flag":
                cell["checked"] = value in ("1", "on", "true")
            elif field.kind == "number":
                cell |= {"value": value, "min": field.minimum, "max": field.maximum}
            if field.kind == "seat_numbers":
                for p in people:
                    each = f"{name}_{p['seat']}"
                    cells.append(
                        {
                            "kind": "number",
                            "name": each,
                            "label": field.label(chinese=chinese, name=str(p["name"])),
                            "value": str(post.get(each, "")),
                            "min": field.minimum,
                            "max": field.maximum,
                        }
                    )
            else:
                cells.append(cell)
        table.append({"number": n, "cells": cells})
    first = str(post.get("first_dealer", "" if not spec.first_dealer_required else "0"))
    return {
        "first_dealer": spec.first_dealer(chinese=chinese),
        "required": spec.first_dealer_required,
        "first_options": [
            (str(p["seat"]), f"{p['number']} · {p['name']}", first == str(p["seat"]))
            for p in people
        ],
        "help": spec.help(chinese=chinese),
        "headings": headings,
        "rows": table,
        "typed": spec.typed,
        "lines_example": " ".join(str(p["name"]) for p in people[:3]),
        "count": len(people),
    }


def printed_sheet(spec: SheetSpec, game: Game) -> dict[str, Any]:
    """The printed sheet's header line, columns and instructions, in the page's language."""
    chinese = _chinese()
    columns: list[str] = []
    for column in spec.columns:
        if column.per_seat:
            columns += [column.label(chinese=chinese, seat=s) for s in range(game.seat_count)]
        else:
            columns.append(column.label(chinese=chinese))
    joiner = "、" if chinese else ", "
    sides = [
        _("Seats %(seats)s") % {"seats": joiner.join(str(s + 1) for s in game.side_seats(side))}
        for side in (game.sides if game.fixed_sides and len(game.sides) == 2 else ())
    ]
    return {
        "first_dealer": spec.first_dealer(chinese=chinese, printed=True),
        "columns": columns,
        "help": spec.help(chinese=chinese, printed=True),
        "sides": sides,
    }


def deals_text(deals: list[dict[str, Any]]) -> str:
    """Finishing-order deals in the stored line notation (``1 0 escape 3``, seats from 0), to
    carry a preview's sheet."""
    lines = []
    for deal in deals:
        words = [str(s) for s in deal.get("finish", [])]
        if deal.get("escape") is not None:
            words += ["escape", str(deal["escape"])]
        if deal.get("leave") is not None:
            words += ["leave", str(deal["leave"])]
        lines.append(" ".join(words))
    return "\n".join(lines)


def _typed_json(text: str) -> tuple[Any, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ApplicationError(
            _('The typed sheet is not JSON, such as {"deals": [{"landlord": 0, ...}]}.')
        ) from None
    if isinstance(data, list):
        data = {"deals": data}
    if not isinstance(data, dict) or set(data) - {"first_dealer", "deals"}:
        raise ApplicationError(_('A sheet is {"first_dealer": seat, "deals": [...]}.'))
    return data.get("first_dealer"), data.get("deals")


def posted_sheet(
    post: Mapping[str, Any], game: Game, spec: SheetSpec, rows: int, names: Sequence[str]
) -> tuple[int | None, Any]:
    """The first dealer and the deals as posted: the sheet typed as JSON (the API's body, or
    only its deals), else the typed lines of a game whose deals are finishing orders (``lines``
    as people write them; ``deals`` with seats as stored), else the form's picks. Raises
    ApplicationError."""
    text = str(post.get("sheet", "")).strip()
    if text:
        return _typed_json(text)
    seats = game.seat_count
    wrong = _("The first dealer and every pick are seats from 1 to %(count)d.") % {"count": seats}
    first = str(post.get("first_dealer", "")).strip()
    first_dealer: int | None = None
    if first:
        if not (first.isascii() and first.isdigit() and int(first) < seats):
            raise ApplicationError(wrong)
        first_dealer = int(first)
    elif spec.first_dealer_required:
        raise ApplicationError(wrong)
    lines, stored = str(post.get("lines", "")).strip(), str(post.get("deals", "")).strip()
    if spec.typed == "lines" and lines:
        return first_dealer, lines_parse(lines, names)
    if spec.typed == "lines" and stored:
        return first_dealer, deals_parse(stored, seats)
    try:
        return first_dealer, picked_deals(game, post, rows)
    except PickError as error:
        raise ApplicationError(error.message) from None
