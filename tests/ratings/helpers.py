"""Events whose tables finish with made-up matches (standing in for games), for the ratings'
tests: every game, team and individual."""

from __future__ import annotations

import random
from typing import Any

from games.models import Match
from tests.games.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.models import Event, Pairing, Round
from tournaments.results.tallies import tallies_refresh
from tournaments.rounds import services as rounds_services

GAMES = ("daguai", "xiaoluzi", "shanghai_doudizhu")


def event_make(game: str, *, players: int = 12, private: bool = False, people: Any = None) -> Event:
    """An event of ``game`` (teams of three for 大怪路子, else individual) with fresh players
    (or ``people``), two units."""
    event = EventFactory(game=game, is_private=private)
    units = [UnitFactory(), UnitFactory()]
    people = list(people) if people is not None else PlayerFactory.create_batch(players)
    for i, player in enumerate(people):
        events_entries.membership_ensure(player=player, unit=units[i % 2])
    if event.is_individual:
        events_entries.registration_ensure(event=event, players=people)
    else:
        for t in range(len(people) // 3):
            events_entries.team_create(
                event=event, name=f"队{t}", players=people[3 * t : 3 * t + 3], unit=units[t % 2]
            )
    return event


def match_finish(pairing: Pairing, rng: random.Random, *, points: list[int] | None = None) -> Match:
    """A finished match at the pairing's table, with ``points`` per seat (else random ones)."""
    seats = pairing.table.seat_count
    if points is None:
        points = [rng.randint(-6, 6) for _ in range(seats - 1)]
        points.append(-sum(points))
    side_points: dict[str, int] = {}
    winner = ""
    if seats == 6:
        side_points = {"A": sum(points[0::2]), "B": sum(points[1::2])}
        if side_points["A"] != side_points["B"]:
            winner = "A" if side_points["A"] > side_points["B"] else "B"
    return Match.objects.create(
        table=pairing.table,
        game=pairing.table.game,
        status=Match.Status.FINISHED,
        end_reason=Match.EndReason.DEALS_PLAYED,
        winner=winner,
        points=points,
        side_points=side_points,
    )


def round_play(event: Event, rng: random.Random) -> Round:
    """Pair, start and finish a round of ``event`` (its tallies refreshed)."""
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_, start_matches=False)
    for pairing in round_.pairings.select_related("table").order_by("number"):
        match_finish(pairing, rng)
    tallies_refresh(pairings=round_.pairings.all())
    return round_


def match_correct(pairing: Pairing, rng: random.Random) -> Match:
    """A referee's corrected result: a new match at the table replaces the counted one."""
    match = match_finish(pairing, rng)
    tallies_refresh(pairings=[pairing])
    return match


def replay_expected(game: str, *, public_only: bool = False) -> dict[int, tuple[float, float]]:
    """Every player's (mu, sigma) replayed from scratch by the pure formula, from the rated
    matches in their order: the history the kept ratings must equal."""
    from ratings import formula
    from ratings.models import RatedMatch

    states: dict[int, formula.State] = {}
    matches = RatedMatch.objects.filter(game=game).order_by("seq")
    if public_only:
        matches = matches.filter(public=True)
    for teams, ranks in matches.values_list("teams", "ranks"):
        states.update(formula.rate(teams, ranks, states))
    return {p: (s.mu, s.sigma) for p, s in states.items()}
