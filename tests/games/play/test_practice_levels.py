"""Practice tables at a level: 简单 (random bots), 普通 (heuristic) and 困难 (search bots that
think within their budget in Celery bot turns)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Match, TableSeat
from games.play import engine_state, services
from tests.games.factories import UserFactory
from tests.games.play.test_apis import client_for
from tests.games.queued import record_queued

pytestmark = pytest.mark.django_db


def open_practice(client: Any, **fields: str) -> Any:
    return client.post(reverse("games:practice"), fields)


def bot_kinds(user: Any) -> set[str]:
    table = TableSeat.objects.get(player__user=user).table
    return {s.player.bot_kind for s in table.seats.select_related("player") if s.player.is_bot}


@pytest.mark.parametrize(
    ("level", "kind"), [("easy", "random"), ("normal", "heuristic"), ("hard", "search")]
)
def test_the_level_chosen_gives_the_bots_their_kind(level: str, kind: str) -> None:
    user = UserFactory()
    response = open_practice(client_for(user), game="xiaoluzi", level=level)
    assert response.status_code == 302
    assert bot_kinds(user) == {kind}


def test_no_level_is_the_normal_one() -> None:
    user = UserFactory()
    assert open_practice(client_for(user), game="daguai").status_code == 302
    assert bot_kinds(user) == {"heuristic"}


def test_an_unknown_level_is_a_400_with_a_message_and_opens_nothing() -> None:
    user = UserFactory()
    response = open_practice(client_for(user), game="xiaoluzi", level="grandmaster")
    assert response.status_code == 400
    text = response.content.decode()
    assert "grandmaster" in text and "easy, normal, hard" in text
    assert not TableSeat.objects.filter(player__user=user).exists()


def test_my_page_offers_the_three_levels_in_chinese_with_normal_chosen() -> None:
    client = client_for(UserFactory())
    page = client.get(reverse("accounts:me"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'name="level"' in page
    for label in ("简单", "普通", "困难"):
        assert label in page
    assert '<option value="normal" selected>' in page


def test_a_search_bot_plays_its_turn_at_a_hard_practice_table(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """The Celery bot turn of a 困难 bot: one legal action by the search bot."""
    sent = record_queued(monkeypatch)  # the services queue their tasks by name
    user = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        open_practice(client_for(user), game="shanghai_doudizhu", level="hard")
    match = Match.objects.get(table__seats__player__user=user)
    turns = [(q.name, *q.args) for q in sent if q.name == "bot_turn"]
    if not turns:  # the person bids first: pass, and the next seat is a bot
        deal = match.deals.get(number=1)
        engine = engine_state.engine_match(match, deal)
        assert engine.awaiting() == (0,)
        with django_capture_on_commit_callbacks(execute=True):
            services.seat_act(table=match.table, seat=0, kind="pass", seq=0, deal=1)
        turns = [(q.name, *q.args) for q in sent if q.name == "bot_turn"]
    _name, match_id, number, seq, seat = turns[-1]
    with django_capture_on_commit_callbacks(execute=True):
        assert services.bot_act(match_id=match_id, number=number, seq=seq, seat=seat)
    actions = match.deals.get(number=number).actions.filter(seat=seat)
    assert actions.exists()
