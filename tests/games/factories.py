"""factory-boy factories for the card room."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from games.models import Player, Table, TableSeat


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct horse battery")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"选手{n}")


class BotFactory(PlayerFactory):
    is_bot = True
    bot_kind = "heuristic"


class TableFactory(factory.django.DjangoModelFactory):
    """A table with six fresh players in seats 0..5 (pass ``seated=False`` for an empty one)."""

    class Meta:
        model = Table
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"桌{n}")

    @factory.post_generation
    def seated(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create or extracted is False:
            return
        for seat in range(6):
            TableSeat.objects.create(table=self, seat=seat, player=PlayerFactory())
