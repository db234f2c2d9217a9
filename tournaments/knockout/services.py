"""The knockout stage's writes: the break from the group stage, seeds set and replaced, match
lengths, walkovers, and the bracket's rounds confirmed and started (their completion:
tournaments.knockout.deciding).

Each knockout match is a pairing of an ordinary round of the event, so online tables are played
by the workers and offline tables are entered by a referee and confirmed by a second person, as in
the group stage; :class:`tournaments.models.KnockoutMatch` says which match of the bracket
(:mod:`tournaments.knockout.bracket`) a pairing is. The organizer drives it: break (seeds from the
standings, editable by hand), confirm (the first knockout round's tables), start, complete."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from engine.game import UnknownGameError
from engine.registry import get_game
from games.models import Match, Player, Table
from tournaments.common.i18n import join_list
from tournaments.draw import drawers
from tournaments.events import organizers as common_organizers
from tournaments.knockout import bracket as plan_
from tournaments.knockout.decided import DECIDED_WALKOVER
from tournaments.knockout.selectors import (
    _entrant_ids,
    _stage_rounds,
    match_size,
    pairing_deals,
    stage_bracket,
    stage_current_round,
)
from tournaments.models import (
    Event,
    KnockoutEntrant,
    KnockoutMatch,
    KnockoutStage,
    Pairing,
    Registration,
    Round,
    RoundLog,
    Team,
)
from tournaments.rounds import services as rounds_services
from tournaments.rounds.state import round_transition


def plays_to_a(game: str) -> bool:
    """Whether the game's matches may be played "to A" (passing A ends the match): it says."""
    try:
        return get_game(game).plays_to_a
    except UnknownGameError:
        return False


def _stage_locked(event: Event) -> KnockoutStage:
    stage = (
        KnockoutStage.objects.select_for_update()
        .select_related("event")
        .filter(event_id=event.pk)
        .first()
    )
    if stage is None:
        raise ApplicationError(_("%(event)s has no knockout stage yet.") % {"event": event.name})
    return stage


def _group_order(event: Event) -> list[tuple[int, int, bool]]:
    """The group stage's order as the standings give it (tie-breaks applied): (rank, id, tied)."""
    from tournaments.standings.totals import event_player_standings, event_team_standings

    if event.is_individual:
        return [(r.rank, r.player, r.tied) for r in event_player_standings(event=event)]
    return [(r.rank, r.team, r.tied) for r in event_team_standings(event=event)]


def eligible_entrants(event: Event) -> set[int]:
    """Who may be seeded: the event's teams not withdrawn, or its registered players (no bots)."""
    if event.is_individual:
        return set(
            Registration.objects.filter(event=event, player__is_bot=False).values_list(
                "player_id", flat=True
            )
        )
    return set(event.teams.filter(withdrawn=False).values_list("pk", flat=True))


def entrant_names(event: Event, ids: Sequence[int]) -> dict[int, str]:
    model = Player if event.is_individual else Team
    return dict(model.objects.filter(pk__in=list(ids)).values_list("pk", "name"))


def _group_closed(event: Event, user: User | None) -> Round:
    """The group stage's last round, completed (a running one whose tables all finished is
    completed now); raises ConflictError while a round is unplayed."""
    last = event.rounds.order_by("-number").first()
    if last is None:
        raise ConflictError(_("Play the group stage first: the event has no rounds yet."))
    if last.status == Round.Status.RUNNING:
        return rounds_services.round_complete(round=last, user=user)
    if last.status != Round.Status.COMPLETED:
        raise ConflictError(
            _("Round %(round)d is still %(status)s: start and complete it first.")
            % {"round": last.number, "status": last.get_status_display()}
        )
    return last


def stage_sizes(event: Event) -> tuple[int, ...]:
    if not event.is_individual:
        return plan_.TEAM_SIZES
    return plan_.TABLE_SIZES if event.table_size == 4 else ()


def _length(value: int | None, default: int, name: str) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
        raise ApplicationError(_("%(name)s: a whole number from 1 to 99.") % {"name": name})
    return value


@transaction.atomic
def knockout_break(
    *,
    event: Event,
    size: int,
    user: User | None = None,
    places_played: int = 4,
    deals_per_match: int | None = None,
    final_deals: int | None = None,
    to_a: bool = False,
) -> KnockoutStage:
    """Close the group stage and seed the top ``size`` of its standings (ties broken by the
    event's tie-breaks, as the standings order them; withdrawn teams are passed over) into a
    knockout stage, a draft the organizer may reseed by hand or confirm.

    ``places_played``: 2 (a final only), 4 (with a third-place match), 8 (the 5th-8th places
    too). ``deals_per_match`` and ``final_deals``: each match's length (default: the event's);
    ``to_a`` (大怪路子): played until a team passes A, those deals being the cap. Raises
    ApplicationError (NotAllowedError, ConflictError) with the reason, changing nothing.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    common_organizers.event_organizer_require(event=event, user=user)
    if KnockoutStage.objects.filter(event=event).exists():
        raise ConflictError(_("%(event)s has a knockout stage already.") % {"event": event.name})
    if event.status == Event.Status.FINISHED:
        raise ApplicationError(_("%(event)s is finished.") % {"event": event.name})
    sizes = stage_sizes(event)
    if size not in sizes:
        raise ApplicationError(
            _("A knockout stage of this event takes %(sizes)s entrants.")
            % {"sizes": join_list([str(s) for s in sizes]) or "—"}
        )
    if places_played not in (2, 4, 8, 16):
        raise ApplicationError(_("Places played for: 2, 4, 8 or 16."))
    places_played = min(places_played, size)
    if to_a and not plays_to_a(event.game):
        raise ApplicationError(
            _("%(game)s has no play to A (过A): its matches are played for their deals.")
            % {"game": get_game(event.game).name_zh}
        )
    deals = _length(deals_per_match, event.deals_per_match, _("Deals per knockout match"))
    final = _length(final_deals, deals, _("Deals in the final"))
    last = _group_closed(event, user)
    order = _group_order(event)
    eligible = eligible_entrants(event)
    ranked = [(rank, pk) for rank, pk, _tied in order if pk in eligible]
    if event.seed_by_rating:  # entrants of equal rank in the order of their ratings
        from ratings.seeding import ties_by_rating

        ranked = ties_by_rating(event=event, ranked=ranked)
    if len(ranked) < size:
        raise ApplicationError(
            _("Only %(count)d entrants can be seeded; a knockout of %(size)d needs %(size)d.")
            % {"count": len(ranked), "size": size}
        )
    stage = KnockoutStage.objects.create(
        event=event,
        size=size,
        places_played=places_played,
        deals_per_match=deals,
        final_deals=final,
        to_a=to_a,
        group_ranking=[[rank, pk] for rank, pk, _tied in order],
        created_by=user if user is not None and user.is_authenticated else None,
    )
    seeded = [pk for _rank, pk in ranked[:size]]
    if len(ranked) > size and ranked[size - 1][0] == ranked[size][0]:
        cut = ranked[size - 1][0]
        tied = [pk for rank, pk in ranked if rank == cut]
        names = entrant_names(event, tied)
        stage.note = join_list([names.get(pk, str(pk)) for pk in tied])[:500]
        stage.save(update_fields=["note"])
    _entrants_write(stage, seeded)
    common_organizers.round_log_add(
        last, user, RoundLog.Action.PAIRED, f"knockout: top {size} seeded"
    )
    return stage


def _entrants_write(stage: KnockoutStage, ids: Sequence[int]) -> None:
    individual = stage.event.is_individual
    stage.entrants.all().delete()
    KnockoutEntrant.objects.bulk_create(
        KnockoutEntrant(
            stage=stage,
            seed=seed,
            team_id=None if individual else pk,
            player_id=pk if individual else None,
        )
        for seed, pk in enumerate(ids, start=1)
    )


def _draft(stage: KnockoutStage) -> None:
    if stage.status != KnockoutStage.Status.DRAFT:
        raise ConflictError(_("The knockout stage is confirmed: its seeds are fixed."))


def _group_last_round(stage: KnockoutStage) -> Round:
    first = _stage_rounds(stage).first()
    rounds = stage.event.rounds.order_by("-number")
    if first is not None:
        rounds = rounds.filter(number__lt=first.number)
    found = rounds.first()
    assert found is not None  # a stage is broken from a played group stage
    return found


@transaction.atomic
def knockout_seeds_set(
    *, stage: KnockoutStage, entrants: Sequence[int], user: User | None = None
) -> KnockoutStage:
    """Seed the draft stage by hand: ``entrants`` (team or player ids) in seed order, exactly the
    stage's size, each a team of the event not withdrawn (or a registered player)."""
    stage = _stage_locked(stage.event)
    event = stage.event
    common_organizers.event_organizer_require(event=event, user=user)
    _draft(stage)
    ids = list(entrants)
    if len(ids) != stage.size:
        raise ApplicationError(
            _("Give exactly %(size)d entrants in seed order.") % {"size": stage.size}
        )
    if len(set(ids)) != len(ids):
        raise ApplicationError(_("An entrant can take only one seed."))
    eligible = eligible_entrants(event)
    strangers = [str(pk) for pk in ids if pk not in eligible]
    if strangers:
        raise ApplicationError(
            _("Not entrants that can be seeded in %(event)s: %(ids)s.")
            % {"event": event.name, "ids": join_list(strangers)}
        )
    _entrants_write(stage, ids)
    names = entrant_names(event, ids)
    common_organizers.round_log_add(
        _group_last_round(stage),
        user,
        RoundLog.Action.EDITED,
        "knockout seeds: " + ", ".join(names.get(pk, str(pk)) for pk in ids),
    )
    return stage


@transaction.atomic
def knockout_replace(*, stage: KnockoutStage, seed: int, user: User | None = None) -> KnockoutStage:
    """Replace the entrant at ``seed`` (withdrawn, or unable to play) by the next one of the
    group stage's order who is not seeded and not withdrawn; the draft stage only."""
    stage = _stage_locked(stage.event)
    event = stage.event
    common_organizers.event_organizer_require(event=event, user=user)
    _draft(stage)
    ids = _entrant_ids(stage)
    if not isinstance(seed, int) or not 1 <= seed <= len(ids):
        raise ApplicationError(_("No seed %(seed)s in this bracket.") % {"seed": seed})
    eligible = eligible_entrants(event)
    skipped = {*ids, *stage.passed_over}
    following = [pk for _rank, pk in stage.group_ranking if pk in eligible and pk not in skipped]
    if not following:
        raise ApplicationError(_("No one is left in the group stage's order to move up."))
    out, ids[seed - 1] = ids[seed - 1], following[0]
    stage.passed_over = [*stage.passed_over, out]
    stage.save(update_fields=["passed_over"])
    _entrants_write(stage, ids)
    names = entrant_names(event, [out, following[0]])
    common_organizers.round_log_add(
        _group_last_round(stage),
        user,
        RoundLog.Action.EDITED,
        f"knockout seed {seed}: {names.get(out, out)} -> {names.get(following[0], following[0])}",
    )
    return stage


@transaction.atomic
def knockout_cancel(*, stage: KnockoutStage, user: User | None = None) -> None:
    """Withdraw a draft break (the group stage goes on)."""
    stage = _stage_locked(stage.event)
    common_organizers.event_organizer_require(event=stage.event, user=user)
    _draft(stage)
    last = _group_last_round(stage)
    stage.delete()
    common_organizers.round_log_add(last, user, RoundLog.Action.EDITED, "knockout: break withdrawn")


@transaction.atomic
def knockout_match_length_set(
    *,
    match: KnockoutMatch,
    deals: int,
    to_a: bool = False,
    user: User | None = None,
) -> KnockoutMatch:
    """Set one knockout match's length (its deals, or its cap when played to A) before its table's
    match begins."""
    match = (
        KnockoutMatch.objects.select_for_update().select_related("stage__event").get(pk=match.pk)
    )
    event = match.stage.event
    common_organizers.event_organizer_require(event=event, user=user)
    if Match.objects.filter(table__pairing=match.pairing_id).exists():
        raise ConflictError(_("This match has begun: its length is fixed."))
    if to_a and not plays_to_a(event.game):
        raise ApplicationError(
            _("%(game)s has no play to A (过A): its matches are played for their deals.")
            % {"game": get_game(event.game).name_zh}
        )
    match.deals = _length(deals, match.deals, _("Deals"))
    match.to_a = bool(to_a)
    match.save(update_fields=["deals", "to_a"])
    return match


@transaction.atomic
def knockout_walkover(
    *,
    match: KnockoutMatch,
    order: Sequence[int],
    reason: str,
    user: User | None = None,
) -> KnockoutMatch:
    """Award a match that cannot be played (an entrant withdrew or did not come) by the
    organizer's decision: ``order`` the match's seeds best first, ``reason`` for the round log.
    Only before its table's match begins; its table is then left unplayed."""
    match = (
        KnockoutMatch.objects.select_for_update()
        .select_related("stage__event", "pairing__round")
        .get(pk=match.pk)
    )
    stage = match.stage
    common_organizers.event_organizer_require(event=stage.event, user=user)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("Say why the match is awarded."))
    if stage.status != KnockoutStage.Status.RUNNING or match.result:
        raise ConflictError(_("This match is decided already."))
    if Match.objects.filter(table__pairing=match.pairing_id).exists():
        raise ConflictError(_("This match has begun: enter its result instead."))
    if sorted(order) != sorted(match.entrants):
        raise ApplicationError(
            _("Give the match's seeds best first: %(seeds)s.")
            % {"seeds": join_list([str(s) for s in match.entrants])}
        )
    match.result = list(order)
    match.decided_by = DECIDED_WALKOVER
    match.save(update_fields=["result", "decided_by"])
    common_organizers.round_log_add(
        match.pairing.round,
        user,
        RoundLog.Action.EDITED,
        f"knockout walkover: table {match.pairing.number}: {reason}",
    )
    return match


def _seat_match(
    round: Round, stage: KnockoutStage, seeds: Sequence[int], number: int, mode: str
) -> Pairing:
    """Seat the entrants ``seeds`` (seat order) at a new table of ``round``."""
    return drawers.seat_entrants(round, _entrants(stage, seeds), number, mode)


def _entrants(stage: KnockoutStage, seeds: Sequence[int]) -> list[Team | Player]:
    """The teams (or players) of the seeds ``seeds``, in that order."""
    by_seed = {
        e.seed: e for e in stage.entrants.select_related("team", "player").filter(seed__in=seeds)
    }
    found = [by_seed[s].player if stage.event.is_individual else by_seed[s].team for s in seeds]
    return [e for e in found if e is not None]


def _confirmed(round: Round, user: User | None, detail: str) -> Round:
    common_organizers.round_log_add(round, user, RoundLog.Action.PAIRED, detail)
    return round_transition(round, Round.Status.CONFIRMED, user=user)


def _round_draw(stage: KnockoutStage, number: int, user: User | None) -> Round | None:
    """Seat the bracket's round ``number`` in a new confirmed round of the event (None: no such
    round, the bracket is complete)."""
    drawn = stage_bracket(stage)
    matches = drawn.round_matches(number)
    if not matches:
        return None
    size = match_size(stage.event)
    drawer = drawers.drawer_for(stage.event, drawers.KNOCKOUT)
    tables = []
    for planned in matches:
        assert planned.entrants is not None
        tables.append(_entrants(stage, planned.entrants))
    who = [entrant for table in tables for entrant in table]
    round = rounds_services.round_create(event=stage.event)
    seated = drawer(drawers.DrawRequest(round=round, who=who, bracket=tables))
    for planned, pairing in zip(matches, seated.pairings, strict=True):
        assert planned.entrants is not None
        final = planned.lo == 1 and planned.hi - planned.lo + 1 == size
        KnockoutMatch.objects.create(
            stage=stage,
            key=planned.key,
            bracket_round=number,
            lo=planned.lo,
            hi=planned.hi,
            entrants=list(planned.entrants),
            pairing=pairing,
            deals=stage.final_deals if final else stage.deals_per_match,
            to_a=stage.to_a,
        )
    return _confirmed(round, user, f"knockout round {number}: {seated.detail}")


@transaction.atomic
def knockout_confirm(*, stage: KnockoutStage, user: User | None = None) -> Round:
    """Confirm the seeds and seat the bracket's first round (a confirmed round of the event)."""
    stage = _stage_locked(stage.event)
    common_organizers.event_organizer_require(event=stage.event, user=user)
    _draft(stage)
    if stage.entrants.count() != stage.size:
        raise ApplicationError(_("The bracket needs every seed filled."))
    stage.status = KnockoutStage.Status.RUNNING
    stage.save(update_fields=["status"])
    round = _round_draw(stage, 1, user)
    assert round is not None
    return round


def _undecided_round(stage: KnockoutStage) -> Round | None:
    """The earliest round to complete: one holding an undecided knockout match's table (or its
    tie-break's), or a knockout round not completed yet (its matches all walkovers)."""
    rounds = []
    for match in KnockoutMatch.objects.filter(stage=stage, result=[]).select_related(
        "pairing__round", "tiebreak__round"
    ):
        rounds.append((match.tiebreak or match.pairing).round)
    open_round = stage_current_round(stage)
    if open_round is not None:
        rounds.append(open_round)
    return min(rounds, key=lambda r: r.number, default=None)


def _running(stage: KnockoutStage) -> Round:
    if stage.status != KnockoutStage.Status.RUNNING:
        raise ConflictError(
            _("The knockout stage is %(status)s.") % {"status": stage.get_status_display()}
        )
    current = stage_current_round(stage)
    if current is None:
        raise ConflictError(_("The knockout stage has no round to play."))
    return current


@transaction.atomic
def knockout_start(*, stage: KnockoutStage, user: User | None = None) -> Round:
    """Start the current knockout round: its online tables begin (the workers play them),
    its offline tables wait for their referees."""
    stage = _stage_locked(stage.event)
    common_organizers.event_organizer_require(event=stage.event, user=user)
    return rounds_services.round_start(
        round=_running(stage), user=user, matches_start=_knockout_matches_start
    )


def _knockout_matches_start(round: Round) -> int:
    """A match at each online table of a knockout round but the walkovers'; how many began."""
    from games.play.services import match_start

    event = round.event
    started = 0
    online = (
        round.pairings.filter(table__mode=Table.Mode.ONLINE, table__matches__isnull=True)
        .exclude(knockout_match__decided_by=DECIDED_WALKOVER)
        .select_related("table")
        .order_by("number")
    )
    for pairing in online:
        match_start(
            table=pairing.table,
            base_score=event.base_score,
            deals_per_match=pairing_deals(pairing, event.deals_per_match),
            rule_options=event.rule_options or None,
        )
        started += 1
    return started
