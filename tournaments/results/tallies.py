"""Tallies: what each table's match means for the standings, kept beside the matches.

A pairing's tally is what its table's match means for the standings (points, levels, winner, each
seat's deals, finishing places and tributes). :func:`tallies_refresh` rebuilds the tallies whose
match changed since they were written (a deal recorded, a result corrected), in a dozen queries per
two thousand tables, so standings never read deals themselves. :func:`match_scored_follow` runs it
in the transaction that wrote a table's scored rows (games' ``match_scored``): the tallies follow
every result as it is written, and no page request rebuilds them (reads never write).

The tallies stand alone: they read games' rows and write tournaments' tally rows, and import no
other module of tournaments but its models and the formats' hooks (a duplicate round counts a deal
only once every table played it); results, services and the pages all use them.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F, QuerySet
from django.dispatch import Signal

from engine.registry import get_game
from games.models import Deal, Match, TableSeat
from tournaments import formats
from tournaments.common.bulk import rows_update
from tournaments.models import Event, Pairing, PairingTally, PlayerTally, PlayerTotal, Round

__all__ = [
    "CHUNK",
    "event_tallies_refresh",
    "match_scored_follow",
    "tallies_changed",
    "tallies_refresh",
]

#: Sent inside the refresh's transaction with ``pairing_ids``: the pairings whose tally is or was
#: finished and changed (a match recorded, a result corrected); the ratings listen.
tallies_changed = Signal()

#: Pairings refreshed together: keeps every ``IN (...)`` list under SQLite's variable limit.
CHUNK = 2000


def _fingerprint(match: dict[str, Any] | None) -> str:
    if match is None:
        return ""
    if "fingerprint" in match:  # a duplicate round's match, as far as its deals are published
        return str(match["fingerprint"])
    points = ",".join(str(p) for p in match["points"] or [])
    figures = json.dumps(match["figures"] or {}, sort_keys=True, separators=(",", ":"))
    return (
        f"{match['id']}:{match['status']}:{match['current_deal']}:{points}:"
        f"{figures}:{match['winner']}"
    )[:200]


def _places(finish: list[int], seats: int) -> dict[int, float]:
    """Return each seat's finishing place in a deal; the seats still holding cards share the
    places left (a statistic for the standings, not a rule)."""
    places: dict[int, float] = {seat: float(i + 1) for i, seat in enumerate(finish)}
    rest = [s for s in range(seats) if s not in places]
    if rest:
        shared = (len(finish) + 1 + seats) / 2
        for seat in rest:
            places[seat] = shared
    return places


def _level(figures: dict[str, Any] | None, game: str, side: str) -> int:
    """A side's value of the game's figure held by a side (大怪路子: its level; 2 for games
    without one), as :func:`tournaments.common.sides.side_figure` names it."""
    spec = next((f for f in get_game(game).figure_specs if f.holder == "side"), None)
    if spec is None:
        return 2
    return int(((figures or {}).get(spec.key) or {}).get(side, spec.start))


_MATCH_FIELDS = (
    "id",
    "game",
    "table_id",
    "status",
    "current_deal",
    "figures",
    "winner",
    "end_reason",
    "points",
    "side_points",
)


def _stale(
    ids: Any, *, lock: bool = False
) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]], dict[int, PairingTally]]:
    """Return the pairings whose tally is missing or out of date, each table's counted match, and
    the existing tallies (locked with ``lock``)."""
    rows: list[dict[str, Any]] = [
        dict(row)
        for row in Pairing.objects.filter(pk__in=ids).values(
            "pk",
            "table_id",
            "team_a_id",
            "team_b_id",
            "round__event_id",
            "round_id",
            "round__event__duplicate",
        )
    ]
    if not rows:
        return [], {}, {}
    latest: dict[int, dict[str, Any]] = {}
    for match in (
        Match.objects.filter(table_id__in=[r["table_id"] for r in rows])
        .exclude(status=Match.Status.ABORTED)
        .order_by("table_id", "id")
        .values(*_MATCH_FIELDS)
    ):
        latest[match["table_id"]] = match
    # a duplicate round's deals count only once every table has played them
    formats.tally_matches_publish(rows, latest, full=lock)
    tallies_qs = PairingTally.objects.filter(pairing_id__in=[r["pk"] for r in rows])
    if lock:
        tallies_qs = tallies_qs.select_for_update()
    tallies = {t.pairing_id: t for t in tallies_qs}
    stale = [
        r
        for r in rows
        if r["pk"] not in tallies
        or tallies[r["pk"]].fingerprint != _fingerprint(latest.get(r["table_id"]))
    ]
    return stale, latest, tallies


def tallies_refresh(*, pairings: QuerySet[Pairing] | Iterable[Pairing] | None = None) -> int:
    """Rebuild the tallies of ``pairings`` whose table's match changed; return how many changed.

    The match counted for a table is its latest one that was not aborted. Three reads when nothing
    changed (no transaction, so readers never wait for each other), about a dozen queries when
    something did, per chunk of ``CHUNK`` pairings (a running round fits in one).
    """
    if pairings is None:
        return 0
    ids = (
        list(pairings.values_list("pk", flat=True))
        if isinstance(pairings, QuerySet)
        else [p.pk for p in pairings]
    )
    changed = 0
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        if _stale(chunk)[0]:
            with transaction.atomic():
                changed += _tallies_rebuild(chunk)
    return changed


def _tallies_rebuild(ids: list[int]) -> int:
    stale, latest, tallies = _stale(ids, lock=True)
    if not stale:
        return 0
    match_ids = [latest[r["table_id"]]["id"] for r in stale if r["table_id"] in latest]
    deals: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in (
        Deal.objects.filter(match_id__in=match_ids, status=Deal.Status.FINISHED)
        .order_by("match_id", "number")
        .values("match_id", "number", "finishing_order", "result")
    ):
        deals[row["match_id"]].append(dict(row))
    formats.tally_deals_publish(deals, latest)
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, seat, player_id in TableSeat.objects.filter(
        table_id__in=[r["table_id"] for r in stale]
    ).values_list("table_id", "seat", "player_id"):
        seats[table_id][seat] = player_id

    old_players = PlayerTally.objects.filter(tally__pairing_id__in=[r["pk"] for r in stale])
    delta: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0, 0])
    figure_delta: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for event_id, player_id, *figures, game_figures in old_players.values_list(
        "event_id",
        "player_id",
        "points",
        "deals",
        "places",
        "tributes_paid",
        "tributes_received",
        "figures",
    ).order_by():
        d = delta[(event_id, player_id)]
        for i, value in enumerate(figures):
            d[i] -= value
        for key, value in (game_figures or {}).items():
            figure_delta[(event_id, player_id)][key] -= value
    old_players.delete()
    was_finished = {p for p, t in tallies.items() if t.status == PairingTally.Status.FINISHED}
    to_create: list[PairingTally] = []
    to_update: list[PairingTally] = []
    players: list[PlayerTally] = []
    for r in stale:
        match = latest.get(r["table_id"])
        tally = tallies.get(r["pk"]) or PairingTally(
            pairing_id=r["pk"], event_id=r["round__event_id"]
        )
        tally.fingerprint = _fingerprint(match)
        tally.team_a_id, tally.team_b_id = r["team_a_id"], r["team_b_id"]
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
            side_points = match["side_points"] or {}
            tally.points_a, tally.points_b = side_points.get("A", 0), side_points.get("B", 0)
            tally.level_a = _level(match["figures"], match["game"], "A")
            tally.level_b = _level(match["figures"], match["game"], "B")
            tally.winner_side = match["winner"] if match["winner"] in ("A", "B") else ""
            match_deals = deals.get(match["id"], [])
            tally.deals = len(match_deals)
            tally.escapes = int(
                match["end_reason"] in (Match.EndReason.ESCAPE, Match.EndReason.LEFT)
            )
        (to_update if tally.pk else to_create).append(tally)
    PairingTally.objects.bulk_create(to_create)
    rows_update(
        PairingTally,
        to_update,
        [
            "fingerprint",
            "team_a",
            "team_b",
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
        seat_count = len(match["points"] or []) or len(seats[r["table_id"]])
        seat_stats: dict[int, dict[str, Any]] = {
            s: {"deals": 0, "places": 0.0, "paid": 0, "received": 0} for s in range(seat_count)
        }
        for played in deals.get(match["id"], []):
            result = played["result"] or {}
            finish = played["finishing_order"] or result.get("finish") or []
            for seat, place in _places(list(finish), seat_count).items():
                seat_stats[seat]["deals"] += 1
                seat_stats[seat]["places"] += place
            for seat in result.get("payers") or []:
                seat_stats[seat]["paid"] += 1
            for seat in result.get("receivers") or []:
                seat_stats[seat]["received"] += 1
        game = get_game(match["game"])
        seat_figures = [f.key for f in game.figure_specs if f.holder == "seat"]
        for seat in range(seat_count):
            if seat not in seats[r["table_id"]]:
                continue
            side = game.side_of(seat) if r["team_a_id"] is not None else None
            players.append(
                PlayerTally(
                    tally=tally,
                    event_id=r["round__event_id"],
                    team_id={"A": r["team_a_id"], "B": r["team_b_id"]}.get(side or ""),
                    figures={
                        key: int(((match["figures"] or {}).get(key) or {}).get(str(seat), 0))
                        for key in seat_figures
                    },
                    player_id=seats[r["table_id"]][seat],
                    seat=seat,
                    points=(match["points"] or [0] * seat_count)[seat],
                    deals=seat_stats[seat]["deals"],
                    places=seat_stats[seat]["places"],
                    tributes_paid=seat_stats[seat]["paid"],
                    tributes_received=seat_stats[seat]["received"],
                )
            )
    PlayerTally.objects.bulk_create(players)
    for p in players:
        d = delta[(p.event_id, p.player_id)]
        d[0] += p.points
        d[1] += p.deals
        d[2] += p.places
        d[3] += p.tributes_paid
        d[4] += p.tributes_received
        for key, value in p.figures.items():
            figure_delta[(p.event_id, p.player_id)][key] += value
    _player_totals_add(delta, figure_delta)
    tallies_changed.send(
        sender=PairingTally,
        pairing_ids=[
            t.pairing_id
            for t in by_pairing.values()
            if t.status == PairingTally.Status.FINISHED or t.pairing_id in was_finished
        ],
    )
    Event.objects.filter(pk__in={r["round__event_id"] for r in stale}).update(
        results_version=F("results_version") + 1
    )
    return len(stale)


_TOTAL_FIELDS = ("points", "deals", "places", "tributes_paid", "tributes_received")


def _player_totals_add(
    delta: dict[tuple[int, int], list[float]], figure_delta: dict[tuple[int, int], dict[str, int]]
) -> None:
    """Add each (event, player)'s difference to its PlayerTotal row, creating missing rows."""
    changed = {
        key: delta[key]
        for key in {*delta, *figure_delta}
        if any(delta[key]) or any((figure_delta.get(key) or {}).values())
    }
    if not changed:
        return
    existing = {
        (t.event_id, t.player_id): t
        for t in PlayerTotal.objects.select_for_update().filter(
            event_id__in={e for e, _p in changed}, player_id__in={p for _e, p in changed}
        )
    }
    to_create, to_update = [], []
    for (event_id, player_id), d in changed.items():
        total = existing.get((event_id, player_id))
        if total is None:
            total = PlayerTotal(event_id=event_id, player_id=player_id)
            to_create.append(total)
        else:
            to_update.append(total)
        for field, value in zip(_TOTAL_FIELDS, d, strict=True):
            setattr(total, field, getattr(total, field) + value)
        sums = dict(total.figures or {})
        for key, value in (figure_delta.get((event_id, player_id)) or {}).items():
            sums[key] = sums.get(key, 0) + value
        total.figures = sums
    PlayerTotal.objects.bulk_create(to_create)
    rows_update(PlayerTotal, to_update, [*_TOTAL_FIELDS, "figures"])


def event_tallies_refresh(*, event: Event, open_rounds_only: bool = True) -> int:
    """Refresh the tallies of the event's rounds that are running (or of every round)."""
    pairings = Pairing.objects.filter(round__event=event)
    if open_rounds_only:
        pairings = pairings.filter(round__status=Round.Status.RUNNING)
    return tallies_refresh(pairings=pairings)


def match_scored_follow(sender: Any, *, match: Match, **kwargs: Any) -> None:
    """Games' ``match_scored``: a table's deal ended, its match ended or its sheet was entered.
    Refresh its pairing's tally, in the same transaction; at a duplicate round, every table's of
    the round (the deal the table finished may be the last one every table had to play, which
    publishes it everywhere)."""
    row = (
        Pairing.objects.filter(table_id=match.table_id)
        .values("round_id", "round__event__duplicate")
        .first()
    )
    if row is None:
        return  # a table of no tournament
    if formats.tally_round_wide(row):
        pairings = Pairing.objects.filter(round_id=row["round_id"])
    else:
        pairings = Pairing.objects.filter(table_id=match.table_id)
    tallies_refresh(pairings=pairings)
