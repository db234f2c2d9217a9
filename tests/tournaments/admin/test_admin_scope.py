"""An organizer's reach ends at their own events, in the admin too (issue 11).

The attack these tests replay: an organizer of one event linked a superuser's account to a player
(or put another event's player with an account into a team of their own), then issued that
player a login code and logged in as the superuser. Every link of that chain is closed.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from config.exceptions import ApplicationError, NotAllowedError
from games.models import Player
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, RoundFactory, TeamFactory, UnitFactory
from tournaments.events.entries import membership_ensure
from tournaments.events.staff import event_organizer_add
from tournaments.models import Membership, Registration, Round, TeamMember

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> dict[str, Any]:
    """Two events with their own organizers, teams, units and members; one of them private."""
    data: dict[str, Any] = {"superuser": UserFactory(is_staff=True, is_superuser=True)}
    for key, private in (("mine", False), ("theirs", True)):
        event = EventFactory(is_private=private)
        organizer = UserFactory()
        event_organizer_add(event=event, user=organizer)
        unit = UnitFactory()
        team = TeamFactory(event=event, unit=unit)
        player = team.members.order_by("order").first().player
        membership = membership_ensure(player=player, unit=unit, employee_number=f"E-{key}")
        data[key] = {
            "event": event,
            "organizer": organizer,
            "team": team,
            "unit": unit,
            "player": player,
            "membership": membership,
        }
    return data


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def change_url(obj: Any) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def changelist(client: Client, app: str, model: str) -> set[int]:
    response = client.get(reverse(f"admin:{app}_{model}_changelist"))
    assert response.status_code == 200
    return {obj.pk for obj in response.context["cl"].result_list}


@pytest.mark.parametrize(
    ("app", "model", "key"),
    [
        ("games", "player", "player"),
        ("tournaments", "unit", "unit"),
        ("tournaments", "membership", "membership"),
    ],
)
def test_organizer_reaches_only_their_own_events_players_units_and_memberships(
    world: dict[str, Any], app: str, model: str, key: str
) -> None:
    client = client_for(world["mine"]["organizer"])
    shown = changelist(client, app, model)
    assert world["mine"][key].pk in shown
    assert world["theirs"][key].pk not in shown
    assert client.get(change_url(world["mine"][key])).status_code == 200
    assert client.get(change_url(world["theirs"][key])).status_code == 403


def test_organizer_cannot_rename_another_events_player(world: dict[str, Any]) -> None:
    player = world["theirs"]["player"]
    client = client_for(world["mine"]["organizer"])
    response = client.post(change_url(player), {"name": "改名", "is_bot": "", "bot_kind": ""})
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.name != "改名"


def test_organizer_cannot_rename_a_unit_only_another_event_uses(world: dict[str, Any]) -> None:
    unit = world["theirs"]["unit"]
    client = client_for(world["mine"]["organizer"])
    response = client.post(change_url(unit), {"name": "改名", "kind": unit.kind})
    assert response.status_code == 403
    unit.refresh_from_db()
    assert unit.name != "改名"


def test_a_unit_no_event_uses_is_within_reach(world: dict[str, Any]) -> None:
    orphan = UnitFactory()
    client = client_for(world["mine"]["organizer"])
    assert orphan.pk in changelist(client, "tournaments", "unit")


def test_organizer_never_changes_a_players_account(world: dict[str, Any]) -> None:
    player = world["mine"]["player"]
    client = client_for(world["mine"]["organizer"])
    response = client.post(
        change_url(player),
        {"name": player.name, "user": world["superuser"].pk, "is_bot": "", "bot_kind": ""},
    )
    assert response.status_code == 302  # saved, but the account field is read-only: ignored
    player.refresh_from_db()
    assert player.user_id is None


def test_superuser_may_link_an_account(world: dict[str, Any]) -> None:
    player = world["mine"]["player"]
    account = UserFactory()
    response = client_for(world["superuser"]).post(
        change_url(player), {"name": player.name, "user": account.pk, "bot_kind": ""}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.user_id == account.pk


def test_organizer_adds_a_player_into_one_of_their_events(world: dict[str, Any]) -> None:
    client = client_for(world["mine"]["organizer"])
    url = reverse("admin:games_player_add")
    refused = client.post(url, {"event": world["theirs"]["event"].pk, "name": "新人"})
    assert refused.status_code == 200 and not Player.objects.filter(name="新人").exists()
    response = client.post(url, {"event": world["mine"]["event"].pk, "name": "新人"})
    assert response.status_code == 302, response.context and response.context["errors"]
    player = Player.objects.get(name="新人")
    assert Registration.objects.filter(event=world["mine"]["event"], player=player).exists()
    assert player.user_id is None


def _team_form(team: Any, players: list[Any]) -> dict[str, Any]:
    members = list(team.members.order_by("order"))
    form: dict[str, Any] = {
        "name": team.name,
        "unit": team.unit_id,
        "members-TOTAL_FORMS": str(len(players)),
        "members-INITIAL_FORMS": str(len(members)),
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "3",
    }
    for i, player in enumerate(players):
        form |= {
            f"members-{i}-team": team.pk,
            f"members-{i}-order": i,
            f"members-{i}-player": player.pk,
        }
        if i < len(members):
            form[f"members-{i}-id"] = members[i].pk
    return form


def test_a_team_takes_only_players_registered_in_its_event(world: dict[str, Any]) -> None:
    team = world["mine"]["team"]
    stranger = world["theirs"]["player"]
    stranger.user = UserFactory()
    stranger.save()
    members = [m.player for m in team.members.order_by("order")]
    # As an organizer, another event's player is not even a choice; a superuser gets the reason.
    for user in (world["mine"]["organizer"], world["superuser"]):
        response = client_for(user).post(
            change_url(team), _team_form(team, [stranger, *members[1:]])
        )
        assert response.status_code == 200
        assert not TeamMember.objects.filter(team=team, player=stranger).exists()
    errors = str(response.context["errors"])
    assert stranger.name in errors


def test_a_registered_player_joins_a_team(world: dict[str, Any]) -> None:
    team = world["mine"]["team"]
    newcomer = PlayerFactory()
    Registration.objects.create(event=world["mine"]["event"], player=newcomer)
    members = [m.player for m in team.members.order_by("order")]
    client = client_for(world["mine"]["organizer"])
    response = client.post(change_url(team), _team_form(team, [newcomer, *members[1:]]))
    assert response.status_code == 302, response.context and response.context["errors"]
    assert TeamMember.objects.filter(team=team, player=newcomer, order=0).exists()


def test_login_codes_are_never_issued_for_staff_or_superusers(world: dict[str, Any]) -> None:
    for account in (world["superuser"], UserFactory(is_staff=True)):
        with pytest.raises(NotAllowedError):
            account_services.login_code_issue(user=account)
    # Even if such an account ends up on a team (only an administrator could link it), the
    # team's sheet refuses it and says why.
    player = world["mine"]["player"]
    player.user = world["superuser"]
    player.save()
    issued = account_services.team_login_codes_issue(
        team=world["mine"]["team"], issued_by=world["mine"]["organizer"]
    )
    refused = [i for i in issued if i.player == player]
    assert refused and refused[0].code == "" and refused[0].refused
    assert all(i.code for i in issued if i.player != player)


def test_the_whole_chain_no_longer_logs_an_organizer_in_as_the_superuser(
    world: dict[str, Any],
) -> None:
    organizer = world["mine"]["organizer"]
    client = client_for(organizer)
    player = world["mine"]["player"]
    # 1. Link the superuser's account to a player: the field is read-only.
    client.post(change_url(player), {"name": player.name, "user": world["superuser"].pk})
    # 2. Take another event's player who has the superuser's account into one's team: refused.
    stranger = world["theirs"]["player"]
    stranger.user = world["superuser"]
    stranger.save()
    team = world["mine"]["team"]
    members = [m.player for m in team.members.order_by("order")]
    client.post(change_url(team), _team_form(team, [stranger, *members[1:]]))
    # 3. Issue the team's codes: none opens the superuser's account.
    response = client.post(reverse("accounts:team_codes", args=[team.pk]))
    assert response.status_code == 200
    issued_to = {c.user_id for c in world["superuser"].login_codes.all()}
    assert issued_to == set()
    anonymous = Client()
    assert anonymous.get(reverse("admin:auth_user_changelist")).status_code == 302


def test_reissuing_a_teams_codes_revokes_the_older_ones(world: dict[str, Any]) -> None:
    team, organizer = world["mine"]["team"], world["mine"]["organizer"]
    first = account_services.team_login_codes_issue(team=team, issued_by=organizer)
    second = account_services.team_login_codes_issue(team=team, issued_by=organizer)
    for old in first:
        with pytest.raises(ApplicationError):
            account_services.login_code_redeem(code=old.code)
    assert account_services.login_code_redeem(code=second[0].code) == second[0].player.user


def test_organizer_cannot_register_another_events_player(world: dict[str, Any]) -> None:
    event = world["mine"]["event"]
    stranger = world["theirs"]["player"]
    client = client_for(world["mine"]["organizer"])
    form = _event_form(event) | {
        "registrations-TOTAL_FORMS": "1",
        "registrations-0-event": event.pk,
        "registrations-0-player": stranger.pk,
    }
    response = client.post(change_url(event), form)
    assert response.status_code == 200
    assert not Registration.objects.filter(event=event, player=stranger).exists()


def test_a_team_member_stays_registered(world: dict[str, Any]) -> None:
    event = world["mine"]["event"]
    registration = Registration.objects.get(event=event, player=world["mine"]["player"])
    form = _event_form(event) | {
        "registrations-TOTAL_FORMS": "1",
        "registrations-INITIAL_FORMS": "1",
        "registrations-0-id": registration.pk,
        "registrations-0-event": event.pk,
        "registrations-0-player": registration.player_id,
        "registrations-0-DELETE": "on",
    }
    response = client_for(world["superuser"]).post(change_url(event), form)
    assert response.status_code == 200
    assert Registration.objects.filter(pk=registration.pk).exists()


def _event_form(event: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "name": event.name,
        "meet": event.meet_id,
        "game": event.game,
        "base_score": event.base_score,
        "deals_per_match": event.deals_per_match,
        "rule_options": "{}",
        "pairing_format": event.pairing_format,
        "tie_break_order": '["levels_gained"]',
        "status": event.status,
        "bye_points": 3,
        "table_mode": "offline",
        "unit_best": 3,
        "organizers": list(event.organizers.values_list("pk", flat=True)),
    }
    for prefix in ("registrations", "teams", "rounds"):
        form |= {
            f"{prefix}-TOTAL_FORMS": "0",
            f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0",
            f"{prefix}-MAX_NUM_FORMS": "1000",
        }
    return form


def test_a_rounds_status_cannot_be_set_from_the_event_admin(world: dict[str, Any]) -> None:
    event = world["mine"]["event"]
    round_ = RoundFactory(event=event, status=Round.Status.RUNNING)
    form = _event_form(event) | {
        "rounds-TOTAL_FORMS": "1",
        "rounds-INITIAL_FORMS": "1",
        "rounds-0-id": round_.pk,
        "rounds-0-event": event.pk,
        "rounds-0-number": round_.number,
        "rounds-0-status": Round.Status.DRAFT,
    }
    client_for(world["mine"]["organizer"]).post(change_url(event), form)
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING
    delete = reverse("admin:tournaments_round_delete", args=[round_.pk])
    assert client_for(world["mine"]["organizer"]).post(delete, {"post": "yes"}).status_code == 403
    assert Round.objects.filter(pk=round_.pk).exists()


def test_memberships_choices_are_scoped(world: dict[str, Any]) -> None:
    client = client_for(world["mine"]["organizer"])
    response = client.post(
        reverse("admin:tournaments_membership_add"),
        {"player": world["theirs"]["player"].pk, "unit": world["mine"]["unit"].pk},
    )
    assert response.status_code == 200
    assert not Membership.objects.filter(
        player=world["theirs"]["player"], unit=world["mine"]["unit"]
    ).exists()


@pytest.mark.parametrize(
    ("model", "field", "key"),
    [
        ("registration", "player", "player"),
        ("teammember", "player", "player"),
        ("membership", "player", "player"),
        ("team", "unit", "unit"),
        ("membership", "unit", "unit"),
        ("unit", "parent", "unit"),
    ],
)
def test_autocomplete_offers_only_what_an_organizer_reaches(
    world: dict[str, Any], model: str, field: str, key: str
) -> None:
    """The admin's autocomplete endpoints (the search behind each autocomplete field) list an
    organizer only their own events' players and units, whatever the term."""
    client = client_for(world["mine"]["organizer"])
    response = client.get(
        "/admin/autocomplete/",
        {"app_label": "tournaments", "model_name": model, "field_name": field, "term": ""},
    )
    assert response.status_code == 200, response.content
    ids = {int(row["id"]) for row in response.json()["results"]}
    assert world["mine"][key].pk in ids
    assert world["theirs"][key].pk not in ids
    theirs = world["theirs"][key].name
    named = client.get(
        "/admin/autocomplete/",
        {"app_label": "tournaments", "model_name": model, "field_name": field, "term": theirs},
    )
    assert theirs not in named.content.decode()
