"""The projector of an individual event (issue 16): the round's tables of four with each seat's
player and points, the player standings with the game's own figures, and the units by their best
N players, with the QR code of the public standings as for team events."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Match, Table
from games.signals import match_scored
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.models import Event, Pairing, RoundEntry
from tournaments.rounds.running import round_tables_start

pytestmark = pytest.mark.django_db


def _slide(page: str, name: str) -> str:
    """The HTML of the projector's slide ``name`` (tables, players, units)."""
    found = re.search(rf'<section class="slide" data-slide="{name}".*?</section>', page, re.S)
    assert found, f"no {name} slide"
    return found.group(0)


def _event(game: str, players: int, **fields: object) -> tuple[Event, list[object], list[object]]:
    event = EventFactory(game=game, table_mode=Table.Mode.ONLINE, **fields)
    units = [UnitFactory(name="研发部"), UnitFactory(name="财务部")]
    people = [PlayerFactory(name=f"选手{i:02d}") for i in range(players)]
    for i, player in enumerate(people):
        events_entries.membership_ensure(player=player, unit=units[i % 2])
    events_entries.registration_ensure(event=event, players=people)
    return event, people, units


def test_the_projector_of_an_individual_event_shows_tables_of_four_players_and_units() -> None:
    event, people, _units = _event("shanghai_doudizhu", 9, unit_best=2, bye_points=0)
    round = draw_services.round_create_paired(event=event, confirm=True)
    assert round_tables_start(round=round) == 2
    first = Pairing.objects.filter(round=round).order_by("number").first()
    seated = list(first.table.seats.order_by("seat").values_list("player__name", flat=True))
    Match.objects.filter(table=first.table).update(  # a deal was played at table 1
        points=[6, -2, -2, -2],
        figures={
            "rating": {"0": 4, "1": -1, "2": -1, "3": -1},
            "landlord_wins": {"0": 1, "1": 0, "2": 0, "3": 0},
        },
        updated_at=timezone.now(),
    )
    # as games does when it writes a deal's end (the tallies follow; the page only reads them)
    match_scored.send(sender=Match, match=Match.objects.get(table=first.table))
    unit_of = {p.name: ("研发部", "财务部")[i % 2] for i, p in enumerate(people)}

    response = Client().get(f"/events/{event.pk}/projector/")
    assert response.status_code == 200
    page = response.content.decode()

    tables = _slide(page, "tables")
    assert [f"{n}号座" in tables for n in (1, 2, 3, 4)] == [True] * 4
    assert "0、2、4号座" not in page  # no team sides
    for pairing in Pairing.objects.filter(round=round):
        for seat in pairing.table.seats.select_related("player"):
            assert seat.player.name in tables
    first_row = re.search(r'<tr id="table-1">.*?</tr>', tables, re.S).group(0)
    seat_points = re.findall(r'class="seat-points">([^<]+)<', first_row)
    assert seat_points == ["+6", "-2", "-2", "-2"]  # each seat's points in the table's match
    assert "进行中" in first_row and f'href="/tables/{first.table_id}/"' in first_row
    bye = RoundEntry.objects.get(round=round, pairing__isnull=True).player
    assert "轮空" in tables and bye.name in tables

    players = _slide(page, "players")
    assert "等级分" in players and "地主胜局" in players  # the game's own figures
    rows = re.findall(r"<tr>(.*?)</tr>", players, re.S)[1:]  # after the heading row
    cells = [re.sub(r"<[^>]+>", "|", r).replace("||", "|").strip("|").split("|") for r in rows]
    assert cells[0][:6] == ["1", seated[0], unit_of[seated[0]], "6", "4", "1"]
    assert {c[1] for c in cells[-3:]} == set(seated[1:])  # the -2s come last
    assert {c[3] for c in cells[-3:]} == {"-2"}
    assert len(rows) == 9  # every registered player
    assert "Team" not in players and "队伍" not in players

    units = _slide(page, "units")
    assert "最好的 2 名选手" in units
    leader, other = unit_of[seated[0]], {"研发部", "财务部"} - {unit_of[seated[0]]}
    assert units.index(leader) < units.index(other.pop())  # 6 + 0 beats 0 + 0 (or 0 - 2)
    assert ">2/5<" in units and ">2/4<" in units

    assert page.count("<svg") == 1  # the QR code of the public standings
    assert f"/events/{event.pk}/standings/" in page

    english = Client()
    english.cookies["django_language"] = "en"
    page = english.get(f"/events/{event.pk}/projector/").content.decode()
    assert "Seat 4" in _slide(page, "tables") and "rating points" in _slide(page, "players")
    assert "号座" not in page and "等级分" not in page  # one language per page


def test_the_projector_of_an_individual_event_before_any_round() -> None:
    event, people, _units = _event("xiaoluzi", 5)
    page = Client().get(f"/events/{event.pk}/projector/?seconds=abc").content.decode()
    assert "尚未编排轮次" in _slide(page, "tables")
    players = _slide(page, "players")
    assert "银子" in players and all(p.name in players for p in people)
    assert "研发部" in _slide(page, "units")
    assert 'data-seconds="15"' in page  # a bad page time falls back to the default


def test_the_projector_of_a_private_individual_event_is_hidden() -> None:
    event, _people, _units = _event("xiaoluzi", 5, is_private=True)
    assert Client().get(f"/events/{event.pk}/projector/").status_code == 404
