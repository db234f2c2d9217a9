"""The Celery app: configured from settings, every declared queue served by a plain worker."""

from __future__ import annotations

from django.conf import settings

from config.celery import app


def test_app_reads_django_settings() -> None:
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.task_always_eager is False  # eager only inside a task's own unit test
    assert app.conf.task_acks_late is True


def test_a_plain_worker_consumes_every_declared_queue() -> None:
    declared = {q.name for q in settings.CELERY_TASK_QUEUES}
    # With no -Q option the worker consumes app.amqp.queues: every queue of task_queues.
    assert set(app.amqp.queues) == declared
    assert settings.CELERY_TASK_DEFAULT_QUEUE in declared


def test_tasks_are_autodiscovered() -> None:
    app.loader.import_default_modules()
    assert "games.ping" in app.tasks


def test_people_s_tables_and_all_bot_deals_go_to_separate_queues() -> None:
    """A backlog of all-bot deals (bulk work) must not sit in front of a person's table."""
    app.loader.import_default_modules()

    def queue_of(task: str) -> str:
        return app.amqp.router.route({}, task)["queue"].name

    assert queue_of("games.bot_deal") == "bots"
    for task in ("games.bot_turn", "games.turn_timeout", "games.deal_start", "games.watchdog"):
        assert queue_of(task) == "games"
    assert queue_of("games.bot_deal") in {q.name for q in settings.CELERY_TASK_QUEUES}
