"""A table that scores itself: an offline table's seated players enter each deal on their phones
as it ends, and a player of another side (大怪路子: the other team; a game whose seats play for
themselves: another seat) confirms it or disputes it, which calls a referee. The event's
organizers and referees keep every power: they enter, correct and confirm any deal.

Each entry carries the phone's own id (a UUID): a resend after a lost connection returns the
version already recorded. When the last deal is confirmed (the engine says the match is over),
the match is recorded through :func:`tournaments.results.services.result_record_confirmed`, and
the standings follow as they do for a referee's result. No game is named here."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from engine.game import Game
from engine.registry import get_game
from games.models import Table
from games.offline.services import offline_match_score
from tournaments.events.organizers import event_is_organizer, event_is_referee
from tournaments.formats import table_deals
from tournaments.models import Pairing, ResultSubmission, Round, SheetDeal
from tournaments.results import services as results_services
from tournaments.results import sheet_entry
from tournaments.results.preview import (
    PreviewDeal,
    ResultPreview,
    SeatsDeal,
    SeatsPreview,
    preview_of,
)
from tournaments.results.sheet_form import form_rows

__all__ = [
    "SheetAccess",
    "TableProgress",
    "deal_confirm",
    "deal_dispute",
    "deal_enter",
    "deal_preview",
    "sheet_access",
    "sheet_pairing",
    "tables_progress",
]

Status = SheetDeal.Status


@dataclass(frozen=True)
class SheetAccess:
    """Who is at a table's score page: the event's staff (organizers, referees), or the user
    seated there (their seats, from 0)."""

    pairing: Pairing
    user: Any
    staff: bool
    seats: tuple[int, ...]

    @property
    def game(self) -> Game:
        return get_game(self.pairing.table.game)


def sheet_pairing(table_id: int) -> Pairing | None:
    """The round's table of an offline games table, or None (no such table, or not an event's
    offline table)."""
    return (
        Pairing.objects.select_related("round__event", "table", "team_a", "team_b")
        .filter(table_id=table_id, table__mode=Table.Mode.OFFLINE)
        .first()
    )


def sheet_access(pairing: Pairing, user: Any) -> SheetAccess:
    """Who ``user`` is at the table; raises NotAllowedError for anyone not seated there and not
    the event's organizer or referee."""
    if user is None or not user.is_authenticated:
        raise NotAllowedError(_("Log in with your code to score your table."))
    event = pairing.round.event
    staff = event_is_organizer(event=event, user=user) or event_is_referee(event=event, user=user)
    seats = tuple(
        pairing.table.seats.filter(player__user=user)
        .order_by("seat")
        .values_list("seat", flat=True)
    )
    if not staff and (not seats or pairing.round.status == Round.Status.DRAFT):
        raise NotAllowedError(_("Only the players seated at this table score it."))
    return SheetAccess(pairing, user, staff, seats)


def _sides(access_game: Game, pairing: Pairing, seats: Iterable[int]) -> set[str]:
    """The sides the seats play for: the teams of a team game, else each seat for itself."""
    if pairing.team_a_id is not None and access_game.fixed_sides and len(access_game.sides) == 2:
        return {access_game.side_of(s) or "" for s in seats}
    return {str(s) for s in seats}


def _user_seats(pairing: Pairing, user_id: int) -> list[int]:
    return list(pairing.table.seats.filter(player__user_id=user_id).values_list("seat", flat=True))


def current_deals(pairing: Pairing) -> list[SheetDeal]:
    """Each deal's current version (the one not superseded), by number."""
    return list(
        pairing.sheet_deals.exclude(status=Status.SUPERSEDED)
        .select_related("entered_by", "reviewed_by")
        .order_by("number")
    )


def _sheet_of(rows: Sequence[SheetDeal]) -> tuple[int | None, list[dict[str, Any]]]:
    first = rows[0].first_dealer if rows and rows[0].number == 1 else None
    return first, [dict(r.deal) for r in rows]


def _score(pairing: Pairing, first_dealer: int | None, deals: list[dict[str, Any]]) -> Any:
    """The engine's scoring of the sheet so far (writes nothing); raises ApplicationError."""
    game = get_game(pairing.table.game)
    spec = sheet_entry.spec_of(game)
    if spec.typed == "lines":
        checked = sheet_entry.finish_deals(deals, game.seat_count)
    else:
        checked = sheet_entry.sheet_deals_check(deals)
    sheet: dict[str, Any] = {"deals": checked}
    if first_dealer is not None:
        sheet["first_dealer"] = first_dealer
    event = pairing.round.event
    return offline_match_score(
        table=pairing.table,
        sheet=sheet,
        base_score=event.base_score,
        deals_per_match=table_deals(pairing.pk, event.deals_per_match),
        rule_options=event.rule_options or None,
    )


def sheet_preview(
    pairing: Pairing, rows: Sequence[SheetDeal]
) -> ResultPreview | SeatsPreview | None:
    """The preview (in the game's words, with names) of the deals so far, or None when the
    engine refuses them (a correction that later deals no longer fit)."""
    if not rows:
        return None
    first, deals = _sheet_of(rows)
    try:
        scored = _score(pairing, first, deals)
    except ApplicationError:
        return None
    return preview_of(pairing, scored.match, scored.deals)


def _locked(pairing: Pairing) -> Pairing:
    return (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("round__event", "table", "team_a", "team_b")
        .get(pk=pairing.pk)
    )


def _recorded(pairing: Pairing) -> bool:
    return pairing.results.filter(status=ResultSubmission.Status.CONFIRMED).exists()


def _open(access: SheetAccess, pairing: Pairing) -> None:
    allowed = (
        (Round.Status.RUNNING, Round.Status.COMPLETED) if access.staff else (Round.Status.RUNNING,)
    )
    if pairing.round.status not in allowed:
        raise ConflictError(
            _("Round %(round)d is not being played: nothing is entered now.")
            % {"round": pairing.round.number}
        )
    if not access.staff and _recorded(pairing):
        raise ConflictError(_("The match is recorded: a referee corrects it if it is wrong."))


def _entered_words(pairing: Pairing, row: SheetDeal) -> str:
    """What an earlier version of a deal says, for the second phone that entered it too."""
    preview = sheet_preview(pairing, current_deals(pairing)[: row.number])
    deal = next((d for d in preview.deals if d.number == row.number), None) if preview else None
    return deal.what if deal is not None else ""


def _client_id(value: Any) -> uuid.UUID | None:
    if value in (None, ""):
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise ApplicationError(_("The entry's id is no UUID.")) from None


def _checked(
    pairing: Pairing,
    rows: Sequence[SheetDeal],
    number: int,
    deal: Any,
    first_dealer: int | None,
    *,
    replacing: bool,
) -> ResultPreview | SeatsPreview:
    """The preview of deal ``number`` after the deals before it, the engine having checked it;
    raises ApplicationError with the engine's reason."""
    if not isinstance(deal, dict) or not deal:
        raise ApplicationError(_("Pick what happened in the deal."))
    game = get_game(pairing.table.game)
    spec = sheet_entry.spec_of(game)
    if number == 1:
        if first_dealer is None and spec.first_dealer_required:
            raise ApplicationError(_("Pick who dealt first."))
        if first_dealer is not None and not 0 <= first_dealer < game.seat_count:
            raise ApplicationError(_("Pick who dealt first."))
    before = rows[: number - 1]
    earlier = sheet_preview(pairing, before)
    if earlier is not None and earlier.finished and not replacing:
        raise ApplicationError(_("The match ended with deal %(deal)d.") % {"deal": len(before)})
    first = first_dealer if number == 1 else _sheet_of(before)[0]
    scored = _score(pairing, first, [*_sheet_of(before)[1], deal])  # the engine checks it
    return preview_of(pairing, scored.match, scored.deals)


def deal_preview(
    *, access: SheetAccess, number: int, deal: Any, first_dealer: int | None = None
) -> dict[str, Any]:
    """What entering deal ``number`` would record, in the game's words and points, changing
    nothing; raises ApplicationError as :func:`deal_enter` does."""
    pairing = access.pairing
    rows = current_deals(pairing)
    if not 1 <= number <= len(rows) + 1:
        raise ApplicationError(_("Enter deal %(next)d next.") % {"next": len(rows) + 1})
    preview = _checked(
        pairing, rows, number, deal, first_dealer if number == 1 else None, replacing=True
    )
    empty: dict[str, Any] = {"what": "", "finish": [], "points": [], "scored": []}
    return _preview_deals(preview).get(number, empty) | {
        "number": number,
        "finished": preview.finished,
    }


@transaction.atomic
def deal_enter(
    *,
    access: SheetAccess,
    number: int,
    deal: dict[str, Any],
    first_dealer: int | None = None,
    client_id: Any = None,
) -> tuple[SheetDeal, bool]:
    """Enter deal ``number`` of the table (a version waiting for another side); returns it and
    whether it is new: an entry whose ``client_id`` was already recorded returns that version,
    changing nothing. The engine checks the deal after the deals before it. A deal already
    entered by someone else is a ConflictError saying what they entered (staff correct it: their
    version replaces it, as a player's does a disputed one)."""
    client = _client_id(client_id)
    pairing = _locked(access.pairing)  # two phones at once: the second waits, then sees the first
    if client is not None:
        known = SheetDeal.objects.filter(client_id=client).first()
        if known is not None:
            if known.pairing_id != pairing.pk or known.number != number:
                raise ConflictError(_("This entry's id was already used for another deal."))
            return known, False
    _open(access, pairing)
    if not isinstance(deal, dict) or not deal:
        raise ApplicationError(_("Pick what happened in the deal."))
    game = get_game(pairing.table.game)
    spec = sheet_entry.spec_of(game)
    rows = current_deals(pairing)
    limit = form_rows(spec, table_deals(pairing.pk, pairing.round.event.deals_per_match))
    if not 1 <= number <= min(len(rows) + 1, limit):
        raise ApplicationError(_("Enter deal %(next)d next.") % {"next": min(len(rows) + 1, limit)})
    existing = rows[number - 1] if number <= len(rows) else None
    if existing is not None and not access.staff and existing.status != Status.DISPUTED:
        who = _person(pairing, existing.entered_by)
        raise ConflictError(
            _("Deal %(deal)d was already entered by %(who)s: %(what)s")
            % {"deal": number, "who": who, "what": _entered_words(pairing, existing) or "–"},
            extra={"entered": deal_json(pairing, existing)},
        )
    if number != 1:
        first_dealer = None
    _checked(pairing, rows, number, deal, first_dealer, replacing=existing is not None)
    if existing is not None:
        existing.status = Status.SUPERSEDED
        existing.save(update_fields=["status"])
    last = pairing.sheet_deals.filter(number=number).order_by("-version").first()
    row = SheetDeal.objects.create(
        pairing=pairing,
        number=number,
        version=(last.version if last else 0) + 1,
        first_dealer=first_dealer,
        deal=deal,
        client_id=client,
        entered_by=access.user,
    )
    return row, True


def _current(pairing: Pairing, number: int) -> SheetDeal:
    row = (
        pairing.sheet_deals.select_for_update()
        .exclude(status=Status.SUPERSEDED)
        .filter(number=number)
        .first()
    )
    if row is None:
        raise ApplicationError(_("Deal %(deal)d is not entered yet.") % {"deal": number})
    return row


def _may_review(access: SheetAccess, pairing: Pairing, row: SheetDeal) -> None:
    if row.entered_by_id == access.user.pk:
        raise NotAllowedError(
            _("Another player must confirm deal %(deal)d: you entered it yourself.")
            % {"deal": row.number}
        )
    if access.staff:
        return
    game = get_game(pairing.table.game)
    theirs = _sides(game, pairing, _user_seats(pairing, row.entered_by_id))
    if theirs & _sides(game, pairing, access.seats):
        raise NotAllowedError(
            _("A player of another side confirms deal %(deal)d.") % {"deal": row.number}
        )


@transaction.atomic
def deal_confirm(*, access: SheetAccess, number: int) -> SheetDeal:
    """Confirm deal ``number`` (a player of another side than whoever entered it, or the staff,
    who also settle a disputed deal). When every deal is confirmed and the engine says the match
    is over, the match is recorded and the standings follow."""
    pairing = _locked(access.pairing)
    _open(access, pairing)
    row = _current(pairing, number)
    if row.status == Status.CONFIRMED:
        return row  # a resend: confirmed already
    if row.status == Status.DISPUTED and not access.staff:
        raise ConflictError(
            _("Deal %(deal)d is disputed: a referee settles it.") % {"deal": number}
        )
    _may_review(access, pairing, row)
    row.status = Status.CONFIRMED
    row.reviewed_by = access.user
    row.reviewed_at = timezone.now()
    row.save(update_fields=["status", "reviewed_by", "reviewed_at"])
    _record_if_done(pairing, row)
    return row


@transaction.atomic
def deal_dispute(*, access: SheetAccess, number: int, reason: str = "") -> SheetDeal:
    """Dispute deal ``number``: the table is flagged on the dashboard for a referee, who enters
    the deal again or confirms it."""
    pairing = _locked(access.pairing)
    _open(access, pairing)
    row = _current(pairing, number)
    if row.status == Status.DISPUTED:
        return row
    if row.status != Status.PENDING:
        raise ConflictError(
            _("Deal %(deal)d is confirmed: a referee corrects it.") % {"deal": number}
        )
    _may_review(access, pairing, row)
    row.status = Status.DISPUTED
    row.reviewed_by = access.user
    row.reviewed_at = timezone.now()
    row.note = (reason or "").strip()[:500]
    row.save(update_fields=["status", "reviewed_by", "reviewed_at", "note"])
    return row


def _record_if_done(pairing: Pairing, last: SheetDeal) -> None:
    rows = current_deals(pairing)
    if not rows or any(r.status != Status.CONFIRMED for r in rows):
        return
    first, deals = _sheet_of(rows)
    if not _score(pairing, first, deals).match.end_reason:
        return  # the match goes on
    assert last.reviewed_by is not None
    results_services.result_record_confirmed(
        pairing=pairing,
        first_dealer=first,
        deals=deals,
        entered_by=last.entered_by,
        confirmed_by=last.reviewed_by,
    )


# --- What the page, the API and the dashboard show -------------------------------------------


def _person(pairing: Pairing, user: Any) -> str:
    if user is None:
        return ""
    seat = pairing.table.seats.filter(player__user=user).select_related("player").first()
    return seat.player.name if seat is not None else user.get_username()


def deal_json(pairing: Pairing, row: SheetDeal) -> dict[str, Any]:
    return {
        "number": row.number,
        "version": row.version,
        "status": row.status,
        "status_text": row.get_status_display(),
        "deal": row.deal,
        "first_dealer": row.first_dealer,
        "client_id": str(row.client_id) if row.client_id else None,
        "entered_by": _person(pairing, row.entered_by),
        "entered_at": row.entered_at.isoformat() if row.entered_at else None,
        "reviewed_by": _person(pairing, row.reviewed_by),
        "reviewed_at": row.reviewed_at.isoformat() if row.reviewed_at else None,
        "note": row.note,
    }


def _preview_deals(preview: ResultPreview | SeatsPreview | None) -> dict[int, dict[str, Any]]:
    """Each deal of a preview as the page shows it: the game's words, who went out in which
    order, and the points with the names of who scored them (teams, or players)."""
    out: dict[int, dict[str, Any]] = {}
    if preview is None:
        return out
    for deal in preview.deals:
        if isinstance(preview, SeatsPreview):
            assert isinstance(deal, SeatsDeal)
            points = list(deal.points)
            scored = [(s.name, deal.points[s.seat]) for s in preview.seats if s.seat < len(points)]
        else:
            assert isinstance(deal, PreviewDeal)
            points = [deal.points_a, deal.points_b]
            scored = [(preview.team_a, deal.points_a), (preview.team_b, deal.points_b)]
        out[deal.number] = {
            "what": deal.what,
            "finish": [s.name for s in deal.finish],
            "points": points,
            "scored": [f"{name} {value:+d}" for name, value in scored],
        }
    return out


def sheet_state(access: SheetAccess) -> dict[str, Any]:
    """The table's sheet as its page and its API show it: the players, each deal's current
    version in words with who entered and who confirmed it, what the viewer may do next, the
    history of every version, and whether the match is recorded."""
    pairing = access.pairing
    game = access.game
    spec = sheet_entry.spec_of(game)
    rows = current_deals(pairing)
    preview = sheet_preview(pairing, rows)
    words = _preview_deals(preview)
    players = [
        {
            "seat": s.seat,
            "number": s.seat + 1,
            "name": s.player.name,
            "side": sorted(_sides(game, pairing, [s.seat]))[0],
            "mine": s.seat in access.seats,
        }
        for s in pairing.table.seats.select_related("player").order_by("seat")
    ]
    mine = _sides(game, pairing, access.seats)
    deals = []
    for row in rows:
        item = deal_json(pairing, row) | words.get(
            row.number, {"what": "", "finish": [], "points": [], "scored": []}
        )
        theirs = _sides(game, pairing, _user_seats(pairing, row.entered_by_id))
        may_review = row.entered_by_id != access.user.pk and (access.staff or not theirs & mine)
        item["can_confirm"] = may_review and (
            row.status == Status.PENDING or (row.status == Status.DISPUTED and access.staff)
        )
        item["can_dispute"] = may_review and row.status == Status.PENDING
        deals.append(item)
    expected = table_deals(pairing.pk, pairing.round.event.deals_per_match)
    finished = bool(preview is not None and preview.finished)
    history = [
        deal_json(pairing, r)
        for r in pairing.sheet_deals.select_related("entered_by", "reviewed_by").order_by(
            "number", "version"
        )
    ]
    recorded = _recorded(pairing)
    return {
        "table": pairing.table_id,
        "number": pairing.number,
        "round": pairing.round.number,
        "round_status": pairing.round.status,
        "event": pairing.round.event.name,
        "game": pairing.table.game,
        "staff": access.staff,
        "players": players,
        "deals": deals,
        "history": history,
        "expected": expected,
        "limit": form_rows(spec, expected),
        "next": None if finished or recorded else len(rows) + 1,
        "first_dealer_needed": not rows,
        "first_dealer_required": spec.first_dealer_required,
        "finished": finished,
        "recorded": recorded,
        "disputed": any(r.status == Status.DISPUTED for r in rows),
    }


@dataclass(frozen=True)
class TableProgress:
    """A table's score sheet on the dashboard: deals entered, confirmed, disputed."""

    entered: int
    confirmed: int
    disputed: bool
    expected: int


def tables_progress(pairings: Sequence[Pairing]) -> dict[int, TableProgress]:
    """Each offline table's progress of its players' sheet (tables nobody scored yet left out)."""
    found: dict[int, list[str]] = {}
    for pairing_id, status in (
        SheetDeal.objects.filter(pairing__in=[p.pk for p in pairings])
        .exclude(status=Status.SUPERSEDED)
        .values_list("pairing_id", "status")
    ):
        found.setdefault(pairing_id, []).append(status)
    deals = dict(
        Pairing.objects.filter(pk__in=found).values_list("pk", "round__event__deals_per_match")
    )
    out = {}
    for p in pairings:
        statuses = found.get(p.pk)
        if not statuses:
            continue
        out[p.pk] = TableProgress(
            entered=len(statuses),
            confirmed=statuses.count(Status.CONFIRMED),
            disputed=Status.DISPUTED in statuses,
            expected=table_deals(p.pk, deals[p.pk]),
        )
    return out
