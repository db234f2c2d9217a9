"""Writes of a round's draw: a new round paired by the event's format (team Swiss, round robin,
individual seating), a draft's tables set by hand, one table made. Tables are made through
games' services: this app never builds games rows itself."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from django.contrib.auth.models import (
    User,
)
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from games.models import Table, TableMode
from games.tables.services import table_create
from tournaments.common import sides
from tournaments.common.i18n import join_list
from tournaments.draw import seating as individual
from tournaments.draw import teams as pairing_algo
from tournaments.events.organizers import event_is_organizer as event_is_organizer
from tournaments.events.organizers import event_organizer_require as event_organizer_require
from tournaments.events.organizers import round_log_add as round_log_add
from tournaments.models import (
    Event,
    Pairing,
    PairingTally,
    Round,
    RoundEntry,
    RoundLog,
    Team,
)
from tournaments.results.tallies import event_tallies_refresh
from tournaments.rounds.services import _round_locked, round_complete, round_confirm, round_create
from tournaments.standings.selectors import duplicate_swiss_order
from tournaments.standings.totals import event_team_standings


@transaction.atomic
def pairing_create(
    *,
    round: Round,
    team_a: Team,
    team_b: Team,
    number: int,
    mode: TableMode = TableMode.ONLINE,
) -> Pairing:
    """Seat ``team_a`` on the seats of the game's first side (大怪路子: 0, 2, 4) against ``team_b``
    on its second's (1, 3, 5) at a new table of ``round``.

    Members take their side's seats in team order (大怪路子: a0, b0, a1, b1, a2, b2). Raises
    ApplicationError for a team of another event, a team that meets itself, or a team already
    placed in this round.
    """
    if team_a.pk == team_b.pk:
        raise ApplicationError(_("A team cannot play against itself."))
    if team_a.event_id != round.event_id or team_b.event_id != round.event_id:
        raise ApplicationError(_("Both teams must belong to the round's event."))
    members_a = [m.player for m in team_a.members.select_related("player").order_by("order")]
    members_b = [m.player for m in team_b.members.select_related("player").order_by("order")]
    size = round.event.team_size
    if len(members_a) != size or len(members_b) != size:
        raise ApplicationError(_("Both teams need %(size)d players to be seated.") % {"size": size})
    seated = sides.seating(round.event.game, members_a, members_b)
    table = table_create(
        name=f"{round} · {number}", players=seated, mode=mode, game=round.event.game
    )
    try:
        with transaction.atomic():
            pairing = Pairing.objects.create(
                round=round, number=number, table=table, team_a=team_a, team_b=team_b
            )
            RoundEntry.objects.bulk_create(
                [
                    RoundEntry(round=round, team=team_a, pairing=pairing),
                    RoundEntry(round=round, team=team_b, pairing=pairing),
                ]
            )
    except IntegrityError:
        raise ApplicationError(
            _("Table %(table)d is taken, or a team is already placed in round %(round)d.")
            % {"table": number, "round": round.number}
        ) from None
    return pairing


def _teams_ready(event: Event) -> list[Team]:
    teams = list(event.teams.filter(withdrawn=False).prefetch_related("members").order_by("pk"))
    if not sides.team_game(event.game):
        raise ApplicationError(_("This event is individual: its players play for themselves."))
    size = event.team_size
    short = [t.name for t in teams if len(t.members.all()) != size]
    if short:
        raise ApplicationError(
            _("Every team needs %(size)d players before pairing; not yet: %(teams)s.")
            % {"size": size, "teams": join_list(short)}
        )
    if len(teams) < 2:
        raise ApplicationError(_("An event needs at least two teams to pair a round."))
    return teams


def _pairing_history(event: Event) -> tuple[dict[int, set[int]], dict[int, int], dict[int, int]]:
    """Return each team's past opponents, byes, and seats-0/2/4 surplus, from earlier rounds."""
    opponents: dict[int, set[int]] = defaultdict(set)
    side_a: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    for a, b in Pairing.objects.filter(round__event=event).values_list("team_a_id", "team_b_id"):
        opponents[a].add(b)
        opponents[b].add(a)
        side_a[a] += 1
        side_a[b] -= 1
    for team_id in RoundEntry.objects.filter(round__event=event, pairing__isnull=True).values_list(
        "team_id", flat=True
    ):
        byes[team_id] += 1
    return opponents, byes, side_a


def _previous_round_settle(event: Event, user: User | None) -> None:
    """Refuse a new round while the last one is unplayed; complete it first if all its tables
    finished."""
    last = event.rounds.order_by("-number").first()
    if last is None or last.status == Round.Status.COMPLETED:
        return
    if last.status == Round.Status.RUNNING:
        round_complete(round=last, user=user)
        return
    raise ConflictError(
        _("Round %(round)d is still %(status)s: start and complete it first.")
        % {"round": last.number, "status": last.get_status_display()}
    )


def _draw_for(event: Event, teams: list[Team], number: int) -> pairing_algo.Draw:
    opponents, byes, side_a = _pairing_history(event)

    def as_pairing(team: Team) -> pairing_algo.PairingTeam:
        return pairing_algo.PairingTeam(
            id=team.pk,
            unit=team.unit_id,
            opponents=frozenset(opponents[team.pk]),
            byes=byes[team.pk],
            side_a=side_a[team.pk],
        )

    try:
        if event.pairing_format == Event.PairingFormat.ROUND_ROBIN:
            return pairing_algo.round_robin_pair(
                [as_pairing(t) for t in teams], round_number=number
            )
        if number == 1:
            # No standings yet: a fixed shuffle (the event and round seed it) mixes the units.
            ordered = list(teams)
            random.Random(f"luzi:{event.pk}:{number}").shuffle(ordered)
            if event.seed_by_rating:  # strongest first, the top half against the bottom half
                from ratings.seeding import teams_seeded

                ordered = teams_seeded(event=event, teams=ordered)
        else:
            # Every result counts, including a match that finished after its round was forced
            # complete.
            event_tallies_refresh(event=event, open_rounds_only=False)
            by_id = {t.pk: t for t in teams}
            ordered = [
                by_id[row.team] for row in event_team_standings(event=event) if row.team in by_id
            ]
            if event.duplicate:  # drawn by the duplicate standings
                ordered = duplicate_swiss_order(event, ordered)
        return pairing_algo.swiss_pair([as_pairing(t) for t in ordered])
    except pairing_algo.PairingError as error:
        raise ApplicationError(_(error.template) % error.params) from None


def _round_fill(
    round: Round, pairs: Sequence[tuple[Team, Team]], byes: Sequence[Team], mode: str
) -> None:
    for number, (team_a, team_b) in enumerate(pairs, start=1):
        pairing = pairing_create(
            round=round, team_a=team_a, team_b=team_b, number=number, mode=Table.Mode(mode)
        )
        PairingTally.objects.create(
            pairing=pairing, event_id=round.event_id, team_a=team_a, team_b=team_b
        )
    RoundEntry.objects.bulk_create(RoundEntry(round=round, team=team) for team in byes)


@transaction.atomic
def round_create_paired(*, event: Event, user: User | None = None, confirm: bool = False) -> Round:
    """Create the event's next round, paired by the event's format, with its tables seated.

    Swiss (by standing, no rematch while avoidable, units kept apart where possible, a bye for an
    odd count) or round robin; a manual event gets an empty draft to fill with
    :func:`round_pairings_set`. Team A of each table takes seats 0/2/4, chosen so that seats
    alternate fairly; members sit in their team's order. The round is a draft (edit it, then
    :func:`round_confirm`), or confirmed at once with ``confirm=True``. A running previous round
    whose tables all finished is completed first. Raises ApplicationError (or NotAllowedError,
    ConflictError) with the reason, changing nothing.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    event_organizer_require(event=event, user=user)
    if event.status == Event.Status.FINISHED:
        raise ApplicationError(
            _("%(event)s is finished: it takes no new rounds.") % {"event": event.name}
        )
    if event.knockout_stage_exists():
        raise ConflictError(
            _("%(event)s's group stage is closed: its knockout stage goes on.")
            % {"event": event.name}
        )
    _previous_round_settle(event, user)
    if event.is_individual:
        return _individual_round_create(event=event, user=user, confirm=confirm)
    teams = _teams_ready(event)
    round = round_create(event=event)
    if event.pairing_format == Event.PairingFormat.MANUAL:
        round_log_add(round, user, RoundLog.Action.PAIRED, "manual: an organizer sets the tables")
        return round
    draw = _draw_for(event, teams, round.number)
    by_id = {t.pk: t for t in teams}
    _round_fill(
        round,
        [(by_id[t.team_a], by_id[t.team_b]) for t in draw.tables],
        [by_id[draw.bye]] if draw.bye is not None else [],
        event.table_mode,
    )
    detail = f"{event.get_pairing_format_display()}: {len(draw.tables)} tables"
    if draw.bye is not None:
        detail += f", bye: {by_id[draw.bye].name}"
    if draw.rematches:
        detail += f", unavoidable rematches: {draw.rematches}"
    if draw.same_unit:
        detail += f", same-unit tables: {draw.same_unit}"
    round_log_add(round, user, RoundLog.Action.PAIRED, detail)
    if confirm:
        return round_confirm(round=round, user=user)
    return round


def _individual_round_create(*, event: Event, user: User | None, confirm: bool) -> Round:
    """An individual event's next round: Swiss into tables of the game's size (or an empty
    draft for a manual event)."""
    if event.pairing_format == Event.PairingFormat.ROUND_ROBIN:
        raise ApplicationError(_("Round robin is for team events; use Swiss or manual."))
    players = individual.individual_players_ready(event)
    round = round_create(event=event)
    if event.pairing_format == Event.PairingFormat.MANUAL:
        round_log_add(round, user, RoundLog.Action.PAIRED, "manual: an organizer sets the tables")
        return round
    draw = individual.individual_draw(event, players, round.number)
    detail = individual.individual_round_fill(round, draw, event.table_mode)
    round_log_add(
        round, user, RoundLog.Action.PAIRED, f"{event.get_pairing_format_display()}: {detail}"
    )
    if confirm:
        return round_confirm(round=round, user=user)
    return round


@transaction.atomic
def round_pairings_set(
    *,
    round: Round,
    tables: Sequence[Sequence[int | None]],
    user: User | None = None,
    modes: Sequence[str] | None = None,
) -> Round:
    """Replace a draft round's tables by ``tables`` (pairs of team ids: seats 0/2/4 first; in an
    individual event, the player ids seat by seat, None for a bot: tournaments.draw.manual).

    Manual pairing and draft edits alike; every event team not at a table gets a bye. ``modes``
    gives each table's mode (default: the event's). Raises ApplicationError for a round that is not
    a draft, a team twice or of another event, changing nothing.
    """
    round = _round_locked(round)
    event_organizer_require(event=round.event, user=user)
    if round.status != Round.Status.DRAFT:
        raise ConflictError(
            _("Round %(round)d is %(status)s: only a draft can be edited.")
            % {"round": round.number, "status": round.get_status_display()}
        )
    if round.event.is_individual:
        from tournaments.draw.manual import individual_tables_set

        return individual_tables_set(round=round, tables=tables, user=user, modes=modes)
    if any(len(pair) != 2 or None in pair for pair in tables):
        raise ApplicationError(_("Each table of a team event is two teams."))
    pairs = [(a, b) for a, b in tables if a is not None and b is not None]
    teams = {t.pk: t for t in _teams_ready(round.event)}
    seen: list[int] = [team for pair in pairs for team in pair]
    unknown = [str(t) for t in seen if t not in teams]
    if unknown:
        raise ApplicationError(
            _("Not teams of %(event)s: %(teams)s.")
            % {"event": round.event.name, "teams": join_list(unknown)}
        )
    if len(set(seen)) != len(seen):
        raise ApplicationError(_("A team can sit at only one table in a round."))
    if any(a == b for a, b in pairs):
        raise ApplicationError(_("A team cannot play against itself."))
    if modes is not None and (
        len(modes) != len(tables) or any(m not in Table.Mode.values for m in modes)
    ):
        raise ApplicationError(
            _("Give one table mode per table, each one of: %(modes)s.")
            % {"modes": join_list(Table.Mode.values)}
        )
    old_tables = list(round.pairings.values_list("table_id", flat=True))
    round.entries.all().delete()
    round.pairings.all().delete()
    Table.objects.filter(pk__in=old_tables, matches__isnull=True).delete()
    for number, (a, b) in enumerate(pairs, start=1):
        mode = modes[number - 1] if modes is not None else round.event.table_mode
        pairing = pairing_create(
            round=round, team_a=teams[a], team_b=teams[b], number=number, mode=Table.Mode(mode)
        )
        PairingTally.objects.create(
            pairing=pairing, event_id=round.event_id, team_a=teams[a], team_b=teams[b]
        )
    byes = [t for pk, t in teams.items() if pk not in set(seen)]
    RoundEntry.objects.bulk_create(RoundEntry(round=round, team=team) for team in byes)
    names = ", ".join(f"{teams[a].name}–{teams[b].name}" for a, b in pairs)
    round_log_add(round, user, RoundLog.Action.EDITED, f"tables: {names}; byes: {len(byes)}")
    return round
