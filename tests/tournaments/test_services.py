from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from config.exceptions import ApplicationError
from engine.registry import get_game
from games.models import Table
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, RoundFactory, TeamFactory
from tournaments.draw.services import pairing_create
from tournaments.events.entries import team_create
from tournaments.events.staff import ORGANIZERS_GROUP, event_organizer_add
from tournaments.models import RoundEntry, Team
from tournaments.rounds.services import round_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):  # the messages below are matched in English
        yield


def test_pairing_create_seats_team_a_on_even_seats_in_member_order() -> None:
    round_ = RoundFactory()
    team_a, team_b = TeamFactory(event=round_.event), TeamFactory(event=round_.event)
    pairing = pairing_create(
        round=round_, team_a=team_a, team_b=team_b, number=1, mode=Table.Mode.OFFLINE
    )
    sides = get_game(pairing.table.game).side_of
    seated = [
        (player, sides(seat))
        for seat, player in pairing.table.seats.order_by("seat").values_list("seat", "player_id")
    ]
    a = list(team_a.members.order_by("order").values_list("player_id", flat=True))
    b = list(team_b.members.order_by("order").values_list("player_id", flat=True))
    assert seated == [(a[0], "A"), (b[0], "B"), (a[1], "A"), (b[1], "B"), (a[2], "A"), (b[2], "B")]
    assert pairing.table.mode == "offline"
    assert set(RoundEntry.objects.filter(round=round_).values_list("team", flat=True)) == {
        team_a.pk,
        team_b.pk,
    }


def test_pairing_create_refuses_a_team_twice_in_a_round() -> None:
    round_ = RoundFactory()
    a, b, c = (TeamFactory(event=round_.event) for _ in range(3))
    pairing_create(round=round_, team_a=a, team_b=b, number=1)
    with pytest.raises(ApplicationError, match="already placed"):
        pairing_create(round=round_, team_a=c, team_b=a, number=2)
    assert round_.pairings.count() == 1
    assert Table.objects.count() == 1  # the refused pairing left no table behind


def test_pairing_create_refuses_other_events_teams_and_self_play() -> None:
    round_ = RoundFactory()
    mine, stranger = TeamFactory(event=round_.event), TeamFactory()
    with pytest.raises(ApplicationError, match="round's event"):
        pairing_create(round=round_, team_a=mine, team_b=stranger, number=1)
    with pytest.raises(ApplicationError, match="itself"):
        pairing_create(round=round_, team_a=mine, team_b=mine, number=1)


def test_team_create() -> None:
    event = EventFactory()
    players = PlayerFactory.create_batch(3)
    team = team_create(event=event, name="研发一队", players=players)
    assert [m.player for m in team.members.order_by("order")] == players
    with pytest.raises(ApplicationError, match="exactly 3"):
        team_create(event=event, name="x", players=players[:2])
    with pytest.raises(ApplicationError, match="Already in a team"):
        team_create(
            event=event, name="研发二队", players=[players[0], *PlayerFactory.create_batch(2)]
        )
    with pytest.raises(ApplicationError, match="already has a team"):
        team_create(event=event, name="研发一队", players=PlayerFactory.create_batch(3))
    assert Team.objects.filter(event=event).count() == 1


def test_round_create_numbers_rounds() -> None:
    event = EventFactory()
    assert [round_create(event=event).number for _ in range(3)] == [1, 2, 3]


def test_event_organizer_add_makes_staff_in_the_group() -> None:
    user, event = UserFactory(), EventFactory()
    event_organizer_add(event=event, user=user)
    user.refresh_from_db()
    assert user.is_staff and not user.is_superuser
    assert user.groups.filter(name=ORGANIZERS_GROUP).exists()
    assert user.has_perm("tournaments.change_team") and not user.has_perm("tournaments.add_event")
    assert list(user.organized_events.all()) == [event]
