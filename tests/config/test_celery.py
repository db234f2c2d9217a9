"""The Celery app: configured from settings, every declared queue served by a plain worker."""

from __future__ import annotations

import time

import pytest
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


def test_with_redis_the_cache_is_shared_by_every_process() -> None:
    """Presence at a table is counted in the cache: web processes must share it when they can."""
    from django.core.cache import cache, caches

    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    backends = {alias: settings.CACHES[alias]["BACKEND"] for alias in ("default", "presence")}
    if layer.startswith("channels_redis"):
        assert backends == {
            "default": "config.cache.TolerantRedisCache",
            "presence": "config.cache.SharedRedisCache",
        }
        assert settings.CACHES["default"]["KEY_PREFIX"].startswith("test-")  # this run's own
    else:
        local = "django.core.cache.backends.locmem.LocMemCache"
        assert backends == {"default": local, "presence": local}
    cache.set("luzi:probe", 41)
    assert cache.incr("luzi:probe") == 42
    assert caches["presence"].get("luzi:probe") == 42  # one store, two ways of using it


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_its_database_connection_from_task_to_task() -> None:
    """A new connection per task would cost as much as a bot's turn: only broken connections and
    ones past CONN_MAX_AGE are closed around a task."""
    from celery.fixups.django import DjangoWorkerFixup
    from celery.signals import task_postrun, task_prerun
    from django.db import connection

    app.loader.import_default_modules()
    task = app.tasks["games.ping"]

    def around_a_task() -> None:
        fixup.close_database()  # what Celery's own Django fix-up runs before and after a task
        task_prerun.send(sender=task, task_id="t", task=task, args=(), kwargs={})
        fixup.close_database()
        task_postrun.send(sender=task, task_id="t", task=task, args=(), kwargs={}, retval=None)

    fixup = DjangoWorkerFixup(app)
    if connection.vendor == "postgresql" and connection.pool:
        # pooled (the default with PostgreSQL): each task takes a connection from the process's
        # pool and gives it back; no task opens a new one
        around_a_task()
        connection.ensure_connection()
        opened = connection.pool.get_stats()["connections_num"]
        for _ in range(10):
            around_a_task()
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        assert connection.pool.get_stats()["connections_num"] == opened
        return
    max_age = connection.settings_dict["CONN_MAX_AGE"]
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = 60  # as deployed (SQLite's default is 0)
    try:
        connection.ensure_connection()
        raw = connection.connection
        for _ in range(3):
            around_a_task()
        assert connection.connection is raw
        connection.close_at = time.monotonic() - 1  # its CONN_MAX_AGE is over
        around_a_task()
        assert connection.connection is None
    finally:
        connection.settings_dict["CONN_MAX_AGE"] = max_age
        connection.close()


def test_sessions_use_the_cache_only_when_every_process_shares_it() -> None:
    shared = settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    expected = (
        "django.contrib.sessions.backends.cached_db"
        if shared
        else "django.contrib.sessions.backends.db"
    )
    assert expected == settings.SESSION_ENGINE


def test_threads_share_one_redis_connection_pool() -> None:
    """Under ASGI each request has a thread of its own: it must not open a Redis connection."""
    import threading

    from django.core.cache import caches

    if not settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        pytest.skip("no shared cache here (no Redis configured)")
    clients = []

    def read() -> None:
        cache = caches["default"]
        cache.get("luzi:probe")
        clients.append(cache._cache)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(clients) == 4 and len({id(client) for client in clients}) == 1
