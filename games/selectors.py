"""Reads from the card room, including what a table shows each seat and each spectator."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from engine.daguai import Match as EngineMatch
from games import engine_state
from games.models import SEAT_COUNT, Match, Table, TableSeat, level_label, side_of_seat


def table_seats(*, table: Table) -> QuerySet[TableSeat]:
    """Return the table's seats in play order with their players."""
    return table.seats.select_related("player").order_by("seat")


def table_seat_of_user(*, table: Table, user: Any) -> int | None:
    """The seat ``user`` holds at ``table`` (through their player), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return (
        TableSeat.objects.filter(table=table, player__user=user)
        .values_list("seat", flat=True)
        .first()
    )


def table_match(*, table: Table) -> Match | None:
    """The table's match being played, else its latest match (None before the first)."""
    matches = Match.objects.filter(table=table)
    return (
        matches.filter(status=Match.Status.PLAYING).first()
        or matches.order_by("-created_at", "-id").first()
    )


def table_state(*, table: Table, seat: int | None = None) -> dict[str, Any]:
    """What the table shows: seats, the match, the current deal's public view, ``seq``, the turn's
    deadline — and only when ``seat`` is given, that seat's hand and legal actions.

    Everything is JSON-safe. Nothing in it shows a hand other than ``seat``'s, nor the seeds.
    """
    seats = list(table_seats(table=table))
    match = table_match(table=table)
    state: dict[str, Any] = {
        "table": {"id": table.pk, "name": table.name, "mode": table.mode, "status": table.status},
        "seats": [
            {
                "seat": s.seat,
                "side": side_of_seat(s.seat).value,
                "player": s.player.name,
                "is_bot": s.player.is_bot,
                "cards": None,
            }
            for s in seats
        ],
        "match": None,
        "deal": None,
        "seq": 0,
        "deal_number": 0,
        "deadline": None,
        "you": None,
    }
    if match is None:
        return state
    deal_row = match.deals.filter(number=match.current_deal).first() if match.current_deal else None
    engine: EngineMatch | None = None
    if table.mode == Table.Mode.ONLINE:
        engine = engine_state.engine_match(match, deal_row)
        engine_state.remember(match, deal_row, engine)
    state["match"] = _match_summary(match, engine)
    if deal_row is not None:
        state["seq"] = deal_row.seq
        state["deal_number"] = deal_row.number
        if deal_row.turn_deadline is not None:
            state["deadline"] = deal_row.turn_deadline.isoformat()
    deal = engine.deal if engine is not None else None
    if engine is not None and deal is None and engine.deals:
        deal = engine.deals[-1]  # between deals (or at the end): the last deal's final view
    if deal is not None:
        state["deal"] = deal.public_view()
        for entry in state["seats"]:
            entry["cards"] = len(deal.hand(entry["seat"]))
        if seat is not None and seat in range(SEAT_COUNT):
            private = deal.private_view(seat)
            state["deal"]["tributes"] = private["tributes"]
            state["you"] = {"seat": seat, "hand": private["hand"], "legal": private["legal"]}
    elif seat is not None:
        state["you"] = {"seat": seat, "hand": "", "legal": []}
    return state


def _match_summary(match: Match, engine: EngineMatch | None) -> dict[str, Any]:
    ladder = list(
        match.level_steps.order_by("deal_number").values_list("deal_number", "level_a", "level_b")
    )
    return {
        "id": match.pk,
        "status": match.status,
        "deals_per_match": match.deals_per_match,
        "base_score": match.base_score,
        "deal_number": match.current_deal,
        "levels": {"A": level_label(match.level_a), "B": level_label(match.level_b)},
        "ladder": [{"deal": n, "A": level_label(a), "B": level_label(b)} for n, a, b in ladder],
        "points": match.seat_points,
        "team_points": {"A": match.points_a, "B": match.points_b},
        "end_reason": match.end_reason or None,
        "winner": match.winner_side or None,
        "results": [] if engine is None else [r.to_json() for r in engine.results],
        "turn_seconds": match.turn_seconds,
    }
