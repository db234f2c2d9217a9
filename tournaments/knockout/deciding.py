"""A knockout round's completion: its results decide its matches by the tie rule, ties get a
tie-break deal, then the next round is drawn.

The tie rule: a match tied after its last deal is extended by one more deal, played at the same
seats (a tie-break table, one deal); the tied entrants are then ordered by that deal's points,
and, still tied, by who finished earlier in that last deal (a team by its first player out);
then by seed."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from config.exceptions import ConflictError
from engine.registry import get_game
from games.models import Deal, Match, TableSeat
from tournaments.common.i18n import join_list
from tournaments.events import organizers as common_organizers
from tournaments.events import services as events_services
from tournaments.knockout.decided import (
    DECIDED_LAST_FINISH,
    DECIDED_LEVELS,
    DECIDED_PASSED_A,
    DECIDED_POINTS,
    DECIDED_SEED,
    DECIDED_TIEBREAK,
    DECIDED_WALKOVER,
)
from tournaments.knockout.services import (
    _confirmed,
    _round_draw,
    _seat_match,
    _stage_locked,
    _undecided_round,
)
from tournaments.models import (
    Event,
    KnockoutMatch,
    KnockoutStage,
    PairingTally,
    PlayerTally,
    Round,
)
from tournaments.rounds import services as rounds_services


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
    events_services.event_results_changed(event=event)
    return stage
