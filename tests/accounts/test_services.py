"""One-time login codes: issued to a team by its organizer, used once, before they expire."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from accounts import services
from accounts.models import LoginCode
from config.exceptions import ApplicationError, NotAllowedError
from tests.games.factories import PlayerFactory, UserFactory
from tournaments.models import Event, Meet, Registration, Team, TeamMember

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):  # the messages below are matched in English
        yield


def make_team(organizer=None) -> Team:
    meet = Meet.objects.create(name="运动会")
    event = Event.objects.create(meet=meet, name="大怪路子")
    if organizer is not None:
        event.organizers.add(organizer)
    team = Team.objects.create(event=event, name="一队")
    for order in range(3):
        player = PlayerFactory()
        Registration.objects.create(event=event, player=player)
        TeamMember.objects.create(team=team, event=event, player=player, order=order)
    return team


def test_a_code_logs_its_user_in_once() -> None:
    user = UserFactory()
    code = services.login_code_issue(user=user)
    assert len(code) == 9 and code[4] == "-"
    assert services.login_code_redeem(code=code.lower().replace("-", " ")) == user
    with pytest.raises(ApplicationError, match="used already"):
        services.login_code_redeem(code=code)


def test_only_the_digest_is_stored() -> None:
    code = services.login_code_issue(user=UserFactory())
    stored = LoginCode.objects.get()
    assert services.code_normalize(code) not in stored.digest
    assert len(stored.digest) == 64


def test_an_expired_code_is_refused() -> None:
    code = services.login_code_issue(user=UserFactory(), valid_for=timedelta(seconds=-1) * -1)
    LoginCode.objects.update(
        expires_at=LoginCode.objects.get().created_at + timedelta(microseconds=1)
    )
    with pytest.raises(ApplicationError, match="expired"):
        services.login_code_redeem(code=code)


@pytest.mark.parametrize("code", ["", "ABCD", "ABCD-EFG1", "!!!!-????", "A" * 200])
def test_unknown_or_malformed_codes_are_refused_with_a_message(code: str) -> None:
    with pytest.raises(ApplicationError, match="not valid"):
        services.login_code_redeem(code=code)


def test_guessing_codes_from_one_address_is_throttled() -> None:
    real = services.login_code_issue(user=UserFactory())
    for _ in range(services.CODE_ATTEMPTS):
        with pytest.raises(ApplicationError, match="not valid"):
            services.login_code_redeem(code="AAAA-AAAA", client="10.0.0.9")
    with pytest.raises(ApplicationError, match="Too many"):
        services.login_code_redeem(code=real, client="10.0.0.9")
    # another address is not affected
    assert services.login_code_redeem(code=real, client="10.0.0.10")


def test_an_organizer_issues_codes_to_a_team_and_players_get_accounts() -> None:
    organizer = UserFactory()
    team = make_team(organizer)
    issued = services.team_login_codes_issue(team=team, issued_by=organizer)
    assert [i.player.name for i in issued] == [
        m.player.name for m in team.members.order_by("order")
    ]
    for item in issued:
        item.player.refresh_from_db()
        assert item.player.user is not None
        assert not item.player.user.has_usable_password()
        assert services.login_code_redeem(code=item.code) == item.player.user
    # a second batch reuses the accounts
    again = services.team_login_codes_issue(team=team, issued_by=organizer)
    assert {i.username for i in again} == {i.username for i in issued}
    assert get_user_model().objects.count() == 4


def test_only_the_events_organizers_or_a_superuser_issue_codes() -> None:
    team = make_team(UserFactory())
    with pytest.raises(NotAllowedError):
        services.team_login_codes_issue(team=team, issued_by=UserFactory())
    boss = get_user_model().objects.create_superuser("boss", password="x")
    assert len(services.team_login_codes_issue(team=team, issued_by=boss)) == 3


def test_the_code_throttle_fails_closed_when_its_cache_is_away(monkeypatch) -> None:
    """Redis going away must not make guessing codes free: the attempt is refused, the code kept."""
    from django.core.cache import caches

    user = UserFactory()
    code = services.login_code_issue(user=user)

    def away(*_args, **_kwargs):
        raise ConnectionError("redis is away")

    monkeypatch.setattr(caches["strict"], "get", away)
    with pytest.raises(ApplicationError, match="not possible right now"):
        services.login_code_redeem(code=code, client="203.0.113.9")
    monkeypatch.undo()
    assert services.login_code_redeem(code=code, client="203.0.113.9") == user
