"""A game registered at run time is shown in its own words (issue 27): its error codes' texts
come from its package's catalog (``message_catalog``), and its table page's words and what the
page draws of it (``table_ui``) from its table description, served as data; games/ and static/
name no game. The three games' words come the same way."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from config.apps import games_register_extra
from engine.errors import EngineError
from engine.registry import get_game, registered_keys, unregister
from games.play import services as play_services
from games.tables import services as tables_services
from games.tables.messages import MESSAGES, engine_message
from tests.games import wordygame
from tests.games.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def wordy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LUZI_EXTRA_GAMES", "wordy=tests.games.wordygame")
    assert games_register_extra("wordy=tests.games.wordygame") == ["wordy"]
    yield
    unregister("wordy")


def _json_script(html: str, element_id: str) -> Any:
    found = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, element_id
    return json.loads(found.group(1))


def _shouting() -> EngineError:
    try:
        get_game("wordy").seat_action(1, "shout")
    except EngineError as error:
        return error
    raise AssertionError("词牌 took a shout")


def _table(game: str) -> tuple[Any, list[Any]]:
    users = [UserFactory() for _ in range(get_game(game).seat_count)]
    players = [PlayerFactory(user=user, name=f"玩家{i}") for i, user in enumerate(users)]
    return tables_services.table_create(name="桌", players=players, game=game), users


def _page(user: Any, path: str, language: str | None) -> str:
    client = Client()
    client.force_login(user)
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_a_game_registered_at_run_time_brings_its_catalog(wordy: None) -> None:
    error = _shouting()
    assert str(error) == "seat 1 cannot shout: use play"  # the command line's English
    assert "wordy.no_shouting" in MESSAGES
    with translation.override("zh-hans"):
        assert engine_message(error, seat_names=["甲", "乙"]) == "词牌不许shout：乙只能出牌。"
    with translation.override("en"):
        assert engine_message(error, seat_names=["甲", "乙"]) == "No shout in Wordy: 乙 plays."


def test_once_unregistered_its_codes_fall_back_to_english(wordy: None) -> None:
    error = _shouting()
    unregister("wordy")
    assert "wordy.no_shouting" not in MESSAGES
    with translation.override("zh-hans"):
        assert engine_message(error) == "seat 1 cannot shout: use play"


def test_its_table_refuses_an_action_in_its_own_words(wordy: None) -> None:
    table, users = _table("wordy")
    play_services.match_start(table=table, seed=3, deals_per_match=1)
    for language, wanted in (
        (None, "词牌不许shout：玩家0只能出牌。"),
        ("en", "No shout in Wordy: 玩家0 plays."),
    ):
        client = Client()
        client.force_login(users[0])
        if language:
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.post(
            f"/api/v1/tables/{table.pk}/actions/",
            {"action": "shout", "seq": 0},
            content_type="application/json",
        )
        assert response.status_code == 400
        assert response.json()["detail"] == wanted


def test_its_table_page_is_described_by_its_package(wordy: None) -> None:
    table, users = _table("wordy")
    play_services.match_start(table=table, seed=3, deals_per_match=1)
    for language, leader, won in (
        (None, "领出", "%(name)s 最多墩"),
        ("en", "leads the deal", "%(name)s took most tricks"),
    ):
        html = _page(users[0], f"/tables/{table.pk}/", language)
        config = _json_script(html, "table-config")
        words = _json_script(html, "table-strings")
        assert config["ui"]["roles"] == wordygame.UI["roles"]
        assert config["ui"]["facts"] == wordygame.UI["facts"]
        assert config["ui"]["result"] == wordygame.UI["result"]
        assert "terms" not in config["ui"]
        assert (words["leader"], words["won"]) == (leader, won)
        assert words["kinds"]["play"] in ("出牌", "play")
        assert words["endReasons"]["escape"]  # the site's own words stay beside the game's
        assert "describe.js" in html


def test_a_game_that_describes_nothing_gets_the_plain_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LUZI_EXTRA_GAMES", "toy=tests.toygame")
    games_register_extra("toy=tests.toygame")
    try:
        table, users = _table("toy")
        config = _json_script(_page(users[0], f"/tables/{table.pk}/", None), "table-config")
        assert config["ui"]["passRule"] == "legal" and config["ui"]["roles"] == []
        assert config["ui"]["result"] == {"get": "r.outcome"}
    finally:
        unregister("toy")


@pytest.mark.parametrize("key", ["daguai", "xiaoluzi", "shanghai_doudizhu"])
def test_each_game_brings_its_words_in_both_languages(key: str) -> None:
    game = get_game(key)
    catalog = game.message_catalog()
    assert catalog and all(code.split(".")[0] not in ("common", "sheet") for code in catalog)
    chinese, english = game.table_ui(chinese=True), game.table_ui(chinese=False)
    assert set(chinese) == set(english) and chinese["terms"].keys() == english["terms"].keys()
    assert {k: v for k, v in chinese.items() if k != "terms"} == {
        k: v for k, v in english.items() if k != "terms"
    }
    assert key in registered_keys()


def test_the_table_scripts_and_the_site_name_no_game() -> None:
    names = re.compile(r"daguai|xiaoluzi|shanghai_doudizhu|doudizhu")
    for pattern in ("static/games/*.js", "templates/games/*"):
        for path in ROOT.glob(pattern):
            assert not names.search(path.read_text(encoding="utf-8")), path
    quoted = re.compile(r"['\"](daguai|xiaoluzi|shanghai_doudizhu)['\"]")
    for path in (ROOT / "games").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        assert not quoted.search(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize(
    ("key", "note"),
    [("daguai", "有进贡、还贡的牌局，从进贡、还贡之后开始出牌时的手牌打起。"), ("xiaoluzi", "")],
)
def test_the_replay_page_is_described_by_the_games_package(key: str, note: str) -> None:
    from tests.games.replay.test_replay import finished_match

    deal = finished_match(key, deals=1).deals.get(number=1)
    html = Client().get(f"/deals/{deal.pk}/replay/").content.decode()
    config, words = _json_script(html, "replay-config"), _json_script(html, "replay-strings")
    described = get_game(key).table_ui(chinese=True)
    assert config["ui"]["replayResult"] == described["replayResult"]
    assert words["kinds"] == {**described["terms"].get("kinds", {})}
    assert (note in html) if note else ("进贡、还贡之后" not in html)
