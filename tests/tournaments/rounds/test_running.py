"""Running rounds and whole simulated events on real Celery workers; the records audit."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games.models import Action, Deal, Match, Table, TableSeat
from games.offline import services as offline_services
from games.play import services as play_services
from tests.games.factories import BotFactory, TableFactory
from tests.workers import celery_workers
from tournaments.draw import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), str(exc)
    return 0, out.getvalue(), err.getvalue()


def test_simulate_event_plays_every_round_through_celery_and_the_records_verify() -> None:
    with celery_workers(1):
        code, out, err = run(
            "simulate_event", "--teams", "4", "--rounds", "2", "--deals", "2", "--json",
            "--timeout", "240",
        )  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["matches"] == 4 and summary["rounds"] == 2  # 2 tables a round
    assert summary["deals"] >= 4 and summary["actions"] > 100 and summary["seconds"] > 0
    assert set(summary) >= {"event", "matches", "deals", "actions", "escapes", "seconds"}
    rounds = Round.objects.filter(event_id=summary["event"])
    assert set(rounds.values_list("status", flat=True)) == {Round.Status.COMPLETED}
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 4
    code, out, _ = run("verify_records", "--event", str(summary["event"]), "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_run_round_starts_a_confirmed_round_and_waits_for_it() -> None:
    from tournaments.events.demo import demo_load

    demo = demo_load(admin_password="x" * 12, organizer_password="y" * 12)
    round = services.round_create_paired(event=demo.event, confirm=True)
    with celery_workers(1):
        code, out, err = run(
            "run_round", str(demo.event.pk), str(round.number), "--bots", "--timeout", "300"
        )
    assert code == 0, err
    assert "matches finished" in out
    round.refresh_from_db()
    assert round.status == Round.Status.COMPLETED
    matches = Match.objects.filter(table__pairing__round=round)
    assert matches.count() == round.pairings.count() > 0
    assert all(m.autoplay for m in matches)


def test_bad_input_exits_2_with_a_message() -> None:
    assert run("run_round", "999999", "1")[0] == 2
    assert run("verify_records", "--event", "999999")[0] == 2
    assert run("simulate_event", "--teams", "1")[0] == 2
    with pytest.raises(CommandError):  # argparse: not a number
        call_command("simulate_event", "--rounds", "zero")


def test_verify_records_finds_a_tampered_record_and_a_tampered_log() -> None:
    table = TableFactory(seated=False)
    for seat in range(6):
        TableSeat.objects.create(table=table, seat=seat, player=BotFactory())
    match = play_services.match_start(table=table, seed=3, deals_per_match=1)
    assert play_services.bot_deal_play(match_id=match.pk, number=1)
    assert run("verify_records")[0] == 0
    deal = Deal.objects.get(match=match)
    record = json.loads(deal.record)
    first = record["actions"][0]
    record["actions"][0] = {**first, "cards": "BJ BJ BJ BJ BJ"}  # a play the seat never held
    Deal.objects.filter(pk=deal.pk).update(record=json.dumps(record))
    code, out, _ = run("verify_records", "--json")
    assert code == 1
    problems = json.loads(out)["problems"]
    assert problems and problems[0]["deal"] == 1 and "action 1" in problems[0]["message"]
    # put the record back and change the log instead, behind the services' back
    Deal.objects.filter(pk=deal.pk).update(record=deal.record)
    assert run("verify_records")[0] == 0
    action = Action.objects.filter(deal=deal).order_by("seq").last()
    assert action is not None
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Action._meta.db_table} SET seat = %s WHERE id = %s",
            [(action.seat + 1) % 6, action.pk],
        )
    code, out, err = run("verify_records")
    assert code == 1 and "differs from the record" in out


def test_an_offline_table_verifies_by_scoring_its_entries_again() -> None:
    table = TableFactory(mode=Table.Mode.OFFLINE)
    offline_services.offline_match_record(
        table=table,
        first_dealer=0,
        deals=[offline_services.OfflineDeal(finish=(0, 2, 4))],
        base_score=1,
        deals_per_match=3,
    )
    assert run("verify_records")[0] == 0
    Match.objects.filter(table=table).update(points=[99, 0, 0, 0, 0, 0])
    assert run("verify_records")[0] == 1
