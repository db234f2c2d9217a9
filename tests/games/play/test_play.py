"""Game play through games.services: the bridge to engine/ (tasks' work, called directly)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import translation

from config.exceptions import ApplicationError, ConflictError
from engine.cards import format_cards
from engine.daguai import Record, replay
from games.models import Action, Deal, FigureStep, Match, Table, TableSeat
from games.offline import services as offline_services
from games.play import engine_state
from games.play import services as play_services
from tests.games.factories import BotFactory, PlayerFactory, TableFactory
from tests.games.queued import record_queued

pytestmark = pytest.mark.django_db


def bot_table(**kwargs: Any) -> Table:
    table = TableFactory(seated=False)
    for seat in range(6):
        TableSeat.objects.create(table=table, seat=seat, player=BotFactory())
    return table


def human_table(human_seat: int = 0) -> Table:
    table = TableFactory(seated=False)
    for seat in range(6):
        player = PlayerFactory() if seat == human_seat else BotFactory()
        TableSeat.objects.create(table=table, seat=seat, player=player)
    return table


def play_out(match: Match) -> Match:
    """Do what the worker would: play each deal of an all-bot match, then deal the next."""
    for _ in range(20):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        number = match.current_deal
        if not play_services.bot_deal_play(match_id=match.pk, number=number):
            assert play_services.deal_start(match_id=match.pk, number=number + 1)
    raise AssertionError("the match did not end")


def test_an_all_bot_match_plays_to_its_end_and_every_deal_replays() -> None:
    match = play_services.match_start(table=bot_table(), seed=7, base_score=2)
    assert match.current_deal == 1 and match.status == Match.Status.PLAYING
    match = play_out(match)
    deals = list(match.deals.order_by("number"))
    assert match.status == Match.Status.FINISHED and match.end_reason
    assert 1 <= len(deals) <= 3
    totals = [0] * 6
    for deal in deals:
        seqs = list(deal.actions.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, deal.seq + 1))
        record = Record.loads(deal.record)
        replayed = replay(record)
        assert replayed.result is not None
        assert list(replayed.result.points) == deal.points
        assert deal.finishing_order == list(replayed.finish)
        assert sum(deal.points) == 0 or deal.result["outcome"] == "escape"
        totals = [t + p for t, p in zip(totals, deal.points, strict=True)]
    assert match.points == totals
    assert match.side_points["A"] == totals[0] + totals[2] + totals[4]
    steps = list(FigureStep.objects.filter(match=match).order_by("deal_number"))
    assert [s.deal_number for s in steps] == list(range(len(deals) + 1))
    assert steps[-1].figures == match.figures and set(match.figures["level"]) == {"A", "B"}
    assert Table.objects.get(pk=match.table_id).status == Table.Status.FINISHED


def test_a_rebuilt_state_equals_the_cached_one() -> None:
    match = play_services.match_start(table=bot_table(), seed=11)
    play_services.bot_deal_play(match_id=match.pk, number=1)
    match.refresh_from_db()
    deal = match.deals.get(number=1)
    engine_state.forget()
    rebuilt = engine_state.engine_match(match, deal)
    assert rebuilt.points == match.points


def test_a_duplicate_or_late_task_does_nothing() -> None:
    table = human_table(human_seat=3)
    match = play_services.match_start(table=table, seed=5)
    deal = match.deals.get(number=1)
    state = engine_state.engine_match(match, deal).deal
    assert state is not None
    (seat,) = state.awaiting()
    engine_state.forget()
    if seat != 3:
        assert play_services.bot_act(match_id=match.pk, number=1, seq=0, seat=seat)
        assert not play_services.bot_act(match_id=match.pk, number=1, seq=0, seat=seat)  # duplicate
        assert Action.objects.filter(deal__match=match).count() == 1
    else:
        assert play_services.seat_timeout(match_id=match.pk, number=1, seq=0, seat=3)
        assert not play_services.seat_timeout(match_id=match.pk, number=1, seq=0, seat=3)  # late
        action = Action.objects.get(deal__match=match)
        assert action.system and action.seat == 3


def test_a_bot_task_never_acts_for_a_person() -> None:
    table = human_table(human_seat=0)
    match = play_services.match_start(table=table, seed=1)
    assert not play_services.bot_act(match_id=match.pk, number=1, seq=0, seat=0)


def _human_turn(table: Table, seat: int) -> tuple[Match, Any]:
    """Let the bots play until it is ``seat``'s turn."""
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    for _ in range(200):
        match.refresh_from_db()
        deal_row = match.deals.get(number=match.current_deal)
        state = engine_state.engine_match(match, deal_row)
        engine_state.remember(match, deal_row, state)
        deal = state.deal
        assert deal is not None
        if seat in deal.awaiting():
            return match, deal
        for other in deal.awaiting():
            play_services.bot_act(
                match_id=match.pk, number=match.current_deal, seq=deal_row.seq, seat=other
            )
            break
    raise AssertionError("never the person's turn")


def test_a_person_acts_with_the_current_sequence_number() -> None:
    table = human_table(human_seat=2)
    play_services.match_start(table=table, seed=3)
    match, deal = _human_turn(table, 2)
    seq = match.deals.get(number=match.current_deal).seq
    with pytest.raises(ConflictError):
        play_services.seat_act(table=table, seat=2, kind="pass", seq=seq + 5)
    # the engine's refusals in the active language, naming seats by their players
    seat_1 = TableSeat.objects.get(table=table, seat=1).player.name
    with translation.override("en"):
        with pytest.raises(ApplicationError, match="3X is no card"):
            play_services.seat_act(table=table, seat=2, kind="play", cards="3X", seq=seq)
        with pytest.raises(ApplicationError, match="no action dance"):
            play_services.seat_act(table=table, seat=2, kind="dance", seq=seq)
        with pytest.raises(ApplicationError, match=f"It is not {seat_1}'s turn"):
            play_services.seat_act(table=table, seat=1, kind="pass", seq=seq)
    with pytest.raises(ApplicationError, match=f"还没轮到{seat_1}出牌"):
        play_services.seat_act(table=table, seat=1, kind="pass", seq=seq)
    legal = deal.legal_actions(2)[0]
    new_seq = play_services.seat_act(
        table=table, seat=2, kind=legal.kind.value, cards=" ".join(map(str, legal.cards)), seq=seq
    )
    assert new_seq == seq + 1
    last = Action.objects.filter(deal__match=match).order_by("-deal__number", "-seq").first()
    assert last is not None and last.seat == 2 and not last.system
    with pytest.raises(ConflictError):  # the same request again is stale
        play_services.seat_act(
            table=table, seat=2, kind=legal.kind.value, cards=str(legal.cards[0]), seq=seq
        )


def test_an_illegal_play_is_refused_with_the_engines_reason_and_nothing_is_written() -> None:
    table = human_table(human_seat=4)
    play_services.match_start(table=table, seed=8)
    match, deal = _human_turn(table, 4)
    seq = match.deals.get(number=match.current_deal).seq
    before = Action.objects.count()
    hand = deal.hand(4)
    if deal.phase.value == "return":
        bad = {"kind": "play", "cards": str(hand[0])}
    else:
        bad = {"kind": "play", "cards": " ".join(map(str, hand[:4]))}  # four cards: no play
    with pytest.raises(ApplicationError):
        play_services.seat_act(table=table, seat=4, seq=seq, **bad)
    assert Action.objects.count() == before


def test_a_person_who_times_out_is_played_for_and_the_deadline_is_set() -> None:
    table = human_table(human_seat=1)
    play_services.match_start(table=table, seed=21, turn_seconds=30)
    match, deal = _human_turn(table, 1)
    deal_row = match.deals.get(number=match.current_deal)
    assert deal_row.turn_deadline is not None
    assert play_services.seat_timeout(
        match_id=match.pk, number=match.current_deal, seq=deal_row.seq, seat=1
    )
    action = Action.objects.filter(deal=deal_row).order_by("-seq").first()
    assert action is not None and action.system and action.seat == 1


def test_an_escape_ends_the_match_with_its_points() -> None:
    table = human_table(human_seat=5)
    match = play_services.match_start(table=table, seed=4, base_score=3)
    play_services.seat_escape(table=table, seat=5)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == Match.EndReason.ESCAPE
    assert match.points[5] == -54
    assert [match.points[s] for s in (0, 2, 4)] == [3, 3, 3]  # nobody out: +1b each
    with pytest.raises(ApplicationError, match="No match"), translation.override("en"):
        play_services.seat_escape(table=table, seat=5)


def play_first_deal_with_person(table: Table, match: Match) -> None:
    """Play deal 1 of a table with a person at seat 0 (who plays their first legal action)."""
    for _ in range(1000):
        match.refresh_from_db()
        deal_row = match.deals.get(number=1)
        engine = engine_state.engine_match(match, deal_row)
        engine_state.remember(match, deal_row, engine)
        deal = engine.deal
        if deal is None:
            return
        seat = deal.awaiting()[0]
        if seat != 0:
            assert play_services.bot_act(match_id=match.pk, number=1, seq=deal_row.seq, seat=seat)
            continue
        action = deal.legal_actions(0)[-1]
        cards = format_cards(action.cards)
        play_services.seat_act(
            table=table, seat=0, kind=action.kind.value, cards=cards, seq=deal_row.seq
        )
    raise AssertionError("deal 1 did not end")


def test_leaving_between_deals() -> None:
    # A person's table pauses between deals (an all-bot table deals the next one at once).
    table = human_table(human_seat=0)
    match = play_services.match_start(table=table, seed=9, deals_per_match=3)
    play_first_deal_with_person(table, match)
    match.refresh_from_db()
    assert match.current_deal == 1
    if match.status == Match.Status.PLAYING:
        play_services.seat_escape(table=table, seat=0)
        match.refresh_from_db()
        assert match.end_reason == Match.EndReason.LEFT and match.left_seat == 0
        engine_state.forget()
        deal = match.deals.get(number=1)
        assert engine_state.engine_match(match, deal).over


def test_match_start_refuses_bad_tables_and_options() -> None:
    table = bot_table()
    with pytest.raises(ApplicationError, match="Bad rule options"), translation.override("en"):
        play_services.match_start(table=table, rule_options={"nonsense": 1})
    assert not Match.objects.exists()
    play_services.match_start(table=table)
    with translation.override("en"):  # the refusals in English (the site translates them)
        with pytest.raises(ApplicationError, match="already has a match"):
            play_services.match_start(table=table)
        offline = TableFactory(mode=Table.Mode.OFFLINE)
        with pytest.raises(ApplicationError, match="offline"):
            play_services.match_start(table=offline)
        empty = TableFactory(seated=False)
        with pytest.raises(ApplicationError, match="six|6"):
            play_services.match_start(table=empty)


def test_offline_results_are_scored_by_the_engine_and_can_be_entered_again() -> None:
    table = TableFactory(mode=Table.Mode.OFFLINE)
    deals = [
        offline_services.OfflineDeal(finish=(0, 2, 4)),
        offline_services.OfflineDeal(finish=(1, 0, 3, 5)),
    ]
    match = offline_services.offline_match_record(
        table=table, first_dealer=0, deals=deals, base_score=1, deals_per_match=3
    )
    assert match.status == Match.Status.PLAYING and match.current_deal == 2
    assert match.points == [3, -3, 3, -3, 3, -3]  # +6 -3 for side A
    assert match.figures["level"] == {"A": 3, "B": 2}
    first = match.deals.get(number=1)
    assert first.result["multiplier"] == 6 and first.result["tributes"] == [[1, 2], [3, 4], [5, 0]]
    deals.append(offline_services.OfflineDeal(finish=(0, 1, 2, 4)))
    again = offline_services.offline_match_record(
        table=table, first_dealer=0, deals=deals, base_score=1, deals_per_match=3
    )
    assert Match.objects.filter(table=table).count() == 1
    assert again.status == Match.Status.FINISHED and again.end_reason == "deals_played"
    assert Deal.objects.filter(match=again).count() == 3


def test_an_impossible_offline_deal_is_refused_and_nothing_changes() -> None:
    table = TableFactory(mode=Table.Mode.OFFLINE)
    good = [offline_services.OfflineDeal(finish=(0, 2, 4))]
    offline_services.offline_match_record(
        table=table, first_dealer=0, deals=good, base_score=1, deals_per_match=3
    )
    bad = [*good, offline_services.OfflineDeal(finish=(1, 1, 3))]
    with (
        pytest.raises(ApplicationError, match="deal 2"),
        transaction.atomic(),
        translation.override("en"),
    ):
        offline_services.offline_match_record(
            table=table, first_dealer=0, deals=bad, base_score=1, deals_per_match=3
        )
    match = Match.objects.get(table=table)
    assert match.current_deal == 1 and match.deals.count() == 1


def test_the_watchdog_kicks_only_stalled_matches(django_capture_on_commit_callbacks: Any) -> None:
    match = play_services.match_start(table=bot_table(), seed=2)
    assert play_services.matches_kick(idle_seconds=3600) == 0
    Match.objects.filter(pk=match.pk).update(updated_at=match.updated_at.replace(year=2000))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert play_services.matches_kick(idle_seconds=1) == 1
    assert callbacks  # the deal's bot task is queued again


def test_the_table_state_shows_a_hand_only_to_its_seat() -> None:
    import json

    from games.play.state import table_state

    table = human_table(human_seat=0)
    match = play_services.match_start(table=table, seed=8_364_112_907_551)  # digits no clock shows
    deal_row = match.deals.get(number=1)
    engine = engine_state.engine_match(match, deal_row)
    engine_state.remember(match, deal_row, engine)
    deal = engine.deal
    assert deal is not None
    hands = [" ".join(map(str, deal.hand(s))) for s in range(6)]
    public = table_state(table=table)
    text = json.dumps(public)
    assert public["you"] is None and all(h not in text for h in hands)
    assert str(match.seed) not in text and str(deal.seed) not in text
    assert [s["cards"] for s in public["seats"]] == [len(deal.hand(s)) for s in range(6)]
    mine = table_state(table=table, seat=0)
    assert mine["you"]["hand"] == hands[0]
    assert all(h not in json.dumps(mine) for h in hands[1:])
    assert mine["seq"] == 0 and mine["deal_number"] == 1


def test_a_cached_state_catches_up_with_actions_another_process_wrote() -> None:
    table = human_table(human_seat=3)
    match = play_services.match_start(table=table, seed=77, bot_delay_ms=0)
    match, _deal = _human_turn(table, 3)  # the bots moved on; this process cached an old state
    deal_row = match.deals.get(number=match.current_deal)
    stale = engine_state.engine_match(match, deal_row)
    engine_state.remember(match, deal_row, stale)
    # another process acts: here, the services with this process's cache dropped
    engine_state.forget()
    play_services.seat_timeout(
        match_id=match.pk, number=match.current_deal, seq=deal_row.seq, seat=3
    )
    engine_state.remember(match, deal_row, stale)  # this process still holds the older state
    match.refresh_from_db()
    deal_row.refresh_from_db()
    caught_up = engine_state.engine_match(match, deal_row)
    assert caught_up is stale  # updated in place, not rebuilt
    engine_state.forget()
    rebuilt = engine_state.engine_match(match, deal_row)
    assert caught_up.deal is not None and rebuilt.deal is not None
    assert caught_up.deal.public_view() == rebuilt.deal.public_view()
    assert [caught_up.deal.hand(s) for s in range(6)] == [rebuilt.deal.hand(s) for s in range(6)]


@pytest.mark.parametrize("delay_ms", [0, 300])
def test_all_bot_tables_play_whole_deals_unless_given_a_think_time(
    delay_ms: int, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """Simulations (no think time) play a deal per task; a think time means people watch (the
    demo), so the bots then play turn by turn at that pace."""
    sent = record_queued(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        match = play_services.match_start(table=bot_table(), seed=3, bot_delay_ms=delay_ms)
    if delay_ms == 0:
        assert [q.short() for q in sent] == [("bot_deal", (match.pk, 1), {})]
        assert [q.queue for q in sent] == ["bots"]
        return
    deal = engine_state.engine_match(match, match.deals.get(number=1)).deal
    assert deal is not None
    assert [q.short() for q in sent] == [
        ("bot_turn", (match.pk, 1, 0, seat), {"countdown": 0.3}) for seat in deal.awaiting()
    ]
    assert {q.queue for q in sent} == {"games"}
    args = sent[0].args
    before = len(sent)
    with django_capture_on_commit_callbacks(execute=True):
        assert play_services.bot_act(match_id=args[0], number=args[1], seq=args[2], seat=args[3])
    after = [q.name for q in sent[before:]]
    assert after and set(after) == {"bot_turn"}  # the next turn, never a whole deal


@pytest.mark.parametrize("pause", [0, 5])
def test_an_all_bot_table_keeps_its_pause_between_deals(
    pause: int, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """No pause (simulations): the deal's task deals the next one too. A pause (bot tables
    at an event's pace): the next deal is dealt by a task that waits that long."""
    sent = record_queued(monkeypatch)
    match = play_services.match_start(
        table=bot_table(), seed=12, bot_delay_ms=0, between_deals_seconds=pause
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert play_services.bot_deal_play(match_id=match.pk, number=1)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING  # one deal does not end this match
    if pause == 0:
        assert match.current_deal == 2
        assert [q.short() for q in sent] == [("bot_deal", (match.pk, 2), {})]
    else:
        assert match.current_deal == 1
        assert [q.short() for q in sent] == [("deal_start", (match.pk, 2), {"countdown": 5})]


@pytest.mark.parametrize("person", [False, True])
def test_only_a_deal_that_bots_alone_play_commits_without_waiting_for_the_disk(
    person: bool,
) -> None:
    """A simulation's deal need not wait for the disk (the watchdog plays again what a database
    crash loses); a deal at a table where a person sits always does, even when the bots play it
    whole for them while they are away (autoplay). The setting is PostgreSQL's (CI's database);
    on SQLite the deal is played the same, with nothing to turn off."""
    postgres = connection.vendor == "postgresql"

    def synchronous_commit() -> str | None:
        if not postgres:
            return None
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return str(cursor.fetchone()[0])

    table = human_table() if person else bot_table()
    match = play_services.match_start(table=table, seed=4, bot_delay_ms=0, autoplay=person)
    assert synchronous_commit() == ("on" if postgres else None)
    # the test's own transaction is still open: a SET LOCAL made by the service shows here
    assert play_services.bot_deal_play(match_id=match.pk, number=1)
    expected = ("on" if person else "off") if postgres else None
    assert synchronous_commit() == expected
    assert Deal.objects.get(match=match, number=1).status == Deal.Status.FINISHED


@pytest.mark.django_db(transaction=True)
def test_every_write_locks_the_match_row_before_the_deal_row() -> None:
    """One lock order everywhere: a transaction waiting for a deal row already holds its match,
    so nobody can hold the deal and wait for the match (a deadlock)."""
    import threading

    import psycopg

    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's")
    match = play_services.match_start(table=bot_table(), seed=6, bot_delay_ms=0)
    deal = match.deals.get(number=1)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    holder, prober = psycopg.connect(**params), psycopg.connect(**params)
    try:
        holder.execute("SELECT id FROM games_deal WHERE id = %s FOR UPDATE", [deal.pk])
        waiter = threading.Thread(
            target=lambda: play_services.deal_start(match_id=match.pk, number=99), daemon=True
        )
        waiter.start()
        locked_first = False
        for _ in range(100):  # the service waits for the deal row...
            try:
                prober.execute(
                    "SELECT id FROM games_match WHERE id = %s FOR UPDATE NOWAIT", [match.pk]
                )
                prober.rollback()
            except psycopg.errors.LockNotAvailable:
                prober.rollback()
                locked_first = True  # ...holding the match row already
                break
            time.sleep(0.02)
        holder.rollback()
        waiter.join(10)
        assert locked_first and not waiter.is_alive()
    finally:
        holder.close()
        prober.close()


def test_the_watchdog_leaves_alone_a_deal_that_is_moving(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Bots playing turn by turn change only the deal's log, not the match row, during a deal."""
    match = play_services.match_start(table=bot_table(), seed=2, bot_delay_ms=300)
    deal_row = match.deals.get(number=1)
    deal = engine_state.engine_match(match, deal_row).deal
    assert deal is not None
    engine_state.forget()
    seat = deal.awaiting()[0]
    assert play_services.bot_act(match_id=match.pk, number=1, seq=0, seat=seat)
    Match.objects.filter(pk=match.pk).update(updated_at=match.updated_at.replace(year=2000))
    assert play_services.matches_kick(idle_seconds=1) == 0  # its last action is a moment old
    with connection.cursor() as cursor:  # time passes (the log itself refuses updates)
        cursor.execute(
            f"UPDATE {Action._meta.db_table} SET created_at = %s WHERE deal_id = %s",
            [match.updated_at.replace(year=2000), deal_row.pk],
        )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert play_services.matches_kick(idle_seconds=1) == 1
    assert callbacks
