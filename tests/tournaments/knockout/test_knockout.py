"""The knockout stage (issue 18): the break from the standings (ties, withdrawals, seeding by
hand), the bracket's rounds on ordinary rounds and tables (offline results entered and confirmed),
the tie rule (one more deal, then the earlier finisher of the last deal), the seating of tables of
four, the final placement and the meet's placement points after the finals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from games.models import Match, Table
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.knockout import decided as knockout_decided
from tournaments.knockout import deciding as knockout_deciding
from tournaments.knockout import selectors as knockout_selectors
from tournaments.knockout import services as knockout_services
from tournaments.knockout.bracket import bracket_order, plan, snake_tables
from tournaments.models import (
    Event,
    KnockoutMatch,
    KnockoutStage,
    Pairing,
    Round,
    RoundLog,
)
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services
from tournaments.standings.selectors import meet_unit_standings
from tournaments.standings.totals import event_team_standings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


A_SWEEPS = [{"finish": [0, 2, 4]}]  # side A (seats 0/2/4) out first, all three
B_SWEEPS = [{"finish": [1, 3, 5]}]


def _enter(pairing: Pairing, referee: Any, checker: Any, deals: list[dict[str, Any]]) -> None:
    """A referee enters the offline table's sheet and a second person confirms it."""
    submission = result_submit(pairing=pairing, user=referee, first_dealer=0, deals=deals)
    result_confirm(submission=submission, user=checker)


@pytest.fixture
def people() -> dict[str, Any]:
    referee, checker = UserFactory(), UserFactory()
    return {"referee": referee, "checker": checker, "stranger": UserFactory()}


def _team_event(people: dict[str, Any], teams: int, **fields: Any) -> tuple[Event, list[Any]]:
    event = EventFactory(table_mode=Table.Mode.OFFLINE, deals_per_match=1, **fields)
    events_staff.event_organizer_add(event=event, user=people["referee"])
    events_staff.event_organizer_add(event=event, user=people["checker"])
    made = [TeamFactory(event=event, unit=UnitFactory(), name=f"T{i}") for i in range(teams)]
    return event, made


def _play_group_round(event: Event, people: dict[str, Any], winners: set[int]) -> Round:
    """Pair and play a group round: a table is won by the side whose team is in ``winners``."""
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=people["referee"])
    rounds_services.round_start(round=round_, user=people["referee"])
    for pairing in round_.pairings.all():
        deals = A_SWEEPS if pairing.team_a_id in winners else B_SWEEPS
        _enter(pairing, people["referee"], people["checker"], deals)
    return rounds_services.round_complete(round=round_, user=people["referee"])


def _ko_round(stage: KnockoutStage) -> Round:
    current = knockout_selectors.stage_current_round(stage)
    assert current is not None
    return current


def _play_ko(stage: KnockoutStage, people: dict[str, Any], pick: Any) -> None:
    """Start the current knockout round and enter each table: ``pick(match)`` gives the sheet."""
    round_ = knockout_services.knockout_start(stage=stage, user=people["referee"])
    for pairing in round_.pairings.order_by("number"):
        match = KnockoutMatch.objects.filter(pairing=pairing).first() or KnockoutMatch.objects.get(
            tiebreak=pairing
        )
        _enter(pairing, people["referee"], people["checker"], pick(match, pairing))
    knockout_deciding.knockout_complete(stage=stage, user=people["referee"])


def _better_seed_wins(match: KnockoutMatch, pairing: Pairing) -> list[dict[str, Any]]:
    a, b = match.entrants
    return A_SWEEPS if a < b else B_SWEEPS


# --- The bracket, pure ---------------------------------------------------------------------------


def test_bracket_order_keeps_the_top_seeds_apart_until_the_final() -> None:
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]
    pairs = {
        tuple(sorted(p)) for p in zip(bracket_order(16)[::2], bracket_order(16)[1::2], strict=True)
    }
    assert pairs == {(s, 17 - s) for s in range(1, 9)}  # 1 v 16, 2 v 15 ...


def test_tables_of_four_are_seated_in_a_snake() -> None:
    assert snake_tables(list(range(1, 9))) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake_tables(list(range(1, 17))) == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


def test_individual_bracket_sends_the_top_two_of_each_table_through_reseeded() -> None:
    results = {"1-1-1": (5, 1, 8, 4), "1-1-2": (2, 7, 3, 6)}
    drawn = plan(8, 4, 8, results)
    final, lower = drawn.round_matches(2)
    # winners of the tables first (by seed), then the runners-up: 2, 5 | 1, 7 at one table
    assert (final.lo, final.hi, final.entrants) == (1, 4, (2, 5, 1, 7))
    assert (lower.lo, lower.hi, lower.entrants) == (5, 8, (3, 8, 4, 6))
    done = plan(8, 4, 8, {**results, "2-1-1": (7, 2, 5, 1), "2-5-1": (6, 3, 8, 4)})
    assert [s for s, _ in sorted(done.places.items(), key=lambda kv: kv[1])] == [
        7, 2, 5, 1, 6, 3, 8, 4
    ]  # fmt: skip
    assert all(final for _place, final in done.places.values())


def test_without_a_third_place_match_the_semi_final_losers_share_third() -> None:
    drawn = plan(4, 2, 2, {"1-1-1": (1, 4), "1-1-2": (3, 2), "2-1-1": (3, 1)})
    assert dict(drawn.places) == {3: (1, True), 1: (2, True), 4: (3, True), 2: (3, True)}
    assert drawn.complete


# --- The break -----------------------------------------------------------------------------------


def test_break_seeds_the_top_n_by_standings_and_refuses_others(people: dict[str, Any]) -> None:
    event, teams = _team_event(people, 6)
    with pytest.raises(ConflictError, match="no rounds yet"):
        knockout_services.knockout_break(event=event, size=4, user=people["referee"])
    _play_group_round(event, people, {t.pk for t in teams[:3]})
    with pytest.raises(NotAllowedError):
        knockout_services.knockout_break(event=event, size=4, user=people["stranger"])
    with pytest.raises(ApplicationError, match="takes 2, 4, 8, 16 entrants"):
        knockout_services.knockout_break(event=event, size=6, user=people["referee"])
    with pytest.raises(ApplicationError, match="Only 6 entrants"):
        knockout_services.knockout_break(event=event, size=8, user=people["referee"])
    assert not KnockoutStage.objects.exists()
    stage = knockout_services.knockout_break(event=event, size=4, user=people["referee"])
    standings = [row.team for row in event_team_standings(event=event)]
    seeds = list(stage.entrants.order_by("seed").values_list("team_id", flat=True))
    assert seeds == standings[:4]
    assert [pk for _rank, pk in stage.group_ranking] == standings
    with pytest.raises(ConflictError, match="knockout stage goes on"):
        draw_services.round_create_paired(event=event, user=people["referee"])
    assert RoundLog.objects.filter(detail="knockout: top 4 seeded").exists()


def test_a_tie_at_the_cut_is_taken_in_the_standings_order_and_noted(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 6)
    _play_group_round(event, people, {t.pk for t in teams})  # three winners, three losers
    rows = event_team_standings(event=event)
    winners = [r.team for r in rows if r.rank == 1]
    assert len(winners) == 3  # no tie-break parts them (they never met)
    stage = knockout_services.knockout_break(event=event, size=2, user=people["referee"])
    seeded = list(stage.entrants.order_by("seed").values_list("team_id", flat=True))
    assert seeded == winners[:2]  # the standings' order
    names = {t.pk: t.name for t in teams}
    assert all(names[pk] in stage.note for pk in winners)
    knockout_services.knockout_cancel(stage=stage, user=people["referee"])
    assert not KnockoutStage.objects.filter(event=event).exists()
    # four: the three winners and one of the three losers, who are tied in turn
    stage = knockout_services.knockout_break(event=event, size=4, user=people["referee"])
    losers = [r.team for r in rows if r.rank != 1]
    seeded = list(stage.entrants.order_by("seed").values_list("team_id", flat=True))
    assert seeded == [*winners, losers[0]]
    assert all(names[pk] in stage.note for pk in losers)
    assert not any(names[pk] in stage.note for pk in winners)


def test_a_withdrawn_team_is_passed_over_and_a_seed_is_replaced_by_the_next(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 6)
    _play_group_round(event, people, {t.pk for t in teams[:3]})
    order = [row.team for row in event_team_standings(event=event)]
    events_entries.team_withdraw(team=next(t for t in teams if t.pk == order[1]), user=None)
    stage = knockout_services.knockout_break(event=event, size=4, user=people["referee"])
    seeds = list(stage.entrants.order_by("seed").values_list("team_id", flat=True))
    assert seeds == [order[0], order[2], order[3], order[4]]
    knockout_services.knockout_replace(stage=stage, seed=2, user=people["referee"])
    seeds = list(stage.entrants.order_by("seed").values_list("team_id", flat=True))
    assert seeds == [order[0], order[5], order[3], order[4]]  # the next one not withdrawn
    with pytest.raises(ApplicationError, match="No one is left"):
        knockout_services.knockout_replace(stage=stage, seed=1, user=people["referee"])
    knockout_services.knockout_seeds_set(
        stage=stage, entrants=[order[3], order[0], order[4], order[5]], user=people["referee"]
    )
    with pytest.raises(ApplicationError, match="Not entrants"):
        knockout_services.knockout_seeds_set(
            stage=stage, entrants=[order[1], order[0], order[4], order[5]], user=people["referee"]
        )
    with pytest.raises(ApplicationError, match="only one seed"):
        knockout_services.knockout_seeds_set(
            stage=stage, entrants=[order[0]] * 4, user=people["referee"]
        )
    assert stage.entrants.get(seed=1).team_id == order[3]
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    with pytest.raises(ConflictError, match="seeds are fixed"):
        knockout_services.knockout_replace(stage=stage, seed=1, user=people["referee"])


# --- Playing the bracket --------------------------------------------------------------------------


def test_a_bracket_of_four_is_played_through_with_a_third_place_match(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 6)
    meet = event.meet
    _play_group_round(event, people, {t.pk for t in teams[:3]})
    group = [row.team for row in event_team_standings(event=event)]
    stage = knockout_services.knockout_break(
        event=event, size=4, user=people["referee"], deals_per_match=2, final_deals=3
    )
    first = knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    assert first.status == Round.Status.CONFIRMED and first.pairings.count() == 2
    seeds = {e.seed: e.team_id for e in stage.entrants.all()}
    semi = first.pairings.get(number=1)
    assert (semi.team_a_id, semi.team_b_id) == (seeds[1], seeds[4])  # 1 v N
    assert (first.pairings.get(number=2).team_a_id, first.pairings.get(number=2).team_b_id) == (
        seeds[2],
        seeds[3],
    )
    assert knockout_selectors.pairing_deals(semi, 9) == 2
    _play_ko(stage, people, lambda m, p: A_SWEEPS * 2)  # the better seeds win
    finals = _ko_round(stage)
    labels = {m.key: (m.lo, m.hi, m.deals) for m in KnockoutMatch.objects.filter(bracket_round=2)}
    assert labels == {"2-1-1": (1, 2, 3), "2-3-1": (3, 4, 2)}
    assert finals.pairings.count() == 2
    with pytest.raises(ConflictError, match="start it first"):
        knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    # the final: seed 2 beats seed 1; the third-place match: seed 3 beats seed 4
    _play_ko(stage, people, lambda m, p: B_SWEEPS * 3 if m.lo == 1 else _better_seed_wins(m, p) * 2)
    stage.refresh_from_db()
    assert stage.status == KnockoutStage.Status.COMPLETED
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    placement = knockout_selectors.event_final_placement(event=event)
    assert placement is not None
    assert [(p.place, p.entrant, p.stage) for p in placement][:4] == [
        (1, seeds[2], "knockout"),
        (2, seeds[1], "knockout"),
        (3, seeds[3], "knockout"),
        (4, seeds[4], "knockout"),
    ]
    assert [p.entrant for p in placement[4:]] == group[4:]
    assert [p.place for p in placement[4:]] == [5, 5]  # the group stage's tie stands
    # the meet's placement points follow the final placement, not the group standings
    units = {t.pk: t.unit_id for t in teams}
    points = {m.unit: m.points for m in meet_unit_standings(meet=meet)}
    assert points[units[seeds[2]]] == 7 and points[units[seeds[1]]] == 5
    assert points[units[seeds[3]]] == 4 and points[units[seeds[4]]] == 3
    assert points[units[group[4]]] == 1.5 and points[units[group[5]]] == 1.5
    log = set(RoundLog.objects.filter(round__event=event).values_list("action", flat=True))
    assert {"paired", "confirmed", "started", "completed", "result_confirmed"} <= log


def test_a_tied_match_gets_one_more_deal_then_the_earlier_finisher_wins(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 2)
    _play_group_round(event, people, {teams[0].pk})
    stage = knockout_services.knockout_break(
        event=event, size=2, places_played=2, user=people["referee"], final_deals=2
    )
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    _play_ko(stage, people, lambda m, p: A_SWEEPS + B_SWEEPS)  # 0 : 0 after two deals
    final = KnockoutMatch.objects.get(stage=stage)
    assert final.result == [] and final.tiebreak is not None
    tiebreak = final.tiebreak
    assert tiebreak.round.status == Round.Status.RUNNING  # started at once
    assert (tiebreak.team_a_id, tiebreak.team_b_id) == (final.pairing.team_a_id,
                                                        final.pairing.team_b_id)  # fmt: skip
    assert knockout_selectors.pairing_deals(tiebreak, 5) == 1
    # the extra deal is a draw (side B completes first, side A's seat 0 went out first)
    draw = [{"finish": [0, 1, 3, 5]}]
    _enter(tiebreak, people["referee"], people["checker"], draw)
    with pytest.raises(ApplicationError):  # a second deal is refused: the tie-break is one deal
        _enter(tiebreak, people["referee"], people["checker"], draw + draw)
    knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    final.refresh_from_db()
    seeds = {e.seed: e.team_id for e in stage.entrants.all()}
    assert final.result == [1, 2] and final.decided_by == knockout_decided.DECIDED_LAST_FINISH
    assert tiebreak.table.matches.get().side_points == {"A": 0, "B": 0}
    stage.refresh_from_db()
    assert stage.status == KnockoutStage.Status.COMPLETED
    placement = knockout_selectors.event_final_placement(event=event)
    assert placement is not None
    assert [p.entrant for p in placement] == [seeds[1], seeds[2]]


def test_the_extra_deals_points_decide_before_the_finishing_order(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 2)
    _play_group_round(event, people, {teams[0].pk})
    stage = knockout_services.knockout_break(
        event=event, size=2, places_played=2, user=people["referee"]
    )
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    _play_ko(stage, people, lambda m, p: [{"finish": [0, 1, 3, 5]}])  # a draw: 0 : 0
    final = KnockoutMatch.objects.get(stage=stage)
    assert final.tiebreak is not None
    _enter(final.tiebreak, people["referee"], people["checker"], B_SWEEPS)
    knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    final.refresh_from_db()
    assert final.result == [2, 1] and final.decided_by == knockout_decided.DECIDED_TIEBREAK


def test_to_a_matches_end_on_passing_a_with_a_cap_and_only_for_daguai(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 2)
    _play_group_round(event, people, {teams[0].pk})
    stage = knockout_services.knockout_break(
        event=event, size=2, places_played=2, user=people["referee"], to_a=True, final_deals=20
    )
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    final = KnockoutMatch.objects.get(stage=stage)
    assert final.to_a and final.deals == 20
    assert knockout_selectors.pairing_deals(final.pairing, 1) == 20
    knockout_services.knockout_start(stage=stage, user=people["referee"])
    # side A wins every deal it deals: from level 2 up to A (12 deals), then passes A on the 13th
    deals = [{"finish": [0, 2, 4]} for _ in range(13)]
    _enter(final.pairing, people["referee"], people["checker"], deals)
    match = Match.objects.get(table=final.pairing.table)
    assert match.end_reason == Match.EndReason.PASSED_A
    knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    final.refresh_from_db()
    assert final.result == [1, 2] and final.decided_by == knockout_decided.DECIDED_PASSED_A

    other = EventFactory(game="xiaoluzi")
    events_staff.event_organizer_add(event=other, user=people["referee"])
    with pytest.raises(ApplicationError, match="to A"):
        knockout_services.knockout_break(event=other, size=4, to_a=True, user=people["referee"])


def test_a_match_length_is_set_before_it_begins_only(people: dict[str, Any]) -> None:
    event, teams = _team_event(people, 2)
    _play_group_round(event, people, {teams[0].pk})
    stage = knockout_services.knockout_break(event=event, size=2, user=people["referee"])
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    final = KnockoutMatch.objects.get(stage=stage)
    with pytest.raises(NotAllowedError):
        knockout_services.knockout_match_length_set(match=final, deals=5, user=people["stranger"])
    with pytest.raises(ApplicationError, match="1 to 99"):
        knockout_services.knockout_match_length_set(match=final, deals=0, user=people["referee"])
    knockout_services.knockout_match_length_set(match=final, deals=5, user=people["referee"])
    knockout_services.knockout_start(stage=stage, user=people["referee"])
    _enter(final.pairing, people["referee"], people["checker"], A_SWEEPS * 5)
    with pytest.raises(ConflictError, match="begun"):
        knockout_services.knockout_match_length_set(match=final, deals=7, user=people["referee"])
    assert Match.objects.get(table=final.pairing.table).end_reason == "deals_played"


def test_completing_with_an_unfinished_table_is_refused(people: dict[str, Any]) -> None:
    event, teams = _team_event(people, 4)
    _play_group_round(event, people, {teams[0].pk, teams[1].pk})
    stage = knockout_services.knockout_break(event=event, size=4, user=people["referee"])
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    knockout_services.knockout_start(stage=stage, user=people["referee"])
    with pytest.raises(ConflictError, match="unfinished tables: 1, 2"):
        knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    assert _ko_round(stage).status == Round.Status.RUNNING


# --- Individual events: tables of four -----------------------------------------------------------


def _xiaoluzi_deal(order: list[int]) -> dict[str, Any]:
    """A deal of 小路子 without declaring (mode none): 1st +2, 2nd +1, 3rd -1, 4th -2 (of X)."""
    played = [8, 8, 8, 8]
    played[order[3]] = 5
    return {"mode": "none", "finish": order[:3], "played": played}


def _individual_event(people: dict[str, Any], players: int) -> tuple[Event, list[Any]]:
    event = EventFactory(
        game="xiaoluzi", table_mode=Table.Mode.OFFLINE, deals_per_match=1, pairing_format="swiss"
    )
    events_staff.event_organizer_add(event=event, user=people["referee"])
    events_staff.event_organizer_add(event=event, user=people["checker"])
    units = [UnitFactory() for _ in range(players)]
    made = PlayerFactory.create_batch(players)
    for unit, player in zip(units, made, strict=True):
        events_entries.membership_ensure(player=player, unit=unit)
    events_entries.registration_ensure(event=event, players=made)
    return event, made


def _seats(pairing: Pairing) -> list[int]:
    return list(pairing.table.seats.order_by("seat").values_list("player_id", flat=True))


def test_an_individual_bracket_of_eight_seats_tables_of_four_and_places_all_eight(
    people: dict[str, Any],
) -> None:
    event, players = _individual_event(people, 9)
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=people["referee"])
    rounds_services.round_start(round=round_, user=people["referee"])
    for pairing in round_.pairings.all():
        _enter(pairing, people["referee"], people["checker"], [_xiaoluzi_deal([0, 1, 2, 3])])
    rounds_services.round_complete(round=round_, user=people["referee"])
    with pytest.raises(ApplicationError, match="takes 4, 8, 16 entrants"):
        knockout_services.knockout_break(event=event, size=2, user=people["referee"])
    stage = knockout_services.knockout_break(
        event=event, size=8, places_played=8, user=people["referee"]
    )
    seeds = {e.seed: e.player_id for e in stage.entrants.all()}
    first = knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    tables = [_seats(p) for p in first.pairings.order_by("number")]
    assert tables == [
        [seeds[1], seeds[4], seeds[5], seeds[8]],
        [seeds[2], seeds[3], seeds[6], seeds[7]],
    ]
    # table 1: seats 2, 0 go through (seeds 5, 1); table 2: seats 3, 1 (seeds 7, 3)
    _play_ko(
        stage,
        people,
        lambda m, p: [_xiaoluzi_deal([2, 0, 3, 1] if m.key == "1-1-1" else [3, 1, 0, 2])],
    )
    second = _ko_round(stage)
    upper, lower = (_seats(p) for p in second.pairings.order_by("number"))
    # reseeded: table winners by seed (5, 7), then runners-up (1, 3); thirds (2, 8), fourths (4, 6)
    assert upper == [seeds[5], seeds[7], seeds[1], seeds[3]]
    assert lower == [seeds[2], seeds[8], seeds[4], seeds[6]]
    assert {m.key: (m.lo, m.hi) for m in KnockoutMatch.objects.filter(bracket_round=2)} == {
        "2-1-1": (1, 4),
        "2-5-1": (5, 8),
    }
    _play_ko(stage, people, lambda m, p: [_xiaoluzi_deal([3, 2, 1, 0])])
    placement = knockout_selectors.event_final_placement(event=event)
    assert placement is not None
    assert [(p.place, p.entrant) for p in placement[:8]] == [
        (1, seeds[3]),
        (2, seeds[1]),
        (3, seeds[7]),
        (4, seeds[5]),
        (5, seeds[6]),
        (6, seeds[4]),
        (7, seeds[8]),
        (8, seeds[2]),
    ]
    assert placement[8].stage == "group" and placement[8].place == 9
    # the meet: each placed player's unit earns the place's points
    points = {m.unit: m.points for m in meet_unit_standings(meet=event.meet)}
    unit_of = {p.pk: p.memberships.get().unit_id for p in players}
    assert points[unit_of[seeds[3]]] == 7 and points[unit_of[seeds[1]]] == 5


def test_a_tie_across_the_cut_of_a_table_of_four_gets_one_more_deal(
    people: dict[str, Any],
) -> None:
    event, _players = _individual_event(people, 8)
    round_ = draw_services.round_create_paired(event=event, confirm=True, user=people["referee"])
    rounds_services.round_start(round=round_, user=people["referee"])
    for pairing in round_.pairings.all():
        _enter(pairing, people["referee"], people["checker"], [_xiaoluzi_deal([0, 1, 2, 3])])
    rounds_services.round_complete(round=round_, user=people["referee"])
    stage = knockout_services.knockout_break(
        event=event, size=8, places_played=4, deals_per_match=2, user=people["referee"]
    )
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    # table 1: all four end level (0 each); table 2: seats 0 and 1 on +3, seats 2 and 3 on -3
    sheets = {
        "1-1-1": [_xiaoluzi_deal([0, 1, 2, 3]), _xiaoluzi_deal([3, 2, 1, 0])],
        "1-1-2": [_xiaoluzi_deal([0, 1, 2, 3]), _xiaoluzi_deal([1, 0, 3, 2])],
    }
    _play_ko(stage, people, lambda m, p: sheets[m.key])
    one, two = KnockoutMatch.objects.filter(bracket_round=1).order_by("key")
    assert one.result == [] and one.tiebreak is not None  # the cut falls inside the tie
    assert two.result == [2, 3, 6, 7] and two.tiebreak is None  # ties on each side: seeds order
    assert _seats(one.tiebreak) == _seats(one.pairing)
    # the extra deal: seat 3 first, then seat 1, seat 0, seat 2 last
    _enter(one.tiebreak, people["referee"], people["checker"], [_xiaoluzi_deal([3, 1, 0, 2])])
    knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    one.refresh_from_db()
    assert one.result == [8, 4, 1, 5] and one.decided_by == knockout_decided.DECIDED_TIEBREAK
    final = KnockoutMatch.objects.get(bracket_round=2)
    assert sorted(final.entrants) == [2, 3, 4, 8]


# --- Online tables: the workers play the knockout matches ---------------------------------------


@pytest.mark.django_db(transaction=True)
def test_online_knockout_matches_are_played_by_the_workers_with_their_own_length() -> None:
    from tests.workers import celery_workers
    from tournaments.rounds.running import round_run

    event = EventFactory(table_mode=Table.Mode.ONLINE, deals_per_match=1)
    for t in range(4):
        bots = [PlayerFactory(is_bot=True, bot_kind="heuristic") for _ in range(3)]
        events_entries.team_create(
            event=event, name=f"机器人队{t}", players=bots, unit=UnitFactory()
        )
    with celery_workers(1):
        group = draw_services.round_create_paired(event=event, confirm=True)
        assert round_run(round=group, bots=True, timeout=180).complete
        stage = knockout_services.knockout_break(
            event=event, size=4, deals_per_match=2, final_deals=3
        )
        knockout_services.knockout_confirm(stage=stage)
        for _step in range(6):  # semi-finals, finals, and any tie-break deals
            stage.refresh_from_db()
            if stage.status == KnockoutStage.Status.COMPLETED:
                break
            current = knockout_selectors.stage_current_round(stage)
            assert current is not None
            assert round_run(round=current, bots=True, timeout=180).complete
            knockout_deciding.knockout_complete(stage=stage)
    stage.refresh_from_db()
    assert stage.status == KnockoutStage.Status.COMPLETED
    for match in KnockoutMatch.objects.filter(stage=stage):
        played = Match.objects.get(table=match.pairing.table)
        final = match.lo == 1 and match.bracket_round == 2
        assert played.deals_per_match == match.deals == (3 if final else 2)
        assert len(match.result) == 2
        if match.tiebreak is not None:
            assert Match.objects.get(table=match.tiebreak.table).deals_per_match == 1
    placement = knockout_selectors.event_final_placement(event=event)
    assert placement is not None
    assert [p.place for p in placement] == [1, 2, 3, 4] and all(p.final for p in placement)


def test_a_match_that_cannot_be_played_is_awarded_before_it_begins(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 4)
    _play_group_round(event, people, {teams[0].pk, teams[1].pk})
    stage = knockout_services.knockout_break(
        event=event, size=4, places_played=2, user=people["referee"]
    )
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    semi = KnockoutMatch.objects.get(stage=stage, key="1-1-1")
    assert semi.entrants == [1, 4]
    with pytest.raises(NotAllowedError):
        knockout_services.knockout_walkover(
            match=semi, order=[4, 1], reason="x", user=people["stranger"]
        )
    with pytest.raises(ApplicationError, match="Say why"):
        knockout_services.knockout_walkover(
            match=semi, order=[4, 1], reason=" ", user=people["referee"]
        )
    with pytest.raises(ApplicationError, match="best first: 1, 4"):
        knockout_services.knockout_walkover(
            match=semi, order=[4, 2], reason="x", user=people["referee"]
        )
    knockout_services.knockout_walkover(
        match=semi, order=[4, 1], reason="第1号种子未到场", user=people["referee"]
    )
    knockout_services.knockout_start(stage=stage, user=people["referee"])
    other = KnockoutMatch.objects.get(stage=stage, key="1-1-2")
    with pytest.raises(ConflictError, match="unfinished tables: 2"):
        knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    _enter(other.pairing, people["referee"], people["checker"], A_SWEEPS)
    with pytest.raises(ConflictError, match="begun"):
        knockout_services.knockout_walkover(
            match=other, order=[3, 2], reason="x", user=people["referee"]
        )
    knockout_deciding.knockout_complete(stage=stage, user=people["referee"])
    final = KnockoutMatch.objects.get(stage=stage, key="2-1-1")
    assert final.entrants == [2, 4]
    assert semi.pairing.round.status == Round.Status.COMPLETED
    assert RoundLog.objects.filter(detail="knockout walkover: table 1: 第1号种子未到场").exists()


def test_an_awarded_online_table_gets_no_match_when_the_round_starts(
    people: dict[str, Any],
) -> None:
    event, teams = _team_event(people, 4)
    _play_group_round(event, people, {teams[0].pk, teams[1].pk})
    Event.objects.filter(pk=event.pk).update(table_mode=Table.Mode.ONLINE)
    event.refresh_from_db()
    stage = knockout_services.knockout_break(event=event, size=4, user=people["referee"])
    knockout_services.knockout_confirm(stage=stage, user=people["referee"])
    semi, other = KnockoutMatch.objects.filter(stage=stage).order_by("key")
    assert semi.pairing.table.mode == Table.Mode.ONLINE
    knockout_services.knockout_walkover(
        match=semi, order=[1, 4], reason="弃权", user=people["referee"]
    )
    knockout_services.knockout_start(stage=stage, user=people["referee"])
    assert not Match.objects.filter(table=semi.pairing.table).exists()
    assert Match.objects.get(table=other.pairing.table).deals_per_match == stage.deals_per_match
    started = RoundLog.objects.filter(round=semi.pairing.round, action="started").get()
    assert started.detail == "online matches started: 1"
