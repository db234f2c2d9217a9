"""Individual events (issue 12): every registered player for themselves at tables of the game's
size, Swiss by standing, byes or bots for a field that does not divide, standings with the
game's own figures, units by their best players, and whole events through Celery."""

from __future__ import annotations

import csv
import io
import json
from itertools import combinations
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from config.exceptions import ApplicationError
from games.models import Match, TableSeat
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tests.workers import celery_workers
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import Event, Pairing, PairingTally, PlayerTotal, Round, RoundEntry
from tournaments.rounds import services as rounds_services
from tournaments.standings.selectors import (
    event_standings_rows,
    meet_unit_standings,
    standings_columns,
)
from tournaments.standings.totals import event_player_standings, event_unit_standings


def _event(game: str, players: int, **fields: Any) -> tuple[Event, list[Any]]:
    event = EventFactory(game=game, **fields)
    units = [UnitFactory(), UnitFactory()]
    people = PlayerFactory.create_batch(players)
    for i, player in enumerate(people):
        events_entries.membership_ensure(player=player, unit=units[i % 2])
    events_entries.registration_ensure(event=event, players=people)
    return event, people


def _seated(round: Round) -> list[list[int]]:
    return [
        list(p.table.seats.order_by("seat").values_list("player_id", flat=True))
        for p in round.pairings.order_by("number")
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_a_round_seats_every_player_at_tables_of_four_with_a_bye(game: str) -> None:
    event, people = _event(game, 9)
    assert event.is_individual and event.table_size == 4
    round = draw_services.round_create_paired(event=event, confirm=True)
    tables = _seated(round)
    assert [len(t) for t in tables] == [4, 4]
    byes = list(
        RoundEntry.objects.filter(round=round, pairing__isnull=True).values_list(
            "player_id", flat=True
        )
    )
    assert len(byes) == 1
    assert sorted([p for t in tables for p in t] + byes) == sorted(p.pk for p in people)
    for pairing in round.pairings.all():
        assert pairing.team_a_id is None and pairing.table.game == game
        assert pairing.table.seat_count == 4
        assert PairingTally.objects.filter(pairing=pairing).exists()
    assert "2 tables" in round.log.get(action="paired").detail


@pytest.mark.django_db
def test_bots_fill_the_tables_when_the_event_says_so() -> None:
    event, people = _event("xiaoluzi", 6, fill_with_bots=True)
    round = draw_services.round_create_paired(event=event, confirm=True)
    assert not RoundEntry.objects.filter(round=round, pairing__isnull=True).exists()
    seats = TableSeat.objects.filter(table__pairing__round=round)
    assert seats.count() == 8 and seats.filter(player__is_bot=True).count() == 2
    assert {s.player_id for s in seats if not s.player.is_bot} == {p.pk for p in people}


@pytest.mark.django_db
def test_too_few_players_is_refused_with_a_reason_and_changes_nothing() -> None:
    event, _people = _event("shanghai_doudizhu", 3)
    with pytest.raises(ApplicationError):
        draw_services.round_create_paired(event=event)
    assert not Round.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_round_robin_is_for_team_events() -> None:
    event, _people = _event("xiaoluzi", 8, pairing_format=Event.PairingFormat.ROUND_ROBIN)
    with pytest.raises(ApplicationError):
        draw_services.round_create_paired(event=event)
    assert not Round.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_the_second_round_avoids_the_first_rounds_tablemates() -> None:
    event, _people = _event("xiaoluzi", 16)
    first = draw_services.round_create_paired(event=event, confirm=True)
    met = {frozenset(pair) for table in _seated(first) for pair in combinations(table, 2)}
    rounds_services.round_start(round=first, start_matches=False)
    rounds_services.round_complete(round=first, force=True, reason="test")
    second = draw_services.round_create_paired(event=event, confirm=True)
    again = {frozenset(pair) for table in _seated(second) for pair in combinations(table, 2)}
    assert not met & again


@pytest.mark.django_db
def test_standings_add_byes_and_break_ties_with_the_games_figures() -> None:
    event, people = _event("shanghai_doudizhu", 5, bye_points=2)
    a, b, c = people[:3]
    round = Round.objects.create(event=event, number=1, status=Round.Status.COMPLETED)
    RoundEntry.objects.create(round=round, player=c)
    PlayerTotal.objects.create(event=event, player=a, points=6, deals=1, figures={"rating": 1})
    PlayerTotal.objects.create(event=event, player=b, points=6, deals=1, figures={"rating": 3})
    rows = event_player_standings(event=event)
    assert [r.player for r in rows[:3]] == [b.pk, a.pk, c.pk]  # rating breaks the 6 = 6 tie
    assert rows[2].points == 2 and rows[2].byes == 1
    assert len(rows) == 5  # every registered player is listed
    columns = standings_columns(event, "player")
    assert "rating" in columns and "landlord_wins" in columns and columns[-1] == "tied"
    first = event_standings_rows(event=event, kind="player")[0]
    assert first.figures["rating"] == 3 and set(columns) <= set(first.as_dict())


@pytest.mark.django_db
def test_xiaoluzi_standings_show_silver_declarations_and_slams_and_break_ties_in_that_order() -> (
    None
):
    event, people = _event("xiaoluzi", 5)
    a, b, c, d, e = people
    for player, silver, made, slams in ((a, 3, 1, 0), (b, 3, 2, 0), (c, 3, 2, 1), (d, 5, 0, 0)):
        figures = {"silver": silver, "declared_won": made, "slams": slams}
        PlayerTotal.objects.create(event=event, player=player, points=4, deals=4, figures=figures)
    # all on 4 points: silver first (d), then 宣牌成功 (c and b before a), then 全关 (c before b)
    rows = event_player_standings(event=event)
    assert [r.player for r in rows] == [d.pk, c.pk, b.pk, a.pk, e.pk]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5] and not any(r.tied for r in rows)
    columns = standings_columns(event, "player")
    assert columns[-4:] == ("silver", "declared_won", "slams", "tied")
    plain = event_standings_rows(event=event, kind="player")
    figures = [r.figures for r in plain]
    assert [(f["silver"], f["declared_won"], f["slams"]) for f in figures] == [
        (5, 0, 0), (3, 2, 1), (3, 2, 0), (3, 1, 0), (0, 0, 0)
    ]  # fmt: skip

    client = Client()
    api = client.get(f"/api/v1/events/{event.pk}/standings/?kind=player").json()
    assert api["columns"] == list(columns)
    assert [(r["player_id"], r["declared_won"], r["slams"]) for r in api["rows"][:2]] == [
        (d.pk, 0, 0),
        (c.pk, 2, 1),
    ]
    download = client.get(f"/api/v1/events/{event.pk}/standings.csv?kind=player")
    lines = list(csv.reader(io.StringIO(download.content.decode("utf-8-sig"))))
    assert tuple(lines[0]) == columns
    second = dict(zip(lines[0], lines[2], strict=True))
    assert (second["player"], second["declared_won"], second["slams"]) == (c.name, "2", "1")
    # the pages name the figures with the game's labels, in the tie-break order
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert page.index("银子") < page.index("宣牌成功") < page.index("全关")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "silver, declarations made, slams won" in english
    projector = client.get(f"/events/{event.pk}/projector/").content.decode()
    assert "declarations made" in projector and "slams won" in projector


@pytest.mark.django_db
def test_a_units_standing_adds_up_its_best_players() -> None:
    event, people = _event("xiaoluzi", 6, unit_best=2)
    for player, points in zip(people, [9, 5, 4, 3, -8, -13], strict=True):
        PlayerTotal.objects.create(event=event, player=player, points=points)
    # units alternate: unit 0 holds 9, 4, -8 (best two: 13), unit 1 holds 5, 3, -13 (8)
    units = event_unit_standings(event=event)
    assert [(u.points, u.counted, u.players) for u in units] == [(13, 2, 3), (8, 2, 3)]
    board = meet_unit_standings(meet=event.meet)
    assert [m.unit for m in board] == [u.unit for u in units]


@pytest.mark.django_db
def test_public_pages_of_an_individual_event() -> None:
    event, people = _event("xiaoluzi", 9)
    round = draw_services.round_create_paired(event=event, confirm=True)
    client = Client()
    for url in (
        f"/events/{event.pk}/",
        f"/events/{event.pk}/standings/",
        f"/events/{event.pk}/standings/?kind=unit",
        f"/events/{event.pk}/standings/?kind=team",
        f"/events/{event.pk}/rounds/{round.number}/",
        f"/events/{event.pk}/players/{people[0].pk}/",
        f"/api/v1/events/{event.pk}/standings/?kind=player",
        f"/api/v1/events/{event.pk}/standings.csv?kind=unit",
        f"/api/v1/rounds/{round.pk}/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    page = client.get(f"/events/{event.pk}/rounds/{round.number}/").content.decode()
    seated = Pairing.objects.filter(round=round).first().table.seats.first().player.name
    assert seated in page


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), str(exc)
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["xiaoluzi", "shanghai_doudizhu"])
def test_simulate_event_runs_an_individual_event_through_celery(game: str) -> None:
    with celery_workers(1):
        code, out, err = _run(
            "simulate_event", "--game", game, "--players", "9", "--rounds", "2",
            "--deals", "2", "--json", "--timeout", "240",
        )  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["rounds"] == 2 and summary["matches"] == 4 and summary["deals"] >= 8
    event = Event.objects.get(pk=summary["event"])
    assert event.game == game
    assert Match.objects.filter(table__pairing__round__event=event, game=game).count() == 4
    code, out, _ = _run("verify_records", "--event", str(event.pk), "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    rows = event_standings_rows(event=event, kind="player")
    assert len(rows) == 9 and sum(r.points for r in rows) == 0  # zero-sum, no bye points
    figure = "silver" if game == "xiaoluzi" else "rating"
    assert any(r.figures[figure] for r in rows)


def test_simulate_event_refuses_an_unknown_game() -> None:
    code, _out, err = _run("simulate_event", "--game", "chess", "--json")
    assert code == 2 and "chess" in err


@pytest.mark.django_db
def test_an_individual_events_code_sheet_gives_each_registered_player_a_code() -> None:
    from accounts.services import login_code_redeem
    from tests.games.factories import UserFactory

    event, people = _event("xiaoluzi", 5)
    organizer = UserFactory()
    events_staff.event_organizer_add(event=event, user=organizer)
    client = Client()
    client.force_login(organizer)
    response = client.post(f"/events/{event.pk}/manage/codes/", {"scope": "event"})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    page = response.content.decode()
    for player in people:
        player.refresh_from_db()
        assert player.name in page and player.user is not None
    code = page.split('<p class="code">')[1].split("<")[0].strip()
    assert login_code_redeem(code=code).player in people
    stranger = UserFactory()
    client.force_login(stranger)
    assert client.post(f"/events/{event.pk}/manage/codes/", {"scope": "event"}).status_code in (
        403,
        404,
    )
