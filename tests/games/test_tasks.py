from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from config.celery import app
from games.play import locking as play_locking
from games.play import services as play_services
from games.tasks import ping
from tests.games.play.test_apis import people_table
from tests.games.play.test_play import bot_table
from tests.games.queued import record_queued


def test_ping_task_logic() -> None:
    assert ping.apply().get() == "pong"


def test_every_task_the_services_queue_by_name_is_a_task_routed_to_its_queue() -> None:
    """The services name the tasks instead of importing them: each name must be a task the
    workers know, and Celery's router sends it to its queue (all-bot deals apart)."""
    app.loader.import_default_modules()
    names = {
        play_locking.TASK_BOT_TURN: "games",
        play_locking.TASK_TURN_TIMEOUT: "games",
        play_locking.TASK_DEAL_START: "games",
        play_locking.TASK_BOT_DEAL: "bots",
    }
    for name, queue in names.items():
        assert name in app.tasks
        assert app.amqp.router.route({}, name)["queue"].name == queue


@pytest.mark.django_db
def test_tasks_are_queued_by_name_on_commit_only(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent = record_queued(monkeypatch)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match = play_services.match_start(table=bot_table(), seed=3, bot_delay_ms=0)
    assert callbacks and sent == []  # nothing goes to a worker before the commit
    for callback in callbacks:
        callback()
    assert [(q.name, q.args, q.queue) for q in sent] == [("bot_deal", (match.pk, 1), "bots")]

    table, _users = people_table((0, 1, 2, 3, 4, 5))
    del sent[:]
    with django_capture_on_commit_callbacks(execute=True):
        people = play_services.match_start(table=table, seed=5, turn_seconds=30)
    (timer,) = sent  # a person's turn: their timer, on the games queue
    assert (timer.name, timer.args[:3], timer.queue) == ("turn_timeout", (people.pk, 1, 0), "games")
    assert 29 <= timer.options["countdown"] <= 30

    del sent[:]
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        play_services.match_start(table=bot_table(), seed=4, bot_delay_ms=0)
        raise RuntimeError("rolled back")
    assert sent == []  # a change rolled back queues nothing
