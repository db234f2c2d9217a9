"""A match under its row lock, as every write of live play holds it: the match and its current
deal locked, the engine's state caught up, the new actions and points written, the next turn
scheduled on the workers on commit (a task names the deal and the action it expects, so a stale
one does nothing), and the change pushed. games.play.services builds every action on these."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.db import connection, transaction
from django.utils import timezone
from django.utils.functional import cached_property

from config.exceptions import ApplicationError
from engine.game import Game, GameAction, MatchState
from games.live import events, presence
from games.models import Action, Deal, FigureStep, Match, Table, TableSeat
from games.play import engine_state
from games.play import state as play_state
from games.signals import match_scored
from games.tables import selectors as tables_selectors
from games.tables.services import BOT_KINDS


class MatchGone(ApplicationError):
    """The match a task was queued for no longer exists (deleted, or a test database gone)."""


@dataclass
class LockedMatch:
    match: Match
    deal: Deal | None
    engine: MatchState
    seats: list[TableSeat]
    deal_fields: set[str] = field(default_factory=set)
    match_fields: set[str] = field(default_factory=set)
    #: The match's scored rows changed (a deal's end, the match's end): sent on once written.
    scored: bool = False

    @cached_property
    def people(self) -> bool:
        """Whether a person sits at the table: only a person notes leaving (games.live.presence)."""
        return any(not s.player.is_bot for s in self.seats)

    @cached_property
    def bot_seats(self) -> frozenset[int]:
        """The seats the bots play: the bots' own, and at a table whose bots play every seat
        (autoplay: the demo, rehearsals) also each person's while they are away; never the seat
        of a person who is at the table."""
        bots = frozenset(s.seat for s in self.seats if s.player.is_bot)
        if not self.match.autoplay:
            return bots
        people = [s.seat for s in self.seats if not s.player.is_bot and s.player.user_id]
        online = presence.seats_online(self.match.table_id, people)
        return frozenset(s for s in range(self.match.table.seat_count) if not online.get(s, False))


def current_deal_locked(**filters: Any) -> Deal | None:
    """Lock and read, in one statement, the match chosen by ``filters`` (on the deal's fields)
    with its newest deal and its table; return that deal if it is the match's current one.

    Every write to a deal row is made under its match's lock, so locking both rows is the same
    lock as the match's alone; the match row is locked first, as everywhere (in the other order
    a transaction holding a new deal could wait for the match while the match's holder waits for
    that deal). The newest deal is not the current one when a deal was dealt while this
    transaction waited for the lock: then the caller reads the current one again.
    """
    deal = (
        Deal.objects.select_for_update(of=("match", "self"))
        .select_related("match", "match__table")
        .filter(**filters)
        .order_by("-number")
        .first()
    )
    return deal if deal is not None and deal.number == deal.match.current_deal else None


def match_lock(match_id: int) -> LockedMatch:
    deal = current_deal_locked(match_id=match_id)
    if deal is not None:
        match = deal.match
    else:
        try:
            match = Match.objects.select_for_update().select_related("table").get(pk=match_id)
        except Match.DoesNotExist:
            raise MatchGone(f"No match {match_id}.") from None
        deal = match.deals.filter(number=match.current_deal).first() if match.current_deal else None
    return locked_match(match, deal)


def locked_match(match: Match, deal: Deal | None) -> LockedMatch:
    seats = tables_selectors.match_seats(match)  # read once per match and process
    return LockedMatch(match, deal, engine_state.engine_match(match, deal), seats)


def bot_for(locked: LockedMatch, seat: int, salt: str) -> Any:
    player = next((s.player for s in locked.seats if s.seat == seat), None)
    kind = player.bot_kind if player is not None and player.bot_kind in BOT_KINDS else "heuristic"
    seed = f"{locked.match.seed}:{locked.match.current_deal}:{salt}:{seat}"
    game = engine_state.game_of(locked.match)
    return game.bot(kind if kind in game.bot_kinds else game.bot_kinds[0], seed)


def deal_next(locked: LockedMatch) -> None:
    """Deal the engine's next deal and store its row."""
    engine, match = locked.engine, locked.match
    deal = engine.start_deal()
    match.current_deal = deal.number
    locked.match_fields.update(["current_deal", "updated_at"])
    locked.deal = Deal.objects.create(
        match=match,
        number=match.current_deal,
        dealer_seat=deal.dealer,
        level_rank=deal.level_rank,
        seed=str(deal.seed),
        status=Deal.Status.TRIBUTE if deal.waiting_setup else Deal.Status.PLAYING,
        tribute=deal.setup,
    )


def actions_store(locked: LockedMatch) -> None:
    """Append the engine deal's new actions to the log and store what the deal now shows."""
    deal_row = locked.deal
    assert deal_row is not None
    new = locked.engine.deal_actions(deal_row.number)[deal_row.seq :]
    deal = locked.engine.deal_info(deal_row.number)
    actions_insert(deal_row, new)
    deal_row.seq += len(new)
    fields = ["seq", "status", "finishing_order", "tribute"]
    deal_row.finishing_order = list(deal.finish)
    deal_row.tribute = deal.setup_detail
    if not deal.waiting_setup and not deal.over:
        deal_row.status = Deal.Status.PLAYING
    if deal.over:
        deal_finish(locked)
        fields += ["result", "record", "finished_at", "turn_deadline", *POINT_FIELDS]
    locked.deal_fields.update(fields)


def actions_insert(deal_row: Deal, new: Sequence[GameAction]) -> None:
    """Append ``new`` to the deal's log: one statement for a whole bot deal's ~200 actions."""
    ops = connection.ops
    columns = ("deal_id", "seq", "seat", "kind", "cards", "system", "extra", "created_at")
    head = "INSERT INTO {} ({}) VALUES ".format(
        ops.quote_name(Action._meta.db_table), ", ".join(ops.quote_name(c) for c in columns)
    )
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    now = ops.adapt_datetimefield_value(timezone.now())
    rows = []
    for i, action in enumerate(new, 1):
        seat, kind, cards, system, extra = engine_state.action_row_values(action)
        rows.append((deal_row.pk, deal_row.seq + i, seat, kind, cards, system, extra, now))
    if connection.vendor == "postgresql" and len(rows) > 1:
        # COPY: no per-value quoting in Python, the cheapest way to write a whole bot deal
        names = ", ".join(ops.quote_name(c) for c in columns)
        copy_sql = f"COPY {ops.quote_name(Action._meta.db_table)} ({names}) FROM STDIN"
        with connection.cursor() as cursor, cursor.cursor.copy(copy_sql) as copy:
            for values in rows:
                copy.write_row(values)
        return
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 400):  # one round trip per 400 rows
            chunk = rows[start : start + 400]
            cursor.execute(head + ", ".join([row] * len(chunk)), [v for r in chunk for v in r])


POINT_FIELDS = ["points", "side_points"]


def points_set(row: Match | Deal, points: Sequence[int], game: Game) -> None:
    """Set a match's or deal's points per seat, and per side when the game has fixed sides (live
    play and offline sheets write them alike)."""
    row.points = list(points)
    row.side_points = (
        {side: sum(points[s] for s in game.side_seats(side)) for side in game.sides}
        if game.fixed_sides
        else {}
    )


def deal_finish(locked: LockedMatch) -> None:
    """Store the ended deal's result, points, record and ladder step; end the match if it ended."""
    match, deal_row, engine = locked.match, locked.deal, locked.engine
    assert deal_row is not None
    deal = engine.deal_info(deal_row.number)
    assert deal.result is not None and deal.points is not None
    deal_row.status = Deal.Status.FINISHED
    deal_row.result = deal.result
    deal_row.finished_at = timezone.now()
    deal_row.turn_deadline = None
    points_set(deal_row, deal.points, engine_state.game_of(match))
    names = [s.player.name for s in sorted(locked.seats, key=lambda s: s.seat)]
    record = engine.record(deal_row.number, table=match.table.name, seats=names)
    deal_row.record = json.dumps(record, ensure_ascii=False)
    FigureStep.objects.create(match=match, deal_number=deal_row.number, figures=engine.figures())
    match_store(locked)


def match_store(locked: LockedMatch) -> None:
    match, engine = locked.match, locked.engine
    locked.scored = True
    points_set(match, engine.points, engine_state.game_of(match))
    match.figures = engine.figures()
    fields = ["figures", "updated_at", *POINT_FIELDS]
    if engine.over:
        assert engine.end_reason is not None
        match.status = Match.Status.FINISHED
        match.end_reason = Match.EndReason(engine.end_reason)
        match.finished_at = timezone.now()
        match.winner = engine.winner or ""  # the game decides who won the match
        fields += ["status", "end_reason", "finished_at", "winner", "left_seat"]
        if locked.people:
            presence.leave_cancel(match.pk)  # a leave noted for a next deal that never comes
        Table.objects.filter(pk=match.table_id).update(status=Table.Status.FINISHED)
        if Match.table.is_cached(match):
            match.table.status = Table.Status.FINISHED
    locked.match_fields.update(fields)


#: The tasks (games.tasks) the services queue, by name: the tasks call the services, and the
#: services never import the tasks. config/settings.py routes them (CELERY_TASK_ROUTES).
TASK_BOT_TURN = "games.bot_turn"


TASK_BOT_DEAL = "games.bot_deal"


TASK_TURN_TIMEOUT = "games.turn_timeout"


TASK_DEAL_START = "games.deal_start"


def queue_on_commit(name: str, args: tuple[int, ...], countdown: float | None = None) -> None:
    """Queue the task ``name`` with ``args`` once the current transaction commits (never for a
    change that was rolled back); routed to its queue by name."""
    options = {} if countdown is None else {"countdown": countdown}
    transaction.on_commit(partial(current_app.send_task, name, args, **options))


def turn_schedule(locked: LockedMatch, *, kick: bool = False) -> None:
    """Set the turn deadline and queue, on commit, what the match waits for next."""
    match, engine, deal_row = locked.match, locked.engine, locked.deal
    if engine.over:
        return
    match_id, number = match.pk, match.current_deal
    if not engine.in_deal:  # between deals
        queue_on_commit(TASK_DEAL_START, (match_id, number + 1), match.between_deals_seconds)
        return
    assert deal_row is not None
    seq = deal_row.seq
    if bulk_mode(locked):
        queue_on_commit(TASK_BOT_DEAL, (match_id, number))
        return
    awaiting = engine.awaiting()
    humans = [s for s in awaiting if s not in locked.bot_seats]
    for seat in awaiting:
        if seat in locked.bot_seats:
            delay = match.bot_delay_ms / 1000
            queue_on_commit(TASK_BOT_TURN, (match_id, number, seq, seat), delay)
    now = timezone.now()
    if humans:
        deadline = deal_row.turn_deadline
        keep = deadline is not None and (
            kick or (engine.deal_info(number).waiting_setup and deadline > now)
        )
        if not keep:
            deal_row.turn_deadline = now + timedelta(seconds=match.turn_seconds)
        assert deal_row.turn_deadline is not None
        left = max(0.0, (deal_row.turn_deadline - now).total_seconds())
        for seat in humans:
            queue_on_commit(TASK_TURN_TIMEOUT, (match_id, number, seq, seat), left)
    else:
        deal_row.turn_deadline = None
    locked.deal_fields.add("turn_deadline")


def bulk_mode(locked: LockedMatch) -> bool:
    """Whether the match's deals are played whole, one task each: six bots with no think time
    (simulations). Bots given a think time play turn by turn, to be watched (the demo)."""
    return len(locked.bot_seats) == len(locked.seats) and locked.match.bot_delay_ms == 0


def deal_save(locked: LockedMatch) -> None:
    """Write the deal row's changed fields (once per change, however many steps changed them)."""
    if locked.deal is not None and locked.deal_fields:
        locked.deal.save(update_fields=sorted(locked.deal_fields))
    locked.deal_fields.clear()


def match_save(locked: LockedMatch) -> None:
    """Write the match row's changed fields: one statement for a deal's end and the next deal."""
    if locked.match_fields:
        locked.match.save(update_fields=sorted(locked.match_fields))
    locked.match_fields.clear()


def locked_commit(locked: LockedMatch, *, kick: bool = False) -> None:
    """Schedule what comes next and, once committed, cache the state and tell the table."""
    turn_schedule(locked, kick=kick)
    deal_save(locked)
    match_save(locked)
    match, deal, engine = locked.match, locked.deal, locked.engine
    if locked.scored:
        locked.scored = False
        match_scored.send(sender=Match, match=match)
    table_id = match.table_id
    held_at = time.monotonic()  # the lock is held: every earlier change is in this state

    def committed() -> None:
        engine_state.remember(match, deal, engine)
        play_state.version_committed(match, deal, held_at)
        events.table_changed(table_id)

    transaction.on_commit(committed)


def turn_stale(locked: LockedMatch, number: int, seq: int | None) -> bool:
    return (
        locked.match.status != Match.Status.PLAYING
        or locked.match.current_deal != number
        or locked.deal is None
        or (seq is not None and locked.deal.seq != seq)
    )
