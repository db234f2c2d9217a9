"""Every admin page renders for a superuser, searches and filters included (a smoke test of the
admin configuration: search fields, autocomplete, inlines)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Model
from django.test import Client, RequestFactory
from django.urls import reverse

from games.models import Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import RoundFactory, TeamFactory
from tournaments.draw.services import pairing_create

pytestmark = pytest.mark.django_db

MODELS = sorted(
    (m for m in admin.site._registry if m._meta.app_label in {"games", "tournaments"}),
    key=lambda m: m._meta.label,
)


@pytest.fixture
def superuser_client() -> Client:
    round_ = RoundFactory()
    a, b = TeamFactory(event=round_.event), TeamFactory(event=round_.event)
    pairing_create(round=round_, team_a=a, team_b=b, number=1)
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _url(model: type[Model], view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m._meta.label)
def test_changelist_search_and_change_pages_render(
    superuser_client: Client, model: type[Model]
) -> None:
    assert superuser_client.get(_url(model, "changelist")).status_code == 200
    assert superuser_client.get(_url(model, "changelist"), {"q": "队"}).status_code == 200
    obj = model._default_manager.first()
    if obj is not None:
        assert superuser_client.get(_url(model, "change", obj.pk)).status_code == 200
    assert superuser_client.get(_url(model, "add")).status_code in {200, 403}


def test_admin_index_renders_in_chinese(superuser_client: Client) -> None:
    page = superuser_client.get(reverse("admin:index")).content.decode()
    assert "路子 管理后台" in page and "赛事" in page and "牌室" in page


#: Words that stay as they are on a Chinese admin page: the site's name, protocol and data names.
ENGLISH_ALLOWED = {
    "Luzi",
    "user",  # the factory names users user1, user2...
    "Control",
    "Command",
    "unknown",
    "lsaquo",
    "rsaquo",
    "sha256",
}


def _visible_words(html: str) -> set[str]:
    html = re.sub(r"<(script|style|textarea)[^>]*>.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    return set(re.findall(r"[A-Za-z]{4,}", text)) - ENGLISH_ALLOWED


def test_admin_pages_speak_one_language(superuser_client: Client) -> None:
    # Issue 26: English inside Chinese admin pages ("AXES / Access attempts", "Players counted
    # per unit", "Fill tables with bots", a table's game as "daguai"). Permission names are
    # rows Django writes in English once, so the group and user forms are left out.
    urls = [reverse("admin:index")]
    for model in admin.site._registry:
        if model._meta.app_label == "auth":
            continue
        urls.append(_url(model, "changelist"))
        if admin.site._registry[model].has_add_permission(_request()):
            urls.append(_url(model, "add"))
    found = {}
    for url in urls:
        page = superuser_client.get(url)
        assert page.status_code == 200, url
        words = _visible_words(page.content.decode())
        if words:
            found[url] = sorted(words)
    assert found == {}
    page = superuser_client.get(_url(Table, "changelist")).content.decode()
    assert "大怪路子" in page


def _request() -> Any:
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
    return request
