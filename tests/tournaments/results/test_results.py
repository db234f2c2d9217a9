"""Offline results (enter → a second person confirms or rejects, every version kept), tallies,
and the standings selectors (bounded queries)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import astuple

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from games.models import Match, Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.models import (
    Event,
    PairingTally,
    PlayerTally,
    ResultSubmission,
    Round,
    RoundEntry,
    RoundLog,
)
from tournaments.results.services import (
    deals_parse,
    result_confirm,
    result_reject,
    result_submit,
    tallies_refresh,
)
from tournaments.rounds.services import round_start
from tournaments.standings.ranking import MatchResult
from tournaments.standings.selectors import meet_unit_standings
from tournaments.standings.totals import (
    event_player_standings,
    event_team_standings,
    event_unit_standings,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):  # the messages below are matched in English
        yield


A_SWEEPS = [{"finish": [0, 2, 4]}]  # side A out first, all three: 3 payers


@pytest.fixture
def world():
    event = EventFactory(table_mode=Table.Mode.OFFLINE)
    for unit in (UnitFactory(), UnitFactory()):
        TeamFactory(event=event, unit=unit)
    referee, checker, stranger = UserFactory(), UserFactory(), UserFactory()
    event_organizer_add(event=event, user=referee)
    event_organizer_add(event=event, user=checker)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    return {
        "event": event,
        "round": round_,
        "pairing": round_.pairings.get(),
        "referee": referee,
        "checker": checker,
        "stranger": stranger,
    }


def test_enter_then_a_second_person_confirms_and_standings_follow(world) -> None:
    pairing = world["pairing"]
    submission = result_submit(
        pairing=pairing, user=world["referee"], first_dealer=0, deals=A_SWEEPS
    )
    assert submission.status == "pending" and submission.version == 1
    assert not Match.objects.filter(table=pairing.table).exists()  # nothing recorded yet
    result_confirm(submission=submission, user=world["checker"])
    match = Match.objects.get(table=pairing.table)
    assert match.side_points["A"] == 18 and match.figures["level"]["A"] == 3
    tally = PairingTally.objects.get(pairing=pairing)
    assert (tally.points_a, tally.points_b, tally.deals) == (18, -18, 1)
    rows = event_team_standings(event=world["event"])
    assert rows[0].team == pairing.team_a_id and rows[0].points == 18
    players = event_player_standings(event=world["event"])
    top = players[0]
    assert top.points == 6 and top.deals == 1 and top.average_place in (1.0, 2.0, 3.0)
    assert sum(p.tributes_paid for p in players) == 3
    assert sum(p.tributes_received for p in players) == 3
    assert [u.points for u in event_unit_standings(event=world["event"])] == [18, -18]
    assert [m.points for m in meet_unit_standings(meet=world["event"].meet)] == [7, 5]
    actions = list(RoundLog.objects.filter(round=world["round"]).values_list("action", flat=True))
    assert actions[-2:] == ["result_submitted", "result_confirmed"]


def test_the_person_who_entered_cannot_confirm(world) -> None:
    submission = result_submit(
        pairing=world["pairing"], user=world["referee"], first_dealer=0, deals=A_SWEEPS
    )
    with pytest.raises(ApplicationError, match="second person"):
        result_confirm(submission=submission, user=world["referee"])
    with pytest.raises(ApplicationError, match="second person"):
        result_reject(submission=submission, user=world["referee"], reason="typo")
    submission.refresh_from_db()
    assert submission.status == "pending" and not Match.objects.exists()


def test_an_impossible_finishing_order_is_refused_naming_the_deal(world) -> None:
    with pytest.raises(ApplicationError) as error:
        result_submit(
            pairing=world["pairing"],
            user=world["referee"],
            first_dealer=0,
            deals=[{"finish": [0, 2, 4]}, {"finish": [0, 2, 4, 1]}],
        )
    assert "2" in str(error.value)
    with pytest.raises(ApplicationError, match="seats are numbers 0 to 5"):
        result_submit(
            pairing=world["pairing"],
            user=world["referee"],
            first_dealer=0,
            deals=[{"finish": [0, 7]}],
        )
    assert not ResultSubmission.objects.exists() and not Match.objects.exists()


def test_reject_then_reenter_then_correct_after_confirmation_keeps_every_version(world) -> None:
    pairing = world["pairing"]
    first = result_submit(pairing=pairing, user=world["referee"], first_dealer=0, deals=A_SWEEPS)
    result_reject(submission=first, user=world["checker"], reason="seat 2 went out second")
    second = result_submit(
        pairing=pairing, user=world["referee"], first_dealer=0, deals=[{"finish": [1, 3, 5]}]
    )
    result_confirm(submission=second, user=world["checker"])
    assert event_team_standings(event=world["event"])[0].team == pairing.team_b_id
    # A correction after confirmation: entered by the checker, confirmed by the referee.
    third = result_submit(pairing=pairing, user=world["checker"], first_dealer=0, deals=A_SWEEPS)
    result_confirm(submission=third, user=world["referee"])
    assert event_team_standings(event=world["event"])[0].team == pairing.team_a_id
    assert Match.objects.filter(table=pairing.table).count() == 1
    assert list(pairing.results.order_by("version").values_list("version", "status")) == [
        (1, "rejected"),
        (2, "superseded"),
        (3, "confirmed"),
    ]
    assert PlayerTally.objects.filter(tally__pairing=pairing).count() == 6


def test_only_organizers_enter_or_review_and_only_offline_started_tables(world) -> None:
    with pytest.raises(NotAllowedError):
        result_submit(
            pairing=world["pairing"], user=world["stranger"], first_dealer=0, deals=A_SWEEPS
        )
    submission = result_submit(
        pairing=world["pairing"], user=world["referee"], first_dealer=0, deals=A_SWEEPS
    )
    with pytest.raises(NotAllowedError):
        result_confirm(submission=submission, user=world["stranger"])
    result_confirm(submission=submission, user=world["checker"])
    with pytest.raises(ConflictError, match="not waiting"):
        result_confirm(submission=submission, user=world["checker"])
    online = EventFactory()
    TeamFactory(event=online)
    TeamFactory(event=online)
    event_organizer_add(event=online, user=world["referee"])
    draft = round_create_paired(event=online)
    with pytest.raises(ApplicationError, match="online"):
        result_submit(
            pairing=draft.pairings.get(), user=world["referee"], first_dealer=0, deals=A_SWEEPS
        )


def test_deals_parse_reads_a_referees_lines() -> None:
    assert deals_parse("0 2 4\n\n1，3，5\n0 1 逃跑 3\nleave 2") == [
        {"finish": [0, 2, 4]},
        {"finish": [1, 3, 5]},
        {"finish": [0, 1], "escape": 3},
        {"finish": [], "leave": 2},
    ]
    with pytest.raises(ApplicationError, match="Line 2"):
        deals_parse("0 2 4\n0 two 4")


def test_tallies_refresh_only_what_changed(world) -> None:
    pairing = world["pairing"]
    assert tallies_refresh(pairings=[pairing]) == 0
    submission = result_submit(
        pairing=pairing, user=world["referee"], first_dealer=0, deals=A_SWEEPS
    )
    result_confirm(submission=submission, user=world["checker"])
    assert tallies_refresh(pairings=[pairing]) == 0  # confirm refreshed it already
    Match.objects.filter(table=pairing.table).update(
        points=[7, -6, 6, -6, 6, -6], side_points={"A": 19, "B": -18}
    )
    assert tallies_refresh(pairings=[pairing]) == 1


def test_standings_queries_do_not_grow_with_teams_or_deals() -> None:
    def build(teams: int) -> Event:
        event = EventFactory(table_mode=Table.Mode.OFFLINE)
        for _ in range(teams):
            TeamFactory(event=event, unit=UnitFactory())
        referee, checker = UserFactory(), UserFactory()
        event_organizer_add(event=event, user=referee)
        event_organizer_add(event=event, user=checker)
        round_ = round_create_paired(event=event, confirm=True)
        round_start(round=round_)
        for pairing in round_.pairings.all():
            s = result_submit(
                pairing=pairing,
                user=referee,
                first_dealer=0,
                deals=A_SWEEPS * 1 + [{"finish": [1, 3, 5]}] * (teams // 6),
            )
            result_confirm(submission=s, user=checker)
        return event

    counts = []
    for size in (4, 12):
        event = build(size)
        with CaptureQueriesContext(connection) as ctx:
            event_team_standings(event=event)
            event_player_standings(event=event)
            event_unit_standings(event=event)
        counts.append(len(ctx.captured_queries))
    # Team and unit standings three queries each (sums, meetings, head-to-head), players two.
    assert counts[0] == counts[1] <= 8


def test_team_and_unit_standings_take_three_queries_at_most(
    django_assert_max_num_queries,
) -> None:
    event = EventFactory()
    for _ in range(6):
        TeamFactory(event=event, unit=UnitFactory())
    with django_assert_max_num_queries(3):
        event_team_standings(event=event)
    with django_assert_max_num_queries(3):
        event_unit_standings(event=event)


def _match_results(event: Event) -> tuple[list[MatchResult], list[int]]:
    """The oracle of the database totals: every pairing's result so far, read row by row from the
    tallies, and the teams with a bye, one per bye, for the pure module to rank."""
    results = [
        MatchResult(a, b, pa, pb, la, lb, w, status == PairingTally.Status.FINISHED)
        for a, b, pa, pb, la, lb, w, status in PairingTally.objects.filter(event=event)
        .exclude(status=PairingTally.Status.PENDING)
        .values_list(
            "team_a_id",
            "team_b_id",
            "points_a",
            "points_b",
            "level_a",
            "level_b",
            "winner_side",
            "status",
        )
        .order_by()
    ]
    byes = list(
        RoundEntry.objects.filter(round__event=event, pairing__isnull=True, absent=False)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("team_id", flat=True)
    )
    return results, byes


def test_database_totals_agree_with_the_pure_module() -> None:
    import random

    from tournaments.rounds.services import round_complete
    from tournaments.standings import ranking as standings

    rng = random.Random(5)
    event = EventFactory(table_mode=Table.Mode.OFFLINE, bye_points=2)
    for i in range(7):
        TeamFactory(event=event, unit=UnitFactory() if i % 3 else None)
    referee, checker = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=referee)
    event_organizer_add(event=event, user=checker)
    orders = [[0, 2, 4], [1, 3, 5], [0, 1, 2, 4], [1, 0, 3, 5], [0, 1, 2, 3, 4]]
    for number in range(3):
        round_ = round_create_paired(event=event, confirm=True)
        round_start(round=round_)
        for pairing in round_.pairings.all():
            if number == 2 and pairing.number == 1:
                continue  # left playing: counts points, not a result
            deals = [{"finish": rng.choice(orders)} for _ in range(rng.choice((1, 3)))]
            s = result_submit(
                pairing=pairing, user=referee, first_dealer=rng.randrange(6), deals=deals
            )
            result_confirm(submission=s, user=checker)
        if number < 2:
            round_complete(round=round_, force=True)
    teams = list(event.teams.order_by("name", "pk").values_list("pk", flat=True))
    results, byes = _match_results(event)
    expected = standings.team_standings(
        teams, results, byes=byes, bye_points=2, tie_breaks=event.tie_break_order
    )
    assert event_team_standings(event=event) == expected
    # Whole numbers, not the Decimal that PostgreSQL gives for a sum of sums.
    assert {type(v) for row in event_team_standings(event=event) for v in astuple(row)} <= {
        int,
        bool,
    }
    units = dict(event.teams.values_list("pk", "unit_id"))
    assert event_unit_standings(event=event) == standings.unit_standings(expected, units)


def test_both_shapes_of_the_team_sums_give_the_same_rows() -> None:
    """The team sums are one scan of the tallies on PostgreSQL and one grouping per side on
    SQLite (each the faster there); both are plain SQL, so both run here and must agree."""
    import random

    from tournaments.models import Round
    from tournaments.rounds.services import round_complete
    from tournaments.standings.totals import _team_sums_sql

    rng = random.Random(7)
    event = EventFactory(table_mode=Table.Mode.OFFLINE, bye_points=2)
    for i in range(5):  # odd: a bye each round
        TeamFactory(event=event, unit=UnitFactory() if i % 2 else None)
    referee, checker = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=referee)
    event_organizer_add(event=event, user=checker)
    orders = [[0, 2, 4], [1, 3, 5], [0, 1, 2, 4], [1, 0, 3, 5], [0, 1, 2, 3, 4]]
    for number in range(3):
        round_ = round_create_paired(event=event, confirm=True)
        round_start(round=round_)
        for pairing in round_.pairings.all():
            if number == 2 and pairing.number == 1:
                continue  # left playing
            deals = [{"finish": rng.choice(orders)} for _ in range(rng.choice((1, 2, 3)))]
            s = result_submit(
                pairing=pairing, user=referee, first_dealer=rng.randrange(6), deals=deals
            )
            result_confirm(submission=s, user=checker)
        if number < 2:
            round_complete(round=round_, force=True)
    params = {
        "event": event.pk,
        "finished": PairingTally.Status.FINISHED.value,
        "pending": PairingTally.Status.PENDING.value,
        "draft": Round.Status.DRAFT.value,
    }
    found = {}
    for vendor in ("postgresql", "sqlite"):
        with connection.cursor() as cursor:
            cursor.execute(_team_sums_sql(vendor), params)
            found[vendor] = [
                tuple(None if v is None else int(v) for v in row) for row in cursor.fetchall()
            ]
    assert len(found["sqlite"]) == 5
    assert any(row[-1] for row in found["sqlite"])  # a bye counted
    assert found["postgresql"] == found["sqlite"]


def test_player_totals_follow_every_correction(world) -> None:
    from django.db.models import Sum

    from tournaments.models import PlayerTotal

    pairing = world["pairing"]
    for by, checker, deals in [
        ("referee", "checker", A_SWEEPS),
        ("checker", "referee", [{"finish": [1, 3, 5]}, {"finish": [1, 0, 3, 5]}]),
        ("referee", "checker", [{"finish": [0, 1, 2, 4]}]),
    ]:
        s = result_submit(pairing=pairing, user=world[by], first_dealer=0, deals=deals)
        result_confirm(submission=s, user=world[checker])
        tallies = PlayerTally.objects.filter(event=world["event"])
        for player, points, deals_, paid in tallies.values_list(
            "player_id", "points", "deals", "tributes_paid"
        ):
            total = PlayerTotal.objects.get(event=world["event"], player_id=player)
            assert (total.points, total.deals, total.tributes_paid) == (points, deals_, paid)
    assert PlayerTotal.objects.aggregate(s=Sum("points"))["s"] == sum(
        PlayerTally.objects.values_list("points", flat=True)
    )
