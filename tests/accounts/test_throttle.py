"""Password logins are throttled per account and per address (issue 11: 40 wrong passwords, then
the right one, logged in), on /accounts/login/ and /admin/login/ alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate
from django.test import Client
from django.urls import reverse

from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db

RIGHT = "correct horse battery"
LOGIN = reverse("accounts:login")
ADMIN_LOGIN = reverse("admin:login")


def _post(client: Client, url: str, username: str, password: str, address: str) -> int:
    response = client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)
    return response.status_code


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_forty_wrong_passwords_then_the_right_one_is_refused(client: Client) -> None:
    UserFactory(username="li")
    statuses = [_post(client, LOGIN, "li", f"guess-{n}", "203.0.113.5") for n in range(40)]
    limit = settings.AXES_FAILURE_LIMIT
    assert statuses[: limit - 1] == [200] * (limit - 1)  # the form again, with its error
    assert set(statuses[limit:]) == {429}
    response = client.post(LOGIN, {"username": "li", "password": RIGHT}, REMOTE_ADDR="203.0.113.5")
    assert response.status_code == 429
    assert not _logged_in(client)
    page = response.content.decode()
    assert "登录失败次数过多" in page and "15" in page  # Chinese first, with the cool-off


def test_the_account_stays_locked_from_another_address(client: Client) -> None:
    UserFactory(username="li")
    for n in range(12):
        _post(client, LOGIN, "li", f"guess-{n}", "203.0.113.5")
    # Per account: the guesser moving to a new address does not unlock it.
    assert _post(Client(), LOGIN, "li", RIGHT, "198.51.100.7") == 429


def test_another_account_from_another_address_still_logs_in(client: Client) -> None:
    UserFactory(username="li")
    UserFactory(username="wang")
    for n in range(40):
        _post(client, LOGIN, "li", f"guess-{n}", "203.0.113.5")
    other = Client()
    assert _post(other, LOGIN, "wang", RIGHT, "198.51.100.7") == 302
    assert _logged_in(other)


def test_an_address_guessing_many_accounts_is_locked(client: Client) -> None:
    UserFactory(username="zhao")
    for n in range(settings.AXES_FAILURE_LIMIT):
        _post(client, LOGIN, f"nobody-{n}", "guess", "203.0.113.9")
    # Per address: even a real account with its right password is refused from there ...
    assert _post(Client(), LOGIN, "zhao", RIGHT, "203.0.113.9") == 429
    # ... and logs in from anywhere else.
    elsewhere = Client()
    assert _post(elsewhere, LOGIN, "zhao", RIGHT, "198.51.100.8") == 302
    assert _logged_in(elsewhere)


def test_the_admin_login_is_throttled_too(client: Client) -> None:
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    for n in range(40):
        _post(client, ADMIN_LOGIN, "boss", f"guess-{n}", "203.0.113.5")
    assert _post(client, ADMIN_LOGIN, "boss", RIGHT, "203.0.113.5") == 429
    assert not _logged_in(client)
    assert client.get(reverse("admin:index")).status_code == 302  # to the login page


def test_the_lockout_page_speaks_english_when_chosen(client: Client) -> None:
    UserFactory(username="li")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for n in range(settings.AXES_FAILURE_LIMIT):
        _post(client, LOGIN, "li", f"guess-{n}", "203.0.113.5")
    response = client.post(LOGIN, {"username": "li", "password": RIGHT}, REMOTE_ADDR="203.0.113.5")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed logins" in page and "Try again in 15 minutes" in page


def test_the_lock_ends_after_the_cool_off(client: Client) -> None:
    UserFactory(username="li")
    for n in range(settings.AXES_FAILURE_LIMIT):
        _post(client, LOGIN, "li", f"guess-{n}", "203.0.113.5")
    assert _post(client, LOGIN, "li", RIGHT, "203.0.113.5") == 429
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time
        - settings.AXES_COOLOFF_TIME
        - timedelta(seconds=1)
    )
    assert _post(client, LOGIN, "li", RIGHT, "203.0.113.5") == 302
    assert _logged_in(client)


def test_a_few_typos_do_not_lock(client: Client) -> None:
    UserFactory(username="li")
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _post(client, LOGIN, "li", f"typo-{n}", "203.0.113.5") == 200
    assert _post(client, LOGIN, "li", RIGHT, "203.0.113.5") == 302


def test_authenticate_without_a_request_is_not_throttled() -> None:
    # A shell or a command has no address: it checks the password as before.
    UserFactory(username="li")
    assert authenticate(username="li", password=RIGHT) is not None
    assert authenticate(username="li", password="wrong") is None
