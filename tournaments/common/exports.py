"""Spreadsheet downloads. Every CSV the site writes goes through :func:`csv_download`, and every
cell through :func:`spreadsheet_cell` (an XLSX writer would pass its cells through it too), so a
name such as ``=HYPERLINK(...)`` is shown as text by a spreadsheet program, never run as a formula.
Numbers stay numbers (-18 points is -18); the import keeps names as given.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.http import HttpResponse

#: What makes a spreadsheet program read a text cell as a formula (or a DDE call): =, +, -, @, and
#: a tab or a carriage return in front of one of them.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_cell(value: object) -> object:
    """Return ``value`` safe to write as a spreadsheet cell: a number as it is, None as "", text
    that a spreadsheet would run as a formula behind an apostrophe (which it shows as text).

    >>> spreadsheet_cell("=HYPERLINK(\\"http://x\\")")
    '\\'=HYPERLINK("http://x")'
    >>> spreadsheet_cell(-18), spreadsheet_cell("-18"), spreadsheet_cell("张伟")
    (-18, '-18', '张伟')
    """
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal):  # bool included: written True / False
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_download(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    """A CSV attachment: UTF-8 with a BOM (so spreadsheet programs read Chinese names), every cell
    through :func:`spreadsheet_cell`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([spreadsheet_cell(h) for h in header])
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    response = HttpResponse("\ufeff" + buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
