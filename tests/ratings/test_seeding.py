"""Seeding by rating (issue 29): an event's option draws Swiss round 1 and breaks the knockout's
ties by rating; an import may form teams balanced by rating within each unit."""

from __future__ import annotations

import pytest

from games.models import Player
from ratings.models import Rating
from ratings.seeding import balanced_teams, spread, ties_by_rating
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events.importing import plan_import

pytestmark = pytest.mark.django_db


def _rate(player: Player, game: str, value: int) -> None:
    Rating.objects.create(
        player=player, game=game, scope="all", mu=25, sigma=1, display=value, matches=20,
        last_seq=1, last_played_at="2026-01-01T00:00:00Z",
    )  # fmt: skip


def _team_event(seeded: bool):
    event = EventFactory(game="daguai", seed_by_rating=seeded)
    unit = UnitFactory()
    teams = []
    for t, value in enumerate([1000, 1900, 1200, 2000, 1500, 1700, 1300, 1800]):
        people = PlayerFactory.create_batch(3)
        for p in people:
            _rate(p, "daguai", value)
        teams.append(
            (
                value,
                events_entries.team_create(event=event, name=f"T{t}", players=people, unit=unit),
            )
        )
    return event, dict((team.pk, value) for value, team in teams)


def test_round_one_seeded_by_rating_sets_the_top_half_against_the_bottom_half() -> None:
    event, strength = _team_event(True)
    round_ = draw_services.round_create_paired(event=event)
    tables = sorted(
        tuple(sorted((strength[p.team_a_id], strength[p.team_b_id]), reverse=True))
        for p in round_.pairings.all()
    )
    # 1st v 5th, 2nd v 6th...: the top half against the bottom half
    assert tables == [(1700, 1000), (1800, 1200), (1900, 1300), (2000, 1500)]


def test_an_individual_round_one_seats_one_player_of_each_band_at_every_table() -> None:
    event = EventFactory(game="xiaoluzi", seed_by_rating=True)
    unit = UnitFactory()
    people = PlayerFactory.create_batch(8)
    for i, p in enumerate(people):
        events_entries.membership_ensure(player=p, unit=unit)
        _rate(p, "xiaoluzi", 1000 + 100 * i)
    events_entries.registration_ensure(event=event, players=people)
    round_ = draw_services.round_create_paired(event=event)
    top_two = {people[-1].pk, people[-2].pk}
    for pairing in round_.pairings.all():
        seated = set(pairing.table.seats.values_list("player_id", flat=True))
        assert len(seated & top_two) == 1


def test_knockout_ties_are_broken_by_rating() -> None:
    event, strength = _team_event(True)
    ids = sorted(strength, key=lambda t: strength[t])  # weakest first
    ranked = [(1, ids[0]), (1, ids[1]), (3, ids[7]), (3, ids[6])]
    assert ties_by_rating(event=event, ranked=ranked) == [
        (1, ids[1]), (1, ids[0]), (3, ids[7]), (3, ids[6])
    ]  # fmt: skip


def test_balanced_teams_draft_in_a_snake() -> None:
    people = PlayerFactory.create_batch(7)
    for p, value in zip(people, [2000, 1900, 1800, 1700, 1600, 1500, 1400], strict=True):
        _rate(p, "daguai", value)
    teams = balanced_teams(game="daguai", players=people[:6])
    assert [[people.index(p) for p in t] for t in teams] == [[0, 3, 4], [1, 2, 5]]
    assert spread([1, 2, 3, 4], 2) == [1, 3, 2, 4]


def test_an_import_may_form_balanced_teams_keeping_the_last_in_file_order_apart() -> None:
    rows = [{"name": f"P{i}", "unit": "U", "team": "", "employee_number": ""} for i in range(7)]

    def reverse(members):
        return list(reversed(members))

    plan = plan_import(rows, team_order=reverse)
    assert [[p.name for p in t.players] for t in plan.teams] == [
        ["P5", "P4", "P3"], ["P2", "P1", "P0"]
    ]  # fmt: skip
    assert [p.name for p in plan.without_team] == ["P6"]
