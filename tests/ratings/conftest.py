from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _eager_tasks() -> Iterator[None]:
    """The ratings' task runs at once, in the test's process (on commit, as queued)."""
    from config.celery import app

    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False
