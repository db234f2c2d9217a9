"""Running rounds on the Celery workers: start a round's online tables, wait for their matches,
complete the round; and simulate a whole throw-away event with bot teams.

The games themselves are played by the workers (games.tasks); this module only starts matches
through games' services and watches the rows.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from engine.duplicate import plays_duplicate
from engine.errors import EngineError
from engine.registry import DEFAULT_GAME, get_game
from games.models import Action, Deal, Match, Table
from games.play import services as play_services
from games.tables import services as tables_services
from games.tables.messages import engine_message
from tournaments import formats
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import organizers as common_organizers
from tournaments.formats import table_deals
from tournaments.models import Event, Meet, Round, RoundLog
from tournaments.results.tallies import tallies_refresh
from tournaments.rounds import services as rounds_services

__all__ = ["Progress", "RoundRun", "SimulationSummary", "event_simulate", "round_run"]

#: Called with (finished matches, all matches) while a round is waited for.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RoundRun:
    """What running a round did: its matches and whether they all finished in time."""

    round: Round
    matches: int
    finished: int
    seconds: float

    @property
    def complete(self) -> bool:
        return self.finished == self.matches


def _round_matches(round: Round) -> list[int]:
    return list(
        Match.objects.filter(table__pairing__round=round, table__mode=Table.Mode.ONLINE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


@transaction.atomic
def round_tables_start(*, round: Round, bots: bool = False, bot_delay_ms: int | None = None) -> int:
    """Start the round (confirmed → running) and a match at each online table without one.

    ``bots`` lets the system's bots play every seat (the demo, rehearsals). Returns how many
    matches it started. Raises ConflictError for a draft or completed round.
    """
    round = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    if round.status == Round.Status.DRAFT:
        raise ConflictError(
            _("Round %(round)d is a draft: confirm its tables first.") % {"round": round.number}
        )
    if round.status == Round.Status.COMPLETED:
        raise ConflictError(_("Round %(round)d is completed already.") % {"round": round.number})
    event = round.event

    counted = [0]

    def tables_start(round: Round) -> int:
        seed = formats.round_seed(round)  # a duplicate round: every table deals the same deals
        tables = Table.objects.filter(
            pairing__round=round, mode=Table.Mode.ONLINE, matches__isnull=True
        ).order_by("pairing__number")
        started = 0
        for table in tables:
            all_bots = not table.seats.filter(player__is_bot=False).exists()
            delay = bot_delay_ms if bot_delay_ms is not None else (0 if all_bots or bots else 600)
            play_services.match_start(
                table=table,
                base_score=event.base_score,
                deals_per_match=table_deals(table.pairing.pk, event.deals_per_match),
                rule_options=event.rule_options or None,
                autoplay=bots,
                bot_delay_ms=delay,
                between_deals_seconds=0 if all_bots or bots else 5,
                seed=seed,
            )
            started += 1
        counted[0] = started
        return started

    if round.status == Round.Status.CONFIRMED:  # the round starts: its log counts the matches
        rounds_services.round_start(round=round, matches_start=tables_start)
        return counted[0]
    # A running round: tables seated since it started (or whose match never began) start now.
    started = tables_start(round)
    if started:
        common_organizers.round_log_add(
            round, None, RoundLog.Action.STARTED, f"online matches started: {started}"
        )
        tallies_refresh(pairings=round.pairings.all())  # the tables in play show as such at once
    return started


def round_run(
    *,
    round: Round,
    bots: bool = False,
    bot_delay_ms: int | None = None,
    timeout: float = 3600.0,
    poll: float = 0.5,
    progress: Progress | None = None,
) -> RoundRun:
    """Start every online table of the round, wait until their matches finish (or ``timeout``
    seconds pass), then complete the round when all did. The workers play the games."""
    started = time.monotonic()
    round_tables_start(round=round, bots=bots, bot_delay_ms=bot_delay_ms)
    matches = _round_matches(round)
    finished = 0
    while True:
        finished = Match.objects.filter(pk__in=matches, status=Match.Status.FINISHED).count()
        if progress is not None:
            progress(finished, len(matches))
        if finished == len(matches) or time.monotonic() - started > timeout:
            break
        time.sleep(poll)
    round.refresh_from_db()
    if finished == len(matches) and round.status == Round.Status.RUNNING:
        offline_waiting = round.pairings.filter(table__mode=Table.Mode.OFFLINE).exclude(
            table__matches__status=Match.Status.FINISHED
        )
        if not offline_waiting.exists():
            rounds_services.round_complete(round=round)
    return RoundRun(round, len(matches), finished, time.monotonic() - started)


@dataclass(frozen=True)
class SimulationSummary:
    """What a simulated event played."""

    event: Event
    rounds: int
    matches: int
    deals: int
    actions: int
    escapes: int
    seconds: float
    complete: bool

    def to_json(self) -> dict[str, object]:
        return {
            "event": self.event.pk,
            "rounds": self.rounds,
            "matches": self.matches,
            "deals": self.deals,
            "actions": self.actions,
            "escapes": self.escapes,
            "seconds": round(self.seconds, 3),
            "complete": self.complete,
        }


@transaction.atomic
def _simulation_event(
    *,
    game: str,
    teams: int,
    players: int,
    deals: int,
    seed: int,
    duplicate: bool = False,
    bot_kinds: Sequence[str] = (),
) -> Event:
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    tag = f"{stamp}-{secrets.token_hex(3)}"
    meet = Meet.objects.create(name=f"模拟赛 Simulation {tag}", slug=f"sim-{tag}")
    event = Event.objects.create(
        meet=meet,
        name=f"{get_game(game).name_zh}模拟 {tag}",
        game=game,
        deals_per_match=deals,
        rule_options={},
        status=Event.Status.REGISTRATION,
        duplicate=duplicate,
    )
    units = [events_entries.unit_get_or_create(name=f"模拟单位 {tag} {u}") for u in range(1, 5)]
    if event.is_individual:
        kinds = get_game(game).bot_kinds
        bots = [
            tables_services.player_create(
                name=f"机器人{p}",
                is_bot=True,
                bot_kind=(
                    bot_kinds[(p - 1) % len(bot_kinds)]
                    if bot_kinds
                    else kinds[0]
                    if (seed + p) % 4
                    else kinds[-1]
                ),
            )
            for p in range(1, players + 1)
        ]
        for p, bot in enumerate(bots):
            events_entries.membership_ensure(player=bot, unit=units[p % len(units)])
        events_entries.registration_ensure(event=event, players=bots)
        return event
    unit, kinds = units[0], get_game(game).bot_kinds
    for t in range(1, teams + 1):
        kind = kinds[0] if (seed + t) % 4 else kinds[-1]
        if bot_kinds:  # a team's players share their kind, so that their rating is theirs
            kind = bot_kinds[(t - 1) % len(bot_kinds)]
        members = [
            tables_services.player_create(name=f"机器人{t}-{m}", is_bot=True, bot_kind=kind)
            for m in range(1, event.team_size + 1)
        ]
        events_entries.team_create(event=event, name=f"机器人队{t}", players=members, unit=unit)
    return event


def event_simulate(
    *,
    game: str = DEFAULT_GAME,
    teams: int = 8,
    players: int = 16,
    rounds: int = 3,
    deals: int = 3,
    seed: int = 0,
    timeout: float = 3600.0,
    progress: Callable[[int, int, int], None] | None = None,
    duplicate: bool = False,
    bot_kinds: Sequence[str] = (),
) -> SimulationSummary:
    """Create a throw-away event of bots (teams for a team game, ``players`` for an individual
    one), pair and run every round through Celery; ``duplicate``: a duplicate event (every table
    of a round plays the same deals); ``bot_kinds``: the bots' kinds, given in turn to the
    players (individual games) or to the teams (team games).

    ``progress`` is called with (round number, finished matches, matches). Raises ApplicationError
    for an unknown game or impossible sizes.
    """
    try:
        chosen = get_game(game)
    except EngineError as exc:
        raise ApplicationError(engine_message(exc)) from None
    if chosen.fixed_sides and teams < 2:
        raise ApplicationError(_("A simulation needs at least 2 teams."))
    if not chosen.fixed_sides and players < chosen.seat_count:
        raise ApplicationError(
            _("A simulation of this game needs at least %(size)d players.")
            % {"size": chosen.seat_count}
        )
    unknown = [k for k in bot_kinds if k not in chosen.bot_kinds]
    if unknown:
        raise ApplicationError(
            _("Unknown bot kind %(kind)s: use %(kinds)s.")
            % {"kind": unknown[0], "kinds": ", ".join(chosen.bot_kinds)}
        )
    if rounds < 1 or deals < 1:
        raise ApplicationError(_("A simulation needs at least 1 round and 1 deal per match."))
    if duplicate and not plays_duplicate(game):
        raise ApplicationError(_("This game cannot be played duplicate."))
    started = time.monotonic()
    event = _simulation_event(
        game=game,
        teams=teams,
        players=players,
        deals=deals,
        seed=seed,
        duplicate=duplicate,
        bot_kinds=bot_kinds,
    )
    complete = True
    for number in range(1, rounds + 1):
        round = draw_services.round_create_paired(event=event, confirm=True)

        def report(done: int, total: int, number: int = number) -> None:
            if progress is not None:
                progress(number, done, total)

        run = round_run(
            round=round, timeout=max(0.0, timeout - (time.monotonic() - started)), progress=report
        )
        if not run.complete:
            complete = False
            break
    matches = Match.objects.filter(table__pairing__round__event=event)
    deal_rows = Deal.objects.filter(match__in=matches)
    return SimulationSummary(
        event=event,
        rounds=Round.objects.filter(event=event).count(),
        matches=matches.count(),
        deals=deal_rows.count(),
        actions=Action.objects.filter(deal__in=deal_rows).count(),
        escapes=matches.filter(
            end_reason__in=[Match.EndReason.ESCAPE, Match.EndReason.LEFT]
        ).count(),
        seconds=time.monotonic() - started,
        complete=complete,
    )
