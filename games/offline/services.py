"""Offline tables: a match played with real cards, its deals entered from the score sheet. The
engine scores the sheet (games never computes a rule itself); a preview is the pure scored
sheet, and recording writes the match and its deals as the engine scored them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from engine.errors import EngineError
from games.live import events
from games.models import Deal, FigureStep, Match, Table
from games.play import engine_state
from games.play.locking import points_set
from games.signals import match_scored
from games.tables.messages import engine_message
from games.tables.services import seat_names


@dataclass(frozen=True)
class OfflineDeal:
    """One deal of an offline table as a referee enters it (the game's ``score_sheet``)."""

    finish: tuple[int, ...] = ()
    escape: int | None = None
    leave: int | None = None


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
    points_set(match, scored.points, game)
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
        points_set(row, d.points, game)
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
