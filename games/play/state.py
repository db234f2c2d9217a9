"""What a table shows each seat and each spectator: the state built once per committed change
(one query tells whether the rows moved: games.state_cache holds what was built), then
assembled for the viewer, whose own hand only is in it; the match's summary, history and level
ladder."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from django.utils import timezone

from engine.game import MatchState
from games.live import presence
from games.models import Deal, Match, Table
from games.play import engine_state
from games.state_cache import FIGURES, PAGE, VERSIONS, cache, version_of
from games.tables.selectors import match_seats, table_seats


def table_state(
    *, table: Table, seat: int | None = None, fresh_since: float | None = None
) -> dict[str, Any]:
    """What the table shows: seats, the match, the current deal's public view, ``seq``, the turn's
    deadline — and only when ``seat`` is given, that seat's hand and legal actions.

    Everything is JSON-safe. Nothing in it shows a hand other than ``seat``'s, nor the seeds. The
    public part is shared with other callers (it is built once per state of the table): read it,
    never change it. ``fresh_since``: as for :func:`table_state_of` (an action's answer passes
    the moment the request began: the state its own commit left serves).
    """
    row = _recent_version_row(table.pk, fresh_since)
    if row is not None and Match.table.is_cached(row.match):
        table = row.match.table  # read with the version (its status moves when the match ends)
    return _state(table, row, seat)


def table_state_of(
    *, table_id: int, seat: int | None = None, fresh_since: float | None = None
) -> dict[str, Any] | None:
    """:func:`table_state` of the table ``table_id`` (None when there is no such table); one query
    when the table has not changed since this process last built its state.

    ``fresh_since`` (a ``time.monotonic()`` moment, such as when a change was announced): the
    table's version read by another thread of this process after that moment serves too, so the
    connections at one table share one read per change.
    """
    row = _recent_version_row(table_id, fresh_since)
    if row is not None:
        return _state(row.match.table, row, seat)
    table = Table.objects.filter(pk=table_id).first()
    return None if table is None else _state(table, None, seat)


_TABLE_FIELDS = ("id", "name", "game", "seat_count", "mode", "status")


@dataclass(frozen=True, slots=True)
class DealVersion:
    """The columns of a match's current deal row that its version is made of, read in the same
    statement as the match (so consistent with it) or taken from the row just committed."""

    id: int
    seq: int
    status: str
    deadline: datetime | None

    @classmethod
    def of(cls, deal: Deal | None) -> DealVersion | None:
        return None if deal is None else cls(deal.pk, deal.seq, deal.status, deal.turn_deadline)


class VersionRow(NamedTuple):
    """A table's match (its table row cached on it) and, beside it, its current deal's version
    (None before the first deal): what :func:`_version_row` reads and the VERSIONS cache holds.
    The match row holds its model's fields only."""

    match: Match
    deal: DealVersion | None


_VERSION_SQL: str | None = None


def _version_sql() -> str:
    """The SQL of :func:`_version_row`, written once: it runs on every push, where building an
    ORM query would cost three times its execution."""
    global _VERSION_SQL
    if _VERSION_SQL is None:
        m, t, d = (model._meta.db_table for model in (Match, Table, Deal))
        columns = ", ".join(f'm."{f.column}"' for f in Match._meta.concrete_fields)
        table_columns = ", ".join(f't."{name}" AS "t_{name}"' for name in _TABLE_FIELDS)
        _VERSION_SQL = (
            f'SELECT {columns}, {table_columns}, d."id" AS "deal_id", d."seq" AS "deal_seq", '
            f'd."status" AS "deal_status", d."turn_deadline" AS "deal_deadline" '
            f'FROM "{m}" m JOIN "{t}" t ON t."id" = m."table_id" '
            f'LEFT JOIN "{d}" d ON d."match_id" = m."id" AND d."number" = m."current_deal" '
            f'WHERE m."table_id" = %s '
            f'ORDER BY CASE WHEN m."status" = %s THEN 0 ELSE 1 END, '
            f'm."created_at" DESC, m."id" DESC LIMIT 1'
        )
    return _VERSION_SQL


def _version_row(table_id: int) -> VersionRow | None:
    """The table's match being played, else its latest, with its table and its current deal's
    version: one query."""
    rows = list(Match.objects.raw(_version_sql(), [table_id, Match.Status.PLAYING]))
    if not rows:
        return None
    match = rows[0]
    # the columns outside the model that raw() put on the row are taken off it, typed
    extra = vars(match)
    values = [extra.pop(f"t_{name}") for name in _TABLE_FIELDS]
    table = Table.from_db(Match.objects.db, list(_TABLE_FIELDS), values)  # others load if read
    Match.table.field.set_cached_value(match, table)
    deal_id, seq, status = extra.pop("deal_id"), extra.pop("deal_seq"), extra.pop("deal_status")
    deadline = extra.pop("deal_deadline")
    if deal_id is None:
        return VersionRow(match, None)
    if isinstance(deadline, str):  # SQLite: text or a naive UTC time for a column outside the model
        deadline = Deal._meta.get_field("turn_deadline").to_python(deadline)
    if deadline is not None and timezone.is_naive(deadline):
        deadline = timezone.make_aware(deadline, UTC)
    return VersionRow(match, DealVersion(int(deal_id), int(seq), str(status), deadline))


def version_committed(match: Match, deal: Deal | None, at: float) -> None:
    """games.services: this process has just committed this state of ``match`` (``deal`` its
    current deal row), and held the match's lock at the moment ``at``; so the state serves as a
    version read that began at ``at``. The rows are not changed afterwards."""
    row = VersionRow(match, DealVersion.of(deal))  # the deal's version as committed
    cache.put(VERSIONS, match.table_id, at, row, unless=lambda kept: kept >= at)


def _recent_version_row(table_id: int, fresh_since: float | None) -> VersionRow | None:
    if fresh_since is not None:
        hit = cache.peek(VERSIONS, table_id)
        if hit is not None and hit[0] >= fresh_since:
            kept: VersionRow | None = hit[1]  # read after the moment asked for: every change
            return kept
    began = time.monotonic()
    row = _version_row(table_id)
    cache.put(VERSIONS, table_id, began, row, unless=lambda kept: kept >= began)
    return row


@dataclass(frozen=True, slots=True)
class _Built:
    """A table's state as built once: the public part, and the private parts by seat."""

    public: dict[str, Any]
    private: dict[int, dict[str, Any]]


_build_locks = [threading.Lock() for _ in range(64)]  # by table: one builder per table at a time


def _deal_row(row: VersionRow) -> Deal | None:
    """The current deal's row as far as its version tells (None before the first deal), for the
    engine's state and the page: the columns read with the match, so consistent with it."""
    if row.deal is None:
        return None
    return Deal(
        pk=row.deal.id,
        match_id=row.match.pk,
        number=row.match.current_deal,
        seq=row.deal.seq,
        status=row.deal.status,
        turn_deadline=row.deal.deadline,
    )


def _state(table: Table, row: VersionRow | None, seat: int | None) -> dict[str, Any]:
    if seat is not None and seat not in range(table.seat_count):
        seat = None
    if row is None:  # no match yet: seats may still change, nothing is cached
        return _assemble(_build(table, None, None, set()), seat)
    match = row.match
    deal_row = _deal_row(row)
    # every column the page shows or is rebuilt from (a match row is saved, so ``updated_at``
    # moves, whenever its points, levels or ladder change)
    version = version_of(match, deal_row, table)
    built: _Built | None = cache.get(PAGE, match.pk, version)
    if built is None or (seat is not None and seat not in built.private):
        with _build_locks[table.pk % len(_build_locks)]:
            built = cache.get(PAGE, match.pk, version)
            if built is None or (seat is not None and seat not in built.private):
                seats = _people_seats(match) | ({seat} if seat is not None else set())
                built = _build(table, match, deal_row, seats)
                cache.put(PAGE, match.pk, version, built)
    return _assemble(built, seat)


def _assemble(built: _Built, seat: int | None) -> dict[str, Any]:
    """The shared public part with ``seat``'s private part (a fresh top level, so nothing shared
    is changed)."""
    state = dict(built.public)
    _add_presence(state)
    if seat is None:
        return state
    private = built.private.get(seat)
    if private is None:  # no deal yet
        state["you"] = {"seat": seat, "hand": "", "legal": []}
        return state
    deal = state["deal"] or {}
    # what the seat alone sees of the deal's own keys (大怪路子's tributes, 斗地主's kitty for the
    # landlord) replaces the public value; the rest (hand, legal, ...) is the seat's own
    state["deal"] = {**deal, **{k: v for k, v in private.items() if k in deal}}
    you = {k: v for k, v in private.items() if k not in deal}
    legal = private.get("legal", [])
    state["you"] = {**you, "seat": seat, "hand": private.get("hand", ""), "legal": legal}
    return state


def _add_presence(state: dict[str, Any]) -> None:
    """Mark each person's seat ``online`` (a page of theirs is open at the table; else away, 离线)
    and ``auto`` (托管: the system played their last turn, while the match goes on); bots get
    None and False. Presence is no part of the table's version: it is read on every call.
    (``system_play``: the game's count of system plays per seat, see :func:`_build`.)"""
    seats = state["seats"]
    people = [s["seat"] for s in seats if not s["is_bot"]]
    online = presence.seats_online(state["table"]["id"], people)
    match = state["match"]
    playing = match is not None and match["status"] == Match.Status.PLAYING
    system = state.get("system_play") or [{}] * len(seats)
    state["seats"] = [
        {
            **s,
            "online": None if s["is_bot"] else online.get(s["seat"], False),
            "auto": playing and not s["is_bot"] and bool(system[s["seat"]].get("last")),
        }
        for s in seats
    ]


def _build(
    table: Table, match: Match | None, deal_row: Deal | None, seats_wanted: set[int]
) -> _Built:
    """Build the table's state from its rows (``deal_row``: the match's current deal's version)
    and the match's engine state."""
    seats = _seat_rows(table, match)
    game = engine_state.game_of(match if match is not None else table)
    state: dict[str, Any] = {
        "table": {"id": table.pk, "name": table.name, "mode": table.mode, "status": table.status},
        "seats": [
            {"seat": s, "side": game.side_of(s), "player": name, "is_bot": bot, "cards": None}
            for s, name, bot, _user in seats
        ],
        "match": None,
        "deal": None,
        "seq": 0,
        "deal_number": 0,
        "deadline": None,
        # per seat, the system's plays (托管) in the deal against the rules' limit (an escape),
        # as the game counts them: {used, limit, left, in_a_row, last, reached}
        "system_play": [],
        # the deal's place among the deals that count toward the match (荒番 redeals do not)
        "deal_ordinal": 0,
        "you": None,
    }
    private: dict[int, dict[str, Any]] = {}
    if match is None:
        return _Built(state, private)
    engine: MatchState | None = None
    if table.mode == Table.Mode.ONLINE:
        engine = engine_state.engine_match(match, deal_row)
    try:
        state["match"] = _match_summary(match, engine)
        if deal_row is not None:
            state["seq"] = deal_row.seq
            state["deal_number"] = deal_row.number
            if deal_row.turn_deadline is not None:
                state["deadline"] = deal_row.turn_deadline.isoformat()
        # the deal being played; between deals (or at the end) the last deal's final view
        number = engine.deals_started if engine is not None else 0
        if engine is not None and number:
            state["deal"] = engine.deal_view(number)
            state["system_play"] = [p.to_json() for p in engine.system_plays(number)]
            state["deal_ordinal"] = engine.deal_ordinal(number)
            for entry in state["seats"]:
                entry["cards"] = engine.hand_size(number, entry["seat"])
            for seat in sorted(seats_wanted):
                private[seat] = _private_part(state["deal"], engine.deal_view(number, seat))
    finally:
        if engine is not None:
            engine_state.remember(match, deal_row, engine)
    return _Built(state, private)


def _private_part(public: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """What a seat's private view of the deal adds to (or changes in) the public view, whatever
    the game: 大怪路子's hand, legal plays and the tributes the seat gave or received; 小路子's
    hand and legal answers; 斗地主's hand, legal bids and plays, and the kitty for the landlord.
    Only the differences are kept (the public part is shared)."""
    return {k: v for k, v in view.items() if k not in public or public[k] != v}


_SeatRow = tuple[int, str, bool, bool]  # seat, player's name, is a bot, has a user


def _seat_rows(table: Table, match: Match | None) -> list[_SeatRow]:
    """The table's seats (the match's, when there is one)."""
    seats = table_seats(table=table) if match is None else match_seats(match)
    return [(s.seat, s.player.name, s.player.is_bot, s.player.user_id is not None) for s in seats]


def _people_seats(match: Match) -> set[int]:
    """The seats held by people (with a user): their private views are built with the state."""
    return {s.seat for s in match_seats(match) if s.player.user_id is not None}


def _match_summary(match: Match, engine: MatchState | None) -> dict[str, Any]:
    game = engine_state.game_of(match)
    specs = {spec.key: spec for spec in game.figure_specs}

    def labelled(figures: dict[str, Any]) -> dict[str, dict[str, str]]:
        return {
            key: {
                holder: specs[key].label(v) if key in specs else str(v) for holder, v in by.items()
            }
            for key, by in figures.items()
        }

    steps = _ladder(match)
    # the figure a side holds (大怪路子: its level), drawn as the match's ladder
    side = next((spec.key for spec in game.figure_specs if spec.holder == "side"), "")
    levels = labelled(match.figures or {}).get(side, {})
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "deals_per_match": match.deals_per_match,
        "base_score": match.base_score,
        "deal_number": match.current_deal,
        "levels": levels,
        "figures": labelled(match.figures or {}),
        "ladder": [
            {"deal": n, **labelled(figures).get(side, {})}
            for n, figures in steps
            if side in figures
        ],
        "points": list(match.points),
        "team_points": dict(match.side_points),
        "end_reason": match.end_reason or None,
        "winner": match.winner or None,
        "results": [] if engine is None else engine.results(),
        "history": [] if engine is None else _history(engine),
        "turn_seconds": match.turn_seconds,
    }


def _history(engine: MatchState) -> list[dict[str, Any]]:
    """The match's ended deals, in order: the deal's number, its place as people count deals,
    its result and its points per seat."""
    rows = []
    for number in range(1, engine.deals_started + 1):
        info = engine.deal_info(number)
        if info.over and info.result is not None:
            rows.append(
                {
                    "number": number,
                    "ordinal": engine.deal_ordinal(number),
                    "result": info.result,
                    "points": list(info.points or ()),
                }
            )
    return rows


def _ladder(match: Match) -> list[tuple[int, dict[str, Any]]]:
    """The match's figures after each deal (deal number, figures); read again only when the match
    row was saved (a step is written with the match)."""
    version = version_of(match, None)  # the ladder depends on the match row's saves
    steps: list[tuple[int, dict[str, Any]]] | None = cache.get(FIGURES, match.pk, version)
    if steps is None:
        steps = list(
            match.figure_steps.order_by("deal_number").values_list("deal_number", "figures")
        )
        cache.put(FIGURES, match.pk, version, steps)
    return steps
