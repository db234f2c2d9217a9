"""The migrations that give stored 小路子 rows the declarations made (宣牌成功) and the slams won
(全关) (issue 16): games.0006 counts them into matches and figure steps from the stored deals,
tournaments.0012 into the player tallies and totals; afterwards ``verify_records`` is clean on
rows made before, the standings show the counts, and backwards both figures are gone again."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import FigureStep, Match, Table
from games.offline import services as offline_services
from games.play import services as play_services
from games.replay import audit
from tests.games.factories import BotFactory, PlayerFactory
from tests.games.queued import record_queued
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.models import Event, PairingTally, PlayerTally, PlayerTotal
from tournaments.results import tallies
from tournaments.rounds import services as rounds_services
from tournaments.standings.selectors import event_standings_rows

BEFORE = [("games", "0005_challenge"), ("tournaments", "0011_draws_registration_withdrawn")]
KEYS = ("declared_won", "slams")

#: a referee's sheet: seat 2 declares and slams the three others (三家全关), seat 1 counters
#: seat 0 and slams it (反宣方 wins, 宣牌方全关), seat 3's declaration fails, a deal of mode none
SHEET = {
    "deals": [
        {"mode": "declared", "declarer": 2, "finish": [2], "played": [0, 0, 8, 0]},
        {"mode": "countered", "declarer": 0, "counter": 1, "finish": [1], "played": [0, 8, 0, 0]},
        {"mode": "declared", "declarer": 3, "finish": [0], "played": [8, 1, 2, 3]},
        {"mode": "none", "finish": [3, 1, 0], "played": [8, 8, 5, 8]},
    ]
}


def _event(mode: str, players: list[Any]) -> Event:
    event = EventFactory(game="xiaoluzi", table_mode=mode)
    unit = UnitFactory()
    for player in players:
        events_entries.membership_ensure(player=player, unit=unit)
    events_entries.registration_ensure(event=event, players=players)
    return event


def _played_events() -> tuple[Event, Event]:
    """An online event whose table four random bots played out, and an offline one whose referee
    entered :data:`SHEET`; both tallied."""
    online = _event(Table.Mode.ONLINE, BotFactory.create_batch(4, bot_kind="random"))
    round_ = draw_services.round_create_paired(event=online, confirm=True)
    rounds_services.round_start(round=round_, start_matches=False)
    match = play_services.match_start(table=round_.pairings.get().table, seed=16, deals_per_match=4)
    for _ in range(20):  # what the workers would do
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        if not play_services.bot_deal_play(match_id=match.pk, number=match.current_deal):
            play_services.deal_start(match_id=match.pk, number=match.current_deal + 1)
    assert match.status == Match.Status.FINISHED
    offline = _event(Table.Mode.OFFLINE, PlayerFactory.create_batch(4))
    round_ = draw_services.round_create_paired(event=offline, confirm=True)
    rounds_services.round_start(round=round_)
    table = round_.pairings.get().table
    offline_services.offline_match_record(table=table, sheet=SHEET, base_score=1, deals_per_match=4)
    for event in (online, offline):
        tallies.event_tallies_refresh(event=event, open_rounds_only=False)
    return online, offline


def _stored() -> dict[str, Any]:
    """Every figure the migrations touch, and the tallies' fingerprints."""
    return {
        "matches": dict(Match.objects.values_list("pk", "figures")),
        "steps": dict(
            ((m, n), f)
            for m, n, f in FigureStep.objects.values_list("match", "deal_number", "figures")
        ),
        "players": dict(PlayerTally.objects.values_list("pk", "figures")),
        "totals": dict(PlayerTotal.objects.values_list("pk", "figures")),
        "fingerprints": dict(PairingTally.objects.values_list("pk", "fingerprint")),
    }


def _without(figures: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in figures.items() if k not in KEYS}


def _age() -> None:
    """Make the rows as the code before the migrations stored them: silver alone, and the
    tallies' fingerprints of those figures."""
    for model in (Match, FigureStep, PlayerTally, PlayerTotal):
        rows = list(model.objects.all())
        for row in rows:
            row.figures = _without(row.figures)
        model.objects.bulk_update(rows, ["figures"])
    for tally in PairingTally.objects.all():
        match = Match.objects.filter(pk=tally.match_id).values(*tallies._MATCH_FIELDS).get()
        tally.fingerprint = tallies._fingerprint(match)
        tally.save(update_fields=["fingerprint"])


def _migrate(targets: list[tuple[str, str]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


def _verify_records() -> dict[str, Any]:
    out = io.StringIO()
    call_command("verify_records", "--json", stdout=out)  # a problem raises CommandError
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


@pytest.mark.django_db(transaction=True)
def test_rows_made_before_gain_the_counts_and_verify_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    record_queued(monkeypatch)  # no broker: the services' tasks are recorded, the test plays
    online, offline = _played_events()
    now = _stored()
    assert audit.matches_audit(Match.objects.all()).ok
    sheet_match = Match.objects.get(table__pairing__round__event=offline)
    assert sheet_match.figures["declared_won"] == {"0": 0, "1": 1, "2": 1, "3": 0}
    assert sheet_match.figures["slams"] == {"0": 0, "1": 1, "2": 1, "3": 0}
    online_match = Match.objects.get(table__pairing__round__event=online)
    assert sum(online_match.figures["declared_won"].values()) > 0  # random bots declare often

    _age()
    aged = _stored()
    assert not audit.matches_audit(Match.objects.all()).ok  # the replays count more
    versions = dict(Event.objects.values_list("pk", "results_version"))
    _migrate(BEFORE)  # backwards over aged rows changes nothing
    assert _stored() == aged
    _migrate()

    assert _stored() == now  # exactly what the code stores today, fingerprints too
    assert _verify_records()["ok"] is True
    for event in (online, offline):
        assert tallies.event_tallies_refresh(event=event, open_rounds_only=False) == 0
    assert all(v > versions[pk] for pk, v in Event.objects.values_list("pk", "results_version"))
    rows = event_standings_rows(event=offline, kind="player")
    seats = dict(sheet_match.table.seats.values_list("player_id", "seat"))
    by_seat = {seats[r.player_id]: r for r in rows}
    assert [by_seat[s].figures["declared_won"] for s in range(4)] == [0, 1, 1, 0]
    assert [by_seat[s].figures["slams"] for s in range(4)] == [0, 1, 1, 0]

    # and back again, so a deployment can roll back: the old rows, the old fingerprints
    _migrate(BEFORE)
    assert _stored() == aged
    _migrate()
    assert _stored() == now
