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

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

_clients: dict[tuple[object, ...], RedisCacheClient] = {}
_lock = threading.Lock()
_UNAVAILABLE = (RedisConnectionError, RedisTimeoutError)


class SharedRedisCache(RedisCache):
    # set by RedisCache.__init__ (not in django-stubs)
    _servers: list[str]
    _options: dict[str, Any]
    _class: Any

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


def _tolerant(name: str, fallback: Any) -> Any:
    """Django's cache method ``name``, which while Redis is unavailable logs a warning and
    returns ``fallback(*args, **kwargs)`` (a miss, or a dropped write) instead of failing."""

    def method(self: TolerantRedisCache, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(SharedRedisCache, name)(self, *args, **kwargs)
        except _UNAVAILABLE as error:
            logger.warning("cache %s skipped, Redis is unavailable: %s", name, error)
            return fallback(*args, **kwargs)

    method.__name__ = name
    return method


def _missed(_key: Any, default: Any = None, *_args: Any, **_kwargs: Any) -> Any:
    return default


def _answer(value: Any) -> Any:
    return lambda *_args, **_kwargs: value


class TolerantRedisCache(SharedRedisCache):
    """A cache whose reads miss and whose writes are dropped while Redis is unavailable."""

    get = _tolerant("get", _missed)
    get_many = _tolerant("get_many", lambda *_args, **_kwargs: {})
    has_key = _tolerant("has_key", _answer(False))
    set = _tolerant("set", _answer(None))
    set_many = _tolerant("set_many", lambda data, *_args, **_kwargs: list(data))
    add = _tolerant("add", _answer(False))
    touch = _tolerant("touch", _answer(False))
    delete = _tolerant("delete", _answer(False))
    delete_many = _tolerant("delete_many", _answer(None))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        try:
            return int(super().incr(key, delta, version))
        except _UNAVAILABLE as error:
            logger.warning("cache incr skipped, Redis is unavailable: %s", error)
            raise ValueError(f"Key {key!r} not found (Redis is unavailable).") from error
