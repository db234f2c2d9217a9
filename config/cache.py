"""Django's Redis cache with one connection pool per process, and a tolerant variant.

Django builds a cache object per thread, and each builds its own client and connection pool.
Under ASGI every request runs in a thread of its own, so every request opened a new connection
to Redis (a quarter of an action request's time in a profile). The client is thread-safe: here
each process keeps one per configuration, shared by its threads (a forked child makes its own).

The ``default`` cache is :class:`TolerantRedisCache`: what it holds (sessions read through to
the database, rendered standings, login attempt counts) can be missed, so while Redis is away a
read is a miss and a write is dropped, with a warning, and pages keep working. Presence at a
table must not be guessed (a missing count would declare a player gone), so it uses the strict
``presence`` cache, whose errors reach the caller.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

_clients: dict[tuple[object, ...], RedisCacheClient] = {}
_lock = threading.Lock()
_UNAVAILABLE = (RedisConnectionError, RedisTimeoutError)


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self) -> Any:
        key = (os.getpid(), tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client

    def clear(self) -> None:
        """Delete this cache's keys (those under its KEY_PREFIX), not the whole Redis database:
        Django's own clear() flushes the database, which here also holds Celery's queues and the
        channel layer."""
        client = self._cache.get_client(None, write=True)
        pattern = f"{self.key_prefix}:*" if self.key_prefix else "*"
        batch: list[bytes] = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)


def _away(operation: str, error: Exception) -> None:
    logger.warning("cache %s skipped, Redis is unavailable: %s", operation, error)


class TolerantRedisCache(SharedRedisCache):
    """A cache whose reads miss and whose writes are dropped while Redis is unavailable."""

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        try:
            return super().get(key, default, version)
        except _UNAVAILABLE as error:
            _away("get", error)
            return default

    def get_many(self, keys: Any, version: Any = None) -> Any:
        try:
            return super().get_many(keys, version)
        except _UNAVAILABLE as error:
            _away("get_many", error)
            return {}

    def has_key(self, key: Any, version: Any = None) -> bool:
        try:
            return bool(super().has_key(key, version))
        except _UNAVAILABLE as error:
            _away("has_key", error)
            return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except _UNAVAILABLE as error:
            _away("set", error)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        try:
            return super().set_many(data, timeout, version)
        except _UNAVAILABLE as error:
            _away("set_many", error)
            return list(data)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        try:
            return bool(super().add(key, value, timeout, version))
        except _UNAVAILABLE as error:
            _away("add", error)
            return False

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        try:
            return bool(super().touch(key, timeout, version))
        except _UNAVAILABLE as error:
            _away("touch", error)
            return False

    def delete(self, key: Any, version: Any = None) -> bool:
        try:
            return bool(super().delete(key, version))
        except _UNAVAILABLE as error:
            _away("delete", error)
            return False

    def delete_many(self, keys: Any, version: Any = None) -> None:
        try:
            super().delete_many(keys, version)
        except _UNAVAILABLE as error:
            _away("delete_many", error)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        try:
            return int(super().incr(key, delta, version))
        except _UNAVAILABLE as error:
            _away("incr", error)
            raise ValueError(f"Key {key!r} not found (Redis is unavailable).") from error
