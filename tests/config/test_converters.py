"""Ids in URLs are positive 64-bit integers (config/converters.py): a longer one is a 404 on every
backend, not an OverflowError on SQLite (issue 11)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from config.converters import MAX_ID, IdConverter
from tests.tournaments.factories import EventFactory

HUGE = "99999999999999999999999"


def _accepts(value: str) -> bool:
    converter = IdConverter()
    if re.fullmatch(converter.regex, value) is None:
        return False
    try:
        converter.to_python(value)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("value", ["0", str(MAX_ID + 1), HUGE, "-1", "abc", "٣", "1.0"])
def test_the_converter_refuses_what_is_no_id(value: str) -> None:
    assert not _accepts(value)


def test_the_converter_reads_ids_and_writes_them_back() -> None:
    assert _accepts("1") and _accepts(str(MAX_ID))
    converter = IdConverter()
    assert converter.to_python("1") == 1 and converter.to_python(str(MAX_ID)) == MAX_ID
    assert converter.to_url(42) == "42"
    assert reverse("tournaments:player_detail", args=[1, MAX_ID]).endswith(f"/{MAX_ID}/")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/events/{event}/players/" + HUGE + "/",
        "/events/" + HUGE + "/",
        "/events/{event}/players/" + str(MAX_ID) + "/",
        "/events/{event}/players/" + str(MAX_ID + 1) + "/",
        "/api/v1/tables/" + HUGE + "/state/",
        "/api/v1/tables/" + str(MAX_ID) + "/state/",
        "/api/v1/rounds/" + HUGE + "/",
        "/teams/" + HUGE + "/",
        "/tables/" + str(MAX_ID + 1) + "/",
    ],
)
def test_huge_ids_in_urls_are_404(client, url: str) -> None:
    event = EventFactory()
    response = client.get(url.format(event=event.pk))
    assert response.status_code == 404
