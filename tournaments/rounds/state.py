"""A round's state machine: draft → confirmed → running → completed, and nothing else.

Every status change of a round (the dashboard, the API, the admin, the knockout stage, a new round
that completes the last) goes through :func:`round_transition`: it checks the change against
:data:`TRANSITIONS`, saves the status and writes the round's log once. The services around it
(tournaments.services' ``round_confirm``, ``round_start``, ``round_complete``) do the work of each
step; this module knows only which step may follow which.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from config.exceptions import ConflictError
from tournaments.events.organizers import round_log_add
from tournaments.models import Round, RoundAction, RoundStatus

#: (from, to) → the round log's action for it: the only status changes a round makes.
TRANSITIONS: dict[tuple[RoundStatus, RoundStatus], RoundAction] = {
    (RoundStatus.DRAFT, RoundStatus.CONFIRMED): RoundAction.CONFIRMED,
    (RoundStatus.CONFIRMED, RoundStatus.RUNNING): RoundAction.STARTED,
    (RoundStatus.RUNNING, RoundStatus.COMPLETED): RoundAction.COMPLETED,
}


def _refusal(round: Round, to: RoundStatus) -> str:
    """Why ``round`` cannot become ``to``, naming the status it needs."""
    params = {"round": round.number, "status": round.get_status_display()}
    if to == RoundStatus.CONFIRMED:
        return _("Round %(round)d is %(status)s, not a draft.") % params
    if to == RoundStatus.RUNNING:
        return _("Round %(round)d is %(status)s, not confirmed.") % params
    if to == RoundStatus.COMPLETED:
        return _("Round %(round)d is %(status)s, not running.") % params
    return _("Round %(round)d is %(status)s: it cannot go back to %(to)s.") % {
        **params,
        "to": RoundStatus(to).label,
    }


def round_transition_check(round: Round, to: RoundStatus) -> None:
    """Raise ConflictError (HTTP 409, with the reason) unless ``round`` may become ``to`` now."""
    if (RoundStatus(round.status), RoundStatus(to)) not in TRANSITIONS:
        raise ConflictError(_refusal(round, to))


def round_transition(
    round: Round,
    to: RoundStatus,
    *,
    user: User | None,
    detail: str = "",
    then: Callable[[Round], str] | None = None,
) -> Round:
    """Move ``round`` to ``to``: check the change, save the status, write the round log once.

    ``detail`` is the log entry's note; ``then`` runs after the status is saved (the matches of a
    round that starts) and returns the note instead. Raises ConflictError for a change
    :data:`TRANSITIONS` does not allow, changing nothing. Call it inside the caller's transaction,
    on a row locked for update.
    """
    round_transition_check(round, to)
    action = TRANSITIONS[(RoundStatus(round.status), RoundStatus(to))]
    round.status = to
    round.save(update_fields=["status"])
    if then is not None:
        detail = then(round)
    round_log_add(round, user, action, detail)
    return round


def round_is_draft(round: Round) -> bool:
    """Whether ``round`` is still a draft: its tables may be edited and it may be thrown away."""
    return bool(round.status == RoundStatus.DRAFT)
