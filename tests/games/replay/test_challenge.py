"""Same-deal challenges (挑战这副牌) through HTTP: a logged-in player gets the deal's cards in the
seat they choose at a practice table against bots; the deal's leaderboard lists the original and
every challenge; hidden deals and anonymous users are refused with clear 4xx messages."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from engine.registry import get_game
from games.models import Challenge, Deal, Match, TableSeat
from games.replay.audit import matches_audit
from games.tables import access
from tests.games.factories import UserFactory
from tests.games.replay.test_replay import finished_match, play_out

pytestmark = pytest.mark.django_db


def cards(text: str) -> Counter[str]:
    return Counter(text.split())


def hands_at_play(deal: Deal) -> list[str]:
    """Every seat's hand when play began in ``deal`` (大怪路子: after 进贡 and 还贡)."""
    steps = get_game(deal.match.game).replay_steps(deal.record)
    begun = next((s for s in steps if s.view.get("phase") != "return"), steps[0])
    return list(begun.hands)


def logged_in(user: Any = None) -> Client:
    c = Client()
    c.force_login(user or UserFactory())
    return c


def start(c: Client, deal: Deal, seat: int) -> dict[str, Any]:
    response = c.post(
        f"/api/v1/deals/{deal.pk}/challenges/", {"seat": seat}, content_type="application/json"
    )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.parametrize("game", ["daguai", "xiaoluzi", "shanghai_doudizhu"])
def test_a_challenge_in_each_seat_holds_that_seats_cards(game: str, settings: Any) -> None:
    # one person plays every seat's challenge at once here: more than the default limit allows
    settings.LUZI_CHALLENGES_OPEN_MAX = get_game(game).seat_count
    match = finished_match(game, seed=8, deals=2)
    # 大怪路子's second deal began with a tribute (unless the first was a draw): the challenge
    # holds the cards as they were when play began
    deal = match.deals.exclude(record="").order_by("-number").first()
    assert deal is not None
    wanted = hands_at_play(deal)
    user = UserFactory()
    c = logged_in(user)
    for seat in range(get_game(game).seat_count):
        started = start(c, deal, seat)
        assert started["seat"] == seat and started["url"] == f"/tables/{started['table']}/"
        state = c.get(f"/api/v1/tables/{started['table']}/state/").json()
        assert state["you"]["seat"] == seat
        assert cards(state["you"]["hand"]) == cards(wanted[seat]), f"seat {seat}"
        seats = TableSeat.objects.filter(table_id=started["table"]).select_related("player")
        assert [s.player.is_bot for s in seats.order_by("seat")] == [
            s != seat for s in range(len(wanted))
        ]
        challenge_match = Match.objects.get(table_id=started["table"])
        assert challenge_match.deals_per_match == 1
        assert challenge_match.base_score == match.base_score
        assert challenge_match.rule_options == match.rule_options
        if game == "daguai":  # played at the original's level (级牌) from its dealer
            first = challenge_match.deals.get(number=1)
            assert (first.level_rank, first.dealer_seat) == (deal.level_rank, deal.dealer_seat)
            assert first.tribute.get("pairs") == []
    assert Challenge.objects.filter(source=deal, player__user=user).count() == len(wanted)


def test_the_same_challenge_still_played_is_opened_again() -> None:
    deal = finished_match("xiaoluzi", deals=1).deals.get(number=1)
    c = logged_in()
    first, again = start(c, deal, 2), start(c, deal, 2)
    assert first["table"] == again["table"] and first["challenge"] == again["challenge"]
    assert start(c, deal, 1)["table"] != first["table"]


def test_the_leaderboard_shows_the_original_and_every_challenge() -> None:
    match = finished_match("shanghai_doudizhu", seed=4, deals=1)
    deal = match.deals.get(number=1)
    alice, bob = UserFactory(first_name="爱丽丝"), UserFactory(first_name="鲍勃")
    started = [start(logged_in(alice), deal, 0), start(logged_in(bob), deal, 3)]
    board = Client().get(f"/api/v1/deals/{deal.pk}/challenges/").json()["rows"]
    originals = [r for r in board if r["original"]]
    assert [(r["seat"], r["points"]) for r in originals] == list(enumerate(deal.points))
    attempts = [r for r in board if not r["original"]]
    assert {(r["seat"], r["points"]) for r in attempts} == {(0, None), (3, None)}
    # the challengers are away: the bots play their seats, and the deal's points are stored
    for s in started:
        challenge_match = Match.objects.get(table_id=s["table"])
        Match.objects.filter(pk=challenge_match.pk).update(autoplay=True)
        play_out(challenge_match)
    challenges = {c.seat: c for c in Challenge.objects.filter(source=deal)}
    for seat, challenge in challenges.items():
        played = challenge.match.deals.get(number=1)
        assert played.status == Deal.Status.FINISHED
        assert challenge.points == played.points[seat]
    board = Client().get(f"/api/v1/deals/{deal.pk}/challenges/").json()["rows"]
    rows = [(r["seat"], r["original"], r["points"], r["versus"]) for r in board]
    for seat, challenge in challenges.items():
        assert challenge.points is not None
        versus = challenge.points - deal.points[seat]
        assert (seat, False, challenge.points, versus) in rows
        # the seat's original comes first, then its challenges
        assert rows.index((seat, True, deal.points[seat], None)) < rows.index(
            (seat, False, challenge.points, versus)
        )
    # the challenge's table links to the leaderboard of the deal it played again
    replays = Client().get(f"/api/v1/tables/{challenges[0].match.table_id}/replays/").json()
    assert replays["challenge"] == f"/deals/{deal.pk}/replay/#challenge"
    assert [d["number"] for d in replays["deals"]] == [1]
    # the player's page links to the replay of their finished challenge
    me = logged_in(alice).get("/accounts/me/").content.decode()
    assert f"/tables/{challenges[0].match.table_id}/replay/" in me
    page = logged_in(alice).get(f"/deals/{deal.pk}/replay/").content.decode()
    assert "爱丽丝" in page and "鲍勃" in page and 'class="attempt mine"' in page
    # the challenge's own deal replays, and the audit finds nothing wrong with its match
    audit = matches_audit(Match.objects.filter(challenge__isnull=False))
    assert audit.ok, [str(p) for p in audit.problems]
    own = challenges[0].match.deals.get(number=1)
    assert json.loads(own.record)["headers"]["match_seed"] is None
    assert Client().get(f"/deals/{own.pk}/replay/").status_code == 200


def test_the_form_starts_a_challenge_and_opens_its_table() -> None:
    deal = finished_match("daguai", deals=1).deals.get(number=1)
    c = logged_in()
    response = c.post(f"/deals/{deal.pk}/challenge/", {"seat": "4"})
    assert response.status_code == 302
    challenge = Challenge.objects.get(source=deal)
    assert challenge.seat == 3 and response["Location"] == f"/tables/{challenge.match.table_id}/"
    bad = c.post(f"/deals/{deal.pk}/challenge/", {"seat": "7"})
    assert bad.status_code == 400 and "1" in bad.content.decode()
    assert c.post(f"/deals/{deal.pk}/challenge/", {"seat": "x"}).status_code == 400


def test_anonymous_users_are_refused_with_a_message() -> None:
    deal = finished_match("xiaoluzi", deals=1).deals.get(number=1)
    anonymous = Client()
    response = anonymous.post(
        f"/api/v1/deals/{deal.pk}/challenges/", {"seat": 0}, content_type="application/json"
    )
    assert response.status_code == 403 and response.json()["detail"]
    form = anonymous.post(f"/deals/{deal.pk}/challenge/", {"seat": "1"})
    assert form.status_code == 403 and "登录" in form.content.decode()
    page = anonymous.get(f"/deals/{deal.pk}/replay/").content.decode()
    assert "/accounts/login/?next=" in page
    assert not Challenge.objects.exists()


def test_bad_seats_are_refused_with_a_message() -> None:
    deal = finished_match("xiaoluzi", deals=1).deals.get(number=1)
    c = logged_in()
    url = f"/api/v1/deals/{deal.pk}/challenges/"
    for body in ({"seat": 4}, {"seat": -1}, {"seat": "a"}, {"seat": True}, {}, {"seat": None}):
        response = c.post(url, body, content_type="application/json")
        assert response.status_code == 400, body
        assert response.json()["detail"], body
    assert c.post(url, "[1]", content_type="application/json").status_code == 400
    assert not Challenge.objects.exists()


@pytest.fixture
def hidden_rule() -> Iterator[list[int]]:
    hidden: list[int] = []

    def rule(deal: Deal) -> bool | None:
        return False if deal.pk in hidden else None

    access.deal_rule_register(rule)
    yield hidden
    access._deal_rules.remove(rule)


def test_hidden_and_unfinished_deals_cannot_be_challenged(hidden_rule: list[int]) -> None:
    match = finished_match("daguai", deals=1)
    deal = match.deals.get(number=1)
    hidden_rule.append(deal.pk)
    c = logged_in()
    response = c.post(
        f"/api/v1/deals/{deal.pk}/challenges/", {"seat": 0}, content_type="application/json"
    )
    assert response.status_code == 404
    assert c.post(f"/deals/{deal.pk}/challenge/", {"seat": "1"}).status_code == 404
    hidden_rule.clear()
    # the challenge's own deal, while it is played, cannot be challenged either
    started = start(c, deal, 0)
    playing = Match.objects.get(table_id=started["table"]).deals.get(number=1)
    response = c.post(
        f"/api/v1/deals/{playing.pk}/challenges/", {"seat": 0}, content_type="application/json"
    )
    assert response.status_code == 404
    assert Challenge.objects.count() == 1


@pytest.mark.parametrize("game", ["daguai", "xiaoluzi", "shanghai_doudizhu"])
def test_a_challenge_of_a_running_matchs_deal_never_shows_the_matchs_seeds(game: str) -> None:
    """A challenge is dealt from its source deal's seed, and 斗地主's deal seeds name the match
    seed, which deals every deal to come: the challenge's table, state and record show no seed of
    the source match while that match is still played."""
    from games.play import services
    from tests.games.replay.test_replay import bot_table

    source = services.match_start(
        table=bot_table(game), seed=918273645501, deals_per_match=3, between_deals_seconds=0
    )
    assert services.bot_deal_play(match_id=source.pk, number=1)
    deal = Deal.objects.get(match=source, number=1)
    seeds = [str(source.seed), str(deal.seed)]
    c = logged_in()
    body = start(c, deal, 0)
    table_id = body["table"]
    for url in (f"/tables/{table_id}/", f"/api/v1/tables/{table_id}/state/"):
        text = c.get(url).content.decode()
        assert not any(s in text for s in seeds), url
    match = Match.objects.get(table_id=table_id)
    Match.objects.filter(pk=match.pk).update(autoplay=True)
    play_out(match)
    played = Deal.objects.get(match=match, number=1)
    assert played.status == Deal.Status.FINISHED
    for url in (
        f"/deals/{played.pk}/replay/",
        f"/api/v1/deals/{played.pk}/record/",
        f"/api/v1/deals/{played.pk}/record/?download=1",
    ):
        response = c.get(url)
        assert response.status_code in (200, 404), url
        assert not any(s in response.content.decode() for s in seeds), url
    play_out(source)  # the source match is over: its deals' seeds deal nothing hidden any more
    assert c.get(f"/api/v1/deals/{played.pk}/record/").status_code == 200


def test_the_admin_lists_challenges_read_only_and_only_to_those_allowed() -> None:
    from django.urls import reverse

    deal = finished_match("xiaoluzi", deals=1).deals.get(number=1)
    challenge = Challenge.objects.get(pk=start(logged_in(), deal, 2)["challenge"])
    admin = logged_in(UserFactory(is_staff=True, is_superuser=True))
    listing = admin.get(reverse("admin:games_challenge_changelist"))
    assert listing.status_code == 200 and str(challenge.pk) in listing.content.decode()
    change = reverse("admin:games_challenge_change", args=[challenge.pk])
    assert admin.get(change).status_code == 200  # viewable
    admin.post(change, {"seat": 0, "points": 99})
    challenge.refresh_from_db()
    assert challenge.seat == 2 and challenge.points != 99
    assert admin.get(reverse("admin:games_challenge_add")).status_code == 403
    # staff without the permission (an organizer) reach nothing of it
    staff = logged_in(UserFactory(is_staff=True))
    assert staff.get(reverse("admin:games_challenge_changelist")).status_code == 403
    assert staff.get(change).status_code == 403
    # a superuser may delete one (a leaderboard spammed)
    delete = reverse("admin:games_challenge_delete", args=[challenge.pk])
    assert admin.post(delete, {"post": "yes"}).status_code == 302
    assert not Challenge.objects.filter(pk=challenge.pk).exists()
