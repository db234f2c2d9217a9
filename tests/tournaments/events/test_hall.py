"""A simulated hall on the day (issue 30's "Done when"): offline tables check in, a round is
drawn from those present, and every table is scored from its players' phones while the clock
runs, one deal disputed and settled by a referee; the standings follow. Nothing is lost when
the connection drops mid-entry: every entry is sent twice with its client id and recorded once
here; the browser going offline mid-entry and coming back is
tests/browser/test_table_sheet_offline.py."""

from __future__ import annotations

import uuid
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from config.exceptions import ConflictError
from games.models import TableSeat
from tournaments.events.hall import ROUND_MINUTES, hall_simulate, hall_standings_check
from tournaments.formats import table_deals
from tournaments.models import EventReferee, ResultSubmission, RoundEntry, SheetDeal
from tournaments.results import table_sheet
from tournaments.rounds.clock import ClockState
from tournaments.standings.selectors import event_standings_rows

pytestmark = pytest.mark.django_db

#: One game runs the full hall of 12 tables; the other two a smaller one, to keep it quick.
HALLS = [("daguai", 12), ("xiaoluzi", 3), ("shanghai_doudizhu", 3)]


@pytest.mark.parametrize(("game", "tables"), HALLS, ids=[g for g, _t in HALLS])
def test_a_hall_checks_in_draws_those_present_and_scores_every_table(
    game: str, tables: int
) -> None:
    s = hall_simulate(game=game, tables=tables, absent=2, seed=7)
    event, round = s.event, s.round
    assert event.draw_checked_in_only and event.game == game
    # Those who did not check in are left out of the draw.
    assert s.tables == tables and round.pairings.count() == tables
    assert s.absent == 2 and len(s.absent_names) == 2
    seats = TableSeat.objects.filter(table__pairing__round=round)
    seated = set(seats.values_list("player", flat=True))
    if event.is_individual:
        assert s.present == tables * event.table_size == len(seated)
        assert not set(seats.values_list("player__name", flat=True)) & set(s.absent_names)
    else:
        assert s.present == 2 * tables
        away = RoundEntry.objects.filter(round=round, absent=True)
        assert sorted(e.team.name for e in away) == sorted(s.absent_names)
        for entry in away:
            assert not {m.player_id for m in entry.team.members.all()} & seated
    # Every table scored deal by deal from the phones, each deal confirmed by another side.
    deals = sum(table_deals(p.pk, event.deals_per_match) for p in round.pairings.all())
    assert s.deals_entered == s.deals_confirmed == deals
    assert s.resends == deals  # each entry sent again after a dropped connection: once
    assert SheetDeal.objects.filter(pairing__round=round).count() == deals
    assert not SheetDeal.objects.filter(pairing__round=round).exclude(status="confirmed").exists()
    for row in SheetDeal.objects.filter(pairing__round=round).select_related("entered_by"):
        assert row.reviewed_by_id != row.entered_by_id
    # One table disputed, and its referee settled it.
    referee = EventReferee.objects.get(event=event).user
    settled = SheetDeal.objects.get(pairing__round=round, reviewed_by=referee)
    assert s.deals_disputed == 1 and settled.pairing.number == s.disputed_table
    assert settled.note == "not what we played" and settled.number == 1
    # Every match recorded while the clock runs; the standings follow the results.
    assert s.recorded == tables
    assert (
        ResultSubmission.objects.filter(
            pairing__round=round, status=ResultSubmission.Status.CONFIRMED
        ).count()
        == tables
    )
    assert s.clock_state == ClockState.RUNNING
    assert s.seconds_left is not None and 0 < s.seconds_left <= ROUND_MINUTES * 60
    kind = "player" if event.is_individual else "team"
    rows = event_standings_rows(event=event, kind=kind)
    assert rows and any(r.points for r in rows) and s.standings
    assert hall_standings_check(round) == [] and s.mismatches == []


def test_a_phone_back_online_late_resends_its_entries_and_nothing_doubles() -> None:
    """Each phone's entry was already sent twice in the hall; a phone whose connection came
    back only after its match was recorded sends its waiting entries once more, with their
    client ids: each answers with the version recorded, and nothing changes."""
    s = hall_simulate(game="daguai", tables=1, absent=0, seed=1)
    pairing = s.round.pairings.get()
    rows = list(SheetDeal.objects.filter(pairing=pairing).order_by("number"))
    result = ResultSubmission.objects.get(pairing=pairing)
    for row in rows:
        phone = table_sheet.sheet_access(pairing, row.entered_by)
        again, created = table_sheet.deal_enter(
            access=phone,
            number=row.number,
            deal=row.deal,
            first_dealer=row.first_dealer,
            client_id=str(row.client_id),
        )
        assert not created and again.pk == row.pk
    assert list(SheetDeal.objects.filter(pairing=pairing).order_by("number")) == rows
    assert list(ResultSubmission.objects.filter(pairing=pairing)) == [result]
    with pytest.raises(ConflictError):  # a new id for the same deal is a new entry: refused
        table_sheet.deal_enter(
            access=table_sheet.sheet_access(pairing, rows[0].entered_by),
            number=1,
            deal=rows[0].deal,
            first_dealer=0,
            client_id=str(uuid.uuid4()),
        )


def test_the_command_prints_the_hall() -> None:
    out = StringIO()
    call_command(
        "simulate_hall",
        "--game",
        "shanghai_doudizhu",
        "--tables",
        "2",
        stdout=out,
        stderr=StringIO(),
    )
    text = out.getvalue()
    assert "checked in: 8 players; absent: 2" in text
    assert "tables drawn: 2" in text and "matches recorded: 2" in text
    assert "disputed: 1" in text and "left of 40 min" in text
    assert "they match the recorded results: yes" in text


@pytest.mark.parametrize("args", [["--game", "nope"], ["--tables", "0"], ["--tables", "61"]])
def test_bad_input_is_told_with_status_2(args: list[str]) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("simulate_hall", *args, stdout=StringIO(), stderr=StringIO())
    assert refused.value.returncode == 2
