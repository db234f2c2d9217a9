"""Writes to the card room: players, tables, and game play. The only module that talks to engine/
(with games.play.engine_state, which rebuilds the engine's state from the rows)."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from engine.errors import EngineError
from engine.game import Game, GameAction, MatchState
from engine.registry import DEFAULT_GAME, get_game
from games import selectors
from games.live import events, presence
from games.models import Action, Deal, FigureStep, Match, Player, Table, TableMode, TableSeat
from games.play import engine_state
from games.play.messages import engine_message
from games.signals import match_scored
from games.tables.access import access_changed
from games.tables.seats import seat_number


@transaction.atomic
def player_create(
    *,
    name: str,
    user: User | None = None,
    is_bot: bool = False,
    bot_kind: str = "",
) -> Player:
    """Create and return a player; raise ApplicationError for an empty name or a bot with an
    account."""
    name = name.strip()
    if not name:
        raise ApplicationError("A player needs a name.")
    if is_bot and user is not None:
        raise ApplicationError("A bot cannot have a login account.")
    if bot_kind and not is_bot:
        raise ApplicationError("Only a bot has a bot kind.")
    if is_bot and not bot_kind:
        bot_kind = BOT_KINDS[0]
    if is_bot and bot_kind not in BOT_KINDS:
        raise ApplicationError(f"Unknown bot kind {bot_kind!r}: use {' or '.join(BOT_KINDS)}.")
    return Player.objects.create(name=name, user=user, is_bot=is_bot, bot_kind=bot_kind)


@transaction.atomic
def table_create(
    *,
    name: str,
    players: Sequence[Player],
    mode: TableMode = TableMode.ONLINE,
    game: str = DEFAULT_GAME,
) -> Table:
    """Create a table of ``game`` with ``players`` in seats 0, 1, ... (play order) and return it.

    Raises ApplicationError for an unknown game, or unless the game's seat count of distinct
    players is given.
    """
    try:
        seat_count = get_game(game).seat_count
    except EngineError as exc:
        raise ApplicationError(engine_message(exc)) from None
    if len(players) != seat_count:
        raise ApplicationError(
            f"A table of this game needs exactly {seat_count} players, got {len(players)}."
        )
    if len({p.pk for p in players}) != seat_count:
        raise ApplicationError("A player can take only one seat at a table.")
    table = Table.objects.create(name=name, mode=mode, game=game, seat_count=seat_count)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, player=player) for seat, player in enumerate(players)
    )
    access_changed()  # bulk_create sends no signal: a seat may close a duplicate round's table
    return table


# -- game play: the only bridge to engine/ ---------------------------------------------------------
#
# Every write locks the match row, rebuilds (or takes from the cache) the engine state, checks the
# caller's token (deal number and sequence number), applies, appends the action rows and stores what
# changed, all in one transaction. Follow-up work (a bot's turn, a turn timer, the next deal) is
# queued on commit; a task whose token is stale does nothing, so at-least-once delivery, duplicate
# tasks and late timers are harmless.

BOT_KINDS = ("heuristic", "random", "search")


@dataclass(frozen=True)
class OfflineDeal:
    """One deal of an offline table as a referee enters it (the game's ``score_sheet``)."""

    finish: tuple[int, ...] = ()
    escape: int | None = None
    leave: int | None = None


class MatchGone(ApplicationError):
    """The match a task was queued for no longer exists (deleted, or a test database gone)."""


@dataclass
class _Locked:
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


def _current_deal_locked(**filters: Any) -> Deal | None:
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


def _lock(match_id: int) -> _Locked:
    deal = _current_deal_locked(match_id=match_id)
    if deal is not None:
        match = deal.match
    else:
        try:
            match = Match.objects.select_for_update().select_related("table").get(pk=match_id)
        except Match.DoesNotExist:
            raise MatchGone(f"No match {match_id}.") from None
        deal = match.deals.filter(number=match.current_deal).first() if match.current_deal else None
    return _locked(match, deal)


def _locked(match: Match, deal: Deal | None) -> _Locked:
    seats = selectors.match_seats(match)  # read once per match and process
    return _Locked(match, deal, engine_state.engine_match(match, deal), seats)


def _bot_for(locked: _Locked, seat: int, salt: str) -> Any:
    player = next((s.player for s in locked.seats if s.seat == seat), None)
    kind = player.bot_kind if player is not None and player.bot_kind in BOT_KINDS else "heuristic"
    seed = f"{locked.match.seed}:{locked.match.current_deal}:{salt}:{seat}"
    game = engine_state.game_of(locked.match)
    return game.bot(kind if kind in game.bot_kinds else game.bot_kinds[0], seed)


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
    locked = _Locked(match, None, engine, seats)
    _deal_next(locked)
    _commit(locked)
    return match


def _deal_next(locked: _Locked) -> None:
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


def _store_actions(locked: _Locked) -> None:
    """Append the engine deal's new actions to the log and store what the deal now shows."""
    deal_row = locked.deal
    assert deal_row is not None
    new = locked.engine.deal_actions(deal_row.number)[deal_row.seq :]
    deal = locked.engine.deal_info(deal_row.number)
    _insert_actions(deal_row, new)
    deal_row.seq += len(new)
    fields = ["seq", "status", "finishing_order", "tribute"]
    deal_row.finishing_order = list(deal.finish)
    deal_row.tribute = deal.setup_detail
    if not deal.waiting_setup and not deal.over:
        deal_row.status = Deal.Status.PLAYING
    if deal.over:
        _finish_deal(locked)
        fields += ["result", "record", "finished_at", "turn_deadline", *_POINT_FIELDS]
    locked.deal_fields.update(fields)


def _insert_actions(deal_row: Deal, new: Sequence[GameAction]) -> None:
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


_POINT_FIELDS = ["points", "side_points"]


def _set_points(row: Match | Deal, points: Sequence[int], game: Game) -> None:
    """Points per seat, and per side when the game has fixed sides."""
    row.points = list(points)
    row.side_points = (
        {side: sum(points[s] for s in game.side_seats(side)) for side in game.sides}
        if game.fixed_sides
        else {}
    )


def _finish_deal(locked: _Locked) -> None:
    """Store the ended deal's result, points, record and ladder step; end the match if it ended."""
    match, deal_row, engine = locked.match, locked.deal, locked.engine
    assert deal_row is not None
    deal = engine.deal_info(deal_row.number)
    assert deal.result is not None and deal.points is not None
    deal_row.status = Deal.Status.FINISHED
    deal_row.result = deal.result
    deal_row.finished_at = timezone.now()
    deal_row.turn_deadline = None
    _set_points(deal_row, deal.points, engine_state.game_of(match))
    names = [s.player.name for s in sorted(locked.seats, key=lambda s: s.seat)]
    record = engine.record(deal_row.number, table=match.table.name, seats=names)
    deal_row.record = json.dumps(record, ensure_ascii=False)
    FigureStep.objects.create(match=match, deal_number=deal_row.number, figures=engine.figures())
    _store_match(locked)


def _store_match(locked: _Locked) -> None:
    match, engine = locked.match, locked.engine
    locked.scored = True
    _set_points(match, engine.points, engine_state.game_of(match))
    match.figures = engine.figures()
    fields = ["figures", "updated_at", *_POINT_FIELDS]
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


def _queue_on_commit(name: str, args: tuple[int, ...], countdown: float | None = None) -> None:
    """Queue the task ``name`` with ``args`` once the current transaction commits (never for a
    change that was rolled back); routed to its queue by name."""
    options = {} if countdown is None else {"countdown": countdown}
    transaction.on_commit(partial(current_app.send_task, name, args, **options))


def _schedule(locked: _Locked, *, kick: bool = False) -> None:
    """Set the turn deadline and queue, on commit, what the match waits for next."""
    match, engine, deal_row = locked.match, locked.engine, locked.deal
    if engine.over:
        return
    match_id, number = match.pk, match.current_deal
    if not engine.in_deal:  # between deals
        _queue_on_commit(TASK_DEAL_START, (match_id, number + 1), match.between_deals_seconds)
        return
    assert deal_row is not None
    seq = deal_row.seq
    if _bulk(locked):
        _queue_on_commit(TASK_BOT_DEAL, (match_id, number))
        return
    awaiting = engine.awaiting()
    humans = [s for s in awaiting if s not in locked.bot_seats]
    for seat in awaiting:
        if seat in locked.bot_seats:
            delay = match.bot_delay_ms / 1000
            _queue_on_commit(TASK_BOT_TURN, (match_id, number, seq, seat), delay)
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
            _queue_on_commit(TASK_TURN_TIMEOUT, (match_id, number, seq, seat), left)
    else:
        deal_row.turn_deadline = None
    locked.deal_fields.add("turn_deadline")


def _bulk(locked: _Locked) -> bool:
    """Whether the match's deals are played whole, one task each: six bots with no think time
    (simulations). Bots given a think time play turn by turn, to be watched (the demo)."""
    return len(locked.bot_seats) == len(locked.seats) and locked.match.bot_delay_ms == 0


def _save_deal(locked: _Locked) -> None:
    """Write the deal row's changed fields (once per change, however many steps changed them)."""
    if locked.deal is not None and locked.deal_fields:
        locked.deal.save(update_fields=sorted(locked.deal_fields))
    locked.deal_fields.clear()


def _save_match(locked: _Locked) -> None:
    """Write the match row's changed fields: one statement for a deal's end and the next deal."""
    if locked.match_fields:
        locked.match.save(update_fields=sorted(locked.match_fields))
    locked.match_fields.clear()


def _commit(locked: _Locked, *, kick: bool = False) -> None:
    """Schedule what comes next and, once committed, cache the state and tell the table."""
    _schedule(locked, kick=kick)
    _save_deal(locked)
    _save_match(locked)
    match, deal, engine = locked.match, locked.deal, locked.engine
    if locked.scored:
        locked.scored = False
        match_scored.send(sender=Match, match=match)
    table_id = match.table_id
    held_at = time.monotonic()  # the lock is held: every earlier change is in this state

    def committed() -> None:
        engine_state.remember(match, deal, engine)
        selectors.version_committed(match, deal, held_at)
        events.table_changed(table_id)

    transaction.on_commit(committed)


def _stale(locked: _Locked, number: int, seq: int | None) -> bool:
    return (
        locked.match.status != Match.Status.PLAYING
        or locked.match.current_deal != number
        or locked.deal is None
        or (seq is not None and locked.deal.seq != seq)
    )


@transaction.atomic
def bot_act(*, match_id: int, number: int, seq: int, seat: int) -> bool:
    """A bot plays its turn if the deal still waits for it at ``seq``; returns whether it did."""
    locked = _lock(match_id)
    engine = locked.engine
    if _stale(locked, number, seq) or not engine.in_deal or seat not in engine.awaiting():
        return False
    if seat not in locked.bot_seats:
        if locked.match.autoplay:  # a person came to a seat the bots played: their timer runs
            _commit(locked, kick=True)
        return False
    engine.apply(_bot_for(locked, seat, str(seq)).act(engine, seat))
    _store_actions(locked)
    _commit(locked)
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
    locked = _lock(match_id)
    engine = locked.engine
    if _stale(locked, number, None) or not engine.in_deal:
        return False
    if len(locked.bot_seats) != len(locked.seats):  # a person sat down (autoplay): turn by turn
        _commit(locked, kick=True)
        return False
    if not locked.people:
        _commit_without_waiting_for_disk()
    bots = [_bot_for(locked, seat, "deal") for seat in range(len(locked.seats))]
    while engine.in_deal:
        for seat in engine.awaiting():
            engine.apply(bots[seat].act(engine, seat))
            if not engine.in_deal:
                break
    _store_actions(locked)
    if not locked.engine.over and locked.match.between_deals_seconds == 0:
        _save_deal(locked)
        if not _leave_noted(locked):
            _deal_next(locked)  # no pause between deals: deal the next one now, by its own task
    _commit(locked)
    return True


@transaction.atomic
def seat_timeout(*, match_id: int, number: int, seq: int, seat: int) -> bool:
    """The system acts for ``seat`` whose time ran out, unless the deal moved on; says if it did."""
    locked = _lock(match_id)
    engine = locked.engine
    if _stale(locked, number, seq) or not engine.in_deal or seat not in engine.awaiting():
        return False
    if seat in locked.bot_seats:  # autoplay, and the person went away: the bots play for them
        engine.apply(_bot_for(locked, seat, str(seq)).act(engine, seat))
    else:
        locked.engine.timeout(seat)
    _store_actions(locked)
    _commit(locked)
    return True


@transaction.atomic
def deal_start(*, match_id: int, number: int) -> bool:
    """Deal deal ``number`` when the previous one has ended and the match goes on."""
    locked = _lock(match_id)
    if (
        locked.match.status != Match.Status.PLAYING
        or locked.match.current_deal != number - 1
        or locked.engine.in_deal
        or locked.engine.over
    ):
        return False
    if not _leave_noted(locked):
        _deal_next(locked)
    _commit(locked)
    return True


def _leave_noted(locked: _Locked) -> bool:
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
    _store_match(locked)
    return True


def _playing(table: Table) -> _Locked:
    deal = _current_deal_locked(match__table=table, match__status=Match.Status.PLAYING)
    if deal is not None:
        return _locked(deal.match, deal)
    match_id = (
        Match.objects.filter(table=table, status=Match.Status.PLAYING)
        .values_list("pk", flat=True)
        .first()
    )
    if match_id is None:
        raise ApplicationError(_("No match is being played at this table."))
    return _lock(match_id)


def seat_names(table: Table) -> list[str]:
    """The names of the table's players by seat (for messages that name seats)."""
    names = [_("seat %(n)s") % {"n": seat_number(seat)} for seat in range(table.seat_count)]
    for seat, name in TableSeat.objects.filter(table=table).values_list("seat", "player__name"):
        if 0 <= seat < len(names):
            names[seat] = name
    return names


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
    _store_actions(locked)
    _commit(locked)
    assert locked.deal is not None
    return locked.deal.seq


def _independent(locked: _Locked, seat: int, kind: str, seq: int) -> bool:
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
        _store_actions(locked)
        outcome = "escape"
    else:
        presence.leave_cancel(locked.match.pk, seat)
        locked.engine.leave(seat)
        locked.match.left_seat = seat
        _store_match(locked)
        outcome = "left"
    _commit(locked)
    return outcome


def offline_sheet(*, first_dealer: int, deals: Sequence[OfflineDeal]) -> dict[str, Any]:
    """The score sheet (大怪路子's format) of a referee's finishing orders, escapes and leavings."""
    rows: list[dict[str, Any]] = []
    for d in deals:
        row: dict[str, Any] = {"finish": list(d.finish)}
        if d.escape is not None:
            row["escape"] = d.escape
        if d.leave is not None:
            row["leave"] = d.leave
        rows.append(row)
    return {"first_dealer": first_dealer, "deals": rows}


@dataclass(frozen=True, slots=True)
class OfflineScored:
    """An offline sheet as the engine scored it, as the rows it records (none saved): the match,
    its deals (by number) and the figures after each deal."""

    match: Match
    deals: list[Deal]
    figures: tuple[dict[str, dict[str, int]], ...]


def offline_match_score(
    *,
    table: Table,
    base_score: int,
    deals_per_match: int,
    rule_options: dict[str, Any] | None = None,
    sheet: Any = None,
    first_dealer: int = 0,
    deals: Sequence[OfflineDeal] = (),
) -> OfflineScored:
    """Score an offline table's sheet through the engine's pure ``score_sheet`` into the rows
    :func:`offline_match_record` would write, writing nothing (a result's preview is a read).
    Raises ApplicationError with the engine's reason, naming the first bad deal."""
    if table.mode != Table.Mode.OFFLINE:
        raise ApplicationError(_("Only an offline table's results are entered by a referee."))
    if sheet is None:
        sheet = offline_sheet(first_dealer=first_dealer, deals=deals)
    if isinstance(sheet, dict) and sheet.get("deals") == []:
        raise ApplicationError(_("Enter at least one deal."))
    options = dict(rule_options or {})
    options.pop("deals_per_match", None)
    game = engine_state.game_of(table)
    try:
        rules = game.options_from_json({**options, "deals_per_match": deals_per_match})
        scored = game.score_sheet(sheet, options=rules, base=base_score)
    except EngineError as exc:
        raise ApplicationError(engine_message(exc, seat_names=seat_names(table))) from None
    now = timezone.now()
    match = Match(
        table=table,
        game=table.game,
        rule_options=options,
        deals_per_match=deals_per_match,
        base_score=base_score,
        status=Match.Status.FINISHED if scored.end_reason else Match.Status.PLAYING,
        current_deal=len(scored.deals),
        end_reason=scored.end_reason or "",
        winner=scored.winner or "",  # the game decides who won the match
        left_seat=scored.left,
        figures=scored.figures[-1] if scored.figures else {},
        sheet=sheet,
        started_at=now,
        finished_at=now if scored.end_reason else None,
    )
    _set_points(match, scored.points, game)
    rows = []
    for d in scored.deals:
        row = Deal(
            match=match,
            number=d.number,
            dealer_seat=d.dealer,
            level_rank=d.level_rank,
            seed="0",
            status=Deal.Status.FINISHED,
            finishing_order=list(d.finish),
            result=d.result,
            finished_at=now,
        )
        _set_points(row, d.points, game)
        rows.append(row)
    return OfflineScored(match, rows, tuple(scored.figures))


@transaction.atomic
def offline_match_record(
    *,
    table: Table,
    base_score: int,
    deals_per_match: int,
    rule_options: dict[str, Any] | None = None,
    sheet: Any = None,
    first_dealer: int = 0,
    deals: Sequence[OfflineDeal] = (),
) -> Match:
    """Record (or record again) an offline table's whole match from a referee's score sheet.

    ``sheet`` is the game's own sheet (JSON, ``{"first_dealer"?, "deals": [...]}``, the format of
    the game's ``score_sheet``); without it, ``first_dealer`` and ``deals`` (大怪路子's finishing
    orders) make one. The engine scores it (points, the game's figures, each deal's result); the
    sheet is stored on the match as entered, and the table's previous offline match, if any, is
    replaced. Raises ApplicationError with the engine's reason, naming the first bad deal.
    """
    table = Table.objects.select_for_update().get(pk=table.pk)
    scored = offline_match_score(
        table=table,
        base_score=base_score,
        deals_per_match=deals_per_match,
        rule_options=rule_options,
        sheet=sheet,
        first_dealer=first_dealer,
        deals=deals,
    )
    Match.objects.filter(table=table).delete()
    match = scored.match
    match.save()
    for row in scored.deals:
        row.match = match
        row.save()
    FigureStep.objects.bulk_create(
        FigureStep(match=match, deal_number=i, figures=f) for i, f in enumerate(scored.figures)
    )
    table.status = Table.Status.FINISHED if match.end_reason else Table.Status.PLAYING
    table.save(update_fields=["status"])
    match_scored.send(sender=Match, match=match)
    table_id = table.pk
    transaction.on_commit(lambda: events.table_changed(table_id))
    return match


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
            locked = _lock(match_id)
            if locked.match.status != Match.Status.PLAYING:
                continue
            deadline = locked.deal.turn_deadline if locked.deal is not None else None
            if deadline is not None and deadline > cutoff:
                continue  # a person's turn: the timer has not run out yet
            _schedule(locked, kick=True)
            _save_deal(locked)
            Match.objects.filter(pk=match_id).update(updated_at=timezone.now())
            kicked += 1
    return kicked
