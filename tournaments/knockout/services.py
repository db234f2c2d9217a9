"""The knockout stage: the break from the group stage, the bracket's rounds, the tie rule, and the
event's final placement (knockout places first, then the group stage's order).

Each knockout match is a pairing of an ordinary round of the event, so online tables are played
by the workers and offline tables are entered by a referee and confirmed by a second person, as in
the group stage; :class:`tournaments.models.KnockoutMatch` says which match of the bracket
(:mod:`tournaments.knockout.bracket`) a pairing is. The organizer drives it: break (seeds from the
standings, editable by hand), confirm (the first knockout round's tables), start, complete (the
round's results decide its matches; ties get a tie-break deal; then the next round is drawn).

The tie rule: a match tied after its last deal is extended by one more deal, played at the same
seats (a tie-break table, one deal); the tied entrants are then ordered by that deal's points,
and, still tied, by who finished earlier in that last deal (a team by its first player out);
then by seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError, ConflictError
from engine.game import UnknownGameError
from engine.registry import get_game
from games.models import Deal, Match, Player, Table, TableSeat
from tournaments.common import organizers as common_organizers
from tournaments.common.i18n import join_list
from tournaments.draw import services as draw_services
from tournaments.knockout import bracket as plan_
from tournaments.knockout.selectors import (
    Placement,
    _entrant_ids,
    _stage_rounds,
    event_final_placement,
    match_label,
    match_size,
    pairing_deals,
    stage_bracket,
    stage_current_round,
    stage_results,
)
from tournaments.models import (
    Event,
    KnockoutEntrant,
    KnockoutMatch,
    KnockoutStage,
    Pairing,
    PairingTally,
    PlayerTally,
    Registration,
    Round,
    RoundLog,
    Team,
)
from tournaments.rounds import services as rounds_services
from tournaments.rounds.state import round_transition

__all__ = [
    "Placement",
    "eligible_entrants",
    "entrant_names",
    "stage_sizes",
    "event_final_placement",
    "knockout_break",
    "knockout_cancel",
    "knockout_complete",
    "knockout_confirm",
    "knockout_match_length_set",
    "knockout_replace",
    "knockout_seeds_set",
    "knockout_start",
    "knockout_walkover",
    "match_label",
    "match_size",
    "stage_results",
    "pairing_deals",
    "stage_bracket",
    "stage_current_round",
]

#: how a match was decided (the bracket page says it in words)
DECIDED_PASSED_A = "passed_a"
DECIDED_LEVELS = "levels"
DECIDED_POINTS = "points"
DECIDED_TIEBREAK = "tiebreak_deal"
DECIDED_LAST_FINISH = "last_deal_finish"
DECIDED_SEED = "seed"
DECIDED_WALKOVER = "walkover"


def plays_to_a(game: str) -> bool:
    """Whether the game's matches may be played "to A" (passing A ends the match): it says."""
    try:
        return get_game(game).plays_to_a
    except UnknownGameError:
        return False


# --- Reading --------------------------------------------------------------------------------------


# --- The break ------------------------------------------------------------------------------------


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


# --- Rounds of the bracket ------------------------------------------------------------------------


def _seat_match(
    round: Round, stage: KnockoutStage, seeds: Sequence[int], number: int, mode: str
) -> Pairing:
    """Seat the entrants ``seeds`` (seat order) at a new table of ``round``."""
    event = stage.event
    by_seed = {
        e.seed: e for e in stage.entrants.select_related("team", "player").filter(seed__in=seeds)
    }
    if event.is_individual:
        from tournaments.draw.seating import table_seat

        return table_seat(
            round=round, players=[by_seed[s].player for s in seeds], number=number, mode=mode
        )
    team_a, team_b = (by_seed[s].team for s in seeds)
    assert team_a is not None and team_b is not None
    pairing = draw_services.pairing_create(
        round=round, team_a=team_a, team_b=team_b, number=number, mode=Table.Mode(mode)
    )
    PairingTally.objects.create(pairing=pairing, event_id=event.pk, team_a=team_a, team_b=team_b)
    return pairing


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
    round = rounds_services.round_create(event=stage.event)
    for table, planned in enumerate(matches, start=1):
        assert planned.entrants is not None
        pairing = _seat_match(round, stage, planned.entrants, table, stage.event.table_mode)
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
    return _confirmed(round, user, f"knockout round {number}: {len(matches)} tables")


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
    from games.services import match_start

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


def _tally(pairing_id: int) -> PairingTally:
    return PairingTally.objects.select_related("match").get(pairing_id=pairing_id)


def _seat_points(tally: PairingTally) -> dict[int, int]:
    return dict(PlayerTally.objects.filter(tally=tally).values_list("seat", "points"))


def _last_finish(match: Match | None) -> dict[int, int]:
    """Each seat's position in the match's last deal's finishing order (seats not out: absent)."""
    if match is None:
        return {}
    deal = Deal.objects.filter(match=match, status=Deal.Status.FINISHED).order_by("-number").first()
    if deal is None:
        return {}
    finish = deal.finishing_order or (deal.result or {}).get("finish") or []
    return {int(seat): place for place, seat in enumerate(finish)}


def _seat_of(match: KnockoutMatch) -> dict[int, list[int]]:
    """Each seed's seats at the table (a team: its side's seats)."""
    if len(match.entrants) == 2 and not match.stage.event.is_individual:
        game = get_game(match.stage.event.game)
        a, b = match.entrants
        return {a: list(game.side_seats("A")), b: list(game.side_seats("B"))}
    return {seed: [seat] for seat, seed in enumerate(match.entrants)}


def _main_order(match: KnockoutMatch) -> tuple[list[list[int]], str]:
    """The entrants in blocks of equal standing after the match's own deals, best first, and
    what decided it."""
    tally = _tally(match.pairing_id)
    seats = _seat_of(match)
    if not match.stage.event.is_individual:
        a, b = match.entrants
        ended = tally.match.end_reason if tally.match is not None else ""
        if ended == Match.EndReason.PASSED_A and tally.winner_side in ("A", "B"):
            return ([[a], [b]] if tally.winner_side == "A" else [[b], [a]]), DECIDED_PASSED_A
        key_a: tuple[int, ...] = (tally.points_a,)
        key_b: tuple[int, ...] = (tally.points_b,)
        how = DECIDED_POINTS
        if match.to_a:
            key_a, key_b = (tally.level_a, tally.points_a), (tally.level_b, tally.points_b)
            how = DECIDED_LEVELS if tally.level_a != tally.level_b else DECIDED_POINTS
        if key_a == key_b:
            return [[a, b]], ""
        return ([[a], [b]] if key_a > key_b else [[b], [a]]), how
    points = _seat_points(tally)
    totals = {seed: sum(points.get(s, 0) for s in seats[seed]) for seed in match.entrants}
    blocks: list[list[int]] = []
    for seed in sorted(match.entrants, key=lambda s: (-totals[s], s)):
        if blocks and totals[blocks[-1][0]] == totals[seed]:
            blocks[-1].append(seed)
        else:
            blocks.append([seed])
    return blocks, DECIDED_POINTS


def _ties_matter(match: KnockoutMatch, blocks: list[list[int]]) -> bool:
    """Whether a tie changes who goes through or a place: any tie of a match that decides places,
    else a tie across the cut (the top half goes through)."""
    if len(match.entrants) == match.hi - match.lo + 1:
        return any(len(b) > 1 for b in blocks)
    cut = len(match.entrants) // 2
    position = 0
    for block in blocks:
        if position < cut < position + len(block):
            return True
        position += len(block)
    return False


def _tiebreak_order(match: KnockoutMatch, blocks: list[list[int]]) -> tuple[list[int], str]:
    """Order each tied block by the tie-break deal: its points, then the earlier finisher of that
    last deal, then the better seed."""
    assert match.tiebreak_id is not None
    tally = _tally(match.tiebreak_id)
    seats = _seat_of(match)
    points = _seat_points(tally)
    finish = _last_finish(tally.match)
    how = DECIDED_POINTS
    order: list[int] = []
    for block in blocks:
        if len(block) == 1:
            order += block
            continue

        def key(seed: int) -> tuple[int, float, int]:
            gained = sum(points.get(s, 0) for s in seats[seed])
            first_out = min((finish.get(s, 99) for s in seats[seed]), default=99)
            return (-gained, first_out, seed)

        ranked = sorted(block, key=key)
        keys = [key(s) for s in ranked]
        for one, two in zip(keys, keys[1:], strict=False):
            step = (
                DECIDED_TIEBREAK
                if one[0] != two[0]
                else DECIDED_LAST_FINISH
                if one[1] != two[1]
                else DECIDED_SEED
            )
            rank = [DECIDED_POINTS, DECIDED_TIEBREAK, DECIDED_LAST_FINISH, DECIDED_SEED]
            how = step if rank.index(step) > rank.index(how) else how
        order += ranked
    return order, how


def _decide(match: KnockoutMatch) -> bool:
    """Decide ``match`` from its tables' results; False when it needs a tie-break deal."""
    blocks, how = _main_order(match)
    if match.tiebreak_id is None:
        if _ties_matter(match, blocks):
            return False
        # a tie that changes nothing (two runners-up who both go through): the better seed first
        order = [seed for block in blocks for seed in sorted(block)]
    else:
        order, how = _tiebreak_order(match, blocks)
    match.result = order
    match.decided_by = how
    match.save(update_fields=["result", "decided_by"])
    return True


def _tiebreaks_seat(
    stage: KnockoutStage, matches: Sequence[KnockoutMatch], user: User | None
) -> Round:
    """One more deal for each tied match: a new round with a table of the same seats each."""
    round = rounds_services.round_create(event=stage.event)
    for number, match in enumerate(matches, start=1):
        table = match.pairing.table
        players = [
            seat.player for seat in TableSeat.objects.filter(table=table).select_related("player")
        ]
        if stage.event.is_individual:
            from tournaments.draw.seating import table_seat

            pairing = table_seat(round=round, players=players, number=number, mode=table.mode)
        else:
            pairing = _seat_match(round, stage, match.entrants, number, table.mode)
        match.tiebreak = pairing
        match.save(update_fields=["tiebreak"])
    tables = ", ".join(str(m.pairing.number) for m in matches)
    _confirmed(round, user, f"knockout tie-break deals: tables {tables}")
    return rounds_services.round_start(round=round, user=user)


@transaction.atomic
def knockout_complete(*, stage: KnockoutStage, user: User | None = None) -> KnockoutStage:
    """Complete the current knockout round once its tables finished: its results decide its
    matches; a match tied where it matters gets one more deal (a tie-break round, started at
    once); else the bracket's next round is seated (confirmed, to start), or the bracket is
    complete and with it the event. Raises ConflictError naming unfinished tables."""
    from tournaments.results.services import tallies_refresh

    stage = _stage_locked(stage.event)
    event = stage.event
    common_organizers.event_organizer_require(event=event, user=user)
    if stage.status != KnockoutStage.Status.RUNNING:
        raise ConflictError(
            _("The knockout stage is %(status)s.") % {"status": stage.get_status_display()}
        )
    current = _undecided_round(stage)
    if current is None:
        raise ConflictError(_("The knockout stage has no round to play."))
    if current.status in (Round.Status.DRAFT, Round.Status.CONFIRMED):
        raise ConflictError(
            _("Round %(round)d has not started yet: start it first.") % {"round": current.number}
        )
    tallies_refresh(pairings=current.pairings.all())
    open_tables = current.pairings.exclude(tally__status=PairingTally.Status.FINISHED)
    unfinished = list(
        open_tables.exclude(knockout_match__decided_by=DECIDED_WALKOVER)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unfinished:
        raise ConflictError(
            _("Round %(round)d still has unfinished tables: %(tables)s.")
            % {"round": current.number, "tables": join_list(unfinished)}
        )
    if current.status == Round.Status.RUNNING:
        walkovers = open_tables.exists()  # awarded tables: nothing to wait for
        rounds_services.round_complete(
            round=current, user=user, force=walkovers, reason="walkover" if walkovers else ""
        )
    in_round = KnockoutMatch.objects.filter(stage=stage).filter(
        Q(pairing__round=current) | Q(tiebreak__round=current)
    )
    number = max(in_round.values_list("bracket_round", flat=True), default=0)
    matches = list(in_round.filter(result=[]).select_related("stage__event", "pairing__table"))
    tied = [m for m in matches if not _decide(m)]
    if tied:
        _tiebreaks_seat(stage, tied, user)
        return stage
    if KnockoutMatch.objects.filter(stage=stage, bracket_round=number, result=[]).exists():
        return stage  # another tie-break round of this knockout round is still to finish
    if _round_draw(stage, number + 1, user) is None:
        stage.status = KnockoutStage.Status.COMPLETED
        stage.save(update_fields=["status"])
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    rounds_services.event_results_changed(event=event)
    return stage
