"""Team events' draws: seating two teams at a table, the teams ready to be paired, their
history, a Swiss or round-robin draw (tournaments.draw.teams, pure) and filling a round with it.
The drawer table (tournaments.draw.drawers) calls these; nothing here chooses a format."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from games.models import Table, TableMode
from games.tables.services import table_create
from tournaments.common import sides
from tournaments.common.i18n import join_list
from tournaments.draw import teams as pairing_algo
from tournaments.models import Event, Pairing, PairingTally, Round, RoundEntry, Team
from tournaments.results.tallies import event_tallies_refresh
from tournaments.standings.selectors import format_swiss_order
from tournaments.standings.totals import event_team_standings

__all__ = ["pairing_create", "team_draw", "team_round_fill", "teams_ready"]


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


def teams_ready(event: Event) -> list[Team]:
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
    for team_id in RoundEntry.objects.filter(
        round__event=event, pairing__isnull=True, absent=False
    ).values_list("team_id", flat=True):
        byes[team_id] += 1
    return opponents, byes, side_a


def team_draw(event: Event, teams: Sequence[Team], number: int) -> pairing_algo.Draw:
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
            # a format's ranking (duplicate play: by the duplicate standings)
            ordered = format_swiss_order(event, ordered)
        return pairing_algo.swiss_pair([as_pairing(t) for t in ordered])
    except pairing_algo.PairingError as error:
        raise ApplicationError(_(error.template) % error.params) from None


def team_round_fill(
    round: Round,
    pairs: Sequence[tuple[Team, Team]],
    byes: Sequence[Team],
    mode: str,
    absent: Sequence[Team] = (),
) -> None:
    """Seat ``pairs`` at tables of ``round`` (in order), give ``byes`` a bye and ``absent`` (not
    checked in) a place without a table and without bye points."""
    for number, (team_a, team_b) in enumerate(pairs, start=1):
        pairing = pairing_create(
            round=round, team_a=team_a, team_b=team_b, number=number, mode=Table.Mode(mode)
        )
        PairingTally.objects.create(
            pairing=pairing, event_id=round.event_id, team_a=team_a, team_b=team_b
        )
    RoundEntry.objects.bulk_create(RoundEntry(round=round, team=team) for team in byes)
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round, team=team, absent=True) for team in absent
    )
