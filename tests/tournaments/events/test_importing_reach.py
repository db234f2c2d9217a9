"""Issue 25: an organizer takes over another organizer's player. An import takes a known player
again only when the importer already reaches them (a player of one of their events); otherwise the
row makes a new player, or is refused, as the importer chooses, and the preview says which rows
take a player again and which make a new one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import translation

from accounts.models import LoginCode
from games.models import Player
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, MeetFactory, TeamFactory, UnitFactory
from tournaments.events.entries import membership_ensure
from tournaments.events.registration_import import event_import
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, Membership, Registration

pytestmark = pytest.mark.django_db

ROW = "姓名,部门,工号\n张伟,研发中心,HD0001\n"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def meet() -> dict[str, Any]:
    """One meet: A's team event, whose 张伟 (研发中心, HD0001) has an account with a password,
    and C's individual event."""
    meet = MeetFactory()
    a_event = EventFactory(meet=meet)
    a = UserFactory()
    event_organizer_add(event=a_event, user=a)
    unit = UnitFactory(name="研发中心")
    team = TeamFactory(event=a_event, unit=unit)
    victim = team.members.order_by("order").first().player
    victim.name = "张伟"
    victim.user = UserFactory()
    victim.save()
    membership_ensure(player=victim, unit=unit, employee_number="HD0001")
    c_event = EventFactory(meet=meet, game="xiaoluzi", name="小路子个人赛")
    c = UserFactory()
    event_organizer_add(event=c_event, user=c)
    return {"a": a, "a_event": a_event, "victim": victim, "c": c, "c_event": c_event}


def test_another_organizers_import_does_not_take_their_player(meet: dict[str, Any]) -> None:
    c, c_event, victim = meet["c"], meet["c_event"], meet["victim"]
    url = f"/api/v1/events/{c_event.pk}/import/"
    preview = _client(c).post(
        f"{url}?dry_run=1", {"file": SimpleUploadedFile("p.csv", ROW.encode())}
    )
    assert preview.status_code == 200
    assert preview.json()["players"] == [
        {"row": 2, "name": "张伟", "unit": "研发中心", "employee_number": "HD0001", "reuses": False}
    ]
    done = _client(c).post(url, {"file": SimpleUploadedFile("p.csv", ROW.encode())})
    assert done.status_code == 201
    assert not Registration.objects.filter(event=c_event, player=victim).exists()
    newcomer = Registration.objects.get(event=c_event).player
    assert newcomer != victim and newcomer.name == "张伟" and newcomer.user is None
    # C's code sheet prints a code for C's own 张伟, none for A's.
    sheet = _client(c).post(f"/events/{c_event.pk}/manage/codes/", {"scope": "event"})
    assert sheet.status_code == 200
    assert not LoginCode.objects.filter(user=victim.user).exists()


def test_refusing_names_the_row(meet: dict[str, Any]) -> None:
    c, c_event = meet["c"], meet["c_event"]
    url = f"/api/v1/events/{c_event.pk}/import/"
    upload = {"file": SimpleUploadedFile("p.csv", ROW.encode()), "others": "refuse"}
    refused = _client(c).post(url, upload)
    assert refused.status_code == 400
    problems = refused.json()["problems"]
    assert [p["row"] for p in problems] == [2]
    # Chinese first, the UI's language
    assert "张伟（研发中心，HD0001）是您不负责的项目的选手" in problems[0]["message"]
    assert not Registration.objects.filter(event=c_event).exists()
    bad = _client(c).post(url, {"file": SimpleUploadedFile("p.csv", ROW.encode()), "others": "x"})
    assert bad.status_code == 400


def test_an_organizer_takes_their_own_player_again(meet: dict[str, Any]) -> None:
    a, victim = meet["a"], meet["victim"]
    second = EventFactory(meet=meet["a_event"].meet, game="xiaoluzi", name="A 的个人赛")
    event_organizer_add(event=second, user=a)
    url = f"/api/v1/events/{second.pk}/import/"
    preview = _client(a).post(
        f"{url}?dry_run=1", {"file": SimpleUploadedFile("p.csv", ROW.encode())}
    )
    assert preview.json()["players"][0]["reuses"] is True
    assert (
        _client(a).post(url, {"file": SimpleUploadedFile("p.csv", ROW.encode())}).status_code == 201
    )
    assert Registration.objects.filter(event=second, player=victim).exists()
    assert Player.objects.filter(name="张伟").count() == 1


def test_the_dashboard_form_offers_the_choice_and_the_preview_says_new_or_existing(
    meet: dict[str, Any],
) -> None:
    c, c_event = meet["c"], meet["c_event"]
    url = f"/events/{c_event.pk}/manage/import/"
    client = _client(c)
    form = client.get(url).content.decode()
    assert 'name="others" value="new"' in form and 'name="others" value="refuse"' in form
    file = SimpleUploadedFile("p.csv", ROW.encode())
    page = client.post(url, {"step": "preview", "file": file, "create_units": "1"})
    text = page.content.decode()
    assert 'data-reuses="no"' in text and 'data-reuses="yes"' not in text
    refused = client.post(
        url,
        {
            "step": "preview",
            "file": SimpleUploadedFile("p.csv", ROW.encode()),
            "create_units": "1",
            "others": "refuse",
        },
    ).content.decode()
    assert "HD0001" in refused and 'class="errors"' in refused and 'value="import"' not in refused
    # The new-player preview imports as previewed.
    client.post(
        url,
        {"step": "preview", "file": SimpleUploadedFile("p.csv", ROW.encode()), "create_units": "1"},
    )
    client.post(url, {"step": "import"})
    assert Registration.objects.filter(event=c_event).exclude(player=meet["victim"]).count() == 1


def test_the_command_imports_as_an_organizer_with_the_choice(
    meet: dict[str, Any], tmp_path
) -> None:
    c_event, victim = meet["c_event"], meet["victim"]
    path = tmp_path / "p.csv"
    path.write_text(ROW, encoding="utf-8")
    username = meet["c"].username
    with pytest.raises(CommandError) as error:
        call_command(
            "import_players", str(c_event.pk), str(path), "--as", username, "--others", "refuse"
        )
    assert error.value.returncode == 2
    call_command("import_players", str(c_event.pk), str(path), "--as", username)
    assert not Registration.objects.filter(event=c_event, player=victim).exists()
    assert Registration.objects.filter(event=c_event).count() == 1
    assert Membership.objects.filter(employee_number="HD0001").count() == 2
    with pytest.raises(CommandError):
        call_command("import_players", str(c_event.pk), str(path), "--as", "nobody-here")


def test_the_system_import_still_finds_a_player_of_the_meet(meet: dict[str, Any]) -> None:
    other = EventFactory(meet=meet["a_event"].meet, game="xiaoluzi", name="第三个项目")
    event_import(event=other, filename="p.csv", content=ROW.encode())
    assert Registration.objects.filter(event=other, player=meet["victim"]).exists()
    assert other.status == Event.Status.REGISTRATION
