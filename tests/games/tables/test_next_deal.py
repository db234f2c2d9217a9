"""The card room asks its owners' rules before each deal (games.tables.next_deal): a refused
match ends after the deal just played, its length the deals that count, scored by the game as any
finished match and marked as ended by the time; a game's deal that does not count (上海斗地主's
all-pass deal) is dealt again, and the match ends after the next deal that counts. No Celery: the
tests call what the workers' tasks call."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.models import Match
from games.play import services as play_services
from games.tables import next_deal
from games.tables import services as tables_services
from games.tables.next_deal import next_deal_allowed, next_deal_rule_register
from tests.games.factories import BotFactory

pytestmark = pytest.mark.django_db

SEATS = {"daguai": 6, "xiaoluzi": 4, "shanghai_doudizhu": 4}


@pytest.fixture
def refused(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[int]]:
    """The tables a rule of this test refuses (the registered rules set aside)."""
    tables: set[int] = set()
    monkeypatch.setattr(next_deal, "_rules", [])
    next_deal_rule_register(lambda table_id: False if table_id in tables else None)
    yield tables


def bot_match(game: str, seed: int) -> Match:
    players = [BotFactory() for _ in range(SEATS[game])]
    table = tables_services.table_create(name="机器人桌", players=players, game=game)
    return play_services.match_start(
        table=table, seed=seed, deals_per_match=3, bot_delay_ms=0, between_deals_seconds=5
    )


def play(match: Match) -> int:
    match.refresh_from_db()
    number = match.current_deal
    assert play_services.bot_deal_play(match_id=match.pk, number=number)
    return number


@pytest.mark.parametrize("game", list(SEATS))
def test_a_refused_table_ends_its_match_after_the_deal_in_play(
    game: str, refused: set[int]
) -> None:
    match = bot_match(game, seed=11)
    first = play(match)
    assert play_services.deal_start(match_id=match.pk, number=first + 1)
    match.refresh_from_db()
    assert match.current_deal == first + 1  # allowed: dealt
    refused.add(match.table_id)
    assert not next_deal_allowed(match.table_id)
    second = play(match)
    play_services.deal_start(match_id=match.pk, number=second + 1)
    match.refresh_from_db()
    if game == "shanghai_doudizhu" and match.status == Match.Status.PLAYING:
        second = play(match)  # an all-pass deal (not with this seed so far) is dealt again
        play_services.deal_start(match_id=match.pk, number=second + 1)
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == Match.EndReason.TIME_UP
    assert match.current_deal == second and match.deals.count() == second
    assert match.deals_per_match <= second
    assert match.table.status == "finished"


def test_an_all_pass_deal_does_not_end_the_match_the_next_deal_that_counts_does(
    refused: set[int],
) -> None:
    match = bot_match("shanghai_doudizhu", seed=3)  # the bots all pass in deal 1
    refused.add(match.table_id)
    first = play(match)
    match.refresh_from_db()
    assert match.deals.get(number=first).result["outcome"] == "all_pass"
    assert play_services.deal_start(match_id=match.pk, number=first + 1)
    match.refresh_from_db()
    assert (match.status, match.current_deal, match.deals_per_match) == ("playing", 2, 3)
    second = play(match)
    play_services.deal_start(match_id=match.pk, number=second + 1)
    match.refresh_from_db()
    assert (match.status, match.end_reason) == (Match.Status.FINISHED, Match.EndReason.TIME_UP)
    assert (match.current_deal, match.deals_per_match) == (2, 1)  # one deal counted
