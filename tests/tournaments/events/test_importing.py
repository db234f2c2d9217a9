"""Registration import: CSV and XLSX, a preview listing every bad row, nothing written unless the
whole file is valid, units created on the way, teams formed within units."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from django.utils import translation
from openpyxl import Workbook

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from games.models import Player
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.events.importing import Existing, ImportError_, plan_import, read_table
from tournaments.events.registration_import import event_import, event_import_plan
from tournaments.models import Event, Membership, Team, Unit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):  # the messages below are matched in English
        yield


GOOD = """姓名,部门,队伍,工号
张伟,研发中心,研发一队,1001
王芳,研发中心,研发一队,1002
李娜,研发中心,研发一队,1003
刘洋,市场部,,2001
陈静,市场部,,2002
杨帆,市场部,,2003
赵磊,市场部,,2004
"""


def test_read_csv_with_chinese_headers_and_a_bom() -> None:
    rows = read_table("players.csv", ("\ufeff" + GOOD).encode("utf-8"))
    assert rows[0] == {
        "name": "张伟",
        "unit": "研发中心",
        "team": "研发一队",
        "employee_number": "1001",
    }
    assert len(rows) == 7


def test_read_csv_saved_by_excel_in_gb18030() -> None:
    rows = read_table("players.csv", GOOD.encode("gb18030"))
    assert rows[3]["name"] == "刘洋"


def test_read_xlsx_with_english_headers_and_numeric_employee_numbers() -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["Name", "Unit", "Team", "Employee number"])
    sheet.append(["Ann", "Sales", "Sales A", 1001])
    out = io.BytesIO()
    book.save(out)
    rows = read_table("players.xlsx", out.getvalue())
    assert rows == [{"name": "Ann", "unit": "Sales", "team": "Sales A", "employee_number": "1001"}]


@pytest.mark.parametrize(
    ("filename", "content", "message"),
    [
        ("players.pdf", b"x", "use a .csv or .xlsx"),
        ("players.csv", b"", "empty"),
        ("players.csv", "姓名,年龄\n张伟,30\n".encode(), "missing column"),
        ("players.csv", "姓名,部门,爱好\n张伟,研发,牌\n".encode(), "unknown column"),
        ("players.csv", "姓名,部门,单位\n".encode(), "given twice"),
        ("players.xlsx", b"not a zip", "Cannot read this XLSX"),
    ],
)
def test_unreadable_files_say_why(filename: str, content: bytes, message: str) -> None:
    with pytest.raises(ImportError_, match=message):
        read_table(filename, content)


def test_plan_lists_every_bad_row() -> None:
    rows = [
        {"name": "A", "unit": "U", "team": "T", "employee_number": "1"},
        {"name": "B", "unit": "U", "team": "T", "employee_number": "1"},  # duplicate number
        {"name": "", "unit": "U", "team": "", "employee_number": ""},  # no name
        {"name": "C", "unit": "V", "team": "", "employee_number": ""},  # unknown unit
        {"name": "D", "unit": "U", "team": "Old", "employee_number": "4"},
        {"name": "E", "unit": "U", "team": "Old", "employee_number": "5"},
        {"name": "F", "unit": "U", "team": "Old", "employee_number": "6"},  # team name taken
        {"name": "G", "unit": "U", "team": "", "employee_number": "7"},  # already in a team
    ]
    existing = Existing(
        units=frozenset({"U"}), team_names=frozenset({"Old"}), in_team=frozenset({("U", "7")})
    )
    plan = plan_import(rows, existing, create_units=False)
    assert not plan.ok
    assert [(p.row, p.message.split(":")[0]) for p in plan.problems] == [
        (2, "team T has 1 player(s) (rows 2); a team has 3"),
        (3, "duplicate player"),
        (4, "no name"),
        (5, "unknown unit"),
        (6, "the event already has a team called Old"),
        (9, "G (U, 7) already plays in a team of this event"),
    ]


def test_plan_forms_teams_of_three_within_a_unit_and_warns_about_the_rest() -> None:
    rows = [
        {"name": f"P{i}", "unit": "U" if i < 7 else "V", "team": "", "employee_number": ""}
        for i in range(8)
    ]
    plan = plan_import(rows, Existing(team_names=frozenset({"U一队"})))
    assert plan.ok
    assert [(t.name, [p.name for p in t.players]) for t in plan.teams] == [
        ("U二队", ["P0", "P1", "P2"]),
        ("U三队", ["P3", "P4", "P5"]),
    ]
    assert [p.name for p in plan.without_team] == ["P6", "P7"]
    assert len(plan.warnings) == 2 and plan.new_units == ("U", "V")


def test_event_import_writes_players_units_memberships_and_teams() -> None:
    event = EventFactory()
    UnitFactory(name="研发中心")
    plan = event_import_plan(event=event, filename="p.csv", content=GOOD.encode())
    assert plan.ok and plan.new_units == ("市场部",) and plan.player_count == 7
    assert not Team.objects.exists()  # a preview writes nothing
    event_import(event=event, filename="p.csv", content=GOOD.encode())
    assert sorted(event.teams.values_list("name", flat=True)) == ["市场部一队", "研发一队"]
    team = event.teams.get(name="研发一队")
    assert [m.player.name for m in team.members.order_by("order")] == ["张伟", "王芳", "李娜"]
    assert team.unit.name == "研发中心" and Unit.objects.filter(name="研发中心").count() == 1
    assert Membership.objects.get(player__name="赵磊").unit.name == "市场部"
    assert Player.objects.count() == 7
    # The same people in another event: players are found again by unit and employee number.
    other = EventFactory(meet=event.meet)
    event_import(event=other, filename="p.csv", content=GOOD.encode())
    assert Player.objects.count() == 7 and other.teams.count() == 2


def test_a_bad_file_writes_nothing_and_lists_the_rows() -> None:
    event = EventFactory()
    bad = GOOD + "王芳,研发中心,,1002\n"
    with pytest.raises(ApplicationError) as error:
        event_import(event=event, filename="p.csv", content=bad.encode())
    assert error.value.extra["problems"] == [
        {"row": 9, "message": "duplicate player: employee number 1002 is already on row 3"}
    ]
    assert not Player.objects.exists() and not Unit.objects.exists() and not Team.objects.exists()


def test_import_is_for_organizers_during_registration() -> None:
    event = EventFactory(status=Event.Status.RUNNING)
    with pytest.raises(ConflictError, match="during registration"):
        event_import(event=event, filename="p.csv", content=GOOD.encode())
    with pytest.raises(NotAllowedError):
        event_import(
            event=EventFactory(), filename="p.csv", content=GOOD.encode(), user=UserFactory()
        )
    with pytest.raises(ApplicationError, match="Wrong columns"):
        event_import(event=EventFactory(), filename="p.csv", content=b"a,b\n1,2\n")


def test_players_already_in_a_team_are_refused() -> None:
    event = EventFactory()
    event_import(event=event, filename="p.csv", content=GOOD.encode())
    again = "姓名,部门,工号\n张伟,研发中心,1001\n"
    plan = event_import_plan(event=event, filename="p.csv", content=again.encode())
    assert [p.message for p in plan.problems] == [
        "张伟 (研发中心, 1001) already plays in a team of this event"
    ]
    TeamFactory(event=event)


def test_import_players_command(tmp_path, capsys) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    event = EventFactory()
    good = tmp_path / "players.csv"
    good.write_text(GOOD, encoding="utf-8")
    call_command("import_players", str(event.pk), str(good), "--dry-run")
    assert "would import 7 players in 2 teams" in capsys.readouterr().out
    assert not Team.objects.exists()
    bad = tmp_path / "bad.csv"
    bad.write_text(GOOD + ",研发中心,,\n", encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_players", str(event.pk), str(bad))
    assert error.value.returncode == 2 and "row 9: no name" in str(error.value)
    with pytest.raises(CommandError, match="No event with id 999999"):
        call_command("import_players", "999999", str(good))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_players", str(event.pk), str(tmp_path / "missing.csv"))
    call_command("import_players", str(event.pk), str(good))
    assert event.teams.count() == 2
