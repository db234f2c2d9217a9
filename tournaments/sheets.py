"""Offline tables' score sheets as referees enter them, for every game.

A result version carries the game's own sheet (``{"first_dealer"?, "deals": [...]}``, the format
of :meth:`engine.game.Game.score_sheet`; ``docs/xiaoluzi.md`` and ``docs/shanghai_doudizhu.md``,
*Score sheets*). 大怪路子 keeps its finishing orders (checked and worded by
:func:`offline_deals`, typed as lines by :func:`deals_parse`). The organizer's form picks each
deal's fields by player name; :func:`picked_deals` turns the posted picks into the game's deals,
leaving every check of a rule to the engine, which refuses naming the deal and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.exceptions import ApplicationError
from engine.registry import DEFAULT_GAME
from games.services import OfflineDeal

__all__ = [
    "DOUDIZHU",
    "XIAOLUZI",
    "deals_parse",
    "offline_deals",
    "finish_orders",
    "form_choices",
    "picked_deals",
    "sheet_deals_check",
]

DOUDIZHU = "shanghai_doudizhu"
XIAOLUZI = "xiaoluzi"

#: Seats picked in a 小路子 deal's finishing order (mode none ends with three or four out).
XIAOLUZI_PLACES = 4


def finish_orders(game: str) -> bool:
    """Whether ``game``'s sheet is entered as 大怪路子's finishing orders (the first form)."""
    return game == DEFAULT_GAME


def form_choices() -> dict[str, list[tuple[str, Any]]]:
    """The choices of the per-game entry form's selects (values as the engine names them)."""
    return {
        "doudizhu_ends": [
            ("landlord", gettext_lazy("Landlord wins (地主胜)")),
            ("farmers", gettext_lazy("Farmers win (农民胜)")),
            ("all_pass", gettext_lazy("All pass (荒番)")),
            ("escape", gettext_lazy("Escape (逃跑)")),
            ("leave", gettext_lazy("Left before the deal")),
        ],
        "reports": [
            ("none", gettext_lazy("No 报到")),
            ("play", gettext_lazy("报到 打 (play)")),
            ("no_play", gettext_lazy("报到 不打 (no play)")),
            ("double_play", gettext_lazy("双报到 打")),
            ("double_no_play", gettext_lazy("双报到 不打")),
        ],
        "escape_kinds": [
            ("active", gettext_lazy("left the table (主动)")),
            ("disconnect", gettext_lazy("disconnected (掉线)")),
            ("timeouts", gettext_lazy("timed out (超时)")),
        ],
        "escape_during": [
            ("play", gettext_lazy("during play")),
            ("bidding", gettext_lazy("during the bidding")),
        ],
        "modes": [
            ("none", gettext_lazy("No declaration (无声明)")),
            ("declared", gettext_lazy("Declared (声明)")),
            ("countered", gettext_lazy("Counter-declared (反声明)")),
            ("leave", gettext_lazy("Left before the deal")),
        ],
    }


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
    """A posted pick that is not a number (a seat, a bid, a count), or missing where the row
    needs it (the seat that left)."""

    def __init__(self, deal: int, field: str) -> None:
        super().__init__(f"deal {deal}: {field}")
        self.deal = deal
        self.field = field

    @property
    def message(self) -> str:
        return _("Deal %(deal)d: %(field)s: pick a number.") % {
            "deal": self.deal,
            "field": self.field,
        }


def _number(post: Mapping[str, Any], name: str, deal: int, field: str) -> int | None:
    value = str(post.get(name, "")).strip()
    if not value:
        return None
    if value.isascii() and value.isdigit() and len(value) <= 3:
        return int(value)
    raise PickError(deal, field)


def _required(value: int | None, deal: int, field: str) -> int:
    if value is None:
        raise PickError(deal, field)
    return value


def _flag(post: Mapping[str, Any], name: str) -> bool:
    return str(post.get(name, "")) in ("1", "on", "true")


def picked_deals(game: str, post: Mapping[str, Any], rows: int) -> list[dict[str, Any]]:
    """The deals of ``game``'s sheet from the form's picks (rows without a pick are skipped);
    raises :class:`PickError` for a pick that is not a number."""
    pick = _doudizhu_deal if game == DOUDIZHU else _xiaoluzi_deal
    deals = []
    for n in range(1, rows + 1):
        deal = pick(post, n)
        if deal is not None:
            deals.append(deal)
    return deals


def _doudizhu_deal(post: Mapping[str, Any], n: int) -> dict[str, Any] | None:
    end = str(post.get(f"d{n}_end", "")).strip()
    if not end and str(post.get(f"d{n}_leave", "")).strip():
        end = "leave"  # only the seat that left is picked
    if not end:
        return None

    def number(field: str) -> int | None:
        return _number(post, f"d{n}_{field}", n, field)

    if end == "leave":
        return {"leave": _required(number("leave"), n, "leave")}
    deal: dict[str, Any] = {}
    if end == "all_pass":
        deal["all_pass"] = True
    elif end == "escape":
        deal["escape"] = {
            "seat": number("escape"),
            "kind": str(post.get(f"d{n}_escape_kind", "")) or None,
            "during": str(post.get(f"d{n}_escape_during", "")) or None,
        }
    else:
        deal["winner"] = end
    if end != "all_pass":
        for field in ("landlord", "bid"):
            value = number(field)
            if value is not None:
                deal[field] = value
        for field in ("head_bid", "open_hand"):
            if _flag(post, f"d{n}_{field}"):
                deal[field] = True
        report = str(post.get(f"d{n}_report", "")).strip()
        if report and report != "none":
            deal["report"] = report
        redeals = number("redeals")
        if redeals:
            deal["redeals"] = redeals
    if _flag(post, f"d{n}_marked_joker"):
        deal["marked_joker"] = True
    first_bidder = number("first_bidder")
    if first_bidder is not None:
        deal["first_bidder"] = first_bidder
    return deal


def _xiaoluzi_deal(post: Mapping[str, Any], n: int) -> dict[str, Any] | None:
    mode = str(post.get(f"d{n}_mode", "")).strip()
    if not mode and str(post.get(f"d{n}_leave", "")).strip():
        mode = "leave"  # only the seat that left is picked
    if not mode:
        return None

    def number(field: str, name: str | None = None) -> int | None:
        return _number(post, f"d{n}_{name or field}", n, field)

    if mode == "leave":
        return {"leave": _required(number("leave"), n, "leave")}
    deal: dict[str, Any] = {"mode": mode}
    for field in ("declarer", "counter"):
        value = number(field)
        if value is not None:
            deal[field] = value
    finish = [number("finish", str(k)) for k in range(1, XIAOLUZI_PLACES + 1)]
    deal["finish"] = [s for s in finish if s is not None]
    escape = number("escape")
    if escape is not None:
        deal["escape"] = escape
        return deal
    if _flag(post, f"d{n}_slam"):
        deal["slam"] = True
    played = [number("played", f"played_{s}") for s in range(4)]
    if any(p is not None for p in played):
        deal["played"] = played
    return deal


def deals_parse(text: str) -> list[dict[str, Any]]:
    """Return the deals of a referee's sheet, one line per deal: the seats in the order they went
    out (``0 2 4``), then ``escape S`` if seat S escaped during it (``0 1 escape 3``), or only
    ``leave S`` for a seat that left before it. Raises ApplicationError naming the bad line.

    >>> deals_parse("0 2 4\\n1 0 escape 3\\nleave 5")
    [{'finish': [0, 2, 4]}, {'finish': [1, 0], 'escape': 3}, {'finish': [], 'leave': 5}]
    """

    deals: list[dict[str, Any]] = []
    words = {"escape": "escape", "逃跑": "escape", "leave": "leave", "离开": "leave"}
    for number, line in enumerate(text.replace(",", " ").replace("，", " ").splitlines(), 1):
        tokens = line.split()
        if not tokens:
            continue
        deal: dict[str, Any] = {"finish": []}
        try:
            i = 0
            while i < len(tokens):
                word = words.get(tokens[i].lower())
                if word is not None:
                    deal[word] = int(tokens[i + 1])
                    i += 2
                else:
                    deal["finish"].append(int(tokens[i]))
                    i += 1
        except (ValueError, IndexError):
            raise ApplicationError(
                _(
                    "Line %(line)d (“%(text)s”): write seats 0-5 separated by spaces, then "
                    "'escape S' or only 'leave S'."
                )
                % {"line": number, "text": line.strip()}
            ) from None
        deals.append(deal)
    return deals


def _seat(value: Any) -> int:
    """A seat given as a whole number (``2`` or ``"2"``); ValueError for anything else: a float
    (``2.2`` is no seat, and ``1e400`` is no number), a bool, a list."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value)
    raise ValueError(value)


def offline_deals(deals: Any) -> list[OfflineDeal]:
    """大怪路子's deals as sent (``{"finish", "escape", "leave"}``), checked for seats 0-5;
    raises ApplicationError naming the deal."""
    if not isinstance(deals, list) or not deals:
        raise ApplicationError(_("Enter at least one deal."))
    out: list[OfflineDeal] = []
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict) or not isinstance(deal.get("finish", []), list):
            raise ApplicationError(
                _("Deal %(deal)d: give 'finish' as a list of seats.") % {"deal": number}
            )
        try:
            finish = tuple(_seat(s) for s in deal.get("finish", []))
            escape = None if deal.get("escape") is None else _seat(deal["escape"])
            leave = None if deal.get("leave") is None else _seat(deal["leave"])
        except ValueError:
            raise ApplicationError(
                _("Deal %(deal)d: seats are numbers 0 to 5.") % {"deal": number}
            ) from None
        if any(not 0 <= s <= 5 for s in (*finish, *(x for x in (escape, leave) if x is not None))):
            raise ApplicationError(_("Deal %(deal)d: seats are numbers 0 to 5.") % {"deal": number})
        if escape is not None and leave is not None:
            raise ApplicationError(
                _("Deal %(deal)d: an escape or a leaving, not both.") % {"deal": number}
            )
        if leave is not None and finish:
            raise ApplicationError(
                _("Deal %(deal)d: a seat leaving between deals has no order.") % {"deal": number}
            )
        out.append(OfflineDeal(finish=finish, escape=escape, leave=leave))
    return out
