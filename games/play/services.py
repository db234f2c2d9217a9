"""Live play: matches started, each action of a person, a bot or a timer applied by the engine
under the match's row lock (games.play.locking), the next turn scheduled on the workers, and
every change pushed. The only module that talks to engine/ while a match is played (with
games.play.engine_state, which rebuilds the engine's state from the rows)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from engine.errors import EngineError
from games.live import presence
from games.models import Action, FigureStep, Match, Table, TableSeat
from games.play import engine_state
from games.play.locking import (
    LockedMatch,
    actions_store,
    bot_for,
    current_deal_locked,
    deal_next,
    deal_save,
    locked_commit,
    locked_match,
    match_lock,
    match_store,
    turn_schedule,
    turn_stale,
)
from games.tables.messages import engine_message
from games.tables.next_deal import next_deal_allowed
from games.tables.services import seat_names


@transaction.atomic
def match_start(
    *,
    table: Table,
    base_score: int = 1,
    deals_per_match: int = 3,
    rule_options: dict[str, Any] | None = None,
    seed: int | None = None,
    autoplay: bool = False,
    turn_seconds: int = 30,
    bot_delay_ms: int = 600,
    between_deals_seconds: int = 5,
    first_deal: dict[str, Any] | None = None,
) -> Match:
    """Start a match at an online table and deal its first deal; bots and timers run on Celery.

    ``first_deal`` (the game's ``deal_setup`` of another deal) deals the first deal as that deal
    was dealt: a same-deal challenge.

    Raises ApplicationError for an offline table, a table whose seats are not all taken, one
    with a match going on, or bad options.
    """
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.mode != Table.Mode.ONLINE:
        raise ApplicationError(_("An offline table's results are entered by a referee."))
    if TableSeat.objects.filter(table=table).count() != table.seat_count:
        raise ApplicationError(
            _("A table needs %(count)d seated players to start.") % {"count": table.seat_count}
        )
    if Match.objects.filter(table=table, status__in=[Match.Status.PENDING, Match.Status.PLAYING]):
        raise ApplicationError(_("This table already has a match going on."))
    if base_score < 1 or deals_per_match < 1 or turn_seconds < 1:
        raise ApplicationError(_("Base score, deals per match and turn time must be at least 1."))
    options = dict(rule_options or {})
    options.pop("deals_per_match", None)
    game = engine_state.game_of(table)
    try:
        rules = game.options_from_json({**options, "deals_per_match": deals_per_match})
    except EngineError as exc:
        raise ApplicationError(
            _("Bad rule options: %(error)s") % {"error": engine_message(exc)}
        ) from None
    seed = secrets.randbits(62) if seed is None else seed
    try:  # the match's own engine: what the rows below name (no replay of an empty match)
        engine = game.new_match(seed=seed, options=rules, base=base_score, first_deal=first_deal)
    except EngineError as exc:
        raise ApplicationError(
            _("Bad first deal: %(error)s") % {"error": engine_message(exc)}
        ) from None
    match = Match.objects.create(
        table=table,
        game=table.game,
        points=list(engine.points),
        side_points=engine.side_points(),
        figures=engine.figures(),
        rule_options=options,
        deals_per_match=deals_per_match,
        base_score=base_score,
        seed=seed,
        status=Match.Status.PLAYING,
        autoplay=autoplay,
        turn_seconds=turn_seconds,
        bot_delay_ms=bot_delay_ms,
        between_deals_seconds=between_deals_seconds,
        first_deal=first_deal,
        started_at=timezone.now(),
    )
    FigureStep.objects.create(match=match, deal_number=0, figures=match.figures)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    seats = list(TableSeat.objects.filter(table=table).select_related("player"))
    locked = LockedMatch(match, None, engine, seats)
    deal_next(locked)
    locked_commit(locked)
    return match


@transaction.atomic
def bot_act(*, match_id: int, number: int, seq: int, seat: int) -> bool:
    """A bot plays its turn if the deal still waits for it at ``seq``; returns whether it did."""
    locked = match_lock(match_id)
    engine = locked.engine
    if turn_stale(locked, number, seq) or not engine.in_deal or seat not in engine.awaiting():
        return False
    if seat not in locked.bot_seats:
        if locked.match.autoplay:  # a person came to a seat the bots played: their timer runs
            locked_commit(locked, kick=True)
        return False
    engine.apply(bot_for(locked, seat, str(seq)).act(engine, seat))
    actions_store(locked)
    locked_commit(locked)
    return True


def _commit_without_waiting_for_disk() -> None:
    """On PostgreSQL, let the current transaction's commit return before its log reaches the disk
    (``synchronous_commit`` off, for this transaction alone).

    Only for a deal that bots alone play (a simulation, a rehearsal): nobody waits for it, and a
    database crash can lose at most its last fraction of a second of such deals, never half of
    one (the database stays consistent); the next task then finds the match where it was left,
    and the watchdog (:func:`matches_kick`) plays it on. It saves the disk's wait on every such
    deal (on the shared machine under load, a deal's time fell from about 17 to 13 ms). A
    person's move always waits for the disk.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


@transaction.atomic
def bot_deal_play(*, match_id: int, number: int) -> bool:
    """Play deal ``number`` of an all-bot table to its end in one go; returns whether it did."""
    locked = match_lock(match_id)
    engine = locked.engine
    if turn_stale(locked, number, None) or not engine.in_deal:
        return False
    if len(locked.bot_seats) != len(locked.seats):  # a person sat down (autoplay): turn by turn
        locked_commit(locked, kick=True)
        return False
    if not locked.people:
        _commit_without_waiting_for_disk()
    bots = [bot_for(locked, seat, "deal") for seat in range(len(locked.seats))]
    while engine.in_deal:
        for seat in engine.awaiting():
            engine.apply(bots[seat].act(engine, seat))
            if not engine.in_deal:
                break
    actions_store(locked)
    if not locked.engine.over and locked.match.between_deals_seconds == 0:
        deal_save(locked)
        if not _leave_noted(locked) and not _time_up(locked):
            deal_next(locked)  # no pause between deals: deal the next one now, by its own task
    locked_commit(locked)
    return True


@transaction.atomic
def seat_timeout(*, match_id: int, number: int, seq: int, seat: int) -> bool:
    """The system acts for ``seat`` whose time ran out, unless the deal moved on; says if it did."""
    locked = match_lock(match_id)
    engine = locked.engine
    if turn_stale(locked, number, seq) or not engine.in_deal or seat not in engine.awaiting():
        return False
    if seat in locked.bot_seats:  # autoplay, and the person went away: the bots play for them
        engine.apply(bot_for(locked, seat, str(seq)).act(engine, seat))
    else:
        locked.engine.timeout(seat)
    actions_store(locked)
    locked_commit(locked)
    return True


@transaction.atomic
def deal_start(*, match_id: int, number: int) -> bool:
    """Deal deal ``number`` when the previous one has ended and the match goes on."""
    locked = match_lock(match_id)
    if (
        locked.match.status != Match.Status.PLAYING
        or locked.match.current_deal != number - 1
        or locked.engine.in_deal
        or locked.engine.over
    ):
        return False
    if not _leave_noted(locked) and not _time_up(locked):
        deal_next(locked)
    locked_commit(locked)
    return True


def _time_up(locked: LockedMatch) -> bool:
    """Before a deal is dealt: when a rule of the table's owner refuses the next deal (a round
    whose clock ran out, games.tables.next_deal), the match ends after the deals played, as if it
    had been that long: its length becomes the deals that count (a game may not count some, such
    as 上海斗地主's all-pass deals), the game decides its points and winner as for any finished
    match, and it is marked as ended by the time. Returns whether it ended; a match whose last
    deal does not count deals on, and ends after the next one that does."""
    match = locked.match
    if locked.engine.over or next_deal_allowed(match.table_id):
        return False
    planned = match.deals_per_match
    for length in range(min(match.current_deal, planned), 0, -1):
        match.deals_per_match = length
        engine_state.forget(match.pk)  # the cached state knows the longer match
        try:
            engine = engine_state.engine_match(match, locked.deal)
        except engine_state.StateError:  # shorter than the deals already dealt
            break
        if engine.over:
            locked.engine = engine
            match_store(locked)
            match.end_reason = Match.EndReason.TIME_UP
            locked.match_fields.update(["deals_per_match", "end_reason"])
            return True
    match.deals_per_match = planned
    engine_state.forget(match.pk)
    return False


def _leave_noted(locked: LockedMatch) -> bool:
    """Before a deal is dealt: a person who confirmed leaving after going out of the last deal
    and is still away leaves now, between deals (the match ends); one who is back at the table
    stays. Returns whether someone left."""
    if not locked.people:  # only a person notes leaving: no read of the presence store
        return False
    match_id = locked.match.pk
    noted = presence.leaves_noted(match_id)
    if not noted:
        return False
    presence.leave_cancel(match_id)
    online = presence.seats_online(locked.match.table_id, noted)
    gone = [seat for seat in noted if not online.get(seat, False)]
    if not gone or locked.engine.over:
        return False
    locked.engine.leave(gone[0])
    locked.match.left_seat = gone[0]
    match_store(locked)
    return True


def _playing(table: Table) -> LockedMatch:
    deal = current_deal_locked(match__table=table, match__status=Match.Status.PLAYING)
    if deal is not None:
        return locked_match(deal.match, deal)
    match_id = (
        Match.objects.filter(table=table, status=Match.Status.PLAYING)
        .values_list("pk", flat=True)
        .first()
    )
    if match_id is None:
        raise ApplicationError(_("No match is being played at this table."))
    return match_lock(match_id)


@transaction.atomic
def seat_act(
    *, table: Table, seat: int, kind: str, cards: str = "", seq: int, deal: int | None = None
) -> int:
    """Apply a seated player's action; returns the new sequence number.

    ``kind`` is ``play``, ``pass`` or ``return``; ``seq`` the sequence number the player last saw
    (and ``deal`` the deal's number, when given). Raises ApplicationError (the engine's reason)
    for an illegal or malformed action, and ConflictError when the actions since ``seq`` made it
    stale for this seat (see :func:`_independent`).
    """
    if seat not in range(table.seat_count):
        raise ApplicationError(
            _("Seat must be 0-%(last)d, not %(seat)s.")
            % {"last": table.seat_count - 1, "seat": seat}
        )
    try:
        action = engine_state.game_of(table).seat_action(seat, kind, cards)
    except EngineError as exc:
        raise ApplicationError(engine_message(exc, seat_names=seat_names(table))) from None
    locked = _playing(table)
    engine = locked.engine
    if not engine.in_deal or locked.deal is None:
        raise ConflictError(_("The deal is over; the next deal has not been dealt yet."))
    if deal is not None and deal != locked.deal.number:
        raise ConflictError(
            _("Stale action: this is deal %(now)d, not deal %(sent)d.")
            % {"now": locked.deal.number, "sent": deal},
            extra={"seq": locked.deal.seq},
        )
    if seq != locked.deal.seq and not _independent(locked, seat, kind, seq):
        raise ConflictError(
            _("Stale action: the deal has moved on (move %(now)d, not %(sent)d).")
            % {"now": locked.deal.seq, "sent": seq},
            extra={"seq": locked.deal.seq},
        )
    try:
        engine.apply(action)
    except EngineError as exc:
        engine_state.forget(locked.match.pk)
        raise ApplicationError(engine_message(exc, seat_names=seat_names(table))) from None
    actions_store(locked)
    locked_commit(locked)
    assert locked.deal is not None
    return locked.deal.seq


def _independent(locked: LockedMatch, seat: int, kind: str, seq: int) -> bool:
    """Whether an action of ``seat`` sent at ``seq`` still means what it meant, after the actions
    that others made meanwhile: the game says (大怪路子: only when those are returns (还贡) of
    other receivers and it is a return too, since a receiver's return depends on their own hand
    alone). Anything else since ``seq`` changes what the seat saw: stale."""
    assert locked.deal is not None
    done = locked.engine.deal_actions(locked.deal.number)
    if not 0 <= seq < len(done):
        return False
    return engine_state.game_of(locked.match).commutes(done[seq:], seat, kind)


@transaction.atomic
def seat_escape(*, table: Table, seat: int) -> str:
    """``seat`` confirmed leaving the table; returns what it was.

    ``"escape"``: an escape (逃跑) during a deal, which ends the match. ``"left"``: leaving between
    deals, which ends the match. ``"noted"``: the seat has gone out of the deal being played, so
    it cannot escape it; when the next deal is about to be dealt and the person is still away,
    that is leaving between deals (nothing if the match is over by then). A dropped connection
    never comes here (games.live.presence).
    """
    if seat not in range(table.seat_count):
        raise ApplicationError(
            _("Seat must be 0-%(last)d, not %(seat)s.")
            % {"last": table.seat_count - 1, "seat": seat}
        )
    locked = _playing(table)
    engine = locked.engine
    if engine.in_deal and seat in engine.deal_info(engine.deals_started).finish:
        presence.leave_note(locked.match.pk, seat)
        return "noted"
    if engine.in_deal:
        try:
            engine.escape(seat)
        except EngineError:  # a seat that cannot escape this deal (小路子: a bystander)
            engine_state.forget(locked.match.pk)
            presence.leave_note(locked.match.pk, seat)
            return "noted"
        actions_store(locked)
        outcome = "escape"
    else:
        presence.leave_cancel(locked.match.pk, seat)
        locked.engine.leave(seat)
        locked.match.left_seat = seat
        match_store(locked)
        outcome = "left"
    locked_commit(locked)
    return outcome


def matches_kick(*, idle_seconds: float = 15.0) -> int:
    """Queue again what stalled matches wait for (a lost task, a worker killed mid-task).

    A match is stalled when it is being played and neither it nor its current deal has changed
    for ``idle_seconds`` beyond its turn deadline (the match row changes between deals, the deal's
    log within one). Returns how many matches were kicked; the tasks it queues are idempotent.
    """
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    recent_action = Action.objects.filter(
        deal__match=OuterRef("pk"), deal__number=OuterRef("current_deal"), created_at__gte=cutoff
    )
    stalled = Match.objects.filter(status=Match.Status.PLAYING, updated_at__lt=cutoff).exclude(
        Exists(recent_action)
    )
    kicked = 0
    for match_id in stalled.values_list("pk", flat=True):
        with transaction.atomic():
            locked = match_lock(match_id)
            if locked.match.status != Match.Status.PLAYING:
                continue
            deadline = locked.deal.turn_deadline if locked.deal is not None else None
            if deadline is not None and deadline > cutoff:
                continue  # a person's turn: the timer has not run out yet
            turn_schedule(locked, kick=True)
            deal_save(locked)
            Match.objects.filter(pk=match_id).update(updated_at=timezone.now())
            kicked += 1
    return kicked
