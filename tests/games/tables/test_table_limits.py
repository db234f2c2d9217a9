"""Limits on the tables a person opens against bots (issue 25): practice tables and same-deal
challenges. Opening one again goes back to it, also under concurrent requests; a person has at
most a few open at once (a 409 says which and where); rapid openings are throttled (429); and
concurrent first openings of an account make one player, never a 500."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Challenge, Deal, Match, Player, Table
from tests.games.factories import UserFactory
from tests.games.replay.test_replay import finished_match

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def speaking(c: Client, language: str) -> Client:
    c.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return c


def practice(c: Client, **fields: str) -> Any:
    return c.post(reverse("games:practice"), fields)


def challenge(c: Client, deal: Deal, seat: int) -> Any:
    return c.post(
        f"/api/v1/deals/{deal.pk}/challenges/", {"seat": seat}, content_type="application/json"
    )


def my_tables(user: Any) -> list[Table]:
    return list(Table.objects.filter(seats__player__user=user).distinct())


def concurrently(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` at once, each in a thread of its own (and a database connection of its own);
    returns their answers, or the exception a call raised."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            answers[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - reported to the test
            answers[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def codes(answers: list[Any]) -> Counter[Any]:
    return Counter(getattr(a, "status_code", repr(a)) for a in answers)


@pytest.mark.django_db(transaction=True)
def test_ten_concurrent_practice_openings_make_one_table_and_all_lead_to_it() -> None:
    """A first practice: ten POSTs at once made ten tables (and 500s on games_player.user_id,
    the account's player created twice); now every answer leads to the one table."""
    user = UserFactory()
    clients = [logged_in(user) for _ in range(10)]
    answers = concurrently([lambda c=c: practice(c, game="xiaoluzi") for c in clients])
    assert codes(answers) == {302: 10}, [getattr(a, "content", a) for a in answers]
    tables = my_tables(user)
    assert len(tables) == 1
    assert {a["Location"] for a in answers} == {f"/tables/{tables[0].pk}/"}
    assert Player.objects.filter(user=user).count() == 1
    assert Match.objects.filter(table=tables[0]).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_first_challenges_all_succeed_with_one_player(settings: Any) -> None:
    settings.LUZI_CHALLENGES_OPEN_MAX = 6
    deal = finished_match("daguai", deals=1).deals.get(number=1)
    user = UserFactory()
    clients = [logged_in(user) for _ in range(6)]
    answers = concurrently(
        [lambda c=c, s=s: challenge(c, deal, s) for s, c in enumerate(clients)]  # type: ignore[misc]
    )
    assert codes(answers) == {201: 6}, [getattr(a, "content", a) for a in answers]
    assert Player.objects.filter(user=user).count() == 1
    assert sorted(Challenge.objects.filter(player__user=user).values_list("seat", flat=True)) == [
        0,
        1,
        2,
        3,
        4,
        5,
    ]


@pytest.mark.django_db(transaction=True)
def test_concurrent_challenges_stop_at_the_limit(settings: Any) -> None:
    """Ten challenges of different seats at once: three start (the default limit), the others
    are refused with a 409, none is a 500."""
    assert settings.LUZI_CHALLENGES_OPEN_MAX == 3
    match = finished_match("daguai", deals=2)
    deals = list(match.deals.exclude(record="").order_by("number"))
    user = UserFactory()
    logged_in(user).post(reverse("games:practice"))  # the account's player exists already
    wanted = [(d, s) for d in deals for s in range(6)][:10]
    clients = [logged_in(user) for _ in wanted]
    answers = concurrently(
        [lambda c=c, w=w: challenge(c, *w) for c, w in zip(clients, wanted, strict=True)]  # type: ignore[misc]
    )
    assert codes(answers) == {201: 3, 409: 7}, [getattr(a, "content", a) for a in answers]
    assert Challenge.objects.filter(player__user=user).count() == 3


@pytest.mark.django_db(transaction=True)
def test_concurrent_openings_of_the_same_challenge_make_one(settings: Any) -> None:
    deal = finished_match("shanghai_doudizhu", deals=1).deals.get(number=1)
    user = UserFactory()
    clients = [logged_in(user) for _ in range(8)]
    answers = concurrently([lambda c=c: challenge(c, deal, 2) for c in clients])
    assert codes(answers) == {201: 8}, [getattr(a, "content", a) for a in answers]
    assert len({a.json()["table"] for a in answers}) == 1
    assert Challenge.objects.filter(player__user=user).count() == 1


def test_eighteen_challenges_in_a_row_start_three_and_say_where_they_are() -> None:
    """The finding: 30 challenge tables in 1.4 s. Now the fourth is refused, in the reader's
    language, naming the tables where the three are played; going back to one of them is no
    new table and still allowed."""
    match = finished_match("daguai", deals=3)
    deals = list(match.deals.exclude(record="").order_by("number"))
    user = UserFactory()
    c = logged_in(user)
    answers = [challenge(c, d, s) for d in deals for s in range(6)]
    started = [a.json() for a in answers if a.status_code == 201]
    assert len(started) == 3
    assert set(codes(answers)) <= {201, 409, 429}, codes(answers)
    refused = next(a for a in answers if a.status_code == 409)
    body = refused.json()
    assert "3" in body["detail"]
    for s in started:
        assert s["url"] in body["detail"]
    assert sorted(t["url"] for t in body["open"]) == sorted(s["url"] for s in started)
    assert Challenge.objects.filter(player__user=user).count() == 3


def test_the_limit_refusal_is_in_chinese_and_lifts_once_a_challenge_is_over(settings: Any) -> None:
    settings.LUZI_CHALLENGES_OPEN_MAX = 1
    deal = finished_match("xiaoluzi", deals=1).deals.get(number=1)
    c = logged_in(UserFactory())
    first = challenge(c, deal, 0)
    assert first.status_code == 201
    refused = challenge(speaking(c, "zh-hans"), deal, 1)
    assert refused.status_code == 409
    detail = refused.json()["detail"]
    assert "挑战" in detail and first.json()["url"] in detail
    again = challenge(c, deal, 0)  # the one still played: going back is allowed
    assert again.status_code == 201 and again.json()["table"] == first.json()["table"]
    form = c.post(f"/deals/{deal.pk}/challenge/", {"seat": "2"})
    assert form.status_code == 409 and first.json()["url"] in form.content.decode()
    left = c.post(reverse("api:table_leave", args=[first.json()["table"]]))  # an escape: over
    assert left.status_code == 200 and left.json()["match"]["status"] == "finished"
    assert challenge(c, deal, 1).status_code == 201


def test_practice_in_other_games_stops_at_the_limit_and_says_where(settings: Any) -> None:
    settings.LUZI_PRACTICE_OPEN_MAX = 1
    user = UserFactory()
    c = logged_in(user)
    first = practice(c, game="daguai")
    assert first.status_code == 302
    refused = practice(speaking(c, "en"), game="xiaoluzi")
    assert refused.status_code == 409
    text = refused.content.decode()
    assert first["Location"] in text and "Da Guai Lu Zi" in text and "practice" in text
    zh = practice(speaking(c, "zh-hans"), game="xiaoluzi")
    assert zh.status_code == 409
    assert "练习" in zh.content.decode() and "大怪路子" in zh.content.decode()
    assert practice(c, game="daguai")["Location"] == first["Location"]  # going back: allowed
    assert len(my_tables(user)) == 1


def test_three_games_practised_at_once_by_default() -> None:
    user = UserFactory()
    c = logged_in(user)
    for game in ("daguai", "xiaoluzi", "shanghai_doudizhu"):
        assert practice(c, game=game).status_code == 302
    assert len(my_tables(user)) == 3


def test_practice_never_goes_back_to_a_challenges_table() -> None:
    """A challenge's table also seats one person and bots; pressing 练习 again went there."""
    deal = finished_match("xiaoluzi", deals=1).deals.get(number=1)
    user = UserFactory()
    c = logged_in(user)
    started = challenge(c, deal, 0).json()
    response = practice(c, game="xiaoluzi")
    assert response.status_code == 302 and response["Location"] != started["url"]
    assert not Challenge.objects.filter(match__table__pk=response["Location"].split("/")[2])


def test_rapid_openings_are_throttled_with_a_429(settings: Any) -> None:
    settings.LUZI_TABLE_OPEN_RATES = {"burst": "4/min", "sustained": None}
    deal = finished_match("xiaoluzi", deals=1).deals.get(number=1)
    user = UserFactory()
    c = logged_in(user)
    for _ in range(2):
        assert practice(c).status_code == 302
    assert challenge(c, deal, 0).status_code == 201
    assert c.post(f"/deals/{deal.pk}/challenge/", {"seat": "2"}).status_code == 302  # seat 1
    api = challenge(speaking(c, "en"), deal, 2)  # the fifth opening
    assert api.status_code == 429 and "Retry-After" in api
    assert "wait" in api.json()["detail"]
    page = practice(speaking(c, "zh-hans"))
    assert page.status_code == 429 and "Retry-After" in page
    assert "秒" in page.content.decode()
    form = c.post(f"/deals/{deal.pk}/challenge/", {"seat": "4"})
    assert form.status_code == 429
    assert Challenge.objects.filter(player__user=user).count() == 2
    other = logged_in(UserFactory())  # the throttle counts per person
    assert practice(other).status_code == 302
    # reading the leaderboard is no opening
    assert c.get(f"/api/v1/deals/{deal.pk}/challenges/").status_code == 200


def test_the_default_throttle_stops_a_burst_of_openings() -> None:
    user = UserFactory()
    c = logged_in(user)
    answers = [practice(c, game="daguai") for _ in range(40)]
    assert answers[0].status_code == 302
    assert answers[-1].status_code == 429
    assert len(my_tables(user)) == 1
