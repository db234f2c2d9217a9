"""The replay viewer (/deals/<id>/replay/), the record API, a table's replayable deals and the
event's deal list, through HTTP: every step is the engine's replay, and a deal whose hands are
hidden (unfinished, kept hidden by a rule) or whose table is not the user's to see is a 404."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from engine.registry import get_game
from games.models import Deal, Match, Table, TableSeat
from games.play import services as play_services
from games.tables import access
from games.tables import services as tables_services
from tests.games.factories import BotFactory, UserFactory
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw.services import round_create_paired
from tournaments.events.staff import event_organizer_add
from tournaments.models import Event, Round
from tournaments.results.services import event_tallies_refresh
from tournaments.rounds.services import round_start

pytestmark = pytest.mark.django_db

GAMES = ["daguai", "xiaoluzi", "shanghai_doudizhu"]


def bot_table(game: str) -> Table:
    table = tables_services.table_create(
        name=f"桌 {game}",
        players=[BotFactory() for _ in range(get_game(game).seat_count)],
        game=game,
    )
    return table


def play_out(match: Match) -> Match:
    """Do what the worker would: play each deal of a match whose seats the bots play."""
    for _ in range(30):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        number = match.current_deal
        if not play_services.bot_deal_play(match_id=match.pk, number=number):
            assert play_services.deal_start(match_id=match.pk, number=number + 1)
    raise AssertionError("the match did not end")


def finished_match(game: str, seed: int = 5, deals: int = 2) -> Match:
    match = play_services.match_start(
        table=bot_table(game), seed=seed, deals_per_match=deals, between_deals_seconds=0
    )
    return play_out(match)


def page_config(response: Any, name: str = "replay-config") -> dict[str, Any]:
    html = response.content.decode()
    start = html.index(f'id="{name}"')
    start = html.index(">", start) + 1
    return json.loads(html[start : html.index("</script>", start)])


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_page_sends_every_step_of_the_engines_replay(game: str) -> None:
    match = finished_match(game)
    deal = match.deals.order_by("number").first()
    assert deal is not None
    response = Client().get(f"/deals/{deal.pk}/replay/")
    assert response.status_code == 200
    config = page_config(response)
    steps = [s.to_json() for s in get_game(game).replay_steps(deal.record)]
    assert config["steps"] == json.loads(json.dumps(steps))
    record = json.loads(deal.record)
    assert [s["action"] for s in config["steps"][1:]] == record["actions"]
    assert config["steps"][-1]["view"]["result"] == deal.result
    names = [s.player.name for s in TableSeat.objects.filter(table=match.table).order_by("seat")]
    assert [s["player"] for s in config["seats"]] == names
    assert config["deal"]["points"] == deal.points
    html = response.content.decode()
    assert "games/replay.js" in html and "games/cards.js" in html
    assert f"/api/v1/deals/{deal.pk}/record/?download=1" in html
    # the match's other deals are offered
    assert [d["number"] for d in config["match"]["deals"]] == list(
        match.deals.exclude(record="").order_by("number").values_list("number", flat=True)
    )


def test_the_page_speaks_chinese_by_default_and_english_when_asked() -> None:
    deal = finished_match("daguai").deals.first()
    assert deal is not None
    zh = Client().get(f"/deals/{deal.pk}/replay/").content.decode()
    assert "挑战这副牌" in zh and "下载牌谱" in zh
    english = Client()
    english.cookies["django_language"] = "en"
    en = english.get(f"/deals/{deal.pk}/replay/").content.decode()
    assert "Download the record (JSON)" in en


def test_the_record_api_answers_the_stored_record_and_a_file_to_download() -> None:
    deal = finished_match("xiaoluzi").deals.first()
    assert deal is not None
    response = Client().get(f"/api/v1/deals/{deal.pk}/record/")
    assert response.status_code == 200
    assert response.json() == json.loads(deal.record)
    download = Client().get(f"/api/v1/deals/{deal.pk}/record/?download=1")
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    assert json.loads(download.content) == json.loads(deal.record)


def test_an_unfinished_deal_is_not_replayed() -> None:
    match = play_services.match_start(table=bot_table("daguai"), seed=3)
    deal = match.deals.get(number=1)
    assert deal.status != Deal.Status.FINISHED
    c = Client()
    assert c.get(f"/deals/{deal.pk}/replay/").status_code == 404
    response = c.get(f"/api/v1/deals/{deal.pk}/record/")
    assert response.status_code == 404 and "detail" in response.json()
    assert c.get(f"/tables/{match.table_id}/replay/").status_code == 404
    assert c.get(f"/api/v1/tables/{match.table_id}/replays/").json()["deals"] == []


@pytest.fixture
def hidden_rule() -> Iterator[list[int]]:
    """A registered deal rule that keeps the deals listed in it hidden (a duplicate round's)."""
    hidden: list[int] = []

    def rule(deal: Deal) -> bool | None:
        return False if deal.pk in hidden else None

    access.deal_rule_register(rule)
    yield hidden
    access._deal_rules.remove(rule)


def test_a_deal_a_registered_rule_keeps_hidden_is_not_replayed(hidden_rule: list[int]) -> None:
    match = finished_match("shanghai_doudizhu", deals=1)
    deal = match.deals.get(number=1)
    c = Client()
    assert c.get(f"/deals/{deal.pk}/replay/").status_code == 200
    hidden_rule.append(deal.pk)
    assert c.get(f"/deals/{deal.pk}/replay/").status_code == 404
    assert c.get(f"/api/v1/deals/{deal.pk}/record/").status_code == 404
    assert c.get(f"/api/v1/deals/{deal.pk}/challenges/").status_code == 404
    assert c.get(f"/api/v1/tables/{match.table_id}/replays/").json()["deals"] == []
    # even a superuser does not see the hands of a hidden deal
    admin = Client()
    admin.force_login(UserFactory(is_superuser=True, is_staff=True))
    assert admin.get(f"/deals/{deal.pk}/replay/").status_code == 404


def test_bad_ids_are_404() -> None:
    c = Client()
    for url in (
        "/deals/999999/replay/",
        "/deals/0/replay/",
        "/deals/abc/replay/",
        "/deals/99999999999999999999/replay/",
        "/api/v1/deals/999999/record/",
        "/api/v1/deals/x/record/",
        "/api/v1/tables/999999/replays/",
        "/api/v1/events/999999/deals/",
        "/tables/999999/replay/",
    ):
        assert c.get(url).status_code == 404, url


@pytest.fixture
def event_world() -> dict[str, Any]:
    """A running online team event of 大怪路子 whose first table's match the bots finished."""
    event = EventFactory(deals_per_match=1)
    for _ in range(2):
        TeamFactory(event=event, unit=UnitFactory())
    organizer = UserFactory()
    event_organizer_add(event=event, user=organizer)
    round_ = round_create_paired(event=event, confirm=True)
    round_start(round=round_)
    pairing = round_.pairings.select_related("table").get()
    match = Match.objects.get(table=pairing.table)
    Match.objects.filter(pk=match.pk).update(autoplay=True)  # nobody is at the table: bots play
    play_out(match)
    return {"event": event, "round": round_, "pairing": pairing, "organizer": organizer}


def test_a_private_events_deals_are_only_its_organizers_and_players(
    event_world: dict[str, Any],
) -> None:
    event, pairing = event_world["event"], event_world["pairing"]
    deal = Deal.objects.get(match__table=pairing.table, number=1)
    anonymous, stranger, organizer = Client(), Client(), Client()
    stranger.force_login(UserFactory())
    organizer.force_login(event_world["organizer"])
    assert anonymous.get(f"/deals/{deal.pk}/replay/").status_code == 200
    listing = anonymous.get(f"/api/v1/events/{event.pk}/deals/")
    assert listing.status_code == 200
    assert listing.json() == [
        {
            "id": deal.pk,
            "round": 1,
            "table": pairing.number,
            "table_id": pairing.table_id,
            "number": 1,
            "finished": True,
        }
    ]
    Event.objects.filter(pk=event.pk).update(is_private=True)
    for c in (anonymous, stranger):
        assert c.get(f"/deals/{deal.pk}/replay/").status_code == 404
        assert c.get(f"/api/v1/deals/{deal.pk}/record/").status_code == 404
        assert c.get(f"/api/v1/events/{event.pk}/deals/").status_code == 404
    assert organizer.get(f"/deals/{deal.pk}/replay/").status_code == 200
    assert organizer.get(f"/api/v1/deals/{deal.pk}/record/").status_code == 200
    assert organizer.get(f"/api/v1/events/{event.pk}/deals/").json()[0]["id"] == deal.pk


def test_a_draft_rounds_deals_are_not_listed_to_the_public(event_world: dict[str, Any]) -> None:
    event = event_world["event"]
    Round.objects.filter(pk=event_world["round"].pk).update(status=Round.Status.DRAFT)
    assert Client().get(f"/api/v1/events/{event.pk}/deals/").json() == []
    organizer = Client()
    organizer.force_login(event_world["organizer"])
    assert len(organizer.get(f"/api/v1/events/{event.pk}/deals/").json()) == 1


def test_links_to_the_replay_from_the_table_and_the_players_page(
    event_world: dict[str, Any],
) -> None:
    event, pairing = event_world["event"], event_world["pairing"]
    deal = Deal.objects.get(match__table=pairing.table, number=1)
    c = Client()
    response = c.get(f"/tables/{pairing.table_id}/replay/")
    assert response.status_code == 302 and response["Location"] == f"/deals/{deal.pk}/replay/"
    assert c.get(f"/api/v1/tables/{pairing.table_id}/replays/").json() == {
        "deals": [{"id": deal.pk, "number": 1, "url": f"/deals/{deal.pk}/replay/"}],
        "challenge": None,
    }
    table_page = c.get(f"/tables/{pairing.table_id}/").content.decode()
    assert "games/table_replays.js" in table_page
    player = pairing.team_a.members.first().player
    event_tallies_refresh(event=event)
    page = c.get(f"/events/{event.pk}/players/{player.pk}/").content.decode()
    assert f"/tables/{pairing.table_id}/replay/" in page
    rounds = c.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert f"/tables/{pairing.table_id}/replay/" in rounds
    team = c.get(f"/teams/{pairing.team_a_id}/").content.decode()  # the team's match cards
    assert f"/tables/{pairing.table_id}/replay/" in team


def test_a_challenge_of_a_private_events_deal_is_seen_only_by_who_sees_the_deal(
    event_world: dict[str, Any],
) -> None:
    """A challenge holds the cards of the deal it plays again: its table, its state and its
    finished deal's replay and record are no more public than the source deal's table."""
    event, pairing = event_world["event"], event_world["pairing"]
    deal = Deal.objects.get(match__table=pairing.table, number=1)
    Event.objects.filter(pk=event.pk).update(is_private=True)
    organizer, stranger, anonymous = Client(), Client(), Client()
    organizer.force_login(event_world["organizer"])
    stranger.force_login(UserFactory())
    response = organizer.post(
        f"/api/v1/deals/{deal.pk}/challenges/", {"seat": 0}, content_type="application/json"
    )
    assert response.status_code == 201, response.content
    table_id = response.json()["table"]
    match = Match.objects.get(table_id=table_id)
    Match.objects.filter(pk=match.pk).update(autoplay=True)
    play_out(match)
    played = Deal.objects.get(match=match, number=1)
    assert played.status == Deal.Status.FINISHED
    for c in (stranger, anonymous):
        for url in (
            f"/tables/{table_id}/",
            f"/api/v1/tables/{table_id}/state/",
            f"/api/v1/tables/{table_id}/replays/",
            f"/tables/{table_id}/replay/",
            f"/deals/{played.pk}/replay/",
            f"/api/v1/deals/{played.pk}/record/",
            f"/api/v1/deals/{played.pk}/challenges/",
        ):
            assert c.get(url).status_code == 404, url
        refused = c.post(
            f"/api/v1/deals/{played.pk}/challenges/", {"seat": 1}, content_type="application/json"
        )
        assert refused.status_code == 404
    assert organizer.get(f"/deals/{played.pk}/replay/").status_code == 200
    assert organizer.get(f"/api/v1/deals/{played.pk}/record/").status_code == 200
    # once the event is public again, so is the challenge
    Event.objects.filter(pk=event.pk).update(is_private=False)
    assert anonymous.get(f"/deals/{played.pk}/replay/").status_code == 200


@pytest.mark.parametrize("game", GAMES)
def test_no_record_or_replay_of_a_running_match_reveals_its_seed(game: str) -> None:
    """The match's seed deals every deal to come (斗地主's deal seeds are ``<match seed>/<n>``,
    and every record names the match seed): while a deal of it is still to be played, its finished
    deals replay, but no record, replay or table list shows the seed."""
    match = play_services.match_start(
        table=bot_table(game), seed=918273645501, deals_per_match=3, between_deals_seconds=0
    )
    assert play_services.bot_deal_play(match_id=match.pk, number=1)  # and deals deal 2
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    first = Deal.objects.get(match=match, number=1)
    assert first.status == Deal.Status.FINISHED and str(match.seed) in first.record
    c = Client()
    for url in (
        f"/deals/{first.pk}/replay/",
        f"/api/v1/deals/{first.pk}/record/",
        f"/api/v1/deals/{first.pk}/record/?download=1",
        f"/api/v1/deals/{first.pk}/challenges/",
        f"/api/v1/tables/{match.table_id}/replays/",
        f"/api/v1/tables/{match.table_id}/state/",
        f"/tables/{match.table_id}/",
    ):
        response = c.get(url)
        assert response.status_code in (200, 404), url
        assert str(match.seed) not in response.content.decode(), url
    assert c.get(f"/deals/{first.pk}/replay/").status_code == 200  # its steps stay public
    play_out(match)
    record = c.get(f"/api/v1/deals/{first.pk}/record/")  # the match is over: the whole record
    assert record.status_code == 200 and record.json() == json.loads(first.record)
