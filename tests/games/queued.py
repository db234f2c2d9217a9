"""What the services queue for the workers, recorded instead of sent to a broker."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from celery import current_app


@dataclass(frozen=True)
class Queued:
    """A task queued by name: its short name (``bot_deal`` for ``games.bot_deal``), arguments,
    options (``countdown``) and the queue Celery's router sends it to."""

    name: str
    args: tuple[Any, ...]
    options: dict[str, Any] = field(default_factory=dict)
    queue: str = ""

    def short(self) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
        return (self.name, self.args, self.options)


def record_queued(monkeypatch: pytest.MonkeyPatch) -> list[Queued]:
    """Record every task sent by name (``send_task``, as the services queue them) with the queue
    that Celery's own router gives it, instead of sending it."""
    app = current_app._get_current_object()
    queued: list[Queued] = []

    def send_task(name: str, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        assert not kwargs
        route = app.amqp.router.route(dict(options), name, tuple(args or ()), {}, None)
        queued.append(
            Queued(name.removeprefix("games."), tuple(args or ()), options, route["queue"].name)
        )

    monkeypatch.setattr(app, "send_task", send_task)
    return queued
