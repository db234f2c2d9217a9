"""Private answers are never stored by a cache, and every page carries a Content-Security-Policy
that the site's own pages work under (issue 25: the state API, which carries the hand, had no
Cache-Control; there was no CSP). The browser tests (tests/browser/) fail on any CSP violation
in the console."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.config.test_fuzz import World, world  # noqa: F401 - the fuzz walk's site

BASE_DIR = Path(settings.BASE_DIR)


def as_user(site: World, who: str) -> Client:
    client = Client()
    if site.users[who] is not None:
        client.force_login(site.users[who])
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "path"),
    [
        ("player", "/api/v1/tables/{table}/state/"),  # the hand
        ("player", "/tables/{table}/"),
        ("player", "/accounts/me/"),
        ("player", "/"),  # any page to a logged-in user: it names them
        ("organizer", "/events/{event}/manage/"),
        ("organizer", "/events/{event}/manage/codes/"),
        ("anonymous", "/accounts/code/?code=ABCD-EFGH"),  # a code, prefilled from its link
        ("anonymous", "/accounts/login/"),
        ("anonymous", "/api/v1/tables/{table}/state/"),
    ],
)
def test_private_answers_are_not_stored(world: World, who: str, path: str) -> None:  # noqa: F811
    url = path.format(table=world.ids["table"], event=world.ids["event"])
    response = as_user(world, who).get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Cache-Control"] == "no-store", url


@pytest.mark.django_db
def test_public_pages_to_a_visitor_may_be_cached(world: World) -> None:  # noqa: F811
    response = as_user(world, "anonymous").get(f"/events/{world.ids['event']}/standings/")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/tables/{table}/", "/admin/", "/api/v1/tables/{table}/state/", "/nothing/"]
)
def test_every_answer_has_a_content_security_policy(world: World, path: str) -> None:  # noqa: F811
    response = as_user(world, "super").get(path.format(table=world.ids["table"]))
    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"  # no inline script, no eval
    assert directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert "unsafe" not in policy


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I), "inline script"),
    (re.compile(r"<style\b", re.I), "style element"),
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "event handler attribute"),
    (re.compile(r"javascript:", re.I), "javascript: link"),
]


def test_no_template_holds_inline_script_or_style() -> None:
    """What the policy refuses never appears in the site's templates (json_script data blocks
    are data, which the policy allows)."""
    found = []
    for template in sorted((BASE_DIR / "templates").rglob("*.html")):
        text = template.read_text()
        for pattern, what in INLINE:
            for match in pattern.finditer(text):
                found.append(f"{template.relative_to(BASE_DIR)}: {what}: {match.group(0)}")
    assert not found, "\n".join(found)
