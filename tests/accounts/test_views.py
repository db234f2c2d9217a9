"""Logging in with a password or a one-time code, the player's page, issuing codes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services
from tests.accounts.test_services import make_team
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_login_page_and_password_login(client: Client) -> None:
    UserFactory(username="li")
    page = client.get(reverse("accounts:login"))
    assert page.status_code == 200
    assert "登录" in page.content.decode()
    response = client.post(
        reverse("accounts:login"), {"username": "li", "password": "correct horse battery"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("accounts:me")


def test_a_code_link_fills_the_form_and_only_a_post_uses_it(client: Client) -> None:
    user = UserFactory()
    code = services.login_code_issue(user=user)
    page = client.get(reverse("accounts:code_login") + f"?code={code}")
    assert page.status_code == 200 and code in page.content.decode()
    assert "_auth_user_id" not in client.session  # a GET (a link preview) does not log in
    response = client.post(reverse("accounts:code_login"), {"code": code})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_a_wrong_code_answers_400_with_the_reason(client: Client) -> None:
    response = client.post(reverse("accounts:code_login"), {"code": "ZZZZ-ZZZZ"})
    assert response.status_code == 400
    assert "登录码无效" in response.content.decode() or "not valid" in response.content.decode()


def test_next_must_stay_on_this_site(client: Client) -> None:
    code = services.login_code_issue(user=UserFactory())
    response = client.post(
        reverse("accounts:code_login"), {"code": code, "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("accounts:me")


def test_my_page_needs_a_login_and_shows_the_current_table(client: Client) -> None:
    assert client.get(reverse("accounts:me")).status_code == 302
    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("accounts:me"))
    assert page.status_code == 200
    assert 'id="practice"' in page.content.decode()
    # every registered game can be practised, named in the page's language
    body = page.content.decode()
    for key, name in (
        ("daguai", "大怪路子"),
        ("xiaoluzi", "小路子"),
        ("shanghai_doudizhu", "上海斗地主"),
    ):
        assert f'value="{key}"' in body and name in body
    assert "机器人" in body


def test_team_codes_page_for_the_organizer_only(client: Client) -> None:
    organizer = UserFactory()
    team = make_team(organizer)
    url = reverse("accounts:team_codes", args=[team.pk])
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    response = client.post(url)
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = response.content.decode()
    assert body.count('href="http://testserver/accounts/code/?code=') == 3


def test_logout_is_a_post(client: Client) -> None:
    client.force_login(UserFactory())
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_an_organizer_lands_on_the_dashboard_of_their_event(client: Client) -> None:
    # Issue 15: after logging in, an organizer lands on their dashboard.
    from tests.tournaments.factories import EventFactory
    from tournaments.events.staff import event_organizer_add

    organizer = UserFactory(username="org")
    event = EventFactory()
    event_organizer_add(event=event, user=organizer)
    response = client.post(
        reverse("accounts:login"), {"username": "org", "password": "correct horse battery"}
    )
    assert response["Location"] == reverse("tournaments:dashboard", args=[event.pk])
    # With two events they choose on their page, which links both dashboards.
    other = EventFactory()
    event_organizer_add(event=other, user=organizer)
    client.logout()
    response = client.post(
        reverse("accounts:login"), {"username": "org", "password": "correct horse battery"}
    )
    assert response["Location"] == reverse("accounts:me")
    page = client.get(reverse("accounts:me")).content.decode()
    for e in (event, other):
        assert reverse("tournaments:dashboard", args=[e.pk]) in page
    # An explicit next still wins.
    client.logout()
    response = client.post(
        reverse("accounts:login") + "?next=/events/",
        {"username": "org", "password": "correct horse battery", "next": "/events/"},
    )
    assert response["Location"] == "/events/"


def test_the_greeting_uses_the_players_name(client: Client) -> None:
    from tests.games.factories import PlayerFactory

    user = UserFactory(username="player77")
    PlayerFactory(user=user, name="王小明")
    code = services.login_code_issue(user=user)
    page = client.post(reverse("accounts:code_login"), {"code": code}, follow=True)
    text = page.content.decode()
    assert "王小明" in text and "player77" not in text.split("</header>")[1]


def test_my_page_names_each_table_by_event_round_and_game_and_hides_drafts(client: Client) -> None:
    # Issue 26: "R1/R3" in the tables' names, practice rows without their game, and a draft
    # round's table listed before the organizer confirmed it.
    from games.models import Player, Table
    from tests.tournaments.factories import EventFactory
    from tournaments.draw import services as draw_services
    from tournaments.events import entries as events_entries
    from tournaments.rounds import services as rounds_services

    user = UserFactory()
    event = EventFactory(game="xiaoluzi", table_mode=Table.Mode.OFFLINE, name="小路子个人赛")
    me = Player.objects.create(name="张伟", user=user)
    others = [Player.objects.create(name=f"选手{i}") for i in range(3)]
    events_entries.registration_ensure(event=event, players=[me, *others])
    confirmed = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=confirmed)
    practice = Table.objects.create(name="练习 · 张伟", game="shanghai_doudizhu", seat_count=4)
    practice.seats.create(seat=0, player=me)
    client.force_login(user)
    page = client.get(reverse("accounts:me")).content.decode()
    assert "小路子个人赛 · 第 1 轮 · 第 1 桌" in page and "· R1" not in page
    assert "练习 · 张伟 · 上海斗地主" in page
    # a second round still being drawn is not listed
    rounds_services.round_complete(round=confirmed, force=True, reason="测试")
    draft = draw_services.round_create_paired(event=event)
    assert draft.pairings.exists()
    page = client.get(reverse("accounts:me")).content.decode()
    assert "第 2 轮" not in page
    client.cookies["django_language"] = "en"
    english = client.get(reverse("accounts:me")).content.decode()
    assert "小路子个人赛 · round 1 · table 1" in english
