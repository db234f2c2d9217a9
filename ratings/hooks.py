"""The one hook into the tournaments: when tallies change (a match recorded or a result
corrected, online or offline), the finished ones are rated by a task queued on commit."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from tournaments.results.tallies import tallies_changed


def _queue(pairing_ids: list[int]) -> None:
    from ratings.tasks import ratings_update

    ratings_update.delay(pairing_ids)


def _on_tallies_changed(sender: Any, pairing_ids: list[int], **kwargs: Any) -> None:
    if pairing_ids:
        transaction.on_commit(partial(_queue, sorted(pairing_ids)), robust=True)


def connect() -> None:
    tallies_changed.connect(_on_tallies_changed, dispatch_uid="ratings.tallies_changed")
