"""Duplicate events (复式): every table of a round plays the same deals, and each deal counts
against the other tables that held the same cards.

* Dealing. A duplicate round draws one seed (``Round.deal_seed``, recorded when the round starts,
  or earlier when its deal sheets are printed) and every table's match is started from it; each
  game deals deal k from a seed drawn from the match's seed, and a seat's cards depend on that
  alone, so seat s of every table holds the same cards in deal k (engine.duplicate).
* Publication. Deal k of a duplicate round is *published* once every table of the round has
  finished deal k or ended its match (a table that has not begun has finished nothing). Until
  then no surface shows deal k's cards or its result to anyone but the round's organizers: the
  tables of a running duplicate round are watched by their own players and the organizers only
  (:func:`table_rule`), a deal's record asks :func:`deal_rule`, and the tallies every standings,
  round and team page reads count a duplicate round's deals only once published
  (:func:`tally_matches_publish`), so no running total moves when table 1 finishes deal k.
* Scoring. For each published deal and each seat (individual games) or side (大怪路子's teams),
  a table's result counts as its points against the datum (minus the other tables' average), or
  as matchpoints, as the event chooses (tournaments.duplicate.scoring); the standings rank by it,
  the raw points beside it.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from engine.cards import Card, Rank, Suit
from engine.duplicate import DealtDeal, dealt_deals, first_dealer, plays_duplicate
from engine.registry import get_game
from games.models import Deal, FigureStep, Match, Table, TableSeat
from tournaments.duplicate.scoring import DealScore, bye_score, deal_scores
from tournaments.models import (
    DuplicateScoring,
    Event,
    Pairing,
    Round,
    RoundEntry,
)

#: A deal number above any match's: every deal of the round is published.
ALL = 10_000

__all__ = [
    "ALL",
    "DuplicateTotals",
    "deal_rule",
    "duplicate_totals",
    "deal_seed_new",
    "round_deal_seed",
    "round_deal_sheets",
    "rounds_published",
    "sheet_public",
    "table_rule",
    "tally_matches_publish",
]


# --- the option -----------------------------------------------------------------------------------


def deal_seed_new() -> int:
    """A fresh seed for a duplicate round, drawn when the round is created (or when the option is
    turned on for rounds not started yet), never when a page is read."""
    return secrets.randbits(62)


def event_deal_seed_new(event: Event) -> int | None:
    """tournaments.formats: a new round of a duplicate event draws its seed when it is created
    (its deal sheets show before it starts); None for an event that is not duplicate."""
    return deal_seed_new() if event.duplicate else None


def round_watched(round: Round) -> bool | None:
    """tournaments.formats: a running duplicate round's tables are not watched live."""
    return False if round.event.duplicate and round.status == Round.Status.RUNNING else None


def tally_round_wide(pairing: Mapping[str, Any]) -> bool | None:
    """tournaments.formats: a deal scored at a duplicate round's table may publish that deal at
    every table of the round."""
    return True if pairing["round__event__duplicate"] else None


def round_deal_seed(round: Round) -> int | None:
    """The seed every match of a duplicate round is started from (drawn and recorded the first
    time it is asked for; the caller holds the round's row lock or creates no race); None for a
    round of an event that is not duplicate."""
    if not round.event.duplicate:
        if round.deal_seed is not None:  # drawn while the option was on, turned off since
            Round.objects.filter(pk=round.pk).update(deal_seed=None)
            round.deal_seed = None
        return None
    if round.deal_seed is None:  # a round created before seeds were drawn with it
        seed = deal_seed_new()
        updated = Round.objects.filter(pk=round.pk, deal_seed__isnull=True).update(deal_seed=seed)
        if updated:
            round.deal_seed = seed
        else:
            round.deal_seed = Round.objects.values_list("deal_seed", flat=True).get(pk=round.pk)
    return int(round.deal_seed) if round.deal_seed is not None else None


# --- publication ----------------------------------------------------------------------------------


def rounds_published(round_ids: Iterable[int]) -> dict[int, int]:
    """Each round's published deals: deals 1..P are published (:data:`ALL` when every table has
    ended). Two queries whatever the number of rounds and tables."""
    ids = list(set(round_ids))
    if not ids:
        return {}
    tables: dict[int, tuple[int, str]] = {}  # table: (round, round status)
    for table_id, round_id, status in Pairing.objects.filter(round_id__in=ids).values_list(
        "table_id", "round_id", "round__status"
    ):
        tables[table_id] = (round_id, status)
    latest: dict[int, tuple[int, str]] = {}  # table: (match, status)
    for match_id, table_id, status in (
        Match.objects.filter(table__pairing__round_id__in=ids)
        .exclude(status=Match.Status.ABORTED)
        .order_by("table_id", "id")
        .values_list("id", "table_id", "status")
    ):
        latest[table_id] = (match_id, status)
    open_matches = [m for m, status in latest.values() if status != Match.Status.FINISHED]
    finished: dict[int, int] = dict(
        Deal.objects.filter(
            match_id__in=open_matches, status__in=[Deal.Status.FINISHED, Deal.Status.ABORTED]
        )
        .values("match_id")
        .annotate(last=Max("number"))
        .values_list("match_id", "last")
        .order_by()
    )
    published = dict.fromkeys(ids, ALL)
    for table_id, (round_id, round_status) in tables.items():
        match = latest.get(table_id)
        if match is None:
            if round_status == Round.Status.COMPLETED:
                continue  # completed without this table's match: it never plays
            published[round_id] = 0
            continue
        if match[1] == Match.Status.FINISHED:
            continue
        published[round_id] = min(published[round_id], finished.get(match[0], 0))
    return published


def _duplicate_round_of_table(table_id: int) -> Mapping[str, Any] | None:
    return (
        Pairing.objects.filter(table_id=table_id, round__event__duplicate=True)
        .values("round_id", "round__event_id")
        .first()
    )


def deal_rule(deal: Any) -> bool | None:
    """games.tables.access: deal k of a duplicate round stays hidden until it is published."""
    match = Match.objects.filter(pk=deal.match_id).values("table_id").first()
    if match is None:
        return None
    row = _duplicate_round_of_table(match["table_id"])
    if row is None:
        return None
    if deal.number <= rounds_published([row["round_id"]])[row["round_id"]]:
        return None
    return False


def table_rule(table_id: int, user: Any) -> bool | None:
    """games.tables.access: while a duplicate round has a table still playing, its tables are
    watched only by their own players (games lets a seated person in before any rule) and the
    event's organizers: anyone else may be a player of another table (on another device, too), who
    must not see the deals before their own table has played them."""
    row = _duplicate_round_of_table(table_id)
    if row is None:
        return None
    round_id = row["round_id"]
    if rounds_published([round_id])[round_id] >= ALL:
        return None
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if TableSeat.objects.filter(table__pairing__round_id=round_id, player__user=user).exists():
        return False  # a player of another table of the round
    return Event.objects.filter(pk=row["round__event_id"], organizers=user).exists()


def tally_matches_publish(
    rows: Sequence[Mapping[str, Any]], latest: dict[int, dict[str, Any]], full: bool = True
) -> None:
    """tournaments.formats (the tallies): replace each duplicate round's match (in ``latest``, by
    table) by what its published deals make of it: points and figures after the last published
    deal, not finished (no winner) while a deal of it is unpublished; ``published`` names the last
    deal the tally may count. ``rows`` are the pairings (``round_id``, ``round__event__duplicate``).

    Such a match's ``fingerprint`` names the match and its last published deal, which decide all
    of it (finished deals never change; a result entered again is a new match): without ``full``
    only that is filled in (is the tally stale?), without reading a deal."""
    duplicate = [r for r in rows if r.get("round__event__duplicate") and r["table_id"] in latest]
    if not duplicate:
        return
    published = rounds_published(r["round_id"] for r in duplicate)
    cut: dict[int, int] = {}  # match: last deal it may count, for matches that show less
    for r in duplicate:
        match = latest[r["table_id"]]
        limit = published[r["round_id"]]
        if limit >= ALL or (
            match["status"] == Match.Status.FINISHED and match["current_deal"] <= limit
        ):
            continue
        cut[match["id"]] = min(limit, match["current_deal"])
    if not cut:
        return
    # an offline table's sheet is entered whole: until one of its deals is published the table
    # shows as it did before the sheet (not even that the sheet is in)
    sheets = set(
        Table.objects.filter(
            pk__in=[m["table_id"] for m in latest.values() if cut.get(m["id"]) == 0],
            mode=Table.Mode.OFFLINE,
        ).values_list("pk", flat=True)
    )
    for table_id in sheets:
        del cut[latest.pop(table_id)["id"]]
    duplicate = [r for r in duplicate if r["table_id"] in latest]
    if not cut:
        return
    if not full:
        for r in duplicate:
            match = latest[r["table_id"]]
            if match["id"] in cut:
                last = cut[match["id"]]
                latest[r["table_id"]] = {**match, "fingerprint": f"{match['id']}:dup:{last}"}
        return
    points: dict[int, list[int]] = {}
    sides: dict[int, dict[str, int]] = {}
    for match_id, number, deal_points, side_points in (
        Deal.objects.filter(match_id__in=list(cut), status=Deal.Status.FINISHED)
        .values_list("match_id", "number", "points", "side_points")
        .order_by()
    ):
        if number > cut[match_id]:
            continue
        total = points.setdefault(match_id, [])
        for seat, value in enumerate(deal_points or []):
            if seat >= len(total):
                total.append(0)
            total[seat] += int(value)
        side_total = sides.setdefault(match_id, {})
        for side, value in (side_points or {}).items():
            side_total[side] = side_total.get(side, 0) + int(value)
    steps = {
        (match_id, number): figures
        for match_id, number, figures in FigureStep.objects.filter(
            match_id__in=list(cut)
        ).values_list("match_id", "deal_number", "figures")
    }
    for r in duplicate:
        match = latest[r["table_id"]]
        if match["id"] not in cut:
            continue
        last = cut[match["id"]]
        seat_count = len(match["points"] or [])
        masked = dict(match)
        total = points.get(match["id"]) or []
        masked["points"] = total + [0] * max(0, seat_count - len(total))
        masked["side_points"] = sides.get(match["id"]) or {
            k: 0 for k in (match["side_points"] or {})
        }
        masked["figures"] = steps.get((match["id"], last), steps.get((match["id"], 0), {}))
        masked["status"] = Match.Status.PLAYING
        masked["winner"] = ""
        masked["end_reason"] = ""
        masked["current_deal"] = last
        masked["published"] = last
        masked["fingerprint"] = f"{match['id']}:dup:{last}"
        latest[r["table_id"]] = masked


def deals_published(
    deals: Mapping[int, list[dict[str, Any]]], latest: Mapping[int, dict[str, Any]]
) -> None:
    """tournaments.formats (the tallies): drop from ``deals`` (by match) those after a match's
    published ones."""
    for match in latest.values():
        last = match.get("published")
        if last is not None and match["id"] in deals:
            deals[match["id"]][:] = [d for d in deals[match["id"]] if d["number"] <= last]


def sheet_public(pairing: Pairing) -> bool:
    """Whether the public may see the score sheets entered for ``pairing``'s (offline) table: in a
    duplicate round only once every deal its confirmed sheet holds is published (the sheet names
    each deal's landlord, bid, 头撂, 摊打 and winner, or its finishing order)."""
    round = Round.objects.select_related("event").get(pk=pairing.round_id)
    if not round.event.duplicate:
        return True
    published = rounds_published([round.pk])[round.pk]
    if published >= ALL:
        return True
    current = (
        Match.objects.filter(table_id=pairing.table_id)
        .exclude(status=Match.Status.ABORTED)
        .order_by("-id")
        .values_list("current_deal", flat=True)
        .first()
    )
    return current is not None and current <= published


def unpublished_cut(match_ids: Iterable[int]) -> dict[int, int]:
    """For the matches of duplicate rounds that have finished deals not yet published: the last
    deal each may show (pages that list a match's deals or ladder cut it there)."""
    rows = list(
        Match.objects.filter(
            pk__in=list(match_ids), table__pairing__round__event__duplicate=True
        ).values_list("pk", "current_deal", "table__pairing__round_id")
    )
    if not rows:
        return {}
    published = rounds_published(r for _m, _c, r in rows)
    return {m: published[r] for m, current, r in rows if current > published[r]}


# --- scoring and standings ------------------------------------------------------------------------


@dataclass
class DuplicateTotals:
    """The event's duplicate scores (of the chosen scoring) by team and by player, and how many
    published deals each counted."""

    teams: dict[int, float]
    players: dict[int, float]
    deals_counted: dict[int, int]


def _score(score: DealScore, scoring: str) -> float:
    return score.matchpoints if scoring == DuplicateScoring.MATCHPOINTS else score.datum


def duplicate_totals(*, event: Event) -> DuplicateTotals:
    """Score every published deal of the event's started rounds against the field (a handful of
    queries per event, whatever the number of tables, plus the deals' rows)."""
    scoring = event.duplicate_scoring
    rounds = list(
        Round.objects.filter(event=event)
        .exclude(status__in=[Round.Status.DRAFT, Round.Status.CONFIRMED])
        .values_list("pk", flat=True)
    )
    published = rounds_published(rounds)
    pairings = {
        table_id: (round_id, a, b)
        for table_id, round_id, a, b in Pairing.objects.filter(round_id__in=rounds).values_list(
            "table_id", "round_id", "team_a_id", "team_b_id"
        )
    }
    counted: dict[int, int] = {}
    for match_id, table_id in (
        Match.objects.filter(table__pairing__round_id__in=rounds)
        .exclude(status=Match.Status.ABORTED)
        .order_by("table_id", "id")
        .values_list("id", "table_id")
    ):
        counted[table_id] = match_id
    table_of = {m: t for t, m in counted.items()}
    fixed = get_game(event.game).fixed_sides
    # (round, deal number, seat or side): {table: points}; only the columns the game scores by
    field: dict[tuple[int, int, object], dict[int, int]] = defaultdict(dict)
    column = "side_points" if fixed else "points"
    for match_id, number, figures in (
        Deal.objects.filter(match__table__pairing__round_id__in=rounds, status=Deal.Status.FINISHED)
        .values_list("match_id", "number", column)
        .order_by()
        .iterator(chunk_size=5000)
    ):
        table = table_of.get(match_id)
        if table is None:  # an aborted match, or an earlier one of the table
            continue
        round_id = pairings[table][0]
        if number > published.get(round_id, 0):
            continue
        items = (figures or {}).items() if fixed else enumerate(figures or [])
        for key, value in items:
            field[(round_id, number, key)][table] = int(value)
    seats: dict[tuple[int, int], int] = {}
    if not fixed:
        for table_id, seat, player_id in TableSeat.objects.filter(
            table__pairing__round_id__in=rounds
        ).values_list("table_id", "seat", "player_id"):
            seats[(table_id, seat)] = player_id
    teams: dict[int, float] = defaultdict(float)
    players: dict[int, float] = defaultdict(float)
    deals_counted: dict[int, int] = defaultdict(int)
    tables_per_deal: dict[tuple[int, int], int] = defaultdict(int)
    for (round_id, number, key), results in field.items():
        tables_per_deal[(round_id, number)] = max(tables_per_deal[(round_id, number)], len(results))
        for table, score in deal_scores(results).items():
            value = _score(score, scoring)
            if fixed:
                _r, a, b = pairings[table]
                team = a if key == "A" else b
                if team is not None:
                    teams[team] += value
                    deals_counted[team] += 1
            else:
                player = seats.get((table, int(str(key))))
                if player is not None:
                    players[player] += value
                    deals_counted[player] += 1
    # A bye scores the average on each published deal of its round.
    for round_id, team_id, player_id in RoundEntry.objects.filter(
        round_id__in=rounds, pairing__isnull=True
    ).values_list("round_id", "team_id", "player_id"):
        for (r, _number), tables in tables_per_deal.items():
            if r != round_id:
                continue
            value = _score(bye_score(tables), scoring)
            if team_id is not None:
                teams[team_id] += value
            elif player_id is not None:
                players[player_id] += value
    return DuplicateTotals(dict(teams), dict(players), dict(deals_counted))


# --- deal sheets (发牌单) and offline tables ------------------------------------------------------


SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


@dataclass(frozen=True)
class SheetCard:
    rank: str
    suit: str  # the symbol, "" for a joker
    red: bool
    joker: bool


@dataclass(frozen=True)
class SheetHand:
    seat: int
    side: str | None
    count: int
    jokers: list[SheetCard]
    suits: list[tuple[str, list[SheetCard]]]  # (suit symbol, cards high to low)


@dataclass(frozen=True)
class SheetDeal:
    number: int
    hands: list[SheetHand]
    aside: list[SheetCard]
    first_dealer: int | None
    spare: bool = False


RANK_LABELS = {Rank.SMALL_JOKER: "小怪", Rank.BIG_JOKER: "大怪"}


def _sheet_card(card: Card) -> SheetCard:
    if card.suit is None:
        return SheetCard(
            RANK_LABELS.get(card.rank, card.rank.token), "", card.rank == Rank.BIG_JOKER, True
        )
    return SheetCard(
        card.rank.token, card.suit.symbol, card.suit in (Suit.HEARTS, Suit.DIAMONDS), False
    )


def _sheet_hand(seat: int, side: str | None, cards: Iterable[Card]) -> SheetHand:
    cards = sorted(cards, key=lambda c: (-int(c.rank), c.code))
    jokers = [_sheet_card(c) for c in cards if c.suit is None]
    suits = [
        (suit.symbol, [_sheet_card(c) for c in cards if c.suit == suit]) for suit in SUIT_ORDER
    ]
    return SheetHand(seat, side, len(cards), jokers, [(s, cs) for s, cs in suits if cs])


def round_deal_sheets(round: Round) -> list[SheetDeal]:
    """Each deal of a duplicate round, each seat's cards grouped by suit (high to low), for the
    volunteers who deal the physical packs, from the seed drawn with the round (a read: [] for a
    round that has none, which only a round created before the option was set can lack)."""
    event = round.event
    seed = round.deal_seed
    if seed is None or not event.duplicate:
        return []
    game = get_game(event.game)
    # and the spares of a game that deals again when a deal is not played (the game says)
    count = game.duplicate_deals(event.deals_per_match)
    deals: list[DealtDeal] = dealt_deals(event.game, seed, count)
    dealer = first_dealer(event.game, seed)
    return [
        SheetDeal(
            d.number,
            [_sheet_hand(s, game.side_of(s), hand) for s, hand in enumerate(d.hands)],
            [_sheet_card(c) for c in sorted(d.aside, key=lambda c: (-int(c.rank), c.code))],
            dealer if d.number == 1 else None,
            d.number > event.deals_per_match,
        )
        for d in deals
    ]


def sheet_entered(pairing: Pairing, match: Match) -> None:
    """tournaments.formats: an offline table's sheet was entered; at a duplicate round each
    entered deal k is deal k of the round's deal sheets."""
    if pairing.round.event.duplicate:
        offline_deals_mark(pairing, match)


def offline_deals_mark(pairing: Pairing, match: Match) -> None:
    """An offline table of a duplicate round: record on each entered deal which duplicate deal it
    was (deal k of the sheet is deal k of the deal sheets, dealt from the round's seed)."""
    round = Round.objects.select_related("event").get(pk=pairing.round_id)
    seed = round_deal_seed(round)
    if seed is None or not plays_duplicate(round.event.game):
        return
    numbers = list(match.deals.values_list("number", flat=True))
    if not numbers:
        return
    seeds = {d.number: d.seed for d in dealt_deals(round.event.game, seed, max(numbers))}
    for number in numbers:
        match.deals.filter(number=number).update(seed=seeds[number])
    Match.objects.filter(pk=match.pk).update(seed=seed)
