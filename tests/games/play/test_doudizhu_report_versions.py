"""Tables of 上海斗地主 stored under rules version 1 (which skipped the 报到 decision of a landlord
holding no set) still rebuild from their logs and verify; new deals always take the decision."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.shanghai_doudizhu.match import Match as EngineMatch
from engine.shanghai_doudizhu.rules import RULES_VERSION, RULES_VERSION_1
from games.models import Deal, Match, TableSeat
from games.play import engine_state
from games.play import services as games_services
from games.replay.audit import matches_audit
from tests.games.factories import BotFactory, TableFactory

pytestmark = pytest.mark.django_db


def bot_table(seed: int, deals: int) -> Match:
    table = TableFactory(seated=False, game="shanghai_doudizhu", seat_count=4)
    for seat in range(4):
        TableSeat.objects.create(table=table, seat=seat, player=BotFactory())
    return games_services.match_start(table=table, seed=seed, deals_per_match=deals)


def play(match: Match, number: int) -> None:
    assert games_services.bot_deal_play(match_id=match.pk, number=number)


def kinds(deal: Deal) -> list[str]:
    return [a["kind"] for a in json.loads(deal.record)["actions"]]


def test_a_version_1_table_rebuilds_from_its_log_and_verifies(monkeypatch: Any) -> None:
    start = EngineMatch.start_deal

    def version_1(self: EngineMatch, **kw: Any) -> Any:
        return start(self, **{**kw, "rules_version": RULES_VERSION_1})

    monkeypatch.setattr(EngineMatch, "start_deal", version_1)  # the site as it was
    match = bot_table(seed=4, deals=2)
    play(match, 1)
    old = Deal.objects.get(match=match, number=1)
    record = json.loads(old.record)
    assert record["headers"]["rules"] == RULES_VERSION_1
    assert "report" not in kinds(old)  # no set, so no decision
    monkeypatch.undo()  # the site now
    engine_state.forget()
    match.refresh_from_db()
    assert matches_audit([match]).ok
    games_services.deal_start(match_id=match.pk, number=2)  # rebuilt from the log
    play(match, 2)
    match.refresh_from_db()
    new = Deal.objects.get(match=match, number=2)
    assert json.loads(new.record)["headers"]["rules"] == RULES_VERSION
    if new.result.get("landlord") is not None:
        assert "report" in kinds(new)  # every landlord now takes the decision
    engine_state.forget()
    audit = matches_audit([match])
    assert audit.ok, audit.problems
