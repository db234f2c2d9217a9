"""A simulated hall on the day (issue 30): an event of offline tables whose players check in on
their phones, a round drawn from those present, the round's clock started, and every table
scored deal by deal by its own seated players through the score page's services
(:mod:`tournaments.results.table_sheet`), a player of another side confirming each deal. One
table's deal is disputed and a referee settles it. At the end every match is recorded and the
standings follow.

Everything goes through the services the pages and the API call; nothing is written behind
their back. ``manage.py simulate_hall`` runs it and prints :meth:`HallSummary.lines`; the test
(tests/tournaments/events/test_hall.py) checks the outcome for each game."""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from engine.errors import EngineError
from engine.registry import DEFAULT_GAME, get_game
from games.models import Player, Table
from games.tables.messages import engine_message
from games.tables.services import player_create
from tournaments.common.sides import team_game
from tournaments.common.standings_rows import PlayerRow, TeamRow
from tournaments.draw.services import round_create_paired
from tournaments.events import entries as events_entries
from tournaments.events.checkin import check_in, check_in_rows
from tournaments.events.staff import event_organizer_add
from tournaments.formats import table_deals
from tournaments.models import (
    Event,
    EventReferee,
    Meet,
    Pairing,
    ResultSubmission,
    Round,
)
from tournaments.results import table_sheet
from tournaments.rounds.clock import clock_of, clock_start
from tournaments.rounds.services import round_start
from tournaments.standings.selectors import event_standings_rows

__all__ = ["HallSummary", "hall_simulate", "hall_standings_check"]

GAMES_DEALS: dict[str, int] = {"daguai": 3, "xiaoluzi": 4, "shanghai_doudizhu": 2}
ROUND_MINUTES = 40
TABLES_MOST = 60


def _deal(game: str, rng: random.Random) -> dict[str, Any]:
    """A deal as a phone enters it: who went out in which order, who played what."""
    if game == "daguai":
        order = list(range(6))
        rng.shuffle(order)
        end = next(  # the deal ends when a whole team (seats 0/2/4 or 1/3/5) is out
            n
            for n in range(3, 7)
            if 3 in (sum(s % 2 for s in order[:n]), n - sum(s % 2 for s in order[:n]))
        )
        return {"finish": order[:end]}
    if game == "xiaoluzi":
        finish = [0, 1, 2, 3]
        rng.shuffle(finish)
        played = [8, 8, 8, 8]
        played[finish[3]] = rng.randint(1, 7)  # the last one still holds cards
        return {"mode": "none", "finish": finish[:3], "played": played}
    winner = rng.choice(("landlord", "farmers"))
    return {"landlord": rng.randrange(4), "bid": rng.randint(1, 2), "winner": winner}


@dataclass
class HallSummary:
    """What happened in the hall."""

    event: Event
    round: Round
    present: int
    absent: int
    absent_names: list[str]
    tables: int
    deals_entered: int = 0
    deals_confirmed: int = 0
    deals_disputed: int = 0
    resends: int = 0
    disputed_table: int | None = None
    recorded: int = 0
    seconds_left: int | None = None
    clock_state: str = ""
    standings: list[tuple[int, str, int]] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        left = self.seconds_left or 0
        unit = "players" if self.event.is_individual else "teams"
        out = [
            f"event {self.event.pk} ({self.event.name}), round {self.round.number}",
            f"checked in: {self.present} {unit}; absent: {self.absent} "
            f"({', '.join(self.absent_names)})",
            f"tables drawn: {self.tables} (offline), matches recorded: {self.recorded}",
            f"deals entered: {self.deals_entered}, confirmed: {self.deals_confirmed}, "
            f"disputed: {self.deals_disputed} (table {self.disputed_table}, settled by the "
            f"referee), resent entries recorded once: {self.resends}",
            f"clock: {self.clock_state}, {left // 60}:{left % 60:02d} left of {ROUND_MINUTES} min",
            "standings (they match the recorded results: "
            f"{'yes' if not self.mismatches else '; '.join(self.mismatches)}):",
        ]
        out += [f"  {rank:>3}  {name}  {points}" for rank, name, points in self.standings]
        return out


def _accounts(tag: str) -> tuple[Any, Any]:
    users = get_user_model().objects
    organizer = users.create_user(username=f"hall-{tag}-organizer")
    referee = users.create_user(username=f"hall-{tag}-referee")
    return organizer, referee


def _player(tag: str, name: str, number: int) -> Player:
    user = get_user_model().objects.create_user(username=f"hall-{tag}-p{number}")
    return player_create(name=name, user=user)


@transaction.atomic
def _hall_event(game: str, tables: int, absent: int, tag: str) -> tuple[Event, Any, Any]:
    """The event, its staff, and its players (each with an account): enough for ``tables``
    tables, plus ``absent`` teams (players) who will not check in."""
    organizer, referee = _accounts(tag)
    meet = Meet.objects.create(name=f"模拟赛场 Hall {tag}", slug=f"hall-{tag}")
    event = Event.objects.create(
        meet=meet,
        name=f"{get_game(game).name_zh}赛场 {tag}",
        game=game,
        deals_per_match=GAMES_DEALS.get(game, get_game(game).default_options().deals_per_match),
        rule_options={},
        status=Event.Status.REGISTRATION,
        table_mode=Table.Mode.OFFLINE,
        draw_checked_in_only=True,
        round_minutes=ROUND_MINUTES,
        **({} if team_game(game) else {"pairing_format": Event.PairingFormat.SWISS}),
    )
    event_organizer_add(event=event, user=organizer)
    EventReferee.objects.create(event=event, user=referee, added_by=organizer)
    units = [events_entries.unit_get_or_create(name=f"赛场部门{u} {tag}") for u in range(1, 7)]
    number = 0
    if event.is_individual:
        players = []
        for p in range(tables * event.table_size + absent):
            number += 1
            players.append(_player(tag, f"选手{number}", number))
            events_entries.membership_ensure(player=players[-1], unit=units[p % len(units)])
        events_entries.registration_ensure(event=event, players=players)
        return event, organizer, referee
    for t in range(1, 2 * tables + absent + 1):
        members = []
        for _m in range(event.team_size):
            number += 1
            members.append(_player(tag, f"队员{number}", number))
        unit = units[t % len(units)]
        events_entries.team_create(event=event, name=f"第{t}队", players=members, unit=unit)
    return event, organizer, referee


def _check_in(event: Event, absent: int, rng: random.Random) -> list[str]:
    """Everyone checks in on their phone but ``absent`` players (individual) or one member of
    each of ``absent`` teams; returns the names left out."""
    _number, rows = check_in_rows(event)
    away = set(rng.sample(range(len(rows)), absent))
    for index, row in enumerate(rows):
        ids: list[int]
        if event.is_individual:
            ids = [row.player] if index not in away and row.player is not None else []
        else:
            members = [m[0] for m in row.members]
            ids = members[1:] if index in away else members  # the first member did not come
        for player in Player.objects.filter(pk__in=ids).select_related("user"):
            check_in(event=event, user=player.user, player=player.pk)
    return [row.name for index, row in enumerate(rows) if index in away]


def _other_side(access: table_sheet.SheetAccess, users: dict[int, Any], seat: int) -> Any:
    """A user seated at another side than ``seat``: the other team, or another seat."""
    game = access.game
    team_game = access.pairing.team_a_id is not None and game.fixed_sides
    for other in range(game.seat_count):
        if other == seat or (team_game and game.side_of(other) == game.side_of(seat)):
            continue
        return users[other]
    raise ApplicationError(_("No player of another side is seated at the table."))


def _score_table(
    pairing: Pairing, referee: Any, summary: HallSummary, rng: random.Random, dispute: bool
) -> None:
    """The table's players enter each deal on their phones in turn; a player of another side
    confirms it. With ``dispute`` the first deal is disputed and the referee confirms it."""
    users = {
        s.seat: s.player.user for s in pairing.table.seats.select_related("player__user").all()
    }
    game = get_game(pairing.table.game)
    deals = table_deals(pairing.pk, pairing.round.event.deals_per_match)
    for number in range(1, deals + 1):
        seat = (number - 1) % game.seat_count
        phone = table_sheet.sheet_access(pairing, users[seat])
        client = str(uuid.uuid4())
        deal = _deal(pairing.table.game, rng)
        first = 0 if number == 1 else None
        # The connection drops before the phone hears back: it sends the entry again.
        sent = [
            table_sheet.deal_enter(
                access=phone, number=number, deal=deal, first_dealer=first, client_id=client
            )
            for _time in range(2)
        ]
        (row, created), (again, resent) = sent
        summary.deals_entered += created
        summary.resends += not resent and again.pk == row.pk
        reviewer = table_sheet.sheet_access(pairing, _other_side(phone, users, seat))
        if dispute and number == 1:
            table_sheet.deal_dispute(access=reviewer, number=number, reason="not what we played")
            summary.deals_disputed += 1
            summary.disputed_table = pairing.number
            reviewer = table_sheet.sheet_access(pairing, referee)
        table_sheet.deal_confirm(access=reviewer, number=number)
        summary.deals_confirmed += 1


def hall_simulate(
    *,
    game: str = DEFAULT_GAME,
    tables: int = 12,
    absent: int = 2,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> HallSummary:
    """Run a hall of ``tables`` offline tables of ``game`` (see the module); ``absent`` teams
    (players) do not check in. ``progress`` is called with (tables scored, tables). Raises
    ApplicationError for an unknown game or impossible sizes."""
    try:
        chosen = get_game(game)
    except EngineError as exc:
        raise ApplicationError(engine_message(exc)) from None
    if not 1 <= tables <= TABLES_MOST:
        raise ApplicationError(_("A hall has from 1 to %(most)d tables.") % {"most": TABLES_MOST})
    if absent < 0:
        raise ApplicationError(_("The number of those absent cannot be negative."))
    rng = random.Random(seed)
    tag = f"{timezone.now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
    event, organizer, referee = _hall_event(chosen.key, tables, absent, tag)
    away = _check_in(event, absent, rng)
    round = round_create_paired(event=event, user=organizer, confirm=True)
    round = round_start(round=round, user=organizer)
    clock_start(round=round, user=organizer)
    pairings = list(round.pairings.select_related("table", "round__event").order_by("number"))
    _number, rows = check_in_rows(event)
    summary = HallSummary(
        event=event,
        round=round,
        present=len(rows) - len(away),
        absent=len(away),
        absent_names=away,
        tables=len(pairings),
    )
    disputed = rng.randrange(len(pairings)) if pairings else -1
    for index, pairing in enumerate(pairings):
        _score_table(pairing, referee, summary, rng, dispute=index == disputed)
        if progress is not None:
            progress(index + 1, len(pairings))
    summary.recorded = ResultSubmission.objects.filter(
        pairing__round=round, status=ResultSubmission.Status.CONFIRMED
    ).count()
    clock = clock_of(round)
    summary.seconds_left, summary.clock_state = clock.seconds_left, str(clock.state)
    kind = "player" if event.is_individual else "team"
    summary.standings = [
        (r.rank, str(getattr(r, kind)), r.points)
        for r in event_standings_rows(event=event, kind=kind)[:5]
    ]
    summary.mismatches = hall_standings_check(round)
    return summary


def hall_standings_check(round: Round) -> list[str]:
    """Where the event's standings disagree with the round's recorded results (none: []): a
    team event's seated teams each played once, the winner of each table with a win; an
    individual event's seated players each scored every deal of their table; nobody absent
    has a deal."""
    event = round.event
    problems = []
    pairings = list(round.pairings.select_related("tally", "table"))
    if event.is_individual:
        rows = {
            r.player_id: r
            for r in event_standings_rows(event=event, kind="player")
            if isinstance(r, PlayerRow)
        }
        seated: set[int] = set()
        for p in pairings:
            deals = table_deals(p.pk, event.deals_per_match)
            for player in p.table.seats.values_list("player_id", flat=True):
                seated.add(player)
                row = rows.get(player)
                if row is None or row.deals != deals:
                    problems.append(f"player {player} at table {p.number}: not {deals} deals")
        problems += [
            f"player {r.player} scored absent"
            for k, r in rows.items()
            if k not in seated and r.deals
        ]
        return problems
    teams = {
        r.team_id: r
        for r in event_standings_rows(event=event, kind="team")
        if isinstance(r, TeamRow)
    }
    for p in pairings:
        for side, team in (("A", p.team_a_id), ("B", p.team_b_id)):
            found = teams.get(team or 0)
            won = p.tally.winner_side == side
            if found is None or found.played != 1 or (found.wins == 1) != won:
                problems.append(f"team {team} at table {p.number}: not its recorded result")
    return problems
