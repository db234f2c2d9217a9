import pytest
from engine.registry import unregister
from config.apps import games_register_extra
from games import services as gs
from games.models import Match
from tests.games.factories import BotFactory
pytestmark = pytest.mark.django_db

def test_x(monkeypatch):
    games_register_extra("toy=tests.toygame")
    try:
        bots = BotFactory.create_batch(4)
        table = gs.table_create(name="玩具桌", players=bots, game="toy")
        match = gs.match_start(table=table, deals_per_match=2, bot_delay_ms=0)
        for n in (1, 2, 3):
            match.refresh_from_db()
            print("STATE", match.status, match.current_deal)
            if match.status == "finished": break
            print("PLAY", gs.bot_deal_play(match_id=match.pk, number=match.current_deal))
            locked = gs._lock(match.pk)
            print("START", gs.deal_start(match_id=match.pk, number=match.current_deal + 1))
            print("ENGINE", locked.engine.in_deal, locked.engine.over, locked.bot_seats, len(locked.seats), gs._stale(locked, match.current_deal, None))
    finally:
        unregister("toy")
