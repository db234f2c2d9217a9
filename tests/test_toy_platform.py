"""A game that exists only in the tests (tests/toygame.py: four seats, no sides) plugs into the
whole platform through the registry alone (issue 12): a table, a match played by bots on a real
Celery worker, an individual event drawn Swiss into tables of four, its standings with the toy's
own figure, the public pages and the API, and verify_records. No production code names it."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.test import Client

from config.apps import games_register_extra
from engine.registry import unregister
from games.models import Match
from games.play import services as play_services
from games.tables import services as tables_services
from tests.games.factories import BotFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tests.workers import celery_workers
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.models import Event
from tournaments.rounds.running import round_run
from tournaments.standings.selectors import event_standings_rows, standings_columns

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy game registered here and, through the setting, in the Celery workers."""
    monkeypatch.setenv("LUZI_EXTRA_GAMES", "toy=tests.toygame")
    assert games_register_extra("toy=tests.toygame") == ["toy"]
    yield
    unregister("toy")


def test_a_malformed_extra_game_is_a_configuration_error() -> None:
    from django.core.exceptions import ImproperlyConfigured

    for spec in ("toy", "=tests.toygame", "not a key=tests.toygame"):
        with pytest.raises(ImproperlyConfigured):
            games_register_extra(spec)


def test_a_table_of_the_toy_game_plays_a_match_through_celery() -> None:
    bots = BotFactory.create_batch(4)
    table = tables_services.table_create(name="玩具桌", players=bots, game="toy")
    assert (table.game, table.seat_count) == ("toy", 4)
    with celery_workers(1):
        match = play_services.match_start(table=table, deals_per_match=2, bot_delay_ms=0)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            match.refresh_from_db()
            if match.status == Match.Status.FINISHED:
                break
            time.sleep(0.2)
    assert match.status == Match.Status.FINISHED and match.game == "toy"
    assert len(match.points) == 4 and sum(match.points) == 0
    assert set(match.figures) == {"tricks"} and sum(match.figures["tricks"].values()) == 8
    state = Client().get(f"/api/v1/tables/{table.pk}/state/").json()
    assert len(state["seats"]) == 4 and state["match"]["game"] == "toy"
    out = io.StringIO()
    call_command("verify_records", "--json", stdout=out)
    assert json.loads(out.getvalue())["ok"] is True


def test_an_individual_event_of_the_toy_game_runs_a_swiss_round_with_standings() -> None:
    event = EventFactory(game="toy", deals_per_match=2)
    assert event.is_individual and event.table_size == 4
    units = [UnitFactory(), UnitFactory()]
    players = BotFactory.create_batch(9)
    for i, player in enumerate(players):
        events_entries.membership_ensure(player=player, unit=units[i % 2])
    events_entries.registration_ensure(event=event, players=players)
    round = draw_services.round_create_paired(event=event, confirm=True)
    assert round.pairings.count() == 2  # 8 seated, 1 bye
    with celery_workers(1):
        run = round_run(round=round, timeout=120)
    assert run.complete
    rows = event_standings_rows(event=event, kind="player")
    assert len(rows) == 9 and "tricks" in standings_columns(event, "player")
    assert sum(r.figures["tricks"] for r in rows) == 2 * 2 * 4  # 2 tables, 2 deals, 4 tricks
    assert event_standings_rows(event=event, kind="unit")
    client = Client()
    for url in (
        f"/events/{event.pk}/standings/",
        f"/events/{event.pk}/rounds/{round.number}/",
        f"/api/v1/events/{event.pk}/standings/?kind=player",
    ):
        assert client.get(url).status_code == 200, url
    out = io.StringIO()
    call_command("verify_records", "--event", str(event.pk), "--json", stdout=out)
    assert json.loads(out.getvalue())["ok"] is True
    second = draw_services.round_create_paired(event=Event.objects.get(pk=event.pk), confirm=True)
    assert second.number == 2 and second.pairings.count() == 2
