"""Pushes to the channel layer: handed to a long-lived loop with a shared layer, never blocking
or failing a game action."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from typing import Any

import pytest

from games.live import events


class FakeSharedLayer:
    """A layer like Redis's: usable from any event loop; records where each send ran."""

    def __init__(self, fail: bool = False, delay: float = 0.0) -> None:
        self.fail, self.delay = fail, delay
        self.sent: list[tuple[str, dict[str, Any], str]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.fail:
            raise ConnectionError("layer away")
        self.sent.append((group, message, threading.current_thread().name))


@pytest.fixture
def shared_layer(monkeypatch: pytest.MonkeyPatch) -> Any:
    def use(layer: FakeSharedLayer) -> FakeSharedLayer:
        monkeypatch.setattr(events, "get_channel_layer", lambda: layer)
        return layer

    return use


def test_pushes_go_out_in_order_from_one_long_lived_loop(shared_layer: Any) -> None:
    layer = shared_layer(FakeSharedLayer())
    before = time.time()
    for table_id in (3, 1, 2):
        events.push_table_changed(table_id)
    assert events.flush_pushes()
    # each message names the table and the change's moment (the push latency counts from it)
    assert all(before <= m.pop("at") <= time.time() for _, m, _ in layer.sent)
    assert [(g, m) for g, m, _ in layer.sent] == [
        ("table.3", {"type": "table.changed", "table": 3}),
        ("table.1", {"type": "table.changed", "table": 1}),
        ("table.2", {"type": "table.changed", "table": 2}),
    ]
    assert {thread for _, _, thread in layer.sent} == {"luzi-push"}
    assert events._PUSHER._pid == os.getpid()


def test_a_push_does_not_wait_for_a_slow_layer(shared_layer: Any) -> None:
    layer = shared_layer(FakeSharedLayer(delay=0.3))
    events.push_table_changed(7)  # returns at once: the action's transaction is not held up
    assert layer.sent == []
    assert events.flush_pushes()
    assert [g for g, _, _ in layer.sent] == ["table.7"]


def test_a_failing_layer_is_logged_and_the_caller_goes_on(
    shared_layer: Any, caplog: pytest.LogCaptureFixture
) -> None:
    shared_layer(FakeSharedLayer(fail=True))
    with caplog.at_level(logging.WARNING, logger="games.live.events"):
        events.push_table_changed(5)
        assert events.flush_pushes()
    assert "push to table.5 failed" in caplog.text


def test_pushes_beyond_the_limit_are_dropped_with_a_warning(
    shared_layer: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    layer = shared_layer(FakeSharedLayer(delay=0.2))
    monkeypatch.setattr(events._PUSHER, "limit", 2)
    with caplog.at_level(logging.WARNING, logger="games.live.events"):
        for table_id in range(4):
            events.push_table_changed(table_id)
        assert events.flush_pushes()
    assert sorted(g for g, _, _ in layer.sent) == ["table.0", "table.1"]
    assert caplog.text.count("dropped") == 2
