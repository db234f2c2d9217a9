"""Results: offline results entered by referees, confirmed or rejected by a second person.

The tallies of games' matches for the standings live in :mod:`tournaments.results.tallies` (named
here too, for the callers that import them from here).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from engine.registry import get_game
from games.models import Match, Table
from games.offline.services import offline_match_record, offline_match_score
from tournaments import formats
from tournaments.events.organizers import event_result_require, round_log_add
from tournaments.formats import table_deals
from tournaments.models import (
    Pairing,
    ResultSubmission,
    Round,
    RoundLog,
)
from tournaments.results import sheet_entry
from tournaments.results.preview import ResultPreview, SeatsPreview, preview_of
from tournaments.results.sheet_entry import deals_parse
from tournaments.results.tallies import event_tallies_refresh, tallies_refresh

__all__ = [
    "deals_parse",
    "event_tallies_refresh",
    "result_confirm",
    "result_preview",
    "result_record_confirmed",
    "result_reject",
    "result_submit",
    "submission_preview",
    "tallies_refresh",
]


# --- Offline results: a referee enters, a second person confirms or rejects ---------------------


def _sheet(pairing: Pairing, first_dealer: Any, deals: Any) -> dict[str, Any]:
    """The game's score sheet of a version, as its spec has it: the first dealer (a seat, when
    the game needs one), the deals as sent (checked here as finishing orders for a game whose
    deals are; the engine checks every field). Raises ApplicationError."""
    game = get_game(pairing.table.game)
    spec = sheet_entry.spec_of(game)
    seat = isinstance(first_dealer, int) and not isinstance(first_dealer, bool)
    last = game.seat_count - 1
    if (first_dealer is None and spec.first_dealer_required) or (
        first_dealer is not None and (not seat or not 0 <= first_dealer <= last)
    ):
        raise ApplicationError(_("The first dealer is a seat from 0 to %(last)d.") % {"last": last})
    if spec.typed == "lines":
        checked = sheet_entry.finish_deals(deals, game.seat_count)
    else:
        checked = sheet_entry.sheet_deals_check(deals)
    sheet: dict[str, Any] = {"deals": checked}
    if first_dealer is not None:
        sheet["first_dealer"] = first_dealer
    return sheet


def _scored(pairing: Pairing, sheet: dict[str, Any]) -> ResultPreview | SeatsPreview:
    """Score the sheet through the engine's pure score sheet and name what it makes (writes
    nothing: previews are shown on page reads)."""
    scored = offline_match_score(**_record_args(pairing, sheet))
    return preview_of(pairing, scored.match, scored.deals)


def result_preview(
    *, pairing: Pairing, user: Any, first_dealer: int | None, deals: list[dict[str, Any]]
) -> ResultPreview | SeatsPreview:
    """What entering this sheet would record, with names, changing nothing; raises
    ApplicationError naming the first impossible deal, as :func:`result_submit` does."""
    pairing = _enterable(pairing, user)
    return _scored(pairing, _sheet(pairing, first_dealer, deals))


def submission_preview(*, submission: ResultSubmission) -> ResultPreview | SeatsPreview | None:
    """What a stored version records (the same preview its referee saw), or None when the engine
    refuses it now."""
    pairing = Pairing.objects.select_related("round__event", "table", "team_a", "team_b").get(
        pk=submission.pairing_id
    )
    try:
        return _scored(pairing, _sheet(pairing, submission.first_dealer, submission.deals))
    except ApplicationError:
        return None


def _record_args(pairing: Pairing, sheet: dict[str, Any]) -> dict[str, Any]:

    event = pairing.round.event
    return {
        "table": pairing.table,
        "sheet": sheet,
        "base_score": event.base_score,
        "deals_per_match": table_deals(pairing.pk, event.deals_per_match),
        "rule_options": event.rule_options or None,
    }


def _record(pairing: Pairing, sheet: dict[str, Any]) -> Match:
    match = offline_match_record(**_record_args(pairing, sheet))
    formats.sheet_entered(pairing, match)  # duplicate play: which of the round's deals each was
    return match


def _enterable(pairing: Pairing, user: Any, *, lock: bool = False) -> Pairing:
    """The pairing, read again, if ``user`` may enter its result now; else raises."""
    # of=self: the teams are an outer join (individual events have none), which PostgreSQL
    # cannot lock
    rows = Pairing.objects.select_for_update(of=("self",)) if lock else Pairing.objects.all()
    pairing = rows.select_related("round__event", "table", "team_a", "team_b").get(pk=pairing.pk)
    event = pairing.round.event
    event_result_require(event=event, user=user)
    if user is None or not user.is_authenticated:
        raise ApplicationError(_("A result is entered by a logged-in referee."))
    if pairing.table.mode != Table.Mode.OFFLINE:
        raise ApplicationError(
            _("Table %(table)d is played online: Luzi records it.") % {"table": pairing.number}
        )
    if pairing.round.status not in (Round.Status.RUNNING, Round.Status.COMPLETED):
        raise ConflictError(
            _("Round %(round)d has not started yet.") % {"round": pairing.round.number}
        )
    return pairing


@transaction.atomic
def result_submit(
    *, pairing: Pairing, user: Any, first_dealer: int | None, deals: list[dict[str, Any]]
) -> ResultSubmission:
    """Enter a version of an offline table's result; it waits for a second person to confirm.

    ``deals`` are the game's own (its sheet spec: finishing orders, or the fields of its score
    sheet's deals; ``first_dealer`` as the spec needs it). The engine checks it at once
    (through games' services, in a rolled-back savepoint), so an impossible deal is refused
    here with the engine's reason, naming the deal and the field. A version still waiting is
    replaced. Raises ApplicationError, NotAllowedError or ConflictError, changing nothing.
    """

    pairing = _enterable(pairing, user, lock=True)
    sheet = _sheet(pairing, first_dealer, deals)
    _scored(pairing, sheet)  # the engine checks the sheet before anything is written
    pairing.results.filter(status=ResultSubmission.Status.PENDING).update(
        status=ResultSubmission.Status.SUPERSEDED
    )
    last = pairing.results.order_by("-version").values_list("version", flat=True).first()
    submission = ResultSubmission.objects.create(
        pairing=pairing,
        version=(last or 0) + 1,
        first_dealer=sheet.get("first_dealer"),
        deals=sheet["deals"],
        submitted_by=user,
    )
    round_log_add(
        pairing.round,
        user,
        RoundLog.Action.RESULT_SUBMITTED,
        f"table {pairing.number} v{submission.version}",
    )
    return submission


def _pending(submission: ResultSubmission, user: Any) -> ResultSubmission:

    submission = (
        ResultSubmission.objects.select_for_update()
        .select_related("pairing__round__event", "pairing__table")
        .get(pk=submission.pk)
    )
    event_result_require(event=submission.pairing.round.event, user=user)
    if user is None or not user.is_authenticated:
        raise ApplicationError(_("A result is reviewed by a logged-in person."))
    if submission.status != ResultSubmission.Status.PENDING:
        raise ConflictError(
            _("Version %(version)d is %(status)s, not waiting.")
            % {"version": submission.version, "status": submission.get_status_display()}
        )
    if submission.submitted_by_id == user.pk:
        raise ApplicationError(
            _("A second person must review a result: you entered this version yourself.")
        )
    return submission


@transaction.atomic
def result_confirm(*, submission: ResultSubmission, user: Any) -> ResultSubmission:
    """Confirm a waiting version (by someone other than who entered it): games records the match
    from it, replacing any earlier confirmed version, and the standings follow."""

    submission = _pending(submission, user)
    pairing = submission.pairing
    _record(pairing, _sheet(pairing, submission.first_dealer, submission.deals))
    pairing.results.filter(status=ResultSubmission.Status.CONFIRMED).update(
        status=ResultSubmission.Status.SUPERSEDED
    )
    submission.status = ResultSubmission.Status.CONFIRMED
    submission.reviewed_by = user
    submission.reviewed_at = timezone.now()
    submission.save(update_fields=["status", "reviewed_by", "reviewed_at"])
    tallies_refresh(pairings=[pairing])
    round_log_add(
        pairing.round,
        user,
        RoundLog.Action.RESULT_CONFIRMED,
        f"table {pairing.number} v{submission.version}",
    )
    return submission


@transaction.atomic
def result_reject(*, submission: ResultSubmission, user: Any, reason: str) -> ResultSubmission:
    """Reject a waiting version with a reason, for the referee to enter it again."""

    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("Say why the result is rejected."))
    submission = _pending(submission, user)
    submission.status = ResultSubmission.Status.REJECTED
    submission.reviewed_by = user
    submission.reviewed_at = timezone.now()
    submission.note = reason[:500]
    submission.save(update_fields=["status", "reviewed_by", "reviewed_at", "note"])
    round_log_add(
        submission.pairing.round,
        user,
        RoundLog.Action.RESULT_REJECTED,
        f"table {submission.pairing.number} v{submission.version}: {reason}"[:500],
    )
    return submission


@transaction.atomic
def result_record_confirmed(
    *,
    pairing: Pairing,
    first_dealer: int | None,
    deals: list[dict[str, Any]],
    entered_by: Any,
    confirmed_by: Any,
) -> ResultSubmission:
    """Record a sheet whose every deal the table's players entered and another side confirmed
    (tournaments.results.table_sheet): a confirmed version, recorded as :func:`result_confirm`
    records one (games records the match, the standings follow). Raises ApplicationError."""
    pairing = (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("round__event", "table", "team_a", "team_b")
        .get(pk=pairing.pk)
    )
    sheet = _sheet(pairing, first_dealer, deals)
    _record(pairing, sheet)
    pairing.results.filter(
        status__in=[ResultSubmission.Status.CONFIRMED, ResultSubmission.Status.PENDING]
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    last = pairing.results.order_by("-version").values_list("version", flat=True).first()
    submission = ResultSubmission.objects.create(
        pairing=pairing,
        version=(last or 0) + 1,
        first_dealer=sheet.get("first_dealer"),
        deals=sheet["deals"],
        status=ResultSubmission.Status.CONFIRMED,
        submitted_by=entered_by,
        reviewed_by=confirmed_by,
        reviewed_at=timezone.now(),
        note=_("Entered and confirmed at the table."),
    )
    tallies_refresh(pairings=[pairing])
    round_log_add(
        pairing.round,
        confirmed_by,
        RoundLog.Action.RESULT_CONFIRMED,
        f"table {pairing.number} v{submission.version} (at the table)",
    )
    return submission
