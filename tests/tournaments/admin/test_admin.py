"""Organizers see and change only the events they organize; superusers see everything."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, RoundFactory, TeamFactory
from tournaments.draw.services import pairing_create
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, Pairing, Team, TeamMember

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> dict[str, Any]:
    """Two events, each with an organizer, teams, a round and a pairing; plus a superuser."""
    data: dict[str, Any] = {"superuser": UserFactory(is_staff=True, is_superuser=True)}
    for key in ("mine", "theirs"):
        event = EventFactory()
        organizer = UserFactory()
        event_organizer_add(event=event, user=organizer)
        round_ = RoundFactory(event=event)
        team_a, team_b = TeamFactory(event=event), TeamFactory(event=event)
        pairing = pairing_create(round=round_, team_a=team_a, team_b=team_b, number=1)
        data[key] = {
            "event": event,
            "organizer": organizer,
            "round": round_,
            "team": team_a,
            "pairing": pairing,
        }
    return data


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def change_url(obj: Any) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


@pytest.mark.parametrize("model", ["event", "team", "round", "pairing"])
def test_organizer_lists_only_their_event(world: dict[str, Any], model: str) -> None:
    client = client_for(world["mine"]["organizer"])
    response = client.get(reverse(f"admin:tournaments_{model}_changelist"))
    assert response.status_code == 200
    shown = {obj.pk for obj in response.context["cl"].result_list}
    assert (
        shown == {world["mine"][model].pk} if model != "team" else world["mine"]["team"].pk in shown
    )
    assert world["theirs"][model].pk not in shown


@pytest.mark.parametrize("model", ["event", "team", "round", "pairing"])
def test_organizer_cannot_open_another_event(world: dict[str, Any], model: str) -> None:
    client = client_for(world["mine"]["organizer"])
    assert client.get(change_url(world["mine"][model])).status_code == 200
    assert client.get(change_url(world["theirs"][model])).status_code == 403


def test_organizer_cannot_change_another_events_team(world: dict[str, Any]) -> None:
    team = world["theirs"]["team"]
    client = client_for(world["mine"]["organizer"])
    response = client.post(change_url(team), {"name": "改名", "event": team.event_id})
    assert response.status_code == 403
    team.refresh_from_db()
    assert team.name != "改名"


def test_organizer_cannot_delete_another_events_round(world: dict[str, Any]) -> None:
    round_ = world["theirs"]["round"]
    client = client_for(world["mine"]["organizer"])
    url = reverse("admin:tournaments_round_delete", args=[round_.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert type(round_).objects.filter(pk=round_.pk).exists()


def test_organizer_changes_their_own_team(world: dict[str, Any]) -> None:
    team = world["mine"]["team"]
    client = client_for(world["mine"]["organizer"])
    members = list(team.members.order_by("order"))
    form = {
        "name": "新队名",
        "event": team.event_id,
        "unit": team.unit_id,
        "members-TOTAL_FORMS": "3",
        "members-INITIAL_FORMS": "3",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "3",
    }
    for i, member in enumerate(members):
        form |= {
            f"members-{i}-id": member.pk,
            f"members-{i}-team": team.pk,
            f"members-{i}-order": member.order,
            f"members-{i}-player": member.player_id,
        }
    response = client.post(change_url(team), form)
    assert response.status_code == 302, response.context and response.context["errors"]
    team.refresh_from_db()
    assert team.name == "新队名"


EMPTY_MEMBERS = {
    "members-TOTAL_FORMS": "0",
    "members-INITIAL_FORMS": "0",
    "members-MIN_NUM_FORMS": "0",
    "members-MAX_NUM_FORMS": "3",
}


def test_organizer_cannot_move_a_team_into_another_event(world: dict[str, Any]) -> None:
    team = world["mine"]["team"]
    client = client_for(world["mine"]["organizer"])
    form = {"name": team.name, "event": world["theirs"]["event"].pk, **EMPTY_MEMBERS}
    assert client.post(change_url(team), form).status_code == 302  # event is read-only: ignored
    team.refresh_from_db()
    assert team.event_id == world["mine"]["event"].pk


def test_organizer_cannot_add_a_team_to_another_event(world: dict[str, Any]) -> None:
    client = client_for(world["mine"]["organizer"])
    form = {"name": "闯入队", "event": world["theirs"]["event"].pk, **EMPTY_MEMBERS}
    response = client.post(reverse("admin:tournaments_team_add"), form)
    assert response.status_code == 200
    assert "event" in response.context["adminform"].form.errors
    assert not Team.objects.filter(name="闯入队").exists()


def test_admin_refuses_a_player_in_two_teams_of_an_event_with_a_message(
    world: dict[str, Any],
) -> None:
    event = world["mine"]["event"]
    taken = world["mine"]["team"].members.get(order=0).player
    client = client_for(world["mine"]["organizer"])
    fresh = PlayerFactory.create_batch(2)
    form = {
        "name": "重复队",
        "event": event.pk,
        "members-TOTAL_FORMS": "3",
        "members-INITIAL_FORMS": "0",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "3",
    }
    for i, player in enumerate([taken, *fresh]):
        form |= {f"members-{i}-order": i, f"members-{i}-player": player.pk}
    response = client.post(reverse("admin:tournaments_team_add"), form)
    assert response.status_code == 200
    # The organizer reads the refusal in the site's language, Chinese by default.
    assert "已在本赛事的其他队伍中" in response.content.decode()
    assert not Team.objects.filter(name="重复队").exists()
    assert TeamMember.objects.filter(event=event, player=taken).count() == 1


def test_organizer_cannot_add_events(world: dict[str, Any]) -> None:
    client = client_for(world["mine"]["organizer"])
    assert client.get(reverse("admin:tournaments_event_add")).status_code == 403


def test_superuser_sees_every_event(world: dict[str, Any]) -> None:
    client = client_for(world["superuser"])
    response = client.get(reverse("admin:tournaments_event_changelist"))
    shown = {obj.pk for obj in response.context["cl"].result_list}
    assert shown == set(Event.objects.values_list("pk", flat=True))
    for key in ("mine", "theirs"):
        for model in ("event", "team", "round", "pairing"):
            assert client.get(change_url(world[key][model])).status_code == 200


def test_games_admin_is_not_for_organizers(world: dict[str, Any]) -> None:
    table = world["theirs"]["pairing"].table
    client = client_for(world["mine"]["organizer"])
    assert client.get(change_url(table)).status_code == 403
    assert client_for(world["superuser"]).get(change_url(table)).status_code == 200


def test_pairings_are_not_added_by_hand(world: dict[str, Any]) -> None:
    client = client_for(world["superuser"])
    assert client.get(reverse("admin:tournaments_pairing_add")).status_code == 403
    assert Pairing.objects.count() == 2 and Table.objects.count() == 2


def test_non_staff_is_sent_to_login() -> None:
    response = client_for(UserFactory()).get(reverse("admin:tournaments_event_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_naming_an_organizer_in_the_admin_gives_them_the_role(world: dict[str, Any]) -> None:
    event = world["theirs"]["event"]
    newcomer = UserFactory()
    form: dict[str, Any] = {
        "meet": event.meet_id,
        "name": event.name,
        "game": event.game,
        "base_score": event.base_score,
        "deals_per_match": event.deals_per_match,
        "option_lead_to_teammate": "on",
        "option_system_play_limit": "4",
        "pairing_format": event.pairing_format,
        "tie_break_1": "levels_gained",
        "status": event.status,
        "bye_points": 3,
        "table_mode": "offline",
        "unit_best": 3,
        "organizers": [world["theirs"]["organizer"].pk, newcomer.pk],
    }
    for prefix in ("registrations", "teams", "rounds"):
        form |= {
            f"{prefix}-TOTAL_FORMS": "0",
            f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0",
            f"{prefix}-MAX_NUM_FORMS": "1000",
        }
    response = client_for(world["superuser"]).post(change_url(event), form)
    assert response.status_code == 302, response.context and response.context["errors"]
    newcomer.refresh_from_db()
    assert newcomer.is_staff and newcomer.has_perm("tournaments.change_team")
    event.refresh_from_db()
    assert event.tie_break_order == ["levels_gained"]
    assert event.rule_options == {"lead_to_teammate": True, "system_play_limit": 4}
    assert client_for(newcomer).get(change_url(world["theirs"]["team"])).status_code == 200


def test_admin_refuses_a_bad_tie_break_order_with_a_message(world: dict[str, Any]) -> None:
    event = world["mine"]["event"]
    form = {
        "name": event.name,
        "game": event.game,
        "base_score": 1,
        "deals_per_match": 3,
        "option_system_play_limit": "5",
        "pairing_format": event.pairing_format,
        "tie_break_1": "coin_toss",
        "status": event.status,
    }
    for prefix in ("registrations", "teams", "rounds"):
        form |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    client = client_for(world["mine"]["organizer"])
    response = client.post(change_url(event), form)
    assert response.status_code == 200
    assert "tie_break_1" in response.context["adminform"].form.errors
    # The same tie-break twice, or a rule option out of range, is refused too.
    twice = form | {"tie_break_1": "head_to_head", "tie_break_2": "head_to_head"}
    response = client.post(change_url(event), twice)
    assert response.status_code == 200
    assert "tie_break_1" in response.context["adminform"].form.errors
    negative = form | {"tie_break_1": "head_to_head", "option_system_play_limit": "-1"}
    response = client.post(change_url(event), negative)
    assert "option_system_play_limit" in response.context["adminform"].form.errors
    event.refresh_from_db()
    assert event.tie_break_order == Event().tie_break_order


def test_the_event_form_offers_tie_breaks_and_rule_options_as_widgets(
    world: dict[str, Any],
) -> None:
    # Issue 15: no raw JSON to type for tie-breaks and options.
    event = world["mine"]["event"]
    page = client_for(world["mine"]["organizer"]).get(change_url(event)).content.decode()
    assert 'name="tie_break_order"' not in page and 'name="rule_options"' not in page
    assert '<select name="tie_break_1"' in page
    assert '<option value="head_to_head" selected>' in page  # the event's first tie-break
    assert 'type="checkbox" name="option_lead_to_teammate"' in page
    assert 'type="number" name="option_system_play_limit"' in page
    assert "出完接风给队友" in page  # the option's Chinese label


@pytest.mark.parametrize("object_id", ["abc", "999999", "-1"])
def test_bad_object_ids_are_no_server_error(world: dict[str, Any], object_id: str) -> None:
    client = client_for(world["mine"]["organizer"])
    response = client.get(f"/admin/tournaments/team/{object_id}/change/")
    assert response.status_code == 302  # Django's "does not exist" message on the admin index
