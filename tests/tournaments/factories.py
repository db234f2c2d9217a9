"""factory-boy factories for tournaments."""

from __future__ import annotations

from typing import Any

import factory

from tests.games.factories import PlayerFactory
from tournaments.models import Event, Meet, Registration, Round, Team, TeamMember, Unit


class UnitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Unit

    name = factory.Sequence(lambda n: f"部门{n}")
    kind = Unit.Kind.DEPARTMENT


class MeetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Meet

    name = factory.Sequence(lambda n: f"职工运动会{n}")
    slug = factory.Sequence(lambda n: f"meet-{n}")


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    meet = factory.SubFactory(MeetFactory)
    name = factory.Sequence(lambda n: f"大怪路子团体赛{n}")
    status = Event.Status.REGISTRATION


class TeamFactory(factory.django.DjangoModelFactory):
    """A team with three fresh players (pass ``members=False`` for an empty one)."""

    class Meta:
        model = Team
        skip_postgeneration_save = True

    event = factory.SubFactory(EventFactory)
    name = factory.Sequence(lambda n: f"队伍{n}")
    unit = factory.SubFactory(UnitFactory)

    @factory.post_generation
    def members(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create or extracted is False:
            return
        for order in range(3):
            player = PlayerFactory()
            Registration.objects.create(event=self.event, player=player)
            TeamMember.objects.create(team=self, event=self.event, player=player, order=order)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
