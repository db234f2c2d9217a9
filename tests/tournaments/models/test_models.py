"""The database itself refuses what tournament data must never hold."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from engine.registry import DEFAULT_GAME
from tests.games.factories import PlayerFactory, TableFactory
from tests.tournaments.factories import (
    EventFactory,
    MeetFactory,
    RoundFactory,
    TeamFactory,
    UnitFactory,
)
from tournaments.models import Membership, Pairing, Round, RoundEntry, Team, TeamMember, Unit

pytestmark = pytest.mark.django_db


def assert_refused(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def test_unit_names_unique_within_parent() -> None:
    company = UnitFactory(name="华东精工集团", kind=Unit.Kind.COMPANY)
    UnitFactory(name="财务部", parent=company)
    assert_refused(lambda: UnitFactory(name="财务部", parent=company))
    assert_refused(lambda: UnitFactory(name="华东精工集团"))
    UnitFactory(name="财务部", parent=UnitFactory(name="另一家公司"))  # same name, other parent


def test_membership_once_per_unit() -> None:
    unit, player = UnitFactory(), PlayerFactory()
    Membership.objects.create(unit=unit, player=player)
    assert_refused(lambda: Membership.objects.create(unit=unit, player=player))


def test_meet_ends_after_it_starts() -> None:
    day = datetime.date(2026, 12, 5)
    assert_refused(lambda: MeetFactory(starts_on=day, ends_on=day - datetime.timedelta(days=1)))


@pytest.mark.parametrize(
    "fields",
    [{"base_score": 0}, {"deals_per_match": 0}, {"game": ""}, {"status": "over"}],
)
def test_event_fields_checked(fields: dict[str, object]) -> None:
    assert_refused(lambda: EventFactory(**fields))


def test_an_event_names_a_registered_game() -> None:
    # The games come from the registry (a game may be added without a migration), so the model's
    # validation, which every form and the admin run, refuses an unknown one.
    event = EventFactory.build(meet=MeetFactory(), game="chess")
    with pytest.raises(ValidationError):
        event.full_clean()
    for game in ("daguai", "xiaoluzi", "shanghai_doudizhu"):
        EventFactory.build(meet=MeetFactory(), game=game).full_clean()


def test_event_tie_break_order_validated() -> None:
    event = EventFactory.build(meet=MeetFactory(), tie_break_order=["coin_toss"])
    with pytest.raises(ValidationError):
        event.full_clean()
    event.tie_break_order = ["levels_gained", "levels_gained"]
    with pytest.raises(ValidationError):
        event.full_clean()
    event.tie_break_order = ["levels_gained", "head_to_head"]
    event.full_clean()
    with translation.override("en"):
        assert event.tie_break_labels() == ["levels gained", "head-to-head"]


def test_event_defaults() -> None:
    event = EventFactory()
    assert event.game == DEFAULT_GAME == "daguai"  # the registry's default game
    assert event.get_game_display() == "大怪路子"
    assert event.tie_break_order == ["head_to_head", "opponents_points", "levels_gained"]


def test_team_member_order_and_uniqueness() -> None:
    team = TeamFactory(members=False)
    player = PlayerFactory()
    assert_refused(
        lambda: TeamMember.objects.create(team=team, event=team.event, player=player, order=3)
    )
    TeamMember.objects.create(team=team, event=team.event, player=player, order=0)
    assert_refused(
        lambda: TeamMember.objects.create(
            team=team, event=team.event, player=PlayerFactory(), order=0
        )
    )


def test_player_in_one_team_per_event() -> None:
    first = TeamFactory()
    player = first.members.get(order=0).player
    second = TeamFactory(event=first.event, members=False)
    assert_refused(
        lambda: TeamMember.objects.create(team=second, event=second.event, player=player, order=0)
    )
    elsewhere = TeamFactory(members=False)  # another event: allowed
    TeamMember.objects.create(team=elsewhere, event=elsewhere.event, player=player, order=0)


def test_team_name_unique_per_event() -> None:
    team = TeamFactory()
    assert_refused(lambda: Team.objects.create(event=team.event, name=team.name))


def test_round_number_unique_per_event() -> None:
    round_ = RoundFactory(number=1)
    assert_refused(lambda: Round.objects.create(event=round_.event, number=1))
    assert_refused(lambda: Round.objects.create(event=round_.event, number=0))


def _pairing(round_: Round, team_a: Team, team_b: Team, number: int = 1) -> Pairing:
    return Pairing.objects.create(
        round=round_, number=number, table=TableFactory(), team_a=team_a, team_b=team_b
    )


def test_pairing_needs_two_different_teams() -> None:
    round_ = RoundFactory()
    team = TeamFactory(event=round_.event)
    assert_refused(lambda: _pairing(round_, team, team))


def test_team_once_per_round() -> None:
    round_ = RoundFactory()
    a, b, c = (TeamFactory(event=round_.event) for _ in range(3))
    _pairing(round_, a, b)
    assert_refused(lambda: _pairing(round_, a, c, number=2))  # team A column twice
    assert_refused(lambda: _pairing(round_, c, b, number=2))  # team B column twice
    RoundEntry.objects.create(round=round_, team=a)
    assert_refused(lambda: RoundEntry.objects.create(round=round_, team=a))  # across both columns


def test_a_table_serves_one_pairing() -> None:
    round_ = RoundFactory()
    teams = [TeamFactory(event=round_.event) for _ in range(4)]
    pairing = _pairing(round_, teams[0], teams[1])
    assert_refused(
        lambda: Pairing.objects.create(
            round=round_, number=2, table=pairing.table, team_a=teams[2], team_b=teams[3]
        )
    )
