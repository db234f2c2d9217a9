"""Round services: paired creation, manual tables, the draft → confirmed → running → completed
lifecycle, the log, and refusals that change nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from games.models import Match, Table
from tests.games.factories import UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired, round_pairings_set
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, Pairing, PairingTally, Round, RoundEntry, RoundLog
from tournaments.rounds.services import round_complete, round_confirm, round_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):  # the messages below are matched in English
        yield


def _event(teams: int = 4, **kwargs) -> Event:
    event = EventFactory(**kwargs)
    units = [UnitFactory(), UnitFactory()]
    for i in range(teams):
        TeamFactory(event=event, unit=units[i % 2])
    return event


def _finish(round_: Round, *, winner: str = "A") -> None:
    """Stand in for games: a finished match at every table of the round."""
    for pairing in round_.pairings.select_related("table"):
        _finish_one(pairing, winner=winner)


def _finish_one(pairing: Pairing, *, winner: str) -> None:
    points = [6, -6, 6, -6, 6, -6] if winner == "A" else [-6, 6, -6, 6, -6, 6]
    Match.objects.create(
        table=pairing.table,
        status=Match.Status.FINISHED,
        end_reason=Match.EndReason.DEALS_PLAYED,
        winner=winner,
        figures={"level": {"A": 3 if winner == "A" else 2, "B": 3 if winner == "B" else 2}},
        points=points,
        side_points={"A": sum(points[0::2]), "B": sum(points[1::2])},
    )


def test_round_create_paired_seats_every_team_once_with_a_bye_for_an_odd_count() -> None:
    event = _event(teams=5)
    round_ = round_create_paired(event=event)
    assert round_.number == 1 and round_.status == Round.Status.DRAFT
    assert round_.pairings.count() == 2
    entries = RoundEntry.objects.filter(round=round_)
    assert entries.count() == 5
    assert entries.filter(pairing__isnull=True).count() == 1
    for pairing in round_.pairings.select_related("table"):
        assert pairing.table.seats.count() == 6
        assert pairing.table.mode == Table.Mode.ONLINE
        assert pairing.team_a.unit_id != pairing.team_b.unit_id  # units kept apart
    assert RoundLog.objects.filter(round=round_, action="paired").exists()


def test_round_create_paired_with_confirm_is_ready_to_start() -> None:
    event = _event(table_mode=Table.Mode.OFFLINE)
    round_ = round_create_paired(event=event, confirm=True)
    assert round_.status == Round.Status.CONFIRMED
    assert set(Table.objects.values_list("mode", flat=True)) == {"offline"}


def test_swiss_second_round_avoids_rematches_and_follows_the_standings() -> None:
    event = _event(teams=4)
    first = round_create_paired(event=event, confirm=True)
    round_start(round=first, start_matches=False)
    # the winners come from different units, so following the standings keeps units apart too
    # (regression: with both winners in one unit this test depended on the teams' ids)
    pairings = list(first.pairings.select_related("team_a", "team_b").order_by("number"))
    unit_of_winner = pairings[0].team_a.unit_id
    winners = set()
    for pairing in pairings:
        side = "A" if (pairing.team_a.unit_id == unit_of_winner) == (pairing.number == 1) else "B"
        winners.add(pairing.team_a_id if side == "A" else pairing.team_b_id)
        _finish_one(pairing, winner=side)
    second = round_create_paired(event=event)  # completes the first round on the way
    first.refresh_from_db()
    assert first.status == Round.Status.COMPLETED
    before = {frozenset((p.team_a_id, p.team_b_id)) for p in first.pairings.all()}
    after = {frozenset((p.team_a_id, p.team_b_id)) for p in second.pairings.all()}
    assert not before & after
    assert frozenset(winners) in after  # the two winners meet, as the standings say


def test_round_robin_event_meets_everyone_then_refuses_more_rounds() -> None:
    event = _event(teams=4, pairing_format=Event.PairingFormat.ROUND_ROBIN)
    met = set()
    for _ in range(3):
        round_ = round_create_paired(event=event, confirm=True)
        round_start(round=round_, start_matches=False)
        _finish(round_)
        met |= {frozenset((p.team_a_id, p.team_b_id)) for p in round_.pairings.all()}
        round_complete(round=round_)
    assert len(met) == 6
    with pytest.raises(ApplicationError, match="past the last"):
        round_create_paired(event=event)
    assert event.rounds.count() == 3


def test_a_new_round_waits_for_the_previous_one() -> None:
    event = _event()
    round_create_paired(event=event)
    with pytest.raises(ConflictError, match="Round 1 is still"):
        round_create_paired(event=event)
    assert event.rounds.count() == 1


def test_completing_a_round_with_unfinished_tables_is_refused_unless_forced() -> None:
    event = _event()
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_, start_matches=False)
    with pytest.raises(ConflictError, match="unfinished tables: 1, 2"):
        round_complete(round=round_)
    round_complete(round=round_, force=True)
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETED
    assert "forced" in RoundLog.objects.get(round=round_, action="completed").detail


def test_manual_pairing_and_draft_edits() -> None:
    event = _event(teams=5, pairing_format=Event.PairingFormat.MANUAL)
    round_ = round_create_paired(event=event)
    assert round_.pairings.count() == 0
    t = list(event.teams.order_by("pk").values_list("pk", flat=True))
    round_pairings_set(
        round=round_, tables=[(t[0], t[1]), (t[2], t[3])], modes=["online", "offline"]
    )
    assert list(round_.pairings.values_list("team_a", "team_b")) == [(t[0], t[1]), (t[2], t[3])]
    assert list(
        RoundEntry.objects.filter(round=round_, pairing=None).values_list("team", flat=True)
    ) == [t[4]]
    # Edit: swap opponents; the old tables go, nothing left behind.
    round_pairings_set(round=round_, tables=[(t[0], t[2]), (t[1], t[4])])
    assert Table.objects.count() == 2
    assert Pairing.objects.count() == 2 and PairingTally.objects.count() == 2
    assert RoundLog.objects.filter(round=round_, action="edited").count() == 2


def test_draft_edits_refuse_bad_tables_and_change_nothing() -> None:
    event = _event(teams=4, pairing_format=Event.PairingFormat.MANUAL)
    other = TeamFactory()
    round_ = round_create_paired(event=event)
    t = list(event.teams.order_by("pk").values_list("pk", flat=True))
    round_pairings_set(round=round_, tables=[(t[0], t[1]), (t[2], t[3])])
    for tables, message in [
        ([(t[0], t[1]), (t[1], t[2])], "only one table"),
        ([(t[0], t[0])], "only one table|itself"),
        ([(t[0], other.pk)], "Not teams of"),
    ]:
        with pytest.raises(ApplicationError, match=message):
            round_pairings_set(round=round_, tables=tables)
    assert list(round_.pairings.values_list("team_a", "team_b")) == [(t[0], t[1]), (t[2], t[3])]
    round_confirm(round=round_)
    with pytest.raises(ConflictError, match="only a draft can be edited"):
        round_pairings_set(round=round_, tables=[(t[0], t[2]), (t[1], t[3])])


def test_only_organizers_manage_rounds() -> None:
    event = _event()
    stranger, organizer = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=organizer)
    with pytest.raises(NotAllowedError, match="Only the organizers"):
        round_create_paired(event=event, user=stranger)
    assert event.rounds.count() == 0
    round_ = round_create_paired(event=event, user=organizer)
    assert RoundLog.objects.get(round=round_).user == organizer


def test_teams_must_be_complete_before_pairing() -> None:
    event = _event()
    TeamFactory(event=event, members=False)
    with pytest.raises(ApplicationError, match="needs 3 players"):
        round_create_paired(event=event)
    assert event.rounds.count() == 0 and Table.objects.count() == 0


def test_round_start_makes_the_event_running_and_refuses_twice() -> None:
    event = _event()
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_, start_matches=False)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    with pytest.raises(ConflictError, match="not confirmed"):
        round_start(round=round_, start_matches=False)


def test_a_withdrawn_team_is_not_paired_but_keeps_its_results() -> None:
    from tournaments.events.entries import team_withdraw

    event = _event(teams=4)
    first = round_create_paired(event=event, confirm=True)
    round_start(round=first, start_matches=False)
    _finish(first)
    gone = first.pairings.first().team_a
    team_withdraw(team=gone)
    second = round_create_paired(event=event)
    placed = {e.team_id for e in RoundEntry.objects.filter(round=second)}
    assert gone.pk not in placed and len(placed) == 3
    from tournaments.standings.totals import event_team_standings

    assert next(r for r in event_team_standings(event=event) if r.team == gone.pk).points == 18
    with pytest.raises(NotAllowedError):
        team_withdraw(team=gone, user=UserFactory(), withdrawn=False)


def test_the_dashboard_withdraws_and_brings_back_a_team() -> None:
    """A no-show team is withdrawn from the dashboard (and brought back): the team event's
    counterpart of a player's withdrawal; only the event's organizers may, with a 400 for a
    form this site does not send and a 404 for another event's team."""
    from django.test import Client
    from django.urls import reverse

    event = _event(teams=4)
    organizer, stranger = UserFactory(), UserFactory()
    event_organizer_add(event=event, user=organizer)
    page, other = Client(), Client()
    page.force_login(organizer)
    other.force_login(stranger)
    url = reverse("tournaments:team_withdraw", args=[event.pk])
    team = event.teams.order_by("pk").first()
    assert other.post(url, {"team": team.pk}).status_code == 403
    assert page.post(url, {"team": "x"}).status_code == 400
    assert page.post(url, {"team": TeamFactory().pk}).status_code == 404
    assert page.get(url).status_code == 405
    response = page.post(url, {"team": team.pk}, follow=True)
    assert response.status_code == 200
    team.refresh_from_db()
    assert team.withdrawn
    html = response.content.decode()
    assert f'name="team" value="{team.pk}"' in html and "恢复参赛" in html
    second = round_create_paired(event=event)
    assert team.pk not in {e.team_id for e in RoundEntry.objects.filter(round=second)}
    page.post(url, {"team": team.pk, "withdrawn": "0"})
    team.refresh_from_db()
    assert not team.withdrawn
