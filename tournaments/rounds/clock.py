"""A round's clock: its organizers start, pause, resume and extend it; everyone reads the time left.

The clock's state is a row (:class:`~tournaments.models.RoundClock`): its length, when it started,
the pauses and the minutes added. The time left is computed from it at each read (never stored as
it runs), and pages count down in the browser from the seconds left they are sent; every change
is pushed to the round's online tables (games.live.events) and written to the round's log.

When the time is up, online tables finish the deal in play and deal no new one:
:func:`next_deal_rule` is registered with games.tables.next_deal, and the card room ends such a
match after its deal; offline tables not finished by then are flagged on the dashboard
(:func:`clock_overdue_tables`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from games.live import events
from games.models import Table
from games.tables.context import clock_page
from tournaments.events.organizers import event_organizer_require, round_log_add
from tournaments.models import Pairing, PairingTally, Round, RoundAction, RoundClock

__all__ = [
    "EXTEND_MAX_MINUTES",
    "ClockView",
    "clock_extend",
    "clock_of",
    "clock_overdue_tables",
    "clock_pause",
    "clock_resume",
    "round_clock_page",
    "clock_rule_text",
    "clock_start",
    "clock_view",
    "next_deal_rule",
]

#: The most minutes one extension adds (and a clock's longest length, as the event's field).
EXTEND_MAX_MINUTES = 120
LENGTH_MAX_MINUTES = 600


class ClockState:
    """What a round's clock is doing (the JSON's ``state``)."""

    NONE = "none"  # no clock: the round is not running, or its event sets no length
    READY = "ready"  # the event sets a length; the organizer has not started it yet
    RUNNING = "running"
    PAUSED = "paused"
    OVER = "over"  # the time is up


@dataclass(frozen=True, slots=True)
class ClockView:
    """A round's clock as read at ``now``."""

    round_id: int
    state: str
    #: the clock's length with the minutes added (the event's length before it starts)
    minutes: int | None
    extra_minutes: int
    #: whole seconds left (0 when over); None without a clock
    seconds_left: int | None
    #: when the time runs out, while it runs
    deadline: datetime | None

    def to_json(self) -> dict[str, object]:
        return {
            "round": self.round_id,
            "state": self.state,
            "minutes": self.minutes,
            "extra_minutes": self.extra_minutes,
            "seconds_left": self.seconds_left,
            "deadline": self.deadline.isoformat() if self.deadline is not None else None,
        }


def _left(clock: RoundClock, now: datetime) -> float:
    """Seconds left on ``clock`` at ``now`` (negative once the time is up)."""
    until = clock.paused_at if clock.paused_at is not None else now
    ran = (until - clock.started_at).total_seconds() - clock.paused_seconds
    return (clock.minutes + clock.extra_minutes) * 60 - ran


def clock_view(round: Round, clock: RoundClock | None, now: datetime | None = None) -> ClockView:
    """The clock of ``round`` (its row ``clock``, None when not started) at ``now``."""
    now = now or timezone.now()
    event_minutes = round.event.round_minutes
    if round.status != Round.Status.RUNNING or (clock is None and not event_minutes):
        return ClockView(round.pk, ClockState.NONE, None, 0, None, None)
    if clock is None:
        assert event_minutes is not None
        return ClockView(round.pk, ClockState.READY, event_minutes, 0, event_minutes * 60, None)
    left = _left(clock, now)
    total = clock.minutes + clock.extra_minutes
    if left <= 0:
        return ClockView(round.pk, ClockState.OVER, total, clock.extra_minutes, 0, None)
    seconds = math.ceil(left)
    if clock.paused_at is not None:
        return ClockView(round.pk, ClockState.PAUSED, total, clock.extra_minutes, seconds, None)
    deadline = now + timedelta(seconds=left)
    return ClockView(round.pk, ClockState.RUNNING, total, clock.extra_minutes, seconds, deadline)


def clock_of(round: Round, now: datetime | None = None) -> ClockView:
    """The clock of ``round`` now, read from the database (one query)."""
    return clock_view(round, RoundClock.objects.filter(round_id=round.pk).first(), now)


def clock_rule_text() -> str:
    """The event's rule when the time runs out, in words (shown beside every clock)."""
    return _(
        "When the time is up, online tables finish the deal in play and deal no new one; "
        "offline tables still playing are flagged for the referees."
    )


def round_clock_page(round: Round | None) -> dict[str, object] | None:
    """What a page shows of the clock of ``round`` (templates/_round_clock.html), None without
    one."""
    if round is None:
        return None
    view = clock_of(round)
    return clock_page(
        state=view.state,
        seconds_left=view.seconds_left,
        url=reverse("tournaments-api:round-clock", args=[round.pk]),
        rule=clock_rule_text(),
    )


# --- the organizers' actions ---------------------------------------------------------------------


def _locked(round: Round, user: User | None) -> tuple[Round, RoundClock | None]:
    """``round`` locked for update with its clock, once its organizer and status are checked."""
    round = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    event_organizer_require(event=round.event, user=user)
    if round.status != Round.Status.RUNNING:
        raise ConflictError(
            _("Round %(round)d is %(status)s, not running: its clock cannot change.")
            % {"round": round.number, "status": round.get_status_display()}
        )
    return round, RoundClock.objects.select_for_update().filter(round=round).first()


def _started(round: Round, clock: RoundClock | None) -> RoundClock:
    if clock is None:
        raise ConflictError(
            _("The clock of round %(round)d has not been started.") % {"round": round.number}
        )
    return clock


def _changed(round: Round, user: User | None, detail: str) -> None:
    """Log the change and, once committed, tell the round's online tables."""
    round_log_add(round, user, RoundAction.CLOCK, detail)
    tables = list(
        Pairing.objects.filter(round=round, table__mode=Table.Mode.ONLINE).values_list(
            "table_id", flat=True
        )
    )

    def push() -> None:
        for table_id in tables:
            events.table_clock_changed(table_id)

    transaction.on_commit(push)


def _minutes(value: object, most: int) -> int:
    """``value`` as whole minutes from 1 to ``most``; ApplicationError (400) otherwise."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= most):
        raise ApplicationError(
            _("Give the minutes as a whole number from 1 to %(most)d.") % {"most": most}
        )
    return int(text)


@transaction.atomic
def clock_start(*, round: Round, user: User | None, minutes: object = None) -> ClockView:
    """Start the clock of a running round, for the event's round length (or ``minutes``)."""
    round, clock = _locked(round, user)
    if clock is not None:
        raise ConflictError(
            _("The clock of round %(round)d has already been started.") % {"round": round.number}
        )
    if minutes in (None, ""):
        if not round.event.round_minutes:
            raise ApplicationError(
                _("The event sets no round length: set it in the event's settings first.")
            )
        length = int(round.event.round_minutes)
    else:
        length = _minutes(minutes, LENGTH_MAX_MINUTES)
    now = timezone.now()
    clock = RoundClock.objects.create(round=round, minutes=length, started_at=now)
    _changed(round, user, f"clock: started, {length} min")
    return clock_view(round, clock, now)


@transaction.atomic
def clock_pause(*, round: Round, user: User | None) -> ClockView:
    """Pause a running clock."""
    round, clock = _locked(round, user)
    clock = _started(round, clock)
    now = timezone.now()
    if clock.paused_at is not None:
        raise ConflictError(_("The clock is already paused."))
    if _left(clock, now) <= 0:
        raise ConflictError(_("The time is up: extend the clock to give more time."))
    clock.paused_at = now
    clock.save(update_fields=["paused_at"])
    _changed(round, user, "clock: paused")
    return clock_view(round, clock, now)


@transaction.atomic
def clock_resume(*, round: Round, user: User | None) -> ClockView:
    """Resume a paused clock: the pause does not count."""
    round, clock = _locked(round, user)
    clock = _started(round, clock)
    now = timezone.now()
    if clock.paused_at is None:
        raise ConflictError(_("The clock is not paused."))
    clock.paused_seconds += max(0, math.floor((now - clock.paused_at).total_seconds()))
    clock.paused_at = None
    clock.save(update_fields=["paused_at", "paused_seconds"])
    _changed(round, user, "clock: resumed")
    return clock_view(round, clock, now)


@transaction.atomic
def clock_extend(*, round: Round, user: User | None, minutes: object = 5) -> ClockView:
    """Add ``minutes`` (1 to :data:`EXTEND_MAX_MINUTES`) to a started clock, even one whose time
    was up: it runs again (matches already ended by the time stay ended)."""
    added = _minutes(minutes, EXTEND_MAX_MINUTES)
    round, clock = _locked(round, user)
    clock = _started(round, clock)
    now = timezone.now()
    if _left(clock, now) <= 0 and clock.paused_at is None:
        # the time ran out a while ago: the extension counts from now, not from the deadline
        over_by = -_left(clock, now)
        clock.paused_seconds += math.floor(over_by)
    clock.extra_minutes += added
    clock.save(update_fields=["extra_minutes", "paused_seconds"])
    _changed(round, user, f"clock: +{added} min")
    return clock_view(round, clock, now)


# --- what the time being up means ----------------------------------------------------------------


def next_deal_rule(table_id: int) -> bool | None:
    """games.tables.next_deal's rule: no new deal at a table of a round whose clock ran out."""
    pairing = (
        Pairing.objects.filter(table_id=table_id)
        .select_related("round__event", "round__clock")
        .first()
    )
    if pairing is None:
        return None
    round = pairing.round
    try:
        clock = round.clock
    except RoundClock.DoesNotExist:
        return None
    return False if clock_view(round, clock).state == ClockState.OVER else None


def clock_overdue_tables(round: Round, view: ClockView) -> list[int]:
    """The numbers of the offline tables of ``round`` not finished when its time is up (the
    dashboard flags them for the referees); none while time is left."""
    if view.state != ClockState.OVER:
        return []
    return list(
        Pairing.objects.filter(round=round, table__mode=Table.Mode.OFFLINE)
        .exclude(tally__status=PairingTally.Status.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
