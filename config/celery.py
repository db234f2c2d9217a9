"""The Celery application: `celery -A config worker` serves every queue declared in settings."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_ready

from config import metrics
from config.broker import register as register_embedded_broker

register_embedded_broker()  # sqlite:// broker URLs: the embedded broker of a fresh clone
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("luzi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _recycle_database_connections(task: Any = None, **kwargs: Any) -> None:
    """Around each task, close only the database connections that are broken or past
    CONN_MAX_AGE, as Django does around each request.

    Celery's Django fix-up would close every connection before and after every task (settings
    turn that off with CELERY_DB_REUSE_MAX): a new PostgreSQL connection costs about as much as a
    bot's whole turn. An eager task runs inside its caller's transaction and is left alone.
    """
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@task_prerun.connect
def _task_started(task_id: str | None = None, **kwargs: Any) -> None:
    """Task latency (config/metrics.py): the run's start."""
    metrics.task_started(task_id)


@task_postrun.connect
def _task_finished(
    task_id: str | None = None, task: Any = None, state: str | None = None, **kwargs: Any
) -> None:
    """Task latency: the run's end, by task name and final state (SUCCESS, FAILURE, ...)."""
    metrics.task_finished(task_id, getattr(task, "name", "unknown"), state)


@worker_ready.connect
def _serve_metrics(**kwargs: Any) -> None:
    """In a worker's main process: its own /metrics when LUZI_METRICS_WORKER_PORT is set."""
    from django.conf import settings

    port = int(getattr(settings, "LUZI_METRICS_WORKER_PORT", 0) or 0)
    if port:
        metrics.serve_worker(port)
