"""Refusals reach organizers and referees in their language: Simplified Chinese by default, English
when they chose it (the language cookie that the page header's switch sets), on pages and in API
answers alike."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, ResultSubmission
from tournaments.rounds.services import round_complete, round_start

pytestmark = pytest.mark.django_db

DUPLICATE = "姓名,部门\n张伟,研发\n张伟,研发\n".encode()


@pytest.fixture(autouse=True)
def _language_restored() -> Iterator[None]:
    # A request activates its language in this thread; leave the default for the next test.
    with translation.override(settings.LANGUAGE_CODE):
        yield


def _organizer(event: Event) -> object:
    user = UserFactory()
    event_organizer_add(event=event, user=user)
    return user


def _page_client(user: object, language: str | None = None) -> Client:
    client = Client()
    client.force_login(user)
    if language is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _api_client(user: object, language: str | None = None) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    if language is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_an_import_error_reaches_an_organizer_in_chinese_and_in_english_on_request() -> None:
    event = EventFactory()
    organizer = _organizer(event)
    url = f"/events/{event.pk}/manage/import/"
    page = _page_client(organizer).post(
        url, {"step": "preview", "file": SimpleUploadedFile("p.csv", DUPLICATE)}
    )
    assert "选手重复：研发的张伟已出现在第2行" in page.content.decode()

    api = f"/api/v1/events/{event.pk}/import/"
    chinese = _api_client(organizer).post(api, {"file": SimpleUploadedFile("p.csv", DUPLICATE)})
    assert chinese.status_code == 400
    assert chinese.json()["detail"] == "有 1 行有误，没有导入任何内容。"
    assert chinese.json()["problems"] == [
        {"row": 3, "message": "选手重复：研发的张伟已出现在第2行"}
    ]

    english = _api_client(organizer, "en").post(
        api, {"file": SimpleUploadedFile("p.csv", DUPLICATE)}
    )
    assert english.status_code == 400
    assert english.json()["detail"] == "1 bad row; nothing was imported."
    assert english.json()["problems"] == [
        {"row": 3, "message": "duplicate player: 张伟 of 研发 is already on row 2"}
    ]
    wrong = _page_client(organizer, "en").post(
        url, {"step": "preview", "file": SimpleUploadedFile("p.pdf", b"%PDF")}
    )
    assert "p.pdf: use a .csv or .xlsx file." in wrong.content.decode()
    assert not event.teams.exists()


@pytest.fixture
def running_offline_table() -> dict[str, object]:
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    organizer = _organizer(event)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    return {"event": event, "organizer": organizer, "pairing": round_.pairings.get()}


def test_a_result_entry_error_reaches_a_referee_in_chinese_and_in_english_on_request(
    running_offline_table: dict[str, object],
) -> None:
    event, pairing = running_offline_table["event"], running_offline_table["pairing"]
    referee = running_offline_table["organizer"]
    api = f"/api/v1/tables/{pairing.pk}/results/"
    sheet = {"first_dealer": 0, "deals": [{"finish": [0, 2, 9]}]}
    chinese = _api_client(referee).post(api, sheet, format="json")
    assert chinese.status_code == 400
    assert chinese.json()["detail"] == "第1局：座位号是 0 到 5 的数字。"
    english = _api_client(referee, "en").post(api, sheet, format="json")
    assert english.status_code == 400
    assert english.json()["detail"] == "Deal 1: seats are numbers 0 to 5."

    page = f"/events/{event.pk}/manage/tables/{pairing.pk}/result/"
    form = {"action": "submit", "first_dealer": "0", "deals": "0 2 x"}
    chinese_page = _page_client(referee).post(page, form).content.decode()
    assert "第1行（“0 2 x”）：请写用空格分隔的座位号 0–5" in chinese_page
    english_page = _page_client(referee, "en").post(page, form).content.decode()
    assert "Line 1 (“0 2 x”): write seats 0-5 separated by spaces" in english_page
    assert not ResultSubmission.objects.exists()


def test_a_pairing_error_reaches_an_organizer_in_chinese_and_in_english_on_request() -> None:
    event = EventFactory(pairing_format=Event.PairingFormat.ROUND_ROBIN)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    organizer = _organizer(event)
    only = round_create_paired(event=event, confirm=True)
    round_start(round=only, start_matches=False)
    round_complete(round=only, force=True)
    api = f"/api/v1/events/{event.pk}/rounds/"
    chinese = _api_client(organizer).post(api, {}, format="json")
    assert chinese.status_code == 400
    assert chinese.json()["detail"] == "2 支队伍的循环赛到第1轮结束，第2轮已超出最后一轮。"
    english = _api_client(organizer, "en").post(api, {}, format="json")
    assert english.status_code == 400
    assert english.json()["detail"] == (
        "A round robin of 2 teams ends with round 1; round 2 is past the last."
    )
    page = _page_client(organizer).post(f"/events/{event.pk}/manage/rounds/pair/", follow=True)
    assert "第2轮已超出最后一轮" in page.content.decode()
    assert event.rounds.count() == 1


def test_a_round_conflict_follows_the_language_cookie_on_pages() -> None:
    event = EventFactory()
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    organizer = _organizer(event)
    round_create_paired(event=event)  # a draft, not started
    url = f"/events/{event.pk}/manage/rounds/pair/"
    chinese = _page_client(organizer).post(url, follow=True).content.decode()
    assert "第1轮仍是“草稿”状态：请先开始并完成这一轮。" in chinese
    english = _page_client(organizer, "en").post(url, follow=True).content.decode()
    assert "Round 1 is still draft: start and complete it first." in english
