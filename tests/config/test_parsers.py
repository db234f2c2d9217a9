"""The API's JSON parser refuses with a 400 what DRF's let through as a 500 (found by
tests/config/test_fuzz.py): nesting deeper than the recursion limit, a lone surrogate."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from rest_framework.exceptions import ParseError

from config.parsers import JSONParser


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"reason": "\\ud800"}', "lone surrogate"),
        ('["\\udfff x"]', "lone surrogate"),
        ("{", "JSON parse error"),
        ("NaN", "JSON parse error"),
    ],
)
def test_bad_json_is_a_parse_error(body: str, message: str) -> None:
    with translation.override("en"), pytest.raises(ParseError, match=message):
        JSONParser().parse(io.BytesIO(body.encode()))


def test_good_json_is_read() -> None:
    body = '{"cards": "3H 3H", "seq": 4, "x": [[1]], "名": "\\ud83d\\ude00"}'
    data = JSONParser().parse(io.BytesIO(body.encode()))
    assert data == {"cards": "3H 3H", "seq": 4, "x": [[1]], "名": "😀"}


@pytest.mark.django_db
def test_the_api_answers_deep_json_with_a_json_400(client) -> None:
    from tests.games.factories import UserFactory

    client.force_login(UserFactory())
    response = client.post(
        "/api/v1/tables/1/check/", "[" * 50_000 + "]" * 50_000, content_type="application/json"
    )
    assert response.status_code in (400, 403, 404)  # never a 500
    assert response["Content-Type"] == "application/json"
