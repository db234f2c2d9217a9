"""Celery tasks of the ratings: thin, idempotent (a second run finds nothing changed)."""

from __future__ import annotations

from celery import shared_task

from ratings import services


@shared_task(name="ratings.update")
def ratings_update(pairing_ids: list[int]) -> int:
    """Rate the pairings' finished matches, recomputing the matches after a corrected one."""
    return services.rated_matches_sync(pairing_ids=pairing_ids)
