"""A second review of issue 11 as an attacker: the holes it found, each replayed.

- A registration import matched people by unit name and employee number across the whole site:
  an organizer of an unrelated event pulled another meet's player (with an account) into their
  own team, then printed a login code for that account.
- The admin's list filters named every event (private ones too) and every unit, not only those
  in the organizer's reach.
- A team page listed the byes of a round still being drawn.
- A login-code request without an address (a server on a unix socket) was never throttled.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from tests.games.factories import UserFactory
from tests.tournaments.admin import test_admin_scope
from tests.tournaments.admin.test_admin_scope import change_url, client_for
from tests.tournaments.factories import EventFactory, RoundFactory, TeamFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.registration_import import event_import
from tournaments.models import Registration, Round, RoundEntry, TeamMember
from tournaments.rounds.services import round_confirm

pytestmark = pytest.mark.django_db

world = test_admin_scope.world  # two events, their organizers, teams, units and members


def _import_theirs(world: dict[str, Any]) -> None:
    """Organizer of "mine" imports a row naming the other event's unit and employee number."""
    theirs = world["theirs"]
    rows = "姓名,部门,队伍,工号\n" + "".join(
        f"{name},{theirs['unit'].name},冒名队,{number}\n"
        for name, number in (("冒名一", "E-theirs"), ("冒名二", "X-2"), ("冒名三", "X-3"))
    )
    event_import(
        event=world["mine"]["event"],
        filename="p.csv",
        content=rows.encode(),
        user=world["mine"]["organizer"],
    )


def test_an_import_does_not_pull_in_a_player_of_another_meet(world: dict[str, Any]) -> None:
    victim = world["theirs"]["player"]
    mine = world["mine"]["event"]
    _import_theirs(world)
    assert not Registration.objects.filter(event=mine, player=victim).exists()
    assert not TeamMember.objects.filter(event=mine, player=victim).exists()


def test_no_login_code_for_another_meets_account_through_an_import(
    world: dict[str, Any],
) -> None:
    victim = world["theirs"]["player"]
    victim.user = UserFactory()
    victim.save(update_fields=["user"])
    _import_theirs(world)
    team = world["mine"]["event"].teams.get(name="冒名队")
    issued = account_services.team_login_codes_issue(
        team=team, issued_by=world["mine"]["organizer"]
    )
    assert all(i.player.pk != victim.pk for i in issued)
    assert not victim.user.login_codes.exists()


def test_an_import_still_finds_the_same_person_in_another_event_of_the_meet(
    world: dict[str, Any],
) -> None:
    theirs = world["theirs"]
    sibling = EventFactory(meet=theirs["event"].meet)
    rows = f"姓名,部门,队伍,工号\n{theirs['player'].name},{theirs['unit'].name},,E-theirs\n"
    event_import(event=sibling, filename="p.csv", content=rows.encode())
    assert Registration.objects.filter(event=sibling, player=theirs["player"]).exists()


@pytest.mark.parametrize(
    ("app", "model"),
    [
        ("tournaments", "team"),
        ("tournaments", "round"),
        ("tournaments", "pairing"),
        ("tournaments", "roundentry"),
        ("tournaments", "resultsubmission"),
        ("tournaments", "membership"),
    ],
)
def test_admin_list_filters_name_only_what_is_in_reach(
    world: dict[str, Any], app: str, model: str
) -> None:
    RoundFactory(event=world["theirs"]["event"])
    client = client_for(world["mine"]["organizer"])
    response = client.get(reverse(f"admin:{app}_{model}_changelist"))
    assert response.status_code == 200
    page = response.content.decode()
    assert world["theirs"]["event"].name not in page  # a private event's name
    assert world["theirs"]["unit"].name not in page


def test_superuser_list_filters_still_name_everything(world: dict[str, Any]) -> None:
    client = client_for(world["superuser"])
    page = client.get(reverse("admin:tournaments_team_changelist")).content.decode()
    assert world["theirs"]["event"].name in page and world["mine"]["unit"].name in page


def test_a_team_page_does_not_show_a_draft_rounds_bye(world: dict[str, Any]) -> None:
    team = world["mine"]["team"]
    event = world["mine"]["event"]
    done = RoundFactory(event=event, number=1, status=Round.Status.COMPLETED)
    draft = RoundFactory(event=event, number=7, status=Round.Status.DRAFT)
    RoundEntry.objects.create(round=done, team=team, pairing=None)
    RoundEntry.objects.create(round=draft, team=team, pairing=None)
    url = reverse("tournaments:team_detail", args=[team.pk])
    shown = Client().get(url).context["byes"]
    assert [r.number for r in shown] == [1]
    organizer = client_for(world["mine"]["organizer"]).get(url).context["byes"]
    assert [r.number for r in organizer] == [1, 7]


def _guess_then_use(
    client: Client, real: str, guesser: dict[str, str], user: dict[str, str]
) -> int:
    url = reverse("accounts:code_login")
    for _i in range(account_services.CODE_ATTEMPTS):
        assert client.post(url, {"code": "AAAA-AAAA"}, **guesser).status_code == 400
    return int(client.post(url, {"code": real}, **user).status_code)


def test_code_guessing_without_an_address_is_still_throttled() -> None:
    real = account_services.login_code_issue(user=UserFactory())
    # A server that passes no address (a unix socket) must not make guessing free.
    status = _guess_then_use(Client(), real, {"REMOTE_ADDR": ""}, {"REMOTE_ADDR": ""})
    assert status == 400


@pytest.fixture
def their_round(world: dict[str, Any]) -> Round:
    """A drawn (draft) round of the other, private event: two teams at one table."""
    theirs = world["theirs"]
    TeamFactory(event=theirs["event"])
    return round_create_paired(event=theirs["event"], user=theirs["organizer"])


def test_no_admin_page_reaches_another_events_rows(
    world: dict[str, Any], their_round: Round
) -> None:
    """Change, history and delete pages of another event's rows answer 403 (or 404)."""
    pairing = their_round.pairings.get()
    entry = their_round.entries.first()
    client = client_for(world["mine"]["organizer"])
    for obj in (world["theirs"]["team"], their_round, pairing, entry, world["theirs"]["event"]):
        meta = obj._meta
        for view in ("change", "history", "delete"):
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=[obj.pk])
            assert client.get(url).status_code in (403, 404), url
        assert client.post(url, {"post": "yes"}).status_code in (403, 404), url
    assert Round.objects.filter(pk=their_round.pk).exists()


@pytest.mark.parametrize(
    ("model", "field"),
    [
        ("registration", "player"),
        ("teammember", "player"),
        ("membership", "player"),
        ("team", "unit"),
        ("membership", "unit"),
        ("unit", "parent"),
    ],
)
def test_autocomplete_offers_only_rows_in_reach(
    world: dict[str, Any], model: str, field: str
) -> None:
    client = client_for(world["mine"]["organizer"])
    response = client.get(
        "/admin/autocomplete/",
        {"app_label": "tournaments", "model_name": model, "field_name": field, "term": ""},
    )
    assert response.status_code == 200
    ids = {int(r["id"]) for r in response.json()["results"]}
    theirs = world["theirs"]["player" if field == "player" else "unit"]
    mine = world["mine"]["player" if field == "player" else "unit"]
    assert theirs.pk not in ids and mine.pk in ids


def test_the_api_refuses_another_events_organizer(
    world: dict[str, Any], their_round: Round
) -> None:
    pairing = their_round.pairings.get()
    event = world["theirs"]["event"]
    client = client_for(world["mine"]["organizer"])
    api = "/api/v1"
    calls = [
        ("get", f"{api}/rounds/{their_round.pk}/", None),
        ("get", f"{api}/events/{event.pk}/rounds/", None),
        ("post", f"{api}/rounds/{their_round.pk}/confirm/", {}),
        ("put", f"{api}/rounds/{their_round.pk}/tables/", {"tables": []}),
        ("post", f"{api}/tables/{pairing.pk}/results/", {"first_dealer": 0, "deals": [{}]}),
        ("get", f"{api}/tables/{pairing.table_id}/state/", None),
        ("get", f"{api}/events/{event.pk}/standings.csv", None),
    ]
    for method, url, body in calls:
        response = getattr(client, method)(url, body, content_type="application/json")
        assert response.status_code in (403, 404), (url, response.status_code)
    their_round.refresh_from_db()
    assert their_round.status == Round.Status.DRAFT


def test_the_manage_pages_refuse_another_events_organizer(
    world: dict[str, Any], their_round: Round
) -> None:
    pairing = their_round.pairings.get()
    mine, theirs = world["mine"]["event"].pk, world["theirs"]["event"].pk
    client = client_for(world["mine"]["organizer"])
    refused = [
        client.get(reverse("tournaments:dashboard", args=[theirs])),
        client.post(reverse("tournaments:login_codes", args=[theirs]), {"scope": "event"}),
        client.get(reverse("tournaments:table_result", args=[mine, pairing.pk])),
        client.get(reverse("tournaments:table_result", args=[theirs, pairing.pk])),
        client.post(
            reverse("tournaments:round_action", args=[mine, "confirm"]),
            {"round": their_round.pk},
        ),
    ]
    assert [r.status_code for r in refused] == [403, 403, 404, 403, 404]
    their_round.refresh_from_db()
    assert their_round.status == Round.Status.DRAFT


def test_a_draft_and_a_private_events_tables_stay_hidden(
    world: dict[str, Any], their_round: Round
) -> None:
    table = their_round.pairings.get().table
    for user in (None, world["mine"]["organizer"]):
        client = Client() if user is None else client_for(user)
        assert client.get(f"/api/v1/tables/{table.pk}/state/").status_code == 404
        assert client.get(reverse("games:table", args=[table.pk])).status_code == 404


def test_a_unit_shared_with_another_event_is_read_only_for_an_organizer(
    world: dict[str, Any],
) -> None:
    """An import names units by name; it resolves them within the event's meet (issue 25), so
    naming another meet's unit makes a unit of one's own meet, and the other stays out of reach."""
    _import_theirs(world)
    unit = world["theirs"]["unit"]
    assert not world["mine"]["event"].teams.filter(unit=unit).exists()
    made = world["mine"]["event"].teams.get(name="冒名队").unit
    assert made.name == unit.name and made.meet == world["mine"]["event"].meet
    client = client_for(world["mine"]["organizer"])
    empty = {"memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"}
    response = client.post(change_url(unit), {"name": "改名", "kind": unit.kind, **empty})
    assert response.status_code in (403, 404)
    unit.refresh_from_db()
    assert unit.name != "改名"
    own = world["mine"]["unit"]
    response = client.post(change_url(own), {"name": "改名", "kind": own.kind, **empty})
    assert response.status_code == 302


def test_a_confirmed_rounds_tables_are_not_deleted_in_the_admin(world: dict[str, Any]) -> None:
    """Pairings and round entries change through the round services (and their log) only: the
    admin's delete would take a table's results with it."""
    mine = world["mine"]
    TeamFactory(event=mine["event"])
    round = round_create_paired(event=mine["event"], user=mine["organizer"])
    round = round_confirm(round=round, user=mine["organizer"])
    pairing = round.pairings.get()
    entry = round.entries.first()
    client = client_for(mine["organizer"])
    for obj in (pairing, entry):
        url = reverse(f"admin:tournaments_{obj._meta.model_name}_delete", args=[obj.pk])
        assert client.post(url, {"post": "yes"}).status_code == 403
    for obj in (round, pairing, entry):  # nor with the list's bulk delete action
        url = reverse(f"admin:tournaments_{obj._meta.model_name}_changelist")
        data = {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"}
        client.post(url, data)
    assert Round.objects.filter(pk=round.pk).exists()
    assert round.pairings.exists() and round.entries.count() == 2


def test_a_public_events_writes_refuse_another_events_organizer(
    world: dict[str, Any], their_round: Round
) -> None:
    """The event is visible to all: its writes still answer 403 to an outsider organizer."""
    event = world["theirs"]["event"]
    event.is_private = False
    event.save(update_fields=["is_private"])
    pairing = their_round.pairings.get()
    client = client_for(world["mine"]["organizer"])
    api = "/api/v1"
    calls = [
        (f"{api}/rounds/{their_round.pk}/confirm/", {}),
        (f"{api}/events/{event.pk}/rounds/", {}),
        (f"{api}/tables/{pairing.pk}/results/", {"first_dealer": 0, "deals": [{}]}),
    ]
    for url, body in calls:
        response = client.post(url, body, content_type="application/json")
        assert response.status_code in (403, 404), (url, response.status_code)
    their_round.refresh_from_db()
    assert their_round.status == Round.Status.DRAFT
    assert event.rounds.count() == 1 and not pairing.results.exists()


def test_a_player_another_event_shares_is_read_only_for_an_organizer(
    world: dict[str, Any],
) -> None:
    """A person found again by an import plays in both events: one event's organizer must not
    rename them, nor make them a bot at the other event's tables."""
    shared = world["theirs"]["player"]
    Registration.objects.create(event=world["mine"]["event"], player=shared)
    client = client_for(world["mine"]["organizer"])
    assert client.get(change_url(shared)).status_code == 200  # seen, read-only
    data = {"name": "改名", "is_bot": "on", "bot_kind": ""}
    assert client.post(change_url(shared), data).status_code == 403
    shared.refresh_from_db()
    assert shared.name != "改名" and not shared.is_bot
    own = world["mine"]["player"]
    assert client.post(change_url(own), {**data, "is_bot": ""}).status_code == 302


def test_a_shared_players_membership_is_read_only_for_an_organizer(
    world: dict[str, Any],
) -> None:
    """The employee number is how an import finds the person again for the other event."""
    membership = world["theirs"]["membership"]
    Registration.objects.create(event=world["mine"]["event"], player=membership.player)
    client = client_for(world["mine"]["organizer"])
    assert client.get(change_url(membership)).status_code == 200  # seen, read-only
    data = {
        "player": membership.player_id,
        "unit": world["mine"]["unit"].pk,
        "employee_number": "X",
    }
    assert client.post(change_url(membership), data).status_code == 403
    delete = reverse("admin:tournaments_membership_delete", args=[membership.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    membership.refresh_from_db()
    assert membership.employee_number == "E-theirs" and membership.unit == world["theirs"]["unit"]


@pytest.mark.parametrize(
    ("app", "model"),
    [
        ("tournaments", "event"),
        ("tournaments", "unit"),
        ("tournaments", "meet"),
        ("games", "player"),
    ],
)
def test_every_scoped_list_opens_with_its_filters(
    world: dict[str, Any], app: str, model: str
) -> None:
    client = client_for(world["mine"]["organizer"])
    page = client.get(reverse(f"admin:{app}_{model}_changelist")).content.decode()
    assert world["theirs"]["event"].name not in page
    assert world["theirs"]["event"].meet.name not in page
