"""Property tests of the ratings (issue 29): a rebuild equals the ratings kept after every match;
a correction then a rebuild equals the corrected history; a private event's ratings never
appear in an anonymous response."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.models import RatedMatch, Rating, RatingChange
from ratings.services import ratings_rebuild
from tests.hypothesis_profiles import examples
from tests.ratings.helpers import GAMES, event_make, match_correct, replay_expected, round_play
from tournaments.models import Pairing
from tournaments.rounds import services

pytestmark = pytest.mark.django_db

PROPERTY = settings(
    max_examples=examples(6),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _kept(game: str, scope: str = "all") -> dict[int, tuple[float, float]]:
    return {
        p: (mu, sigma)
        for p, mu, sigma in Rating.objects.filter(game=game, scope=scope).values_list(
            "player_id", "mu", "sigma"
        )
    }


def _everything(game: str) -> list[tuple]:
    return sorted(
        Rating.objects.filter(game=game).values_list(
            "player_id", "scope", "mu", "sigma", "display", "matches", "last_seq"
        )
    ) + sorted(
        RatingChange.objects.filter(game=game).values_list(
            "player_id", "scope", "seq", "mu", "sigma"
        )
    )


def _play(event, rng, rounds: int, capture) -> None:
    for _ in range(rounds):
        with capture(execute=True):
            round_ = round_play(event, rng)
        services.round_complete(round=round_)


@PROPERTY
@given(game=st.sampled_from(GAMES), rounds=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_a_rebuild_equals_the_ratings_kept_after_every_match(
    game: str, rounds: int, seed: int, django_capture_on_commit_callbacks
) -> None:
    rng = random.Random(seed)
    _play(
        event_make(game, players=rng.choice([6, 9, 12])),
        rng,
        rounds,
        django_capture_on_commit_callbacks,
    )
    kept = _everything(game)
    assert _kept(game) == replay_expected(game)
    ratings_rebuild(game=game)
    assert _everything(game) == kept


@PROPERTY
@given(
    game=st.sampled_from(GAMES),
    rounds=st.integers(2, 3),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_a_correction_then_a_rebuild_equals_the_corrected_history(
    game: str, rounds: int, seed: int, data, django_capture_on_commit_callbacks
) -> None:
    rng = random.Random(seed)
    event = event_make(game, players=12)
    _play(event, rng, rounds, django_capture_on_commit_callbacks)
    pairings = list(Pairing.objects.filter(round__event=event).order_by("pk"))
    pairing = data.draw(st.sampled_from(pairings))
    seq = RatedMatch.objects.get(pairing=pairing).seq
    with django_capture_on_commit_callbacks(execute=True):
        match_correct(pairing, rng)
    assert RatedMatch.objects.get(pairing=pairing).seq == seq  # keeps its place in the order
    assert _kept(game) == replay_expected(game)  # the matches after it were computed again
    assert _kept(game, "public") == replay_expected(game, public_only=True)
    corrected = _everything(game)
    ratings_rebuild(game=game)
    assert _everything(game) == corrected


@PROPERTY
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_a_private_event_s_ratings_never_appear_in_an_anonymous_response(
    game: str, seed: int, django_capture_on_commit_callbacks
) -> None:
    from tests.games.factories import PlayerFactory

    rng = random.Random(seed)
    shared = PlayerFactory.create_batch(6)
    hidden = PlayerFactory.create_batch(6)
    public = event_make(game, people=shared + PlayerFactory.create_batch(6))
    private = event_make(game, private=True, people=shared + hidden)
    _play(private, rng, 1, django_capture_on_commit_callbacks)
    _play(public, rng, 1, django_capture_on_commit_callbacks)
    _play(private, rng, 1, django_capture_on_commit_callbacks)

    anonymous = Client()
    rows = anonymous.get("/api/v1/ratings/", {"game": game, "limit": 200}).json()["results"]
    expected = replay_expected(game, public_only=True)
    shown = {r["player"]: (r["mu"], r["sigma"]) for r in rows}
    assert shown == {p: v for p, v in expected.items() if p in shown}
    assert not {p.pk for p in hidden} & set(shown)
    for player in hidden:
        assert anonymous.get(f"/api/v1/players/{player.pk}/").status_code == 404
        assert anonymous.get(f"/players/{player.pk}/").status_code == 404
    for player in shared:
        profile = anonymous.get(f"/api/v1/players/{player.pk}/").json()
        assert private.pk not in [e["event"] for e in profile["events"]]
        history = [h["rating"] for c in profile["ratings"] for h in c["history"]]
        public_changes = list(
            RatingChange.objects.filter(player=player, scope="public", game=game)
            .order_by("seq")
            .values_list("display", flat=True)
        )
        assert history == public_changes
        page = anonymous.get(f"/players/{player.pk}/").content.decode()
        assert private.name not in page
    # the private matches count where every event may be seen
    assert _kept(game) == replay_expected(game)
