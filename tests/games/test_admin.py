"""The action log is read-only in the admin too."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Action, Deal, Match
from tests.games.factories import TableFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_actions_cannot_be_added_changed_or_deleted_in_the_admin() -> None:
    match = Match.objects.create(table=TableFactory())
    deal = Deal.objects.create(match=match, number=1, dealer_seat=0, level_rank=2, seed=1)
    action = Action.objects.create(deal=deal, seq=1, seat=0, kind="play", cards="BJ")
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    change = reverse("admin:games_action_change", args=[action.pk])
    assert client.get(change).status_code == 200  # viewable
    client.post(change, {"seq": 1, "seat": 0, "kind": "play", "cards": "SJ"})
    assert client.get(reverse("admin:games_action_add")).status_code == 403
    delete = reverse("admin:games_action_delete", args=[action.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    action.refresh_from_db()
    assert action.cards == "BJ"
