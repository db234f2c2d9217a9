"""A fixed-sides team game that exists only in the tests (tests/pairsgame.py, 对墩: two sides of two
at tables of four) runs a team event end to end through the registry alone (issue 27): its teams
have two players because a side has two seats, and sit on the game's side seats; an import, a
Swiss round, a table played by a person and bots on a real Celery worker, a duplicate round, a
knockout stage, the team, player and unit standings, the projector, a replay and verify_records.
No production code names the game."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from config.apps import games_register_extra
from config.exceptions import ApplicationError
from engine.registry import unregister
from games.models import Deal, Match, Player, Table
from games.play import services as play_services
from games.tables import services as tables_services
from tests.games.factories import BotFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tests.workers import celery_workers
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events.registration_import import event_import, event_import_plan
from tournaments.knockout import deciding as knockout_deciding
from tournaments.knockout import selectors as knockout_selectors
from tournaments.knockout import services as knockout_services
from tournaments.models import Event, KnockoutStage, Pairing, TeamMember
from tournaments.rounds.running import round_run
from tournaments.standings.selectors import event_standings_rows, standings_columns

pytestmark = pytest.mark.django_db(transaction=True)

SPEC = "pairs=tests.pairsgame"


@pytest.fixture(autouse=True)
def pairs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """对墩 registered here and, through the setting, in the Celery workers."""
    monkeypatch.setenv("LUZI_EXTRA_GAMES", SPEC)
    assert games_register_extra(SPEC) == ["pairs"]
    yield
    unregister("pairs")


def _csv(rows: list[tuple[str, str, str]]) -> bytes:
    return ("name,unit,team\n" + "".join(f"{n},{u},{t}\n" for n, u, t in rows)).encode()


def _seated(pairing: Pairing) -> dict[int, int]:
    return dict(pairing.table.seats.values_list("seat", "player_id"))


def _members(team_id: int) -> list[int]:
    return list(
        TeamMember.objects.filter(team_id=team_id)
        .order_by("order")
        .values_list("player", flat=True)
    )


def _person_plays(client: Client, table: Table, match: Match, seat: int) -> int:
    """The person at ``seat`` plays a legal card whenever it is their turn, through the API,
    while the worker plays the bots; returns how many cards they played."""
    played, deadline = 0, time.monotonic() + 120
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return played
        state = client.get(f"/api/v1/tables/{table.pk}/state/").json()
        deal = state.get("deal") or {}
        if seat in (deal.get("awaiting") or []) and state["you"]["legal"]:
            legal = state["you"]["legal"][0]
            answer = client.post(
                f"/api/v1/tables/{table.pk}/actions/",
                {**legal, "seq": state["seq"], "deal": state["deal_number"]},
                content_type="application/json",
            )
            assert answer.status_code in (200, 409), answer.content  # 409: a bot moved first
            played += answer.status_code == 200
        time.sleep(0.1)
    raise AssertionError("the person's table did not finish")


def test_a_team_event_of_a_two_a_side_game_runs_end_to_end() -> None:
    event = EventFactory(game="pairs", deals_per_match=1, table_mode=Table.Mode.ONLINE)
    assert not event.is_individual and (event.table_size, event.team_size) == (4, 2)

    # import: named teams of two, and two free players of one unit formed into a team
    red, blue = "红星厂", "蓝天厂"
    rows = [(f"{red}{i}", red, f"红{i // 2}") for i in range(4)]
    rows += [(f"{blue}{i}", blue, f"蓝{i // 2}") for i in range(4)]
    rows += [(f"{blue}自由{i}", blue, "") for i in range(2)]
    three = event_import_plan(
        event=event, filename="t.csv", content=_csv([*rows[:2], (f"{red}9", red, "红0")])
    )
    assert [p.row for p in three.problems] == [2]  # a team of three: a team of 对墩 has two
    plan = event_import(event=event, filename="t.csv", content=_csv(rows))
    assert len(plan.teams) == 5 and all(len(t.players) == 2 for t in plan.teams)
    assert event.teams.count() == 5
    teams = list(event.teams.order_by("name"))
    # a rehearsal: the system's bots play for the imported players (tie-break tables start alone)
    Player.objects.filter(registrations__event=event).update(is_bot=True, bot_kind="heuristic")
    with pytest.raises(ApplicationError):
        events_entries.team_create(event=event, name="三人队", players=BotFactory.create_batch(3))

    # a person and bots at an online table, and every round, on a real worker
    person = PlayerFactory(user=UserFactory())
    client = Client()
    client.force_login(person.user)
    table = tables_services.table_create(
        name="对墩桌", players=[person, *BotFactory.create_batch(3)], game="pairs"
    )
    with celery_workers(1):
        match = play_services.match_start(table=table, deals_per_match=2, bot_delay_ms=0)
        assert _person_plays(client, table, match, 0) == 8  # two deals of four cards
        match.refresh_from_db()
        assert match.points[0] == match.points[2] and sum(match.points) == 0
        assert set(match.side_points) == {"A", "B"}
        assert client.get(f"/tables/{table.pk}/").status_code == 200  # the person's table page

        # a Swiss round: 5 teams, 2 tables and a bye; team A on the seats of the game's side A
        # (0, 2), team B on those of side B (1, 3), each in its members' order
        first = draw_services.round_create_paired(event=event, confirm=True)
        assert first.pairings.count() == 2
        for pairing in first.pairings.all():
            a, b = _members(pairing.team_a_id), _members(pairing.team_b_id)
            assert _seated(pairing) == {0: a[0], 1: b[0], 2: a[1], 3: b[1]}
        assert round_run(round=first, bots=True, bot_delay_ms=0, timeout=120).complete
        second = draw_services.round_create_paired(
            event=Event.objects.get(pk=event.pk), confirm=True
        )
        assert round_run(round=second, bots=True, bot_delay_ms=0, timeout=120).complete

        # a knockout stage of the top four
        stage = knockout_services.knockout_break(
            event=event, size=4, deals_per_match=1, final_deals=1
        )
        knockout_services.knockout_confirm(stage=stage)
        for _step in range(8):  # semi-finals, finals, and any tie-break deals
            stage.refresh_from_db()
            if stage.status == KnockoutStage.Status.COMPLETED:
                break
            current = knockout_selectors.stage_current_round(stage)
            assert current is not None
            assert round_run(round=current, bots=True, bot_delay_ms=0, timeout=120).complete
            knockout_deciding.knockout_complete(stage=stage)
        stage.refresh_from_db()
        assert stage.status == KnockoutStage.Status.COMPLETED
        placement = knockout_selectors.event_final_placement(event=event)
        assert placement is not None and [p.place for p in placement][:4] == [1, 2, 3, 4]

        # a duplicate event of the same game: every table of a round deals the same deals
        dup = EventFactory(game="pairs", deals_per_match=2, duplicate=True, meet=event.meet)
        unit = UnitFactory()
        for t in range(4):
            events_entries.team_create(event=dup, name=f"复{t}", players=BotFactory.create_batch(2))
            dup.teams.filter(name=f"复{t}").update(unit=unit)
        board = draw_services.round_create_paired(event=dup, confirm=True)
        assert round_run(round=board, bots=True, bot_delay_ms=0, timeout=120).complete
    board.refresh_from_db()
    seeds = [
        list(Deal.objects.filter(match__table=p.table).order_by("number").values_list("seed"))
        for p in board.pairings.all()
    ]
    assert len(seeds) == 2 and seeds[0] == seeds[1] and len(seeds[0]) == 2
    assert len(event_standings_rows(event=dup, kind="team")) == 4

    # standings: teams (by the match points of the sides), players (with the game's figure), units
    team_rows = event_standings_rows(event=event, kind="team")
    assert len(team_rows) == 5 and all(r.highest_level == "2" for r in team_rows)
    players = event_standings_rows(event=event, kind="player")
    assert len(players) == 10 and "tricks" in standings_columns(event, "player")
    assert {r.unit for r in event_standings_rows(event=event, kind="unit")} >= {red, blue}
    public = Client()
    deal = Deal.objects.filter(match__table__pairing__round=first).first()
    assert deal is not None
    for url in (
        f"/events/{event.pk}/standings/",
        f"/events/{event.pk}/projector/",
        f"/events/{event.pk}/rounds/{first.number}/",
        f"/teams/{teams[0].pk}/",
        f"/events/{event.pk}/bracket/",
        f"/deals/{deal.pk}/replay/",
        f"/api/v1/deals/{deal.pk}/record/",
        f"/api/v1/events/{event.pk}/standings/?kind=team",
    ):
        assert public.get(url).status_code == 200, url
    out = io.StringIO()
    call_command("verify_records", "--json", stdout=out)
    report: dict[str, Any] = json.loads(out.getvalue())
    assert report["ok"] is True
