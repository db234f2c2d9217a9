"""Writes of a round's life: create, confirm, start (its online tables through games' services)
and complete, each through the one state machine (tournaments.rounds.state)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import (
    User,
)
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from games.models import Table
from tournaments import formats
from tournaments.common.i18n import join_list
from tournaments.events.organizers import event_is_organizer as event_is_organizer
from tournaments.events.organizers import event_organizer_require as event_organizer_require
from tournaments.events.organizers import round_log_add as round_log_add
from tournaments.events.services import event_results_changed
from tournaments.formats import table_deals
from tournaments.models import (
    Event,
    PairingTally,
    Round,
)
from tournaments.results.tallies import tallies_refresh
from tournaments.rounds.state import round_transition, round_transition_check


@transaction.atomic
def round_create(*, event: Event) -> Round:
    """Create and return the event's next round (numbered after the last one)."""
    last = event.rounds.order_by("-number").values_list("number", flat=True).first()
    # a format may draw the round's seed now (duplicate play: its deal sheets show before it starts)
    seed = formats.round_seed_new(event)
    return Round.objects.create(event=event, number=(last or 0) + 1, deal_seed=seed)


def _round_locked(round: Round) -> Round:
    return Round.objects.select_for_update().select_related("event").get(pk=round.pk)


@transaction.atomic
def round_confirm(*, round: Round, user: User | None = None) -> Round:
    """Confirm a draft round's tables (draft → confirmed); raise ConflictError otherwise."""
    round = _round_locked(round)
    event_organizer_require(event=round.event, user=user)
    round_transition_check(round, Round.Status.CONFIRMED)
    if not round.pairings.exists():
        raise ApplicationError(_("Round %(round)d has no tables yet.") % {"round": round.number})
    round_transition(round, Round.Status.CONFIRMED, user=user)
    event_results_changed(event=round.event)  # its byes now count
    return round


@transaction.atomic
def round_start(
    *,
    round: Round,
    user: User | None = None,
    start_matches: bool = True,
    matches_start: Callable[[Round], int] | None = None,
) -> Round:
    """Start a confirmed round (confirmed → running; the event becomes running).

    With ``start_matches`` each online table without a match gets one through games' services
    (bots play themselves); offline tables wait for their referee's result. ``matches_start``
    starts them another way (the knockout stage, the demo's bots) and says how many it started;
    the round's log counts them.
    """
    round = _round_locked(round)
    event = round.event
    event_organizer_require(event=event, user=user)
    round_transition_check(round, Round.Status.RUNNING)
    if matches_start is None:
        matches_start = _online_matches_start if start_matches else _no_matches_start

    def started(round: Round) -> str:
        if event.status != Event.Status.RUNNING:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        count = matches_start(round)
        tallies_refresh(pairings=round.pairings.all())  # the tables in play show as such at once
        return f"online matches started: {count}"

    return round_transition(round, Round.Status.RUNNING, user=user, then=started)


def _no_matches_start(round: Round) -> int:
    return 0


def _online_matches_start(round: Round) -> int:
    """A match at each online table of ``round`` without one; how many began."""
    from games.play.services import match_start

    event = round.event
    online = round.pairings.filter(
        table__mode=Table.Mode.ONLINE, table__matches__isnull=True
    ).select_related("table")
    seed = formats.round_seed(round)  # a duplicate round: every table deals the same deals
    started = 0
    for pairing in online:
        match_start(
            table=pairing.table,
            base_score=event.base_score,
            deals_per_match=table_deals(pairing.pk, event.deals_per_match),
            rule_options=event.rule_options or None,
            seed=seed,
        )
        started += 1
    return started


@transaction.atomic
def round_complete(
    *, round: Round, user: User | None = None, force: bool = False, reason: str = ""
) -> Round:
    """Complete a running round once every table's match has finished (running → completed).

    Refreshes the round's tallies first. ``force`` completes it anyway (an organizer's decision,
    logged with the unfinished tables and the ``reason`` given). Raises ConflictError naming the
    unfinished tables.
    """
    round = _round_locked(round)
    event_organizer_require(event=round.event, user=user)
    round_transition_check(round, Round.Status.COMPLETED)
    tallies_refresh(pairings=round.pairings.all())
    unfinished = list(
        round.pairings.exclude(tally__status=PairingTally.Status.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unfinished and not force:
        raise ConflictError(
            _("Round %(round)d still has unfinished tables: %(tables)s.")
            % {"round": round.number, "tables": join_list(unfinished)}
        )
    detail = f"forced; unfinished tables: {unfinished}" if unfinished else ""
    if detail and reason.strip():
        detail = f"{detail}; {reason.strip()}"
    return round_transition(round, Round.Status.COMPLETED, user=user, detail=detail)
