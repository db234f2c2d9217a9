"""The keys of Django's shared caches, built in one way, and get-or-build for what is computed.

Every key is ``luzi:<namespace>:<part>:...@<version>``:

- ``namespace`` names what is kept (``standings``, ``replay``, ``presence``...): no two kinds of
  value share one, so a key of one can never be read as the other;
- the parts name whose value it is (an event and its kind of standings, a deal, a table's seat).
  Each part (and the version) is written as text with ``%``, ``:``, ``@`` and whitespace
  escaped, so two different lists of parts and versions never make the same key (``("a:b",)``
  is not ``("a", "b")``) and every key is safe for any backend;
- ``version`` names the state of the rows the value was computed from (an event's results
  version, a deal's finishing time): when they change the key changes, so a value computed from
  older rows is never served, only left to expire. ``None`` is for a value that is not computed
  from rows (a count kept in the cache itself, such as presence): its key has no version.

:func:`cached` reads such a key and, on a miss, builds the value and keeps it: a build that
fails keeps nothing, so no half-built value is ever cached. Counts that are changed in the cache
(``incr``/``decr``: presence, login attempts) use :func:`versioned_key` alone, with the cache's
own atomic operations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, datetime
from typing import TypeVar

from django.core.cache import BaseCache, caches

__all__ = ["KEY_ROOT", "Version", "cached", "versioned_key"]

#: The first part of every key of the project's values.
KEY_ROOT = "luzi"

#: What a version may be: a number, a text, a moment (written in ISO form), or None (no version).
Version = int | float | str | date | datetime | None

T = TypeVar("T")

_ESCAPES = str.maketrans({"%": "%25", ":": "%3A", "@": "%40", " ": "%20", "\t": "%09", "\n": "%0A"})
_MISSING = object()


def _text(part: object) -> str:
    if isinstance(part, date):  # a datetime too
        part = part.isoformat()
    return str(part).translate(_ESCAPES)


def versioned_key(namespace: str, *parts: object, version: Version) -> str:
    """The cache key of the value of ``namespace`` named by ``parts``, computed at ``version``
    (``None``: a value with no version, its key ends with the last part).

    >>> versioned_key("replay", 12, version="2026-01-02T03:04:05+00:00")
    'luzi:replay:12@2026-01-02T03%3A04%3A05+00%3A00'
    >>> versioned_key("presence", 7, 2, "count", version=None)
    'luzi:presence:7:2:count'
    """
    if not namespace or _text(namespace) != namespace:
        raise ValueError(f"a cache namespace is a plain word, not {namespace!r}")
    key = ":".join((KEY_ROOT, namespace, *(_text(p) for p in parts)))
    return key if version is None else f"{key}@{_text(version)}"


def cached(
    namespace: str,
    parts: Iterable[object],
    *,
    version: Version,
    build: Callable[[], T],
    timeout: float | None,
    cache: BaseCache | None = None,
) -> T:
    """The value of ``namespace`` and ``parts`` at ``version`` from ``cache`` (Django's default
    cache when None); on a miss ``build()`` computes it and it is kept for ``timeout`` seconds
    (None: until evicted) before being returned.

    When ``build`` raises, the error reaches the caller and nothing is kept. A value that is
    ``None`` is kept and served as any other. Two callers that miss at once both build (the
    value depends only on the key, so whichever is kept is right): this is no lock.
    """
    store = caches["default"] if cache is None else cache
    key = versioned_key(namespace, *parts, version=version)
    hit = store.get(key, _MISSING)
    if hit is not _MISSING:
        kept: T = hit  # what build() returned for this key
        return kept
    value = build()
    store.set(key, value, timeout)
    return value
