from __future__ import annotations

from games.tasks import ping


def test_ping_task_logic() -> None:
    assert ping.apply().get() == "pong"
