"""Registration import: players and teams from a CSV or XLSX file, checked whole before anything is
written.

Columns (a header row; Chinese or English names): name (姓名), unit (单位 / 部门),
team (队伍 / 队名, optional), employee number (工号, optional). Players without a team are formed
into teams of three within their unit, in file order. Reading and planning are pure (plain
dataclasses, no Django); :func:`tournaments.events.registration_import.event_import` writes a valid
plan in one transaction. Messages are English unless the caller passes its ``gettext`` (the services
pass Django's, so an organizer reads them in their language).
"""

from __future__ import annotations

import csv
import io
import unicodedata
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO
from xml.parsers import expat

from engine.registry import DEFAULT_GAME
from tournaments.common.sides import team_size

__all__ = [
    "COLUMNS",
    "ImportError_",
    "OTHERS_CHOICES",
    "OTHERS_NEW",
    "OTHERS_REFUSE",
    "ImportPlan",
    "PlannedPlayer",
    "PlannedTeam",
    "RowProblem",
    "plan_import",
    "read_table",
]

MAX_ROWS = 5000
#: Rows of an XLSX sheet read at most, blank ones included: the header, MAX_ROWS and some slack.
MAX_SHEET_ROWS = MAX_ROWS + 1000
#: Columns of an XLSX sheet read (the known columns, and room for others to be named as unknown).
MAX_COLUMNS = 50
#: Cells of an XLSX file read at most (a full file of four columns has 20000).
MAX_CELLS = MAX_SHEET_ROWS * 10
#: What an XLSX file may unpack to, all its parts together (a full 5000-row file is about 1 MB).
MAX_XLSX_UNPACKED = 8 * 1024 * 1024

#: Accepted header names for each column (compared case-insensitively, spaces ignored).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "姓名", "选手", "名字"),
    "unit": ("unit", "department", "company", "单位", "部门", "公司"),
    "team": ("team", "队伍", "队名", "团队"),
    "employee_number": ("employee_number", "employeenumber", "employee_no", "工号", "员工号"),
}
REQUIRED = ("name", "unit")

#: Translates a message (a msgid); the default keeps it English.
Gettext = Callable[[str], str]


def _english(message: str) -> str:
    return message


class ImportError_(ValueError):  # noqa: N801 (ImportError is a builtin)
    """The file cannot be read as a table at all (format, encoding, header)."""


@dataclass(frozen=True, slots=True)
class RowProblem:
    """A bad row (numbered as a spreadsheet shows it: the header is row 1) and why."""

    row: int
    message: str


@dataclass(frozen=True, slots=True)
class PlannedPlayer:
    row: int
    name: str
    unit: str
    employee_number: str = ""
    #: the player already known by this unit and employee number whom the import takes again
    #: (None: the row makes a new player)
    reuses: int | None = None


@dataclass(frozen=True, slots=True)
class PlannedTeam:
    name: str
    unit: str
    players: tuple[PlannedPlayer, ...]
    formed: bool = False  # formed automatically within the unit


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What an import would do, or the problems that stop it."""

    problems: tuple[RowProblem, ...] = ()
    teams: tuple[PlannedTeam, ...] = ()
    without_team: tuple[PlannedPlayer, ...] = ()
    new_units: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    #: Why the event takes no import now, and what to do ("" while it does)
    closed: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def players(self) -> list[PlannedPlayer]:
        """Every player of the plan, in file order."""
        found = [p for t in self.teams for p in t.players] + list(self.without_team)
        return sorted(found, key=lambda p: p.row)

    @property
    def player_count(self) -> int:
        return sum(len(t.players) for t in self.teams) + len(self.without_team)

    @property
    def reused(self) -> list[PlannedPlayer]:
        """The rows that take a known player again."""
        return [p for p in self.players if p.reuses is not None]

    @property
    def created(self) -> list[PlannedPlayer]:
        """The rows that make a new player."""
        return [p for p in self.players if p.reuses is None]


def _key(header: str) -> str:
    return "".join(str(header).split()).lower()


def read_table(
    filename: str, content: bytes, *, gettext: Gettext = _english
) -> list[dict[str, str]]:
    """Return the file's rows as dicts keyed by column (name, unit, team, employee_number).

    CSV in UTF-8 (with or without a BOM) or GB18030 as Excel in China saves it, or XLSX (the first
    sheet). Raises ImportError_ for another format, an unreadable file, a missing or unknown column,
    its message translated by ``gettext``.
    """
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        raw = _read_xlsx(content, gettext)
    elif lower.endswith((".csv", ".txt")):
        raw = _read_csv(content, gettext)
    else:
        raise ImportError_(gettext("%(file)s: use a .csv or .xlsx file.") % {"file": filename})
    raw = [r for r in raw if any(str(c or "").strip() for c in r)]
    if not raw:
        raise ImportError_(gettext("The file is empty: the first row names the columns."))
    header, *body = raw
    aliases = {_key(a): column for column, names in COLUMNS.items() for a in names}
    columns: list[str | None] = []
    unknown = []
    for cell in header:
        text = str(cell or "").strip()
        column = aliases.get(_key(text))
        if text and column is None:
            unknown.append(text)
        columns.append(column)
    missing = [c for c in REQUIRED if c not in columns]
    repeated = [c for c, n in Counter(c for c in columns if c).items() if n > 1]
    if missing or unknown or repeated:
        # Translators: separates the items of a list (column names).
        comma = gettext(", ")
        # Translators: separates the clauses of a list ("missing column(s): …; unknown …").
        semicolon = gettext("; ")
        parts = []
        if missing:
            parts.append(
                gettext("missing column(s): %(columns)s") % {"columns": comma.join(missing)}
            )
        if unknown:
            parts.append(
                gettext("unknown column(s): %(columns)s") % {"columns": comma.join(unknown)}
            )
        if repeated:
            parts.append(
                gettext("column(s) given twice: %(columns)s") % {"columns": comma.join(repeated)}
            )
        accepted = semicolon.join(f"{c}: {' / '.join(names)}" for c, names in COLUMNS.items())
        raise ImportError_(
            gettext("Wrong columns (%(problems)s). Accepted headers: %(accepted)s.")
            % {"problems": semicolon.join(parts), "accepted": accepted}
        )
    if len(body) > MAX_ROWS:
        raise _too_many_rows(gettext)
    rows = []
    for cells in body:
        row = {c: "" for c in COLUMNS}
        for column, cell in zip(columns, cells, strict=False):
            if column is not None:
                row[column] = _text(cell)
        rows.append(row)
    return rows


def _too_many_rows(gettext: Gettext) -> ImportError_:
    return ImportError_(
        gettext("At most %(max)d rows per file; this one has more.") % {"max": MAX_ROWS}
    )


def _text(cell: object) -> str:
    if cell is None:
        return ""
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))  # a spreadsheet's number 1001.0 is the employee number 1001
    return str(cell).strip()


def _read_csv(content: bytes, gettext: Gettext) -> list[list[object]]:
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            text = content.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - gb18030 decodes any byte string
        raise ImportError_(gettext("The file is neither UTF-8 nor GB18030 text."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    rows: list[list[object]] = []
    filled = 0
    try:
        for row in reader:
            rows.append(list[object](row))
            filled += any(cell.strip() for cell in row)
            if filled > MAX_ROWS + 1:  # the header and MAX_ROWS players: stop reading
                raise _too_many_rows(gettext)
    except csv.Error as error:  # a field over csv.field_size_limit(), a stray quote, ...
        raise ImportError_(
            gettext("Row %(row)d cannot be read as CSV (%(error)s).")
            % {"row": reader.line_num, "error": error}
        ) from None
    return rows


def _read_xlsx(content: bytes, gettext: Gettext) -> list[list[object]]:
    """The first sheet's rows, read within bounds: what the file says it unpacks to, then the rows
    and cells of its parts, counted as they stream by (openpyxl would parse a whole sheet before
    the first row when its size is not declared), then the rows read (blank ones included)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_XLSX_UNPACKED:
                raise ImportError_(
                    gettext("This XLSX file unpacks to more than %(size)d MB.")
                    % {"size": MAX_XLSX_UNPACKED // (1024 * 1024)}
                )
            for info in archive.infolist():
                if info.filename.endswith(".xml"):
                    with archive.open(info) as part:
                        _xml_within_bounds(part, gettext)
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            sheet.reset_dimensions()  # the rows there are, not blank ones up to a claimed size
            rows: list[list[object]] = []
            for cells in sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS):
                if len(rows) == MAX_SHEET_ROWS:
                    raise _too_many_rows(gettext)
                rows.append(list(cells))
            return rows
        finally:
            book.close()
    except ImportError_:
        raise
    except Exception as exc:  # zipfile, expat and openpyxl raise many kinds for a damaged file
        raise ImportError_(
            gettext("Cannot read this XLSX file (%(error)s).") % {"error": exc.__class__.__name__}
        ) from None


def _xml_within_bounds(part: IO[bytes], gettext: Gettext) -> None:
    """Raise ImportError_ once a part of an XLSX file holds more than MAX_SHEET_ROWS rows or
    MAX_CELLS cells, reading no further (expat's callbacks, no tree is built)."""
    counts = {"row": 0, "c": 0}

    def start(tag: str, attributes: object) -> None:
        local = tag.rpartition("}")[2]
        if local in counts:
            counts[local] += 1
            if counts["row"] > MAX_SHEET_ROWS:
                raise _too_many_rows(gettext)
            if counts["c"] > MAX_CELLS:
                raise ImportError_(
                    gettext("At most %(max)d cells per file; this one has more.")
                    % {"max": MAX_CELLS}
                )

    parser = expat.ParserCreate(namespace_separator="}")
    parser.StartElementHandler = start
    while chunk := part.read(65536):
        parser.Parse(chunk, False)
    parser.Parse(b"", True)


@dataclass(frozen=True, slots=True)
class Existing:
    """What the database already holds that the plan depends on."""

    units: frozenset[str] = frozenset()
    team_names: frozenset[str] = frozenset()
    #: (unit name, employee number) of players already in a team of this event
    in_team: frozenset[tuple[str, str]] = frozenset()
    #: (unit name, employee number) of the players the importer may take again: their id
    reachable: Mapping[tuple[str, str], int] = field(default_factory=dict)
    #: (unit name, employee number) of players known in the meet whom the importer does not
    #: reach (players of events they do not organize)
    unreachable: frozenset[tuple[str, str]] = frozenset()
    #: (unit name, player name) of the players already registered in this event
    registered: frozenset[tuple[str, str]] = frozenset()
    #: Whether players form teams (team events); an individual event registers each player
    teams: bool = True
    #: The players of a team: the seats of a side of the event's game (大怪路子: 3)
    team_size: int = field(default_factory=lambda: team_size(DEFAULT_GAME))


#: What an import does with a row naming a player of an event the importer does not organize.
OTHERS_NEW = "new"  # import them as a new player (the other event's player is left alone)
OTHERS_REFUSE = "refuse"  # refuse the row, naming it
OTHERS_CHOICES = (OTHERS_NEW, OTHERS_REFUSE)


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (NUL, a tab, a line break, ...): no name has
    one, and PostgreSQL refuses NUL in text."""
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def plan_import(
    rows: Sequence[Mapping[str, str]],
    existing: Existing = Existing(),
    *,
    create_units: bool = True,
    others: str = OTHERS_NEW,
    gettext: Gettext = _english,
    team_order: Callable[[Sequence[PlannedPlayer]], Sequence[PlannedPlayer]] | None = None,
) -> ImportPlan:
    """Return the plan for ``rows`` (as :func:`read_table` gives them), listing every bad row.

    A row needs a name and a unit; a player appears once (by employee number within a unit, else
    by name within a unit); a named team has exactly ``existing.team_size`` players (大怪路子:
    three) and a name not yet used in the event; an unknown unit is created unless
    ``create_units`` is false. Players without a team form teams of that size within their unit
    ("<unit>一队", ...); those left over are imported without a team, with a warning. Problems
    and warnings are translated by ``gettext``. ``team_order`` reorders a unit's players who form
    teams (the last ones in file order left over as before): each run of ``team_size`` is a team
    (teams balanced by rating, ``ratings.seeding``).
    """
    problems: list[RowProblem] = []
    seen: dict[tuple[str, str], int] = {}
    players_by_team: dict[str, list[PlannedPlayer]] = defaultdict(list)
    free: dict[str, list[PlannedPlayer]] = defaultdict(list)
    new_units: list[str] = []
    duplicates: list[RowProblem] = []
    individual: list[PlannedPlayer] = []
    team_ignored = False
    for i, row in enumerate(rows, start=2):
        name, unit = row.get("name", "").strip(), row.get("unit", "").strip()
        team, number = row.get("team", "").strip(), row.get("employee_number", "").strip()
        if not name or not unit:
            if not name and not unit:
                problems.append(RowProblem(i, gettext("no name and no unit")))
            elif not name:
                problems.append(RowProblem(i, gettext("no name")))
            else:
                problems.append(RowProblem(i, gettext("no unit")))
            continue
        if any(_has_control(value) for value in (name, unit, team, number)):
            problems.append(
                RowProblem(i, gettext("a value holds a control character (such as NUL or a tab)"))
            )
            continue
        if len(name) > 100 or len(unit) > 100 or len(team) > 100 or len(number) > 32:
            problems.append(RowProblem(i, gettext("a value is too long (100 characters, 工号 32)")))
            continue
        identity = (unit, number) if number else (unit, "name:" + name)
        if identity in seen:
            if number:
                message = gettext(
                    "duplicate player: employee number %(number)s is already on row %(row)d"
                ) % {"number": number, "row": seen[identity]}
            else:
                message = gettext(
                    "duplicate player: %(name)s of %(unit)s is already on row %(row)d"
                ) % {"name": name, "unit": unit, "row": seen[identity]}
            problems.append(RowProblem(i, message))
            continue
        seen[identity] = i
        if number and (unit, number) in existing.in_team:
            message = gettext(
                "%(name)s (%(unit)s, %(number)s) already plays in a team of this event"
            ) % {"name": name, "unit": unit, "number": number}
            problems.append(RowProblem(i, message))
            continue
        if unit not in existing.units and unit not in new_units:
            if not create_units:
                problems.append(RowProblem(i, gettext("unknown unit: %(unit)s") % {"unit": unit}))
                continue
            new_units.append(unit)
        if number and (unit, number) in existing.unreachable and others == OTHERS_REFUSE:
            message = gettext(
                "%(name)s (%(unit)s, %(number)s) is a player of an event you do not organize: "
                "import this row as a new player, or ask that event's organizers"
            ) % {"name": name, "unit": unit, "number": number}
            problems.append(RowProblem(i, message))
            continue
        if not number and (unit, name) in existing.registered:
            duplicates.append(RowProblem(i, name))
        reuses = existing.reachable.get((unit, number)) if number else None
        player = PlannedPlayer(row=i, name=name, unit=unit, employee_number=number, reuses=reuses)
        if not existing.teams:
            individual.append(player)
            team_ignored = team_ignored or bool(team)
        elif team:
            players_by_team[team].append(player)
        else:
            free[unit].append(player)

    teams: list[PlannedTeam] = []
    size = existing.team_size
    for team, members in players_by_team.items():
        if team in existing.team_names:
            message = gettext("the event already has a team called %(team)s") % {"team": team}
            problems.append(RowProblem(members[0].row, message))
        elif len(members) != size:
            message = gettext(
                "team %(team)s has %(count)d player(s) (rows %(rows)s); a team has %(size)d"
            ) % {
                "team": team,
                "count": len(members),
                "rows": gettext(", ").join(str(m.row) for m in members),
                "size": size,
            }
            problems.append(RowProblem(members[0].row, message))
        else:
            units = Counter(m.unit for m in members)
            teams.append(PlannedTeam(team, units.most_common(1)[0][0], tuple(members)))

    taken = set(existing.team_names) | set(players_by_team)
    without: list[PlannedPlayer] = []
    warnings: list[str] = []
    numerals = "一二三四五六七八九十"
    for unit, members in free.items():
        n = 0
        if team_order is not None:
            cut = len(members) - len(members) % size
            members = [*team_order(members[:cut]), *members[cut:]]
        for start in range(0, len(members) - len(members) % size, size):
            while True:
                n += 1
                label = numerals[n - 1] if n <= len(numerals) else str(n)
                name = f"{unit}{label}队"
                if name not in taken:
                    break
            taken.add(name)
            teams.append(PlannedTeam(name, unit, tuple(members[start : start + size]), formed=True))
        left = members[len(members) - len(members) % size :]
        if left:
            without += left
            names = "、".join(p.name for p in left)
            warnings.append(
                gettext(
                    "%(unit)s: %(names)s left without a team (teams have %(size)d players); add "
                    "them to a team by hand"
                )
                % {"unit": unit, "names": names, "size": size}
            )
    if team_ignored:
        warnings.append(
            gettext(
                "An individual event: each player plays for themselves, the team column is ignored"
            )
        )
    if duplicates:
        warnings.insert(
            0,
            gettext(
                "Likely duplicates: %(rows)s already registered in this event under the same "
                "name and unit (no employee number tells them apart); importing makes them again. "
                "Remove those rows, or add 工号 to tell people apart"
            )
            % {
                "rows": gettext(", ").join(
                    gettext("row %(row)d %(name)s") % {"row": d.row, "name": d.message}
                    for d in duplicates
                )
            },
        )
    problems.sort(key=lambda p: p.row)
    return ImportPlan(
        problems=tuple(problems),
        teams=tuple(teams),
        without_team=tuple(without + individual),
        new_units=tuple(new_units),
        warnings=tuple(warnings),
    )
