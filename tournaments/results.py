"""Results: tallies of games' matches for the standings, and offline results entered by referees.

A pairing's tally is what its table's match means for the standings (points, levels, winner, each
seat's deals, finishing places and tributes). :func:`tallies_refresh` rebuilds the tallies whose
match changed since they were written (a deal recorded, a result corrected), in a bounded number of
queries however many tables it looks at, so standings never read deals themselves.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from games.models import Deal, Match, TableSeat
from tournaments.models import Event, Pairing, PairingTally, PlayerTally, Round

SEATS = range(6)


def _fingerprint(match: dict[str, Any] | None) -> str:
    if match is None:
        return ""
    points = ",".join(str(match[f"points_{s}"]) for s in SEATS)
    return (
        f"{match['id']}:{match['status']}:{match['current_deal']}:{points}:"
        f"{match['level_a']}:{match['level_b']}:{match['winner_side']}"
    )


def _places(finish: list[int]) -> dict[int, float]:
    """Return each seat's finishing place in a deal; the seats still holding cards share the
    places left (a statistic for the standings, not a rule)."""
    places: dict[int, float] = {seat: float(i + 1) for i, seat in enumerate(finish)}
    rest = [s for s in SEATS if s not in places]
    if rest:
        shared = (len(finish) + 1 + 6) / 2
        for seat in rest:
            places[seat] = shared
    return places


_MATCH_FIELDS = (
    "id",
    "table_id",
    "status",
    "current_deal",
    "level_a",
    "level_b",
    "winner_side",
    "end_reason",
    "points_a",
    "points_b",
    *(f"points_{s}" for s in SEATS),
)


@transaction.atomic
def tallies_refresh(*, pairings: QuerySet[Pairing] | Iterable[Pairing] | None = None) -> int:
    """Rebuild the tallies of ``pairings`` whose table's match changed; return how many changed.

    The match counted for a table is its latest one that was not aborted. Nine queries at most,
    however many pairings.
    """
    if pairings is None:
        return 0
    ids = pairings.values("pk") if isinstance(pairings, QuerySet) else [p.pk for p in pairings]
    rows = list(
        Pairing.objects.filter(pk__in=ids).values(
            "pk", "table_id", "team_a_id", "team_b_id", "round__event_id"
        )
    )
    if not rows:
        return 0
    table_ids = [r["table_id"] for r in rows]
    latest: dict[int, dict[str, Any]] = {}
    for match in (
        Match.objects.filter(table_id__in=table_ids)
        .exclude(status=Match.Status.ABORTED)
        .order_by("table_id", "id")
        .values(*_MATCH_FIELDS)
    ):
        latest[match["table_id"]] = match
    tallies = {
        t.pairing_id: t for t in PairingTally.objects.filter(pairing_id__in=[r["pk"] for r in rows])
    }
    stale = [
        r
        for r in rows
        if r["pk"] not in tallies
        or tallies[r["pk"]].fingerprint != _fingerprint(latest.get(r["table_id"]))
    ]
    if not stale:
        return 0
    match_ids = [latest[r["table_id"]]["id"] for r in stale if r["table_id"] in latest]
    deals: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for deal in (
        Deal.objects.filter(match_id__in=match_ids, status=Deal.Status.FINISHED)
        .order_by("match_id", "number")
        .values("match_id", "finishing_order", "result")
    ):
        deals[deal["match_id"]].append(deal)
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, seat, player_id in TableSeat.objects.filter(
        table_id__in=[r["table_id"] for r in stale]
    ).values_list("table_id", "seat", "player_id"):
        seats[table_id][seat] = player_id

    PlayerTally.objects.filter(tally__pairing_id__in=[r["pk"] for r in stale]).delete()
    to_create, to_update, players = [], [], []
    for r in stale:
        match = latest.get(r["table_id"])
        tally = tallies.get(r["pk"]) or PairingTally(
            pairing_id=r["pk"], event_id=r["round__event_id"]
        )
        tally.fingerprint = _fingerprint(match)
        if match is None:
            tally.match_id = None
            tally.status = PairingTally.Status.PENDING
            tally.points_a = tally.points_b = tally.deals = tally.escapes = 0
            tally.level_a = tally.level_b = 2
            tally.winner_side = ""
        else:
            tally.match_id = match["id"]
            tally.status = {
                Match.Status.FINISHED: PairingTally.Status.FINISHED,
                Match.Status.PLAYING: PairingTally.Status.PLAYING,
            }.get(match["status"], PairingTally.Status.PENDING)
            tally.points_a, tally.points_b = match["points_a"], match["points_b"]
            tally.level_a, tally.level_b = match["level_a"], match["level_b"]
            tally.winner_side = match["winner_side"] or ""
            match_deals = deals.get(match["id"], [])
            tally.deals = len(match_deals)
            tally.escapes = int(
                match["end_reason"] in (Match.EndReason.ESCAPE, Match.EndReason.LEFT)
            )
        (to_update if tally.pk else to_create).append(tally)
    PairingTally.objects.bulk_create(to_create)
    PairingTally.objects.bulk_update(
        to_update,
        [
            "fingerprint",
            "match",
            "status",
            "points_a",
            "points_b",
            "level_a",
            "level_b",
            "winner_side",
            "deals",
            "escapes",
        ],
    )
    by_pairing = {t.pairing_id: t for t in (*to_create, *to_update)}
    if any(t.pk is None for t in to_create):  # backends that do not return ids from bulk_create
        by_pairing.update(
            {t.pairing_id: t for t in PairingTally.objects.filter(pairing_id__in=by_pairing)}
        )
    for r in stale:
        match = latest.get(r["table_id"])
        if match is None:
            continue
        tally = by_pairing[r["pk"]]
        figures = {s: {"deals": 0, "places": 0.0, "paid": 0, "received": 0} for s in SEATS}
        for deal in deals.get(match["id"], []):
            result = deal["result"] or {}
            finish = deal["finishing_order"] or result.get("finish") or []
            for seat, place in _places(list(finish)).items():
                figures[seat]["deals"] += 1
                figures[seat]["places"] += place
            for seat in result.get("payers") or []:
                figures[seat]["paid"] += 1
            for seat in result.get("receivers") or []:
                figures[seat]["received"] += 1
        for seat in SEATS:
            if seat not in seats[r["table_id"]]:
                continue
            players.append(
                PlayerTally(
                    tally=tally,
                    event_id=r["round__event_id"],
                    team_id=r["team_a_id"] if seat % 2 == 0 else r["team_b_id"],
                    player_id=seats[r["table_id"]][seat],
                    seat=seat,
                    points=match[f"points_{seat}"],
                    deals=figures[seat]["deals"],
                    places=figures[seat]["places"],
                    tributes_paid=figures[seat]["paid"],
                    tributes_received=figures[seat]["received"],
                )
            )
    PlayerTally.objects.bulk_create(players)
    return len(stale)


def event_tallies_refresh(*, event: Event, open_rounds_only: bool = True) -> int:
    """Refresh the tallies of the event's rounds that are running (or of every round)."""
    pairings = Pairing.objects.filter(round__event=event)
    if open_rounds_only:
        pairings = pairings.filter(round__status=Round.Status.RUNNING)
    return tallies_refresh(pairings=pairings)
