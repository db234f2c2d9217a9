"""Game play on real Celery worker processes, against the real broker and database.

CI runs these on PostgreSQL and Redis; a fresh machine on SQLite and the filesystem broker.
"""

from __future__ import annotations

import io
import time

import pytest
from django.core.management import call_command

from games.models import Action, Deal, Match, Table, TableSeat
from games.play import services
from tests.games.factories import BotFactory, PlayerFactory, TableFactory
from tests.workers import celery_workers, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def bot_table() -> Table:
    table = TableFactory(seated=False)
    for seat in range(6):
        TableSeat.objects.create(table=table, seat=seat, player=BotFactory())
    return table


def all_finished(matches: list[Match]) -> bool:
    ids = [m.pk for m in matches]
    return Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).count() == len(ids)


def assert_consistent(matches: list[Match]) -> None:
    """Every deal recorded once, actions numbered 1..n with no gap, every record replays."""
    for match in matches:
        match.refresh_from_db()
        numbers = list(match.deals.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1))
        for deal in Deal.objects.filter(match=match):
            seqs = list(
                Action.objects.filter(deal=deal).order_by("seq").values_list("seq", flat=True)
            )
            assert seqs == list(range(1, deal.seq + 1))
    out = io.StringIO()
    call_command("verify_records", stdout=out)
    assert "0 problems" in out.getvalue()


def test_a_table_of_six_bots_plays_its_match_on_a_worker() -> None:
    matches = [
        services.match_start(table=bot_table(), seed=s, bot_delay_ms=0, between_deals_seconds=0)
        for s in (1, 2)
    ]
    with celery_workers(1) as procs:
        wait_for(lambda: all_finished(matches), timeout=120, procs=procs)
    assert_consistent(matches)


def test_a_mixed_table_plays_turn_by_turn_and_times_out_a_silent_person() -> None:
    table = TableFactory(seated=False)
    for seat in range(6):
        player = PlayerFactory() if seat == 3 else BotFactory()
        TableSeat.objects.create(table=table, seat=seat, player=player)
    match = services.match_start(
        table=table, seed=4, deals_per_match=1, turn_seconds=1, bot_delay_ms=0
    )
    with celery_workers(1) as procs:
        # the person never acts: the system plays for them, and after five system plays in a row
        # that is an escape, which ends the match
        wait_for(lambda: all_finished([match]), timeout=150, procs=procs)
    match.refresh_from_db()
    assert Action.objects.filter(deal__match=match, seat=3, system=True).exists()
    assert (
        not Action.objects.filter(deal__match=match, seat=3, system=False)
        .exclude(kind="escape")
        .exists()
    )
    assert_consistent([match])


def test_a_worker_killed_mid_event_loses_and_repeats_nothing() -> None:
    # ~90 deals: a worker plays 60 or more a second now, so a smaller event could end between
    # two looks at it, before the kill
    matches = [
        services.match_start(
            table=bot_table(), seed=s, deals_per_match=6, bot_delay_ms=0, between_deals_seconds=0
        )
        for s in range(10, 26)
    ]
    with celery_workers(1) as procs:
        worker = procs[0]
        wait_for(
            lambda: Deal.objects.filter(status=Deal.Status.FINISHED).count() >= 2,
            timeout=120,
            procs=procs,
        )
        worker.kill()  # SIGKILL in the middle of the event
        assert not all_finished(matches)
        from tests.workers import start_worker

        replacement = start_worker(worker.log.parent, "w-replacement")
        procs.append(replacement)
        wait_for(lambda: all_finished(matches), timeout=180, procs=procs)
    assert_consistent(matches)


def test_two_workers_and_duplicate_tasks_make_one_action_per_turn() -> None:
    from games import tasks

    table = TableFactory(seated=False)
    for seat in range(6):
        player = PlayerFactory() if seat == 0 else BotFactory()
        TableSeat.objects.create(table=table, seat=seat, player=player)
    match = services.match_start(
        table=table, seed=8, deals_per_match=1, turn_seconds=1, bot_delay_ms=0
    )
    with celery_workers(2) as procs:
        # flood the queue with copies of every bot turn and timer the match could be waiting for
        end = time.monotonic() + 20
        while time.monotonic() < end and not all_finished([match]):
            match.refresh_from_db()
            deal = match.deals.filter(number=match.current_deal).first()
            if deal is not None:
                for seat in range(6):
                    for _ in range(2):
                        tasks.bot_turn.delay(match.pk, match.current_deal, deal.seq, seat)
                        tasks.turn_timeout.delay(match.pk, match.current_deal, deal.seq, seat)
            time.sleep(0.2)
        wait_for(lambda: all_finished([match]), timeout=150, procs=procs)
    assert_consistent([match])
