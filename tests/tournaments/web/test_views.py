"""Public pages: the home page shows the demo meet; Chinese by default, English on request."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> Event:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Event.objects.get(name="大怪路子团体赛")


def test_home_page_shows_the_demo_meet_in_chinese(client: Client, demo: Event) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="zh-hans">' in page
    assert "华东精工集团2026年职工运动会" in page
    assert "大怪路子团体赛" in page
    assert "大怪路子" in page and "16 支队伍" in page
    assert "运动会与赛事" in page
    assert 'name="viewport"' in page and "/static/css/luzi.css" in page
    assert "http://" not in page.replace("http://testserver", "")  # no external CDN


def test_language_switch_to_english_and_back(client: Client, demo: Event) -> None:
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert '<html lang="en">' in page
    assert "Meets and events" in page and "16 teams" in page
    assert "大怪路子" in page  # the game keeps its Chinese name
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    assert "运动会与赛事" in client.get("/").content.decode()


def test_chinese_is_the_default_whatever_the_browser_asks(client: Client, demo: Event) -> None:
    page = client.get("/", headers={"accept-language": "en-US,en;q=0.9"}).content.decode()
    assert "运动会与赛事" in page


def test_an_unknown_language_cookie_falls_back_to_chinese(client: Client, demo: Event) -> None:
    client.cookies["django_language"] = "xx"
    assert "运动会与赛事" in client.get("/").content.decode()


def test_event_page_lists_teams_by_unit(client: Client, demo: Event) -> None:
    response = client.get(reverse("tournaments:event_detail", args=[demo.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "研发中心一队" in page and "张伟" in page
    assert "48 名选手" in page


def test_unknown_event_is_a_404_page(client: Client) -> None:
    response = client.get("/events/999999/")
    assert response.status_code == 404
    assert "页面不存在" in response.content.decode()


def test_private_event_only_for_its_organizers(client: Client) -> None:
    event = EventFactory(is_private=True, name="内部赛")
    TeamFactory(event=event)
    url = reverse("tournaments:event_detail", args=[event.pk])
    assert client.get(url).status_code == 404
    assert "内部赛" not in client.get("/").content.decode()
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    assert "内部赛" in client.get("/").content.decode()


def test_home_page_without_meets_says_how_to_start(client: Client) -> None:
    assert "make demo" in client.get("/").content.decode()


def test_one_control_switches_the_language_and_the_page_has_an_icon(
    client: Client, demo: Event
) -> None:
    # Issue 15: one button to the other language, a favicon, no ASCII period after Chinese.
    page = client.get("/").content.decode()
    assert '<button type="submit" name="language" value="en"' in page
    assert 'value="zh-hans"' not in page  # the current language is not offered again
    assert 'rel="icon"' in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = client.get("/").content.decode()
    assert 'name="language" value="zh-hans"' in english and "中文" in english
    client.cookies["django_language"] = "zh-hans"
    standings = client.get(f"/events/{demo.pk}/standings/").content.decode()
    assert "升级数." not in standings and "。</p>" in standings
