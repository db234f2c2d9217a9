"""Writes of a round's draw: a new round paired by the event's format (team Swiss, round robin,
individual seating), a draft's tables set by hand, one table made. Tables are made through
games' services: this app never builds games rows itself."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from games.models import Player, Table
from tournaments.common.i18n import join_list
from tournaments.draw import drawers, seating, team_draw
from tournaments.draw.team_draw import pairing_create as pairing_create
from tournaments.events import checkin
from tournaments.events.organizers import event_is_organizer as event_is_organizer
from tournaments.events.organizers import event_organizer_require as event_organizer_require
from tournaments.events.organizers import round_log_add as round_log_add
from tournaments.models import Event, PairingTally, Round, RoundEntry, RoundLog, Team
from tournaments.rounds.services import _round_locked, round_complete, round_confirm, round_create


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
    drawer = drawers.drawer_for(event, event.pairing_format)
    who, absent = _who_plays(event)
    round = round_create(event=event)
    drawn = drawer(drawers.DrawRequest(round=round, who=who, absent=absent))
    round_log_add(round, user, RoundLog.Action.PAIRED, drawn.detail)
    if confirm:
        return round_confirm(round=round, user=user)
    return round


def _who_plays(event: Event) -> tuple[list[Team] | list[Player], list[Team] | list[Player]]:
    """Who plays the event's next round, and who is absent from it: everyone ready, or (when the
    event draws only those checked in) those checked in for it."""
    number = checkin.next_round_number(event)
    if event.is_individual:
        players = seating.individual_players_ready(event)
        if not event.draw_checked_in_only:
            return players, []
        present = checkin.present_players(event, players, number)
        if len(present) < 2 or (len(present) < event.table_size and not event.fill_with_bots):
            raise ApplicationError(
                _(
                    "Only %(count)d players are checked in for round %(round)d: a round needs "
                    "at least %(size)d (or tables filled with bots)."
                )
                % {"count": len(present), "round": number, "size": event.table_size}
            )
        return present, [p for p in players if p not in present]
    teams = team_draw.teams_ready(event)
    if not event.draw_checked_in_only:
        return teams, []
    in_teams = checkin.present_teams(event, teams, number)
    if len(in_teams) < 2:
        raise ApplicationError(
            _("Only %(count)d teams are checked in for round %(round)d: a round needs two.")
            % {"count": len(in_teams), "round": number}
        )
    return in_teams, [t for t in teams if t not in in_teams]


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
    teams = {t.pk: t for t in team_draw.teams_ready(round.event)}
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
    present = set(byes)
    if round.event.draw_checked_in_only:  # a team not checked in: a bye of 0 points
        present = set(checkin.present_teams(round.event, byes, round.number))
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round, team=team, absent=team not in present) for team in byes
    )
    names = ", ".join(f"{teams[a].name}–{teams[b].name}" for a, b in pairs)
    round_log_add(round, user, RoundLog.Action.EDITED, f"tables: {names}; byes: {len(byes)}")
    return round
