"""The leaderboard, the profile and their API (issue 29): every game, the filters, bad input
answered with 400, and the API in the OpenAPI schema."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from ratings.models import Rating
from tests.games.factories import UserFactory
from tests.ratings.helpers import GAMES, event_make, round_play
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def _rated(game: str, capture, rounds: int = 2, **kwargs):
    rng = random.Random(1)
    event = event_make(game, **kwargs)
    for _ in range(rounds):
        with capture(execute=True):
            round_ = round_play(event, rng)
        services.round_complete(round=round_)
    return event


@pytest.mark.parametrize("game", GAMES)
def test_the_leaderboard_lists_the_rated_players_best_first(
    game: str, django_capture_on_commit_callbacks
) -> None:
    _rated(game, django_capture_on_commit_callbacks)
    data = Client().get("/api/v1/ratings/", {"game": game}).json()
    assert data["count"] == 12
    ratings = [row["rating"] for row in data["results"]]
    assert ratings == sorted(ratings, reverse=True)
    row = data["results"][0]
    assert row["rank"] == 1 and row["provisional"] is True and row["bot"] is None
    assert set(row) >= {"player", "name", "unit", "rating", "mu", "sigma", "matches", "trend"}
    page = Client().get(f"/ratings/{game}/")
    assert page.status_code == 200
    assert row["name"] in page.content.decode()
    profile = Client().get(f"/players/{row['player']}/")
    assert profile.status_code == 200 and "<svg" in profile.content.decode()
    api = Client().get(f"/api/v1/players/{row['player']}/").json()
    career = api["ratings"][0]
    assert career["game"] == game and len(career["history"]) == 2
    assert career["rating"] == row["rating"]
    assert api["events"][0]["placement"] is not None


def test_the_game_s_own_figures_show_on_the_profile(django_capture_on_commit_callbacks) -> None:
    _rated("xiaoluzi", django_capture_on_commit_callbacks, rounds=1)
    player = Rating.objects.filter(game="xiaoluzi").first().player_id
    career = Client().get(f"/api/v1/players/{player}/").json()["ratings"][0]
    assert [f["key"] for f in career["figures"]] == ["silver", "declared_won", "slams"]
    assert "银子" in Client().get(f"/players/{player}/").content.decode()


def test_filters_by_unit_and_meet(django_capture_on_commit_callbacks) -> None:
    event = _rated("daguai", django_capture_on_commit_callbacks)
    unit = event.teams.first().unit
    data = Client().get("/api/v1/ratings/", {"game": "daguai", "unit": unit.pk}).json()
    assert 0 < data["count"] < 12
    assert {r["unit"] for r in data["results"]} == {unit.name}
    data = Client().get("/api/v1/ratings/", {"game": "daguai", "meet": event.meet_id}).json()
    assert data["count"] == 12
    assert Client().get("/api/v1/ratings/", {"game": "daguai", "meet": 999999}).json()["count"] == 0
    assert (
        Client().get("/api/v1/ratings/", {"game": "daguai", "period": "30d"}).json()["count"] == 12
    )


def test_bots_are_listed_apart_with_their_kind(django_capture_on_commit_callbacks) -> None:
    from tests.games.factories import BotFactory

    people = [BotFactory(bot_kind="search") for _ in range(6)] + [
        BotFactory(bot_kind="random") for _ in range(6)
    ]
    _rated("daguai", django_capture_on_commit_callbacks, people=people, rounds=1)
    assert Client().get("/api/v1/ratings/", {"game": "daguai"}).json()["count"] == 0
    data = Client().get("/api/v1/ratings/", {"game": "daguai", "bots": "1"}).json()
    assert data["count"] == 12 and {r["bot"] for r in data["results"]} == {"search", "random"}


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"game": "chess"},
        {"game": "daguai", "limit": "0"},
        {"game": "daguai", "meet": "x"},
        {"game": "daguai", "period": "forever"},
        {"game": "daguai", "offset": "-1"},
    ],
)
def test_bad_input_is_a_400_with_a_message(query: dict) -> None:
    response = Client().get("/api/v1/ratings/", query)
    assert response.status_code == 400 and response.json()["detail"]


def test_bad_pages_are_400_or_404() -> None:
    assert Client().get("/ratings/chess/").status_code == 404
    assert Client().get("/ratings/daguai/", {"period": "x"}).status_code == 400
    assert Client().get("/ratings/daguai/", {"page": "0"}).status_code == 400
    assert Client().get("/players/999999/").status_code == 404
    assert Client().get("/api/v1/players/999999/").status_code == 404


def test_the_page_speaks_chinese_first_and_english_on_request(
    django_capture_on_commit_callbacks,
) -> None:
    _rated("shanghai_doudizhu", django_capture_on_commit_callbacks, rounds=1)
    chinese = Client().get("/ratings/shanghai_doudizhu/").content.decode()
    assert "上海斗地主实力分排行" in chinese and "Rank" not in chinese
    client = Client()
    client.cookies["django_language"] = "en"
    english = client.get("/ratings/shanghai_doudizhu/").content.decode()
    assert "ratings</h1>" in english and "实力分" not in english


def test_the_api_is_in_the_schema() -> None:
    user = UserFactory(is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(user)
    schema = client.get("/api/schema/").content.decode()
    assert "/api/v1/ratings/" in schema and "/api/v1/players/{player_id}/" in schema


def test_the_meet_page_shows_its_strength_and_pages_link_to_careers(
    django_capture_on_commit_callbacks,
) -> None:
    event = _rated("daguai", django_capture_on_commit_callbacks)
    page = Client().get(f"/meets/{event.meet.slug}/").content.decode()
    assert "/ratings/daguai/" in page
    average = round(
        sum(Rating.objects.filter(scope="public").values_list("display", flat=True)) / 12
    )
    assert f": {average} " in page
    player = event.teams.first().members.first().player
    detail = Client().get(f"/events/{event.pk}/players/{player.pk}/").content.decode()
    assert f"/players/{player.pk}/" in detail
    player.user = UserFactory()
    player.save()
    client = Client()
    client.force_login(player.user)
    assert f"/players/{player.pk}/" in client.get("/accounts/me/").content.decode()


def test_the_leaderboard_s_queries_do_not_grow_with_its_players(
    django_capture_on_commit_callbacks,
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert Client().get("/ratings/xiaoluzi/").status_code == 200
            assert Client().get("/api/v1/ratings/", {"game": "xiaoluzi"}).status_code == 200
        return len(queries)

    _rated("xiaoluzi", django_capture_on_commit_callbacks, rounds=1, players=8)
    few = count()
    assert few > 0
    _rated("xiaoluzi", django_capture_on_commit_callbacks, rounds=2, players=40)
    assert Rating.objects.filter(game="xiaoluzi", scope="public").count() == 48
    assert count() == few
