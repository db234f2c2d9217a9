"""Score sheets of offline tables, for every game: the declarative spec that one entry form, its
preview and the printed sheet render (:class:`SheetSpec`), and the reading of a referee's sheet
(JSON) field by field for the games' ``score_sheet`` (:class:`Fields`).

A game describes its sheet once (``Game.sheet_spec``): the fields of a deal (their kinds, choices,
limits and labels in Chinese and English), the header (the first dealer), the columns of the
printed sheet, its instructions, how a row of the form becomes one of the game's deals, and each
deal's result in words. The site renders every game's sheet from it and names no game
(``docs/adding-a-game.md``, *Score sheets / 记分表*).

Every refusal is an :class:`~engine.errors.EngineError` worded ``deal N: FIELD: why`` (or
``sheet: FIELD: why`` for the sheet's header), in English; the site translates it.

>>> Fields({"bid": 4}, 2).integer("bid", low=1, high=3)
Traceback (most recent call last):
...
engine.errors.EngineError: deal 2: bid: must be a number 1-3, not 4
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from engine.errors import EngineError, register_messages

__all__ = [
    "FIELD_KINDS",
    "DealWords",
    "Fields",
    "PickMissing",
    "SheetColumn",
    "SheetField",
    "SheetSpec",
    "places",
    "seat_name",
    "sheet_deals",
    "words",
]

register_messages(
    {
        "sheet.object": "a score sheet is an object, not {value!r}",
        "sheet.deals_list": "a list of deals, not {value!r}",
        "sheet.deal_object": "a deal is an object, not {value!r}",
        "sheet.unknown_field": "unknown field (use {allowed})",
        "sheet.missing": "missing",
        "sheet.number_range": "must be a number {low}-{high}, not {value!r}",
        "sheet.number_min": "must be a number {low} or more, not {value!r}",
        "sheet.seat_missing": "missing: a seat 0-3",
        "sheet.seat": "must be a seat 0-3, not {value!r}",
        "sheet.flag": "must be true or false, not {value!r}",
        "sheet.choice_missing": "missing: one of {choices}",
        "sheet.choice": "must be one of {choices}, not {value!r}",
        "sheet.seat_list": "must be a list of seats 0-3, not {value!r}",
        "sheet.seat_in_list": "{seat!r} is not a seat 0-3 in {value!r}",
        "sheet.seat_twice": "a seat appears twice in {value!r}",
        "sheet.four_counts": "must be four numbers, one per seat, not {value!r}",
        "sheet.count_range": "each count is 0-{high}, not {value!r}",
        "sheet.match_ended": "the match has already ended ({end})",
    }
)

# --- The spec: what a form, its preview and a printed sheet show --------------------------------

#: The kinds of a deal's field on the form: a seat (picked by the player's name), one of the
#: field's ``choices``, a tick, a whole number ``minimum .. maximum``, or a number per seat.
FIELD_KINDS = ("seat", "choice", "flag", "number", "seat_numbers")


@dataclass(frozen=True, slots=True)
class SheetField:
    """One field of a deal on the entry form.

    ``name`` is the form's name of it (row ``n`` posts ``d{n}_{name}``; a ``seat_numbers`` field
    posts ``d{n}_{name}_{seat}`` per seat) and the key :attr:`SheetSpec.form_deal` reads;
    ``field`` is the deal's JSON field a refusal names (``"finish"`` for a place). ``kind`` is one
    of :data:`FIELD_KINDS`. ``choices`` are ``(value, Chinese, English)``; ``blank`` lets a
    choice be left empty. Labels may hold ``{name}`` (the player of a ``seat_numbers`` seat).
    ``help_zh``/``help_en`` say what to enter, for people.
    """

    name: str
    kind: str
    label_zh: str
    label_en: str
    field: str = ""
    choices: tuple[tuple[str, str, str], ...] = ()
    blank: bool = True
    minimum: int = 0
    maximum: int | None = None
    help_zh: str = ""
    help_en: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"a sheet field's kind is one of {FIELD_KINDS}, not {self.kind!r}")

    @property
    def refused_as(self) -> str:
        """The deal's field a refusal of this one names."""
        return self.field or self.name

    def label(self, *, chinese: bool = True, name: str = "") -> str:
        """The field's label in Chinese (the default) or English (``name``: a seat's player)."""
        return (self.label_zh if chinese else self.label_en).format(name=name)

    def help(self, *, chinese: bool = True) -> str:
        return self.help_zh if chinese else self.help_en

    def choice_labels(self, *, chinese: bool = True) -> list[tuple[str, str]]:
        """The choices as ``(value, label)`` in one language."""
        return [(value, zh if chinese else en) for value, zh, en in self.choices]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "field": self.refused_as,
            "label_zh": self.label_zh,
            "label_en": self.label_en,
            "minimum": self.minimum,
            "maximum": self.maximum,
        }
        if self.choices:
            data["choices"] = [{"value": v, "zh": zh, "en": en} for v, zh, en in self.choices]
            data["blank"] = self.blank
        if self.help_zh or self.help_en:
            data["help_zh"], data["help_en"] = self.help_zh, self.help_en
        return data


@dataclass(frozen=True, slots=True)
class SheetColumn:
    """A column of the printed sheet, where the referee writes by hand; ``per_seat`` repeats it
    once per seat (its labels may hold ``{seat}``, counted from 1, and ``{name}``)."""

    label_zh: str
    label_en: str
    per_seat: bool = False

    def label(self, *, chinese: bool = True, seat: int = 0, name: str = "") -> str:
        """The column's heading (``seat`` counted from 0, shown from 1)."""
        return (self.label_zh if chinese else self.label_en).format(seat=seat + 1, name=name)


class PickMissing(ValueError):
    """A row of the form that lacks a pick it needs (:attr:`SheetSpec.form_deal` raises it):
    ``field`` names the deal's field (``"leave"``: the seat that left)."""

    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


#: The words of a deal's result: ``(result, seats, sides, english)`` -> text, where ``seats`` are
#: the players' names by seat and ``sides`` the sides' names at this table (a team's name).
DealWords = Callable[[Mapping[str, Any], Sequence[str], Mapping[str, str], bool], str]


def _no_words(
    result: Mapping[str, Any], seats: Sequence[str], sides: Mapping[str, str], english: bool
) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class SheetSpec:
    """A game's score sheet, for one generic entry form, its preview and the printed sheet.

    * ``fields``: a deal's fields on the form, in order; ``form_deal`` turns one row's values
      (by field name: a seat or number as ``int``, a tick as ``bool``, a choice as ``str``,
      ``None`` when not picked; a ``seat_numbers`` field a list of ``int | None`` per seat) into
      the game's deal (the JSON ``score_sheet`` takes), or ``None`` for a blank row; it raises
      :class:`PickMissing` for a row that lacks a pick it needs. The engine checks the rest.
    * ``first_dealer_zh``/``_en``: the header's seat (the JSON ``first_dealer``) on the form,
      ``first_dealer_required`` whether it must be picked (else it may stay blank);
      ``first_dealer_print_zh``/``_en`` its line on the printed sheet.
    * ``help_zh``/``help_en``: what to enter, above the form; ``print_help_zh``/``_en`` under
      the printed sheet; ``columns`` the printed sheet's columns after the deal's number.
    * ``extra_rows``: the form's rows beyond the deals per match (deals that do not count, such
      as 上海斗地主's all-pass deals); ``print_extra_rows`` the printed sheet's.
    * ``typed``: how a referee may type the sheet instead: ``"lines"`` (one line per deal: the
      finishing order, ``escape`` and a seat, or ``leave`` and a seat; the deals are
      ``{"finish", "escape"?, "leave"?}``) or ``"json"`` (the sheet as the API takes it).
    * ``describe``: each deal's result in words, for the preview (:data:`DealWords`).
    """

    fields: tuple[SheetField, ...]
    form_deal: Callable[[Mapping[str, Any]], dict[str, Any] | None]
    columns: tuple[SheetColumn, ...]
    first_dealer_zh: str
    first_dealer_en: str
    first_dealer_print_zh: str
    first_dealer_print_en: str
    first_dealer_required: bool = False
    help_zh: str = ""
    help_en: str = ""
    print_help_zh: str = ""
    print_help_en: str = ""
    extra_rows: int = 0
    print_extra_rows: int = 0
    typed: str = "json"
    describe: DealWords = field(default=_no_words)

    def first_dealer(self, *, chinese: bool = True, printed: bool = False) -> str:
        """The header's label on the form (or on the printed sheet)."""
        if printed:
            return self.first_dealer_print_zh if chinese else self.first_dealer_print_en
        return self.first_dealer_zh if chinese else self.first_dealer_en

    def help(self, *, chinese: bool = True, printed: bool = False) -> str:
        if printed:
            return self.print_help_zh if chinese else self.print_help_en
        return self.help_zh if chinese else self.help_en

    def to_json(self) -> dict[str, Any]:
        return {
            "fields": [f.to_json() for f in self.fields],
            "columns": [
                {"label_zh": c.label_zh, "label_en": c.label_en, "per_seat": c.per_seat}
                for c in self.columns
            ],
            "first_dealer": {
                "label_zh": self.first_dealer_zh,
                "label_en": self.first_dealer_en,
                "required": self.first_dealer_required,
            },
            "help_zh": self.help_zh,
            "help_en": self.help_en,
            "extra_rows": self.extra_rows,
            "typed": self.typed,
        }


def seat_name(seats: Sequence[str], value: Any) -> str:
    """The name of seat ``value`` among ``seats`` (for a deal's words), ``"–"`` for no seat."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(seats):
        return seats[value]
    return "–"


def words(english: bool, zh: str, en: str, /, **params: Any) -> str:
    """One of a deal's words in the page's language, with ``params`` filled in."""
    return (en if english else zh).format(**params)


def places(count: int, *, field: str = "finish") -> tuple[SheetField, ...]:
    """The fields of a finishing order: places ``1 .. count``, each a seat (named ``"1"``...)."""
    return tuple(
        SheetField(str(k), "seat", f"第{k}名", f"Place {k}", field=field)
        for k in range(1, count + 1)
    )


# --- Reading a sheet's JSON ---------------------------------------------------------------------


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
