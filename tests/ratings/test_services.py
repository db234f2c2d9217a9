"""Ratings follow the recorded matches (issue 29): every finished table is rated once, in the
order results came in, as teams (大怪路子) or seat by seat (小路子, 上海斗地主), and a rebuild
from the first match gives exactly the ratings kept incrementally."""

from __future__ import annotations

import random

import pytest

from ratings import formula
from ratings.models import RatedMatch, Rating, RatingChange
from ratings.services import match_teams, ratings_rebuild
from tests.ratings.helpers import GAMES, event_make, round_play
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def _snapshot(game: str) -> list[tuple]:
    return sorted(
        Rating.objects.filter(game=game).values_list(
            "player_id", "scope", "mu", "sigma", "display", "matches", "last_seq"
        )
    ) + sorted(
        RatingChange.objects.filter(game=game).values_list(
            "player_id", "scope", "seq", "mu", "sigma", "matches"
        )
    )


def _play(game: str, rounds: int, capture, seed: int = 0) -> None:
    rng = random.Random(seed)
    event = event_make(game, players=12)
    for _ in range(rounds):
        with capture(execute=True):
            round_ = round_play(event, rng)
        services.round_complete(round=round_)


@pytest.mark.parametrize("game", GAMES)
def test_every_finished_table_is_rated_on_commit_and_a_rebuild_changes_nothing(
    game: str, django_capture_on_commit_callbacks
) -> None:
    _play(game, 3, django_capture_on_commit_callbacks)
    tables = 2 if game == "daguai" else 3
    assert RatedMatch.objects.filter(game=game).count() == 3 * tables
    assert list(
        RatedMatch.objects.filter(game=game).order_by("seq").values_list("seq", flat=True)
    ) == list(range(1, 3 * tables + 1))
    people = 12
    assert Rating.objects.filter(game=game, scope="all").count() == people
    assert set(Rating.objects.filter(game=game).values_list("matches", flat=True)) == {3}
    before = _snapshot(game)
    assert ratings_rebuild(game=game) == 3 * tables
    assert _snapshot(game) == before


def test_a_team_game_moves_every_member_by_their_team_s_result(
    django_capture_on_commit_callbacks,
) -> None:
    _play("daguai", 1, django_capture_on_commit_callbacks)
    for match in RatedMatch.objects.all():
        assert len(match.teams) == 2 and [len(t) for t in match.teams] == [3, 3]
        for team in match.teams:
            rows = set(
                Rating.objects.filter(player_id__in=team, scope="all").values_list("mu", "sigma")
            )
            assert len(rows) == 1


def test_seats_are_ranked_by_points_with_ties_shared() -> None:
    teams, ranks = match_teams("xiaoluzi", [(0, 10, 4), (1, 11, -4), (2, 12, 4), (3, 13, -4)])
    assert teams == [[10], [11], [12], [13]] and ranks == [0, 1, 0, 1]
    teams, ranks = match_teams("daguai", [(s, 20 + s, p) for s, p in enumerate([1, -1] * 3)], "B")
    assert teams == [[20, 22, 24], [21, 23, 25]] and ranks == [1, 0]  # the winner the game names


def test_the_shown_number_starts_at_1500_and_winners_rise() -> None:
    assert formula.display(formula.DEFAULT.mu, formula.DEFAULT.sigma) == 1500
    after = formula.rate([[1], [2]], [0, 1], {})
    assert after[1].mu > formula.DEFAULT.mu > after[2].mu


def test_the_rebuild_command_says_what_it_did_and_refuses_an_unknown_game(
    django_capture_on_commit_callbacks, capsys
) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    _play("xiaoluzi", 1, django_capture_on_commit_callbacks)
    before = _snapshot("xiaoluzi")
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    call_command("ratings_rebuild", "--game", "xiaoluzi")
    assert "xiaoluzi: 3 rated matches" in capsys.readouterr().out
    assert _snapshot("xiaoluzi") == before
    with pytest.raises(CommandError) as caught:
        call_command("ratings_rebuild", "--game", "chess")
    assert caught.value.returncode == 2


def test_a_correction_is_recomputed_by_a_task_queued_on_commit_not_in_the_request(
    django_capture_on_commit_callbacks, monkeypatch
) -> None:
    from tests.ratings.helpers import match_correct
    from tournaments.models import Pairing

    _play("daguai", 2, django_capture_on_commit_callbacks)
    queued: list[list[int]] = []
    monkeypatch.setattr("ratings.tasks.ratings_update.delay", queued.append)
    pairing = Pairing.objects.order_by("pk").first()
    before = _snapshot("daguai")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match_correct(pairing, random.Random(5))
    assert _snapshot("daguai") == before and not queued  # nothing yet: the request goes on
    for callback in callbacks:
        callback()
    assert queued == [[pairing.pk]]
    from ratings.tasks import ratings_update

    assert ratings_update(queued[0]) == 1
    assert _snapshot("daguai") != before
    assert ratings_update(queued[0]) == 0  # a second run finds nothing to do
