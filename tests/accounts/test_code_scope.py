"""Issue 25: login codes are issued only for players whose every event is organized by the
issuer (or who have no account yet); a code never logs in an account with a password unless its
owner allowed codes; a sheet revokes only its own event's earlier codes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from accounts import services
from accounts.models import LoginCode
from config.exceptions import ApplicationError
from games.models import Player
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, MeetFactory
from tournaments.events.staff import event_organizer_add
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def shared() -> dict[str, Any]:
    """Two individual events of one meet, organized by A and C, sharing one player."""
    meet = MeetFactory()
    events, organizers = [], []
    for name in ("A 的项目", "C 的项目"):
        event = EventFactory(meet=meet, game="xiaoluzi", name=name)
        organizer = UserFactory()
        event_organizer_add(event=event, user=organizer)
        events.append(event)
        organizers.append(organizer)
    player = PlayerFactory()
    for event in events:
        Registration.objects.create(event=event, player=player)
    return {"events": events, "organizers": organizers, "player": player}


def _sheet(organizer: Any, event: Any) -> str:
    response = _client(organizer).post(f"/events/{event.pk}/manage/codes/", {"scope": "event"})
    assert response.status_code == 200
    return response.content.decode()


def _issue(shared: dict[str, Any], index: int) -> services.IssuedCode:
    with translation.override("en"):  # a request before may have left Chinese active
        [issued] = services.players_login_codes_issue(
            event=shared["events"][index],
            players=[shared["player"]],
            issued_by=shared["organizers"][index],
        )
    return issued


def test_no_code_for_an_account_that_plays_in_an_event_of_another_organizer(
    shared: dict[str, Any],
) -> None:
    player = shared["player"]
    first = _issue(shared, 0)  # no account yet: A's sheet makes one
    assert first.code and Player.objects.get(pk=player.pk).user is not None
    player.refresh_from_db()
    refused = _issue(shared, 1)  # C does not organize A's event
    assert refused.code == "" and "do not organize" in refused.refused
    page = _sheet(shared["organizers"][1], shared["events"][1])
    assert player.name in page
    assert LoginCode.objects.filter(user=player.user).count() == 1
    # An organizer of both events issues it.
    event_organizer_add(event=shared["events"][0], user=shared["organizers"][1])
    assert _issue(shared, 1).code


def test_a_code_never_logs_in_a_password_account_unless_its_owner_allows(
    shared: dict[str, Any],
) -> None:
    player = shared["player"]
    Registration.objects.filter(event=shared["events"][1]).delete()  # A's player only
    player.user = UserFactory()  # with a password
    player.save()
    refused = _issue(shared, 0)
    assert refused.code == "" and "password" in refused.refused
    # Its owner allows codes on their page: then A's sheet has a code that logs them in.
    owner = _client(player.user)
    page = owner.get("/accounts/me/").content.decode()
    assert 'id="code-consent"' in page
    assert owner.post("/accounts/me/codes/", {"allows_codes": "1"}).status_code == 302
    code = _issue(shared, 0).code
    assert code
    # Forbidding again revokes it; a code issued before the password was set stops working too.
    owner.post("/accounts/me/codes/", {"allows_codes": "0"})
    with pytest.raises(ApplicationError):
        services.login_code_redeem(code=code)
    owner.post("/accounts/me/codes/", {"allows_codes": "1"})
    code = _issue(shared, 0).code
    owner.post("/accounts/me/codes/", {"allows_codes": "0"})
    LoginCode.objects.update(used_at=None)
    with pytest.raises(ApplicationError):
        services.login_code_redeem(code=code)
    assert owner.post("/accounts/me/codes/").status_code == 302  # nothing sent: forbids


def test_a_code_issued_before_the_password_was_set_does_not_log_in(shared: dict[str, Any]) -> None:
    Registration.objects.filter(event=shared["events"][1]).delete()
    code = _issue(shared, 0).code
    user = Player.objects.get(pk=shared["player"].pk).user
    user.set_password("a new password 123")
    user.save()
    with translation.override("en"), pytest.raises(ApplicationError, match="password"):
        services.login_code_redeem(code=code)
    response = Client().post("/accounts/code/", {"code": code})
    assert response.status_code == 400 and "_auth_user_id" not in Client().session


def test_a_sheet_revokes_only_its_own_events_codes() -> None:
    """An organizer of two events shares a player between them: each event's sheet keeps the
    other's codes."""
    meet = MeetFactory()
    organizer = UserFactory()
    events = [EventFactory(meet=meet, game="xiaoluzi", name=f"项目{n}") for n in range(2)]
    player = PlayerFactory()
    for event in events:
        event_organizer_add(event=event, user=organizer)
        Registration.objects.create(event=event, player=player)
    codes = []
    for event in events:
        [issued] = services.players_login_codes_issue(
            event=event, players=[player], issued_by=organizer
        )
        codes.append(issued.code)
        player.refresh_from_db()
    assert LoginCode.objects.filter(used_at__isnull=True).count() == 2
    assert services.login_code_redeem(code=codes[0]) == player.user
    assert services.login_code_redeem(code=codes[1]) == player.user
    # Reissuing one event's sheet revokes that event's code only.
    [again] = services.players_login_codes_issue(
        event=events[0], players=[player], issued_by=organizer
    )
    [other] = services.players_login_codes_issue(
        event=events[1], players=[player], issued_by=organizer
    )
    [newer] = services.players_login_codes_issue(
        event=events[0], players=[player], issued_by=organizer
    )
    with pytest.raises(ApplicationError):
        services.login_code_redeem(code=again.code)
    assert services.login_code_redeem(code=other.code) == player.user
    assert services.login_code_redeem(code=newer.code) == player.user
