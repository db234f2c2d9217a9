"""Every admin page renders for a superuser, searches and filters included (a smoke test of the
admin configuration: search fields, autocomplete, inlines)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from tests.games.factories import UserFactory
from tests.tournaments.factories import RoundFactory, TeamFactory
from tournaments.services import pairing_create

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
