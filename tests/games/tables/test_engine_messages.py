"""The engine's refusals reach people in their language (issue 15): the engine raises stable codes
with params, the site translates them (cards as cards, seats as the players' names), for an
illegal action at a table and a bad offline sheet of every game; the command line keeps English."""

from __future__ import annotations

import importlib
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from engine.errors import MESSAGES as ENGLISH
from engine.errors import EngineError, IllegalActionError, message_codes
from engine.registry import get_game, registered_keys
from games.models import Table, TableSeat
from games.play import services as play_services
from games.play import state as selectors
from games.tables import services as tables_services
from games.tables.messages import MESSAGES, cards_text, engine_message
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.entries import membership_ensure, registration_ensure
from tournaments.events.staff import event_organizer_add
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _language_restored() -> Iterator[None]:
    with translation.override(settings.LANGUAGE_CODE):
        yield


def _all_codes() -> frozenset[str]:
    for key in registered_keys():
        get_game(key)
    for module in ("engine.xiaoluzi.sheet", "engine.shanghai_doudizhu.sheet"):
        importlib.import_module(module)
    return message_codes()


def _names(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_code_the_engines_raise_is_translated_with_the_engines_params() -> None:
    codes = _all_codes()
    assert {"daguai.finish_twice", "xiaoluzi.not_your_turn", "doudizhu.bid_too_low"} <= codes
    assert codes - set(MESSAGES) == set(), "codes without a translation"
    for code in codes:
        with translation.override("en"):
            english = str(MESSAGES[code])
        with translation.override("zh-hans"):
            chinese = str(MESSAGES[code])
        assert chinese != english and re.search(r"[\u4e00-\u9fff]", chinese), code
        site = set(re.findall(r"%\((\w+)\)s", english)) | set(re.findall(r"%\((\w+)\)s", chinese))
        given = _names(ENGLISH[code])  # a name such as "type" is given with its twin "type_en"
        assert {n for n in site if n not in given and f"{n}_en" not in given} == set(), code


def test_an_unknown_code_falls_back_to_the_engines_english() -> None:
    error = EngineError("something new went wrong")
    with translation.override("zh-hans"):
        assert engine_message(error) == "something new went wrong"


def test_cards_read_as_cards_and_places_are_named() -> None:
    error = IllegalActionError.of(
        "daguai.not_holding", action="1 play 2H 10S BJ", seat=1, cards="2H 10S BJ"
    ).within(deal=3)
    assert str(error) == "deal 3: 1 play 2H 10S BJ: seat 1 does not hold 2H 10S BJ"
    with translation.override("zh-hans"):
        assert cards_text("2H 10S SJ BJ") == "红桃2 黑桃10 小怪 大怪"
        assert (
            engine_message(error, seat_names=["甲", "乙"])
            == "第 3 局：乙手里没有红桃2 黑桃10 大怪。"
        )
    with translation.override("en"):
        assert (
            engine_message(error) == "deal 3: seat 2 does not hold 2♥ 10♠ 大怪."
        )  # seats read from 1


# --- at the table -------------------------------------------------------------------------------


def _people(game: str) -> tuple[Table, dict[int, Any]]:
    seats = get_game(game).seat_count
    users = {seat: UserFactory() for seat in range(seats)}
    players = [PlayerFactory(user=users[seat], name=f"玩家{seat}") for seat in range(seats)]
    table = tables_services.table_create(name="桌", players=players, game=game)
    return table, users


def _post(user: Any, table: Table, body: dict[str, Any], language: str | None) -> Any:
    client = Client()
    client.force_login(user)
    if language is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.post(
        reverse("api:table_actions", args=[table.pk]), body, content_type="application/json"
    )


def _card_not_held(hand: str, game: str) -> str:
    held = hand.split()
    for token in ("2H", "3S", "7D", "9C", "KH", "AS", "8H", "JD", "QC", "10S"):
        if token not in held:
            return token
    raise AssertionError(hand)


@pytest.mark.parametrize("game", ["daguai", "xiaoluzi", "shanghai_doudizhu"])
def test_an_illegal_action_is_refused_in_chinese_and_in_english(game: str) -> None:
    table, users = _people(game)
    play_services.match_start(table=table, seed=5, deals_per_match=1)
    deal = selectors.table_state(table=table)["deal"]
    seat = deal["awaiting"][0]
    other = (seat + 1) % table.seat_count
    state = selectors.table_state(table=table, seat=other)
    legal = selectors.table_state(table=table, seat=seat)["you"]["legal"][0]
    # another seat acts out of turn: the engine refuses, naming the seat's player
    body = {"action": {**legal, "seat": other}, "seq": state["seq"]}
    chinese = _post(users[other], table, body, None)
    assert chinese.status_code == 400
    english = _post(users[other], table, body, "en")
    assert english.status_code == 400
    chinese_text, english_text = chinese.json()["detail"], english.json()["detail"]
    assert re.search(r"[\u4e00-\u9fff]", chinese_text) and "seat" not in chinese_text
    assert f"玩家{other}" in chinese_text and f"玩家{other}" in english_text
    assert "It is not" in english_text or "not the time" in english_text, english_text
    assert "(" not in english_text  # no engine state such as "(seat 0 to lead)"


def test_a_play_of_cards_not_held_names_the_cards_as_cards() -> None:
    table, users = _people("daguai")
    play_services.match_start(table=table, seed=5, deals_per_match=1)
    state = selectors.table_state(table=table)
    seat = state["deal"]["turn"]
    hand = selectors.table_state(table=table, seat=seat)["you"]["hand"]
    card = _card_not_held(hand, "daguai")
    body = {"action": "play", "cards": card, "seq": state["seq"]}
    chinese = _post(users[seat], table, body, None).json()["detail"]
    english = _post(users[seat], table, body, "en").json()["detail"]
    shown = {"H": ("红桃", "♥"), "S": ("黑桃", "♠"), "D": ("方块", "♦"), "C": ("梅花", "♣")}
    zh, en = shown[card[-1]]
    assert chinese == f"玩家{seat}手里没有{zh}{card[:-1]}。"
    assert english == f"玩家{seat} does not hold {card[:-1]}{en}."


# --- a referee's sheet --------------------------------------------------------------------------

BAD_SHEETS: dict[str, tuple[dict[str, Any], str, str]] = {
    "daguai": (
        {"first_dealer": 0, "deals": [{"finish": [0, 2, 4]}, {"finish": [1, 1, 3]}]},
        "第 2 局：%(p1)s在出完顺序 %(p1)s、%(p1)s、%(p3)s 中出完了两次。",
        "deal 2: %(p1)s goes out twice in finishing order %(p1)s、%(p1)s、%(p3)s.",
    ),
    "xiaoluzi": (
        {"deals": [{"mode": "countered", "declarer": 2, "counter": 2, "finish": [2]}]},
        "第 1 局，反宣者：%(p2)s不能既宣牌又反宣。",
        "deal 1: counter: %(p2)s cannot both 宣牌 and 反宣.",
    ),
    "shanghai_doudizhu": (
        {"deals": [{"landlord": 0, "bid": 4, "winner": "landlord"}]},
        "第 1 局，叫分：应为 1-3 的数，而不是 4。",
        "deal 1: bid: must be a number 1-3, not 4.",
    ),
}


def _offline_pairing(game: str) -> tuple[Any, Any]:
    event = EventFactory(game=game, table_mode=Table.Mode.OFFLINE)
    unit = UnitFactory()
    if game == "daguai":
        for _ in range(2):
            TeamFactory(event=event, unit=UnitFactory())
    else:
        people = PlayerFactory.create_batch(4)
        for player in people:
            membership_ensure(player=player, unit=unit)
        registration_ensure(event=event, players=people)
    referee = UserFactory()
    event_organizer_add(event=event, user=referee)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    return round_.pairings.get(), referee


@pytest.mark.parametrize("game", sorted(BAD_SHEETS))
def test_a_bad_sheet_is_refused_in_chinese_and_in_english(game: str) -> None:
    pairing, referee = _offline_pairing(game)
    names = {
        f"p{seat}": name
        for seat, name in TableSeat.objects.filter(table=pairing.table).values_list(
            "seat", "player__name"
        )
    }
    sheet, chinese, english = BAD_SHEETS[game]
    for language, wanted in ((None, chinese), ("en", english)):
        client = APIClient()
        client.force_authenticate(referee)
        if language:
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.post(f"/api/v1/tables/{pairing.pk}/results/", sheet, format="json")
        assert response.status_code == 400
        assert response.json()["detail"] == wanted % names


# --- the command line keeps English ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "english"),
    [
        (
            ["result", "--dealer-team", "A", "--levels", "2,2", "--finish", "1 1 3"],
            "luzi result: error: seat 1 goes out twice in finishing order (1, 1, 3)",
        ),
        (
            ["score", "--game", "xiaoluzi", "--mode", "countered", "--declarer", "2"]
            + ["--counter", "2", "--finish", "2", "--cards-played", "0,0,8,0"],
            "luzi score: error: seat 2 cannot declare and counter-declare",
        ),
    ],
)
def test_the_command_line_still_refuses_in_english_with_exit_2(
    args: list[str], english: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == english
