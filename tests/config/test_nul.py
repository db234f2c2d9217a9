"""A NUL character in any text a request carries is refused with a 400 and a message, before any
view (issue 25): PostgreSQL can neither store nor compare one, so each of these was a DataError,
a 500, at the place where the text first reached a query."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.test import Client

from tests.config.test_fuzz import World, world  # noqa: F401 - the fuzz walk's site

pytestmark = pytest.mark.django_db

MESSAGE_EN = "The request holds a NUL character"
MESSAGE_ZH = "NUL 字符"


def as_user(site: World, who: str) -> Client:
    client = Client(raise_request_exception=False)
    if site.users[who] is not None:
        client.force_login(site.users[who])
    return client


def assert_refused(response: Any, *, api: bool) -> None:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    # in Simplified Chinese unless the visitor chose English; JSON under /api/
    if api:
        assert response["Content-Type"] == "application/json"
        assert MESSAGE_ZH in response.json()["detail"]
    else:
        assert MESSAGE_ZH in response.content.decode()


@pytest.mark.parametrize("tail", ["%00/walkover/", "a%00/length/"])
def test_a_nul_in_a_bracket_match_key(world: World, tail: str) -> None:  # noqa: F811
    client = as_user(world, "player")  # any account
    url = f"/api/v1/events/{world.ids['event']}/bracket/matches/{tail}"
    assert_refused(client.post(url, data="{}", content_type="application/json"), api=True)


def test_a_nul_in_the_reject_reason_of_the_dashboard(world: World) -> None:  # noqa: F811
    client = as_user(world, "organizer")
    url = f"/events/{world.ids['event']}/manage/tables/{world.ids['pairing']}/result/"
    data = {"action": "reject", "submission": world.ids["submission"], "reason": "错\x00了"}
    assert_refused(client.post(url, data=data), api=False)


def test_a_nul_in_the_forced_complete_reason(world: World) -> None:  # noqa: F811
    client = as_user(world, "organizer")
    url = f"/events/{world.ids['event']}/manage/rounds/complete/"
    data = {"force": "1", "confirm": "1", "reason": "\x00"}
    assert_refused(client.post(url, data=data), api=False)


def test_a_nul_in_the_admin_autocomplete_term(world: World) -> None:  # noqa: F811
    client = as_user(world, "super")
    query = "app_label=games&model_name=tableseat&field_name=player&term=%00"
    assert_refused(client.get(f"/admin/autocomplete/?{query}"), api=False)


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/table/?status__exact=%00",
        "/admin/games/table/?game__exact=%00",
        "/admin/games/player/?bot_kind__exact=%00",
        "/admin/games/player/?q=%00",
        "/admin/games/player/?%00=1",
    ],
)
def test_a_nul_in_an_admin_list_filter(world: World, url: str) -> None:  # noqa: F811
    assert_refused(as_user(world, "super").get(url), api=False)


@pytest.mark.parametrize(
    "body",
    [
        {"reason": "\x00"},
        {"reason\x00": "x"},
        {"deals": [{"leave": ["a", "b\x00"]}]},
    ],
)
def test_a_nul_in_a_json_body(world: World, body: Any) -> None:  # noqa: F811
    client = as_user(world, "organizer")
    url = f"/api/v1/results/{world.ids['submission']}/reject/"
    text = json.dumps(body)
    assert "\\u0000" in text
    assert_refused(client.post(url, data=text, content_type="application/json"), api=True)
    raw = text.replace("\\u0000", "\x00")  # a raw NUL is no JSON either
    assert_refused(client.post(url, data=raw, content_type="application/json"), api=True)


def test_an_escaped_backslash_before_u0000_is_plain_text(world: World) -> None:  # noqa: F811
    # JSON "\\u0000" is a backslash followed by the letters u0000: text, not a NUL
    client = as_user(world, "organizer")
    url = f"/api/v1/results/{world.ids['submission']}/reject/"
    response = client.post(url, data='{"reason": "\\\\u0000"}', content_type="application/json")
    assert response.status_code == 200, response.content[:300]


def test_a_nul_in_a_multipart_field(world: World) -> None:  # noqa: F811
    client = as_user(world, "organizer")
    url = f"/events/{world.ids['event']}/manage/import/"
    upload = io.BytesIO(b"name\n")
    upload.name = "players.csv"
    assert_refused(client.post(url, data={"file": upload, "step": "\x00"}), api=False)


@pytest.mark.parametrize("where", ["path", "query", "cookie"])
def test_a_nul_anywhere_else_on_a_page(world: World, where: str) -> None:  # noqa: F811
    client = as_user(world, "player")
    if where == "path":
        response = client.get("/meets/a%00b/")
    elif where == "query":
        response = client.get("/?next=%00")
    else:
        client.cookies["sessionid"] = "abcdefgh\x00ijk"
        response = client.get("/accounts/me/")
    assert_refused(response, api=False)


def test_the_refusal_speaks_english_to_who_chose_it(world: World) -> None:  # noqa: F811
    client = as_user(world, "anonymous")
    client.cookies["django_language"] = "en"
    response = client.get("/api/v1/tables/?q=%00")
    assert response.status_code == 400
    assert response.json()["detail"].startswith(MESSAGE_EN)


def test_text_without_a_nul_passes(world: World) -> None:  # noqa: F811
    client = as_user(world, "super")
    assert client.get("/admin/games/table/?status__exact=live&q=%E2%80%AE").status_code == 200
    assert client.get("/?next=%01").status_code == 200


@pytest.mark.parametrize("api", [False, True])
def test_a_broken_multipart_body_is_a_400(world: World, api: bool) -> None:  # noqa: F811
    # the middleware reads form fields first: a body the multipart parser cannot read is a 400
    client = as_user(world, "organizer")
    event = world.ids["event"]
    url = f"/api/v1/events/{event}/import/" if api else f"/events/{event}/manage/import/"
    response = client.generic(
        "POST", url, b"--x\r\nbroken", content_type="multipart/form-data; boundary=\x7f\x7f"
    )
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("application/json" if api else "text/html")
