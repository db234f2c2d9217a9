"""Chinese pages use Chinese punctuation (issue 26): a translated fragment followed by an ASCII
colon (``{% translate "Seats 0, 2, 4" %}:``), ASCII commas, colons or parentheses inside Chinese
sentences. Every page of an event of each game (public, organizer's, referee's, My page), in
Chinese, is read for an ASCII ``:`` ``,`` ``(`` ``)`` touching a Chinese character, in its text
and in the words it shows in attributes (titles, labels, questions)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.browser.events import GAMES, build

pytestmark = pytest.mark.django_db

CJK = "\u3400-\u9fff\uff00-\uffef\u3000-\u303f"
ASCII_BESIDE_CJK = re.compile(rf"[{CJK}][:,()]|[:,(][{CJK}]|[{CJK}] [:,)]")
SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "data-confirm", "alt"}


def _a_button(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    return tag == "input" and dict(attrs).get("type") in ("submit", "button")


class _Words(HTMLParser):
    """The words a page shows: text outside scripts and styles, and shown attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and (name in SHOWN_ATTRIBUTES or name == "value" and _a_button(tag, attrs)):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def offenders(html: str) -> list[str]:
    words = _Words()
    words.feed(html)
    text = " ".join(" ".join(words.parts).split())
    return [text[max(0, m.start() - 25) : m.end() + 25] for m in ASCII_BESIDE_CJK.finditer(text)]


def _pages(built: Any) -> list[str]:
    pk = built.event.pk
    player = built.player.pk
    urls = [
        "/",
        reverse("tournaments:event_detail", args=[pk]),
        reverse("tournaments:round_detail", args=[pk, 1]),
        reverse("tournaments:round_detail", args=[pk, 2]),
        reverse("tournaments:standings", args=[pk]),
        reverse("tournaments:projector", args=[pk]),
        reverse("tournaments:player_detail", args=[pk, player]),
        reverse("tournaments:bracket", args=[pk]),
        reverse("tournaments:knockout_manage", args=[pk]),
        reverse("tournaments:dashboard", args=[pk]),
        reverse("tournaments:event_settings", args=[pk]),
        reverse("tournaments:referee_tables", args=[pk]),
        reverse("tournaments:import", args=[pk]),
        reverse("tournaments:login_codes", args=[pk]),
        reverse("tournaments:meet_detail", args=[built.event.meet.slug]),
        reverse("tournaments:event_new"),
        reverse("tournaments:event_new") + f"?game={built.event.game}",
        reverse("accounts:me"),
    ]
    if not built.event.is_individual:
        team = built.event.teams.first()
        urls += [
            reverse("tournaments:team_detail", args=[team.pk]),
            reverse("accounts:team_codes", args=[team.pk]),
        ]
    return urls


@pytest.mark.parametrize("game", GAMES)
def test_chinese_pages_use_chinese_punctuation(game: str) -> None:
    built = build(game)
    built.organizer.is_staff = True  # may create events
    built.organizer.save()
    client = Client(headers={"accept-language": "zh-hans"})
    client.cookies["django_language"] = "zh-hans"
    client.force_login(built.organizer)
    found: dict[str, list[str]] = {}
    for url in _pages(built):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        bad = offenders(response.content.decode())
        if bad:
            found[url] = bad
    for url, bad in found.items():
        print("OFF", url, *sorted(set(bad)), sep="\n  ")
    assert not found, found


def test_the_scan_sees_ascii_punctuation_beside_chinese() -> None:
    assert offenders("<p>座位: 张伟</p>") == ["座位: 张伟"]
    assert offenders('<p title="(离线)">x</p>')
    assert offenders("<p>第 1 桌, 第 2 桌</p>")
    assert not offenders("<p>座位：张伟（离线），09:30 · Seats 1, 3, 5</p>")
