"""Team size and seating follow from the game's seats and sides (issue 27): a team has as many
players as a side has seats, sits on the game's side seats, and the database refuses a place
beyond the team; the three games stay as they were (大怪路子: teams of three on 0/2/4 and 1/3/5).
Tested with 大怪路子 and with tests/pairsgame.py (two sides of two at tables of four)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from config.apps import games_register_extra
from config.exceptions import ApplicationError, ConflictError
from engine.registry import unregister
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.common import sides
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import services as event_services
from tournaments.events import staff as events_staff
from tournaments.events.importing import Existing, plan_import
from tournaments.models import Event, TeamMember
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairs() -> Iterator[None]:
    assert games_register_extra("pairs=tests.pairsgame") == ["pairs"]
    yield
    unregister("pairs")


def _members(team_id: int) -> list[int]:
    members = TeamMember.objects.filter(team_id=team_id).order_by("order")
    return list(members.values_list("player", flat=True))


def test_the_three_games_keep_their_sides_and_teams_of_three() -> None:
    assert sides.team_size("daguai") == 3 and sides.side_figure("daguai") == "level"
    assert sides.seating("daguai", "abc", "xyz") == list("axbycz")
    assert [sides.seat_side("daguai", s) for s in range(6)] == ["A", "B"] * 3
    for game in ("xiaoluzi", "shanghai_doudizhu"):
        assert not sides.team_game(game) and sides.side_figure(game) is None
        with pytest.raises(ValueError):
            sides.team_size(game)


def test_a_team_of_a_two_a_side_game_has_two_players_seated_on_its_sides(pairs: None) -> None:
    assert (sides.team_size("pairs"), sides.side_seats("pairs")) == (2, ((0, 2), (1, 3)))
    event = EventFactory(game="pairs")
    assert not event.is_individual and event.team_size == 2
    with pytest.raises(ApplicationError, match="正好 2 名选手，现在是 3 名"):
        events_entries.team_create(event=event, name="三人", players=BotFactory.create_batch(3))
    one = events_entries.team_create(event=event, name="甲", players=BotFactory.create_batch(2))
    two = events_entries.team_create(event=event, name="乙", players=BotFactory.create_batch(2))
    assert set(TeamMember.objects.filter(event=event).values_list("size", flat=True)) == {2}
    with pytest.raises(IntegrityError), transaction.atomic():  # a third place in a team of two
        TeamMember.objects.create(team=one, event=event, player=PlayerFactory(), order=2)
    round_ = rounds_services.round_create(event=event)
    pairing = draw_services.pairing_create(round=round_, team_a=one, team_b=two, number=1)
    seated = dict(pairing.table.seats.values_list("seat", "player_id"))
    a, b = _members(one.pk), _members(two.pk)
    assert pairing.table.seat_count == 4
    assert seated == {0: a[0], 1: b[0], 2: a[1], 3: b[1]}


def test_a_daguai_table_is_seated_a0_b0_a1_b1_a2_b2_as_before() -> None:
    event = EventFactory()
    one, two = TeamFactory(event=event), TeamFactory(event=event)
    pairing = draw_services.pairing_create(
        round=rounds_services.round_create(event=event), team_a=one, team_b=two, number=1
    )
    seated = dict(pairing.table.seats.values_list("seat", "player_id"))
    a, b = _members(one.pk), _members(two.pk)
    assert [seated[s] for s in range(6)] == [a[0], b[0], a[1], b[1], a[2], b[2]]


def test_the_import_forms_teams_of_the_games_size(pairs: None) -> None:
    rows = [{"name": f"p{i}", "unit": "u", "team": ""} for i in range(5)]
    plan = plan_import(rows, Existing(team_size=2))
    assert [len(t.players) for t in plan.teams] == [2, 2] and len(plan.without_team) == 1
    assert [len(t.players) for t in plan_import(rows).teams] == [3]  # the default game: 大怪路子
    named = [{"name": f"p{i}", "unit": "u", "team": "T"} for i in range(3)]
    problems = plan_import(named, Existing(team_size=2)).problems
    assert len(problems) == 1 and "a team has 2" in problems[0].message


def test_an_individual_event_takes_no_team_and_a_game_of_another_team_size_is_refused(
    pairs: None,
) -> None:
    single = EventFactory(game="xiaoluzi")
    with pytest.raises(ApplicationError):
        events_entries.team_create(event=single, name="队", players=BotFactory.create_batch(3))
    event, user = EventFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=user)
    TeamFactory(event=event)
    with pytest.raises(ConflictError, match="对墩每队 2 人"):
        event_services.event_game_set(event=event, user=user, game="pairs")
    assert Event.objects.get(pk=event.pk).game == "daguai"


def test_the_migration_gives_existing_members_the_size_of_their_games_team(
    transactional_db: None,
) -> None:
    executor = MigrationExecutor(connection)
    before = [("tournaments", "0014_event_referees")]
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Meet = old.get_model("tournaments", "Meet")
    OldEvent = old.get_model("tournaments", "Event")
    Team = old.get_model("tournaments", "Team")
    Member = old.get_model("tournaments", "TeamMember")
    Player = old.get_model("games", "Player")
    meet = Meet.objects.create(name="旧", slug="old")
    event = OldEvent.objects.create(meet=meet, name="旧赛", game="daguai")
    team = Team.objects.create(event=event, name="旧队", unit=None)
    for order in range(3):
        player = Player.objects.create(name=f"旧{order}")
        Member.objects.create(team=team, event=event, player=player, order=order)
    executor = MigrationExecutor(connection)
    executor.migrate(latest)
    assert (
        list(TeamMember.objects.filter(team_id=team.pk).values_list("size", flat=True)) == [3] * 3
    )
    UnitFactory()  # the database works on as before


def test_the_admin_refuses_a_third_member_of_a_team_of_two_with_a_message(pairs: None) -> None:
    from django.test import Client
    from django.urls import reverse

    event, user = EventFactory(game="pairs"), UserFactory()
    events_staff.event_organizer_add(event=event, user=user)
    team = events_entries.team_create(event=event, name="甲", players=BotFactory.create_batch(2))
    extra = PlayerFactory()
    events_entries.registration_ensure(event=event, players=[extra])
    members = list(team.members.order_by("order"))
    form = {
        "name": team.name,
        "event": event.pk,
        "members-TOTAL_FORMS": "3",
        "members-INITIAL_FORMS": "2",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "2",
        "members-2-team": team.pk,
        "members-2-order": 2,
        "members-2-player": extra.pk,
    }
    for i, member in enumerate(members):
        form |= {
            f"members-{i}-id": member.pk,
            f"members-{i}-team": team.pk,
            f"members-{i}-order": member.order,
            f"members-{i}-player": member.player_id,
        }
    client = Client()
    client.force_login(user)
    url = reverse("admin:tournaments_team_change", args=[team.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="members-MAX_NUM_FORMS" value="2"' in page.text
    refused = client.post(url, form)
    assert refused.status_code == 200 and team.members.count() == 2
