"""Registration import within bounds (issue 11): a CSV field over the csv module's limit, a control
character in a value, and an XLSX file that unpacks or streams far past the row limit are refused
with a message, quickly, and nothing is written."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation
from openpyxl import Workbook

from config.exceptions import ApplicationError
from games.models import Player
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.events.importing import (
    MAX_CELLS,
    MAX_ROWS,
    MAX_SHEET_ROWS,
    ImportError_,
    plan_import,
    read_table,
)
from tournaments.events.registration_import import event_import, event_import_plan
from tournaments.events.staff import event_organizer_add
from tournaments.models import Team, Unit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def _sheet_xlsx(rows: int, *, dimension: bool, cells: int = 2) -> bytes:
    """A hand-made XLSX whose first sheet has a header and ``rows - 1`` rows of ``cells`` numbers,
    each row alike (so a million of them pack into some 100 KB), with or without a <dimension>."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{kind}.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" '
            f'ContentType="{kind}.worksheet+xml"/></Types>'
        ),
        "_rels/.rels": (
            f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" '
            f'Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
            '<sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" '
            f'Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": "".join(
            [
                f'<worksheet xmlns="{main}">',
                f'<dimension ref="A1:B{rows}"/>' if dimension else "",
                "<sheetData>",
                '<row><c t="inlineStr"><is><t>name</t></is></c>',
                '<c t="inlineStr"><is><t>unit</t></is></c></row>',
                ("<row><c><v>1</v></c>" + "<c><v>2</v></c>" * (cells - 1) + "</row>") * (rows - 1),
                "</sheetData></worksheet>",
            ]
        ),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


def test_a_csv_field_over_the_csv_limit_is_refused_naming_the_row() -> None:
    content = ("姓名,部门\n张伟,研发中心\n" + '"' + "x" * 200_000 + '",研发中心\n').encode()
    with pytest.raises(ImportError_, match=r"Row 3 cannot be read as CSV"):
        read_table("p.csv", content)
    event = EventFactory()
    with pytest.raises(ApplicationError, match="Row 3"):
        event_import_plan(event=event, filename="p.csv", content=content)
    with pytest.raises(ApplicationError, match="Row 3"):
        event_import(event=event, filename="p.csv", content=content)
    assert not Player.objects.exists() and not Unit.objects.exists()


@pytest.mark.parametrize("bad", ["张\x00伟", "张伟\x00", "张\t伟", "张\n伟", "\x1b[31m张伟"])
def test_a_control_character_is_refused_in_the_dry_run_and_the_import(bad: str) -> None:
    rows = [{"name": "王芳", "unit": "研发中心"}, {"name": bad, "unit": "研发中心"}]
    plan = plan_import(rows)
    assert [(p.row, p.message) for p in plan.problems] == [
        (3, "a value holds a control character (such as NUL or a tab)")
    ]
    for column in ("unit", "team", "employee_number"):
        assert not plan_import([{"name": "王芳", "unit": "研发中心", column: bad}]).ok
    content = f'姓名,部门\n王芳,研发中心\n"{bad}",研发中心\n'.encode()
    event = EventFactory()
    preview = event_import_plan(event=event, filename="p.csv", content=content)
    assert [p.row for p in preview.problems] == [3]
    with pytest.raises(ApplicationError) as error:
        event_import(event=event, filename="p.csv", content=content)
    assert [p["row"] for p in error.value.extra["problems"]] == [3]
    assert not Player.objects.exists() and not Team.objects.exists()


def test_a_nul_in_an_uploaded_file_is_named_in_the_preview_page() -> None:
    event = EventFactory()
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    client = Client(raise_request_exception=False)
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    upload = io.BytesIO("姓名,部门\n张\x00伟,研发中心\n".encode())
    upload.name = "p.csv"
    response = client.post(f"/events/{event.pk}/manage/import/", {"file": upload})
    assert response.status_code == 200
    assert "control character" in response.content.decode()
    response = client.post(f"/events/{event.pk}/manage/import/", {"step": "import"}, follow=True)
    assert response.status_code == 200 and not Player.objects.exists()


def test_many_csv_rows_are_refused() -> None:
    content = ("name,unit\n" + "张伟,研发中心\n" * (MAX_ROWS + 1)).encode()
    with pytest.raises(ImportError_, match=f"At most {MAX_ROWS} rows"):
        read_table("p.csv", content)
    read_table("p.csv", ("name,unit\n" + "张伟,研发中心\n" * MAX_ROWS).encode())


@pytest.mark.parametrize("dimension", [True, False])
def test_a_small_xlsx_of_a_million_rows_is_refused_at_once(dimension: bool) -> None:
    # was: 12 s and 46 MB of a web process before the row limit refused it
    content = _sheet_xlsx(1_000_000, dimension=dimension)
    assert len(content) < 200_000
    began = time.monotonic()
    with pytest.raises(ImportError_, match="unpacks to more than"):
        read_table("p.xlsx", content)
    assert time.monotonic() - began < 1.0


@pytest.mark.parametrize("dimension", [True, False])
def test_an_xlsx_over_the_row_limit_stops_reading_at_the_limit(dimension: bool) -> None:
    content = _sheet_xlsx(150_000, dimension=dimension)  # unpacks to less than the size limit
    began = time.monotonic()
    with pytest.raises(ImportError_, match=f"At most {MAX_ROWS} rows"):
        read_table("p.xlsx", content)
    assert time.monotonic() - began < 2.0
    rows = read_table("p.xlsx", _sheet_xlsx(MAX_ROWS + 1, dimension=dimension))
    assert len(rows) == MAX_ROWS and rows[0] == {
        "name": "1",
        "unit": "2",
        "team": "",
        "employee_number": "",
    }
    with pytest.raises(ImportError_, match=f"At most {MAX_ROWS} rows"):
        read_table("p.xlsx", _sheet_xlsx(MAX_SHEET_ROWS + 2, dimension=dimension))


def test_an_xlsx_with_rows_of_many_cells_is_refused() -> None:
    content = _sheet_xlsx(22, dimension=False, cells=15_000)  # far past the columns read
    began = time.monotonic()
    with pytest.raises(ImportError_, match=f"At most {MAX_CELLS} cells"):
        read_table("p.xlsx", content)
    assert time.monotonic() - began < 2.0


def test_a_claimed_dimension_larger_than_the_rows_is_not_read_as_blank_rows() -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["姓名", "部门"])
    sheet.append(["张伟", "研发中心"])
    out = io.BytesIO()
    book.save(out)
    with zipfile.ZipFile(out) as archive:
        parts = {n: archive.read(n) for n in archive.namelist()}
    sheet_xml = parts["xl/worksheets/sheet1.xml"]
    assert b'<dimension ref="A1:B2"' in sheet_xml
    parts["xl/worksheets/sheet1.xml"] = sheet_xml.replace(b"A1:B2", b"A1:XFD1048576")
    bigger = io.BytesIO()
    with zipfile.ZipFile(bigger, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    began = time.monotonic()
    rows = read_table("p.xlsx", bigger.getvalue())
    assert rows == [{"name": "张伟", "unit": "研发中心", "team": "", "employee_number": ""}]
    assert time.monotonic() - began < 1.0
