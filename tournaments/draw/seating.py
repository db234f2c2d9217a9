"""Individual events: each registered player plays for themselves at tables of the game's size
(小路子 and 上海斗地主, whose roles change per deal; any registered game without fixed sides).

A round is drawn Swiss by standing (tournaments.draw.players): no repeated tablemates while
it can be avoided, players of one unit apart where possible, seats rotated by each player's
history; a field that does not divide into tables gets byes or bots, as the event says. A table
is a Pairing without teams; each seated person has a RoundEntry at it, a bye a RoundEntry without
one.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from games.models import Player, Table, TableSeat
from games.tables.services import player_create, table_create
from tournaments.common.i18n import join_list
from tournaments.draw import players as algo
from tournaments.models import Event, Pairing, PairingTally, Registration, Round, RoundEntry
from tournaments.results.tallies import event_tallies_refresh
from tournaments.standings.selectors import format_swiss_order
from tournaments.standings.totals import event_player_standings

__all__ = ["individual_draw", "individual_players_ready", "individual_round_fill", "table_seat"]


def individual_players_ready(event: Event) -> list[Player]:
    """The event's registered players, who are to be paired (bots too, in a simulation), but
    not the withdrawn ones."""
    players = list(
        Player.objects.filter(registrations__event=event, registrations__withdrawn=False)
        .order_by("pk")
        .distinct()
    )
    if len(players) < 2 or (len(players) < event.table_size and not event.fill_with_bots):
        raise ApplicationError(
            _(
                "An individual event needs at least %(size)d registered players to pair a round "
                "(or tables filled with bots)."
            )
            % {"size": event.table_size}
        )
    return players


def _history(event: Event) -> tuple[dict[int, set[int]], dict[int, list[int]], dict[int, int]]:
    """Each player's earlier tablemates, seats (in round order) and byes in the event."""
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table_id, seat, player_id in (
        TableSeat.objects.filter(table__pairing__round__event=event)
        .order_by("table__pairing__round__number", "table_id", "seat")
        .values_list("table_id", "seat", "player_id")
    ):
        tables[table_id].append((seat, player_id))
    mates: dict[int, set[int]] = defaultdict(set)
    seats: dict[int, list[int]] = defaultdict(list)
    for seated in tables.values():
        for seat, player in seated:
            seats[player].append(seat)
            mates[player].update(p for _s, p in seated if p != player)
    byes: dict[int, int] = defaultdict(int)
    for player_id in RoundEntry.objects.filter(
        round__event=event, pairing__isnull=True, player__isnull=False
    ).values_list("player_id", flat=True):
        byes[player_id] += 1
    return mates, seats, byes


def individual_draw(event: Event, players: Sequence[Player], number: int) -> algo.IndividualDraw:
    """Draw round ``number``: players by standing (a fixed shuffle for the first round)."""
    mates, seats, byes = _history(event)
    units = dict(
        Registration.objects.filter(event=event)
        .exclude(player__memberships__isnull=True)
        .values_list("player_id", "player__memberships__unit_id")
    )
    if number == 1:
        ordered = list(players)
        random.Random(f"luzi:{event.pk}:{number}").shuffle(ordered)
        if event.seed_by_rating:  # each table takes one player from each band of ratings
            from ratings.seeding import players_seeded

            ordered = players_seeded(event=event, players=ordered)
    else:
        event_tallies_refresh(event=event, open_rounds_only=False)
        by_id = {p.pk: p for p in players}
        ranked = [row.player for row in event_player_standings(event=event)]
        ordered = [by_id[p] for p in ranked if p in by_id]
        ordered += [p for p in players if p.pk not in set(ranked)]
        # a format's ranking (duplicate play: by the duplicate standings)
        ordered = format_swiss_order(event, ordered)
    field = [
        algo.PairingPlayer(
            id=p.pk,
            unit=units.get(p.pk),
            tablemates=frozenset(mates[p.pk]),
            byes=byes[p.pk],
            seats=tuple(seats[p.pk]),
        )
        for p in ordered
    ]
    fill = algo.Fill.BOTS if event.fill_with_bots else algo.Fill.BYES
    try:
        return algo.individual_swiss(field, table_size=event.table_size, fill=fill)
    except algo.PairingError as error:
        raise ApplicationError(_(error.template) % error.params) from None


def table_seat(
    *, round: Round, players: Sequence[Player | None], number: int, mode: str
) -> Pairing:
    """Seat ``players`` (seat 0 first; None: a bot sits there) at a new table of ``round``."""
    event = round.event
    if len(players) != event.table_size:
        raise ApplicationError(
            _("A table of this game seats %(size)d players.") % {"size": event.table_size}
        )
    people = [p for p in players if p is not None]
    if len({p.pk for p in people}) != len(people):
        raise ApplicationError(_("A player can take only one seat at a table."))
    registered = set(
        Registration.objects.filter(event=event, player__in=people).values_list(
            "player_id", flat=True
        )
    )
    strangers = sorted(p.name for p in people if p.pk not in registered)
    if strangers:
        raise ApplicationError(
            _("Not registered in this event: %(names)s.") % {"names": join_list(strangers)}
        )
    seated = [
        p
        if p is not None
        else player_create(name=f"机器人 {round.number}-{number}-{seat + 1}", is_bot=True)
        for seat, p in enumerate(players)
    ]
    table = table_create(
        name=f"{round} · {number}", players=seated, mode=Table.Mode(mode), game=event.game
    )
    try:
        with transaction.atomic():
            pairing = Pairing.objects.create(round=round, number=number, table=table)
            RoundEntry.objects.bulk_create(
                RoundEntry(round=round, player=p, pairing=pairing) for p in people
            )
    except IntegrityError:
        raise ApplicationError(
            _("Table %(table)d is taken, or a player is already placed in round %(round)d.")
            % {"table": number, "round": round.number}
        ) from None
    PairingTally.objects.create(pairing=pairing, event_id=round.event_id)
    return pairing


def individual_round_fill(round: Round, draw: algo.IndividualDraw, mode: str) -> str:
    """Seat the draw's tables and byes in ``round``; returns the round log's detail."""
    ids = {p for t in draw.tables for p in t.players} | set(draw.byes)
    by_id = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
    for number, table in enumerate(draw.tables, start=1):
        table_seat(
            round=round,
            players=[by_id[p] if p is not None else None for p in table.seats],
            number=number,
            mode=mode,
        )
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round, player=by_id[p], pairing=None) for p in draw.byes
    )
    detail = f"{len(draw.tables)} tables"
    if draw.byes:
        detail += f", byes: {join_list([by_id[p].name for p in draw.byes])}"
    if draw.bots:
        detail += f", bots: {draw.bots}"
    if draw.repeats:
        detail += f", unavoidable repeated tablemates: {draw.repeats}"
    if draw.same_unit:
        detail += f", same-unit tablemates: {draw.same_unit}"
    return detail
