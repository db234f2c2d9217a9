"""Issue 25, concurrency: a burst of code sheets answers 200 each and leaves exactly one valid
code per player and event; concurrent guesses are counted one by one against the limit. Real
threads, each with its own database connection (run on PostgreSQL too)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.utils import translation

from accounts import services
from accounts.models import LoginCode
from config.exceptions import ApplicationError
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.events.staff import event_organizer_add
from tournaments.models import Registration

pytestmark = pytest.mark.django_db(transaction=True)


def _burst(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together; return what each gave (or the
    exception it raised)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as error:  # noqa: BLE001 - reported to the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _event_with_players(count: int) -> tuple[Any, Any, list[Any]]:
    event = EventFactory(game="xiaoluzi")
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    players = [PlayerFactory() for _ in range(count)]
    for player in players:
        Registration.objects.create(event=event, player=player)
    return event, organizer, players


def _sheets(event: Any, organizer: Any, count: int) -> list[Any]:
    clients = []
    for _ in range(count):
        client = Client()
        client.force_login(organizer)
        clients.append(client)
    url = f"/events/{event.pk}/manage/codes/"
    return _burst(count, lambda i: clients[i].post(url, {"scope": "event"}).status_code)


def _valid_codes_per_player(event: Any) -> dict[int, int]:
    counts = {}
    for registration in Registration.objects.filter(event=event).select_related("player"):
        user = registration.player.user
        counts[registration.player_id] = (
            0
            if user is None
            else LoginCode.objects.filter(user=user, event=event, used_at__isnull=True).count()
        )
    return counts


def test_ten_concurrent_sheets_for_players_without_accounts() -> None:
    event, organizer, players = _event_with_players(4)
    statuses = _sheets(event, organizer, 10)
    assert statuses == [200] * 10, statuses
    assert _valid_codes_per_player(event) == {p.pk: 1 for p in players}


def test_ten_concurrent_sheets_for_players_with_accounts() -> None:
    event, organizer, players = _event_with_players(4)
    assert _sheets(event, organizer, 1) == [200]  # the accounts are made
    statuses = _sheets(event, organizer, 10)
    assert statuses == [200] * 10, statuses
    assert _valid_codes_per_player(event) == {p.pk: 1 for p in players}


def test_a_hundred_concurrent_guesses_check_at_most_the_limit() -> None:
    caches["strict"].clear()
    address = "203.0.113.77"

    def guess(i: int) -> str:
        translation.activate("en")  # a thread starts in the default language
        try:
            services.login_code_redeem(
                code=f"ZZZZ-ZZ{'23456789'[i % 8]}{'ABCDEFGH'[i // 8 % 8]}", client=address
            )
        except ApplicationError as error:
            return "throttled" if "Too many" in error.message else "checked"
        return "logged in"

    results = _burst(100, guess)
    assert results.count("checked") == services.CODE_ATTEMPTS, results
    assert results.count("throttled") == 100 - services.CODE_ATTEMPTS
    caches["strict"].clear()
