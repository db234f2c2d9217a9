"""The caches: shared by every process with Redis, harmless when Redis is away, and never
wiping the Redis database that Celery and the channel layer share."""

from __future__ import annotations

import logging
import time

import pytest
from django.conf import settings
from django.core.cache import caches

from config.cache import TolerantRedisCache
from games.live import presence

nowhere = {"OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}


def test_without_redis_the_default_cache_misses_and_drops_writes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cache = TolerantRedisCache("redis://127.0.0.1:1/0", nowhere)  # nothing listens there
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        assert cache.get("k", "default") == "default"
        cache.set("k", 1)
        assert cache.add("k", 1) is False
        assert cache.get_many(["k"]) == {}
        assert cache.delete("k") is False
        with pytest.raises(ValueError):  # as for a missing key: callers already handle that
            cache.incr("k")
    assert "Redis is unavailable" in caplog.text


def test_presence_is_counted_in_a_cache_that_does_not_guess(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lost count would declare a player gone; the presence keys also expire, so a crashed web
    process cannot keep a seat present for ever."""
    assert not settings.CACHES["presence"]["BACKEND"].endswith("TolerantRedisCache")
    monkeypatch.setattr(presence, "PRESENCE_SECONDS", 1)
    count_key, seen_key = presence.presence_keys(424242, 3)
    presence.presence(424242, 3, +1)
    store = caches["presence"]
    assert store.get(count_key) == 1 and store.get(seen_key) is not None
    time.sleep(1.3)
    assert store.get(count_key) is None and store.get(seen_key) is None


def test_clearing_the_cache_leaves_the_rest_of_redis_alone() -> None:
    if not settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        pytest.skip("no Redis configured here")
    cache = caches["default"]
    client = cache._cache.get_client(None, write=True)
    client.set("luzi-test:not-the-cache", "celery's")
    cache.set("mine", 1)
    try:
        cache.clear()
        assert cache.get("mine") is None
        assert client.get("luzi-test:not-the-cache") == b"celery's"
    finally:
        client.delete("luzi-test:not-the-cache")
