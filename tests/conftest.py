"""Shared pytest set-up. The engine's tests (tests/engine/) need no database and are untouched by
this."""

from __future__ import annotations

import copy
import itertools
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.hypothesis_profiles import register as register_hypothesis_profiles

# before pytest loads a profile (``--hypothesis-profile=dev`` in ``make test-fast``)
register_hypothesis_profiles()


@pytest.fixture(autouse=True, scope="session")
def _own_cache_keys() -> Iterator[None]:
    """With a shared (Redis) cache, this run's keys start with a prefix of its own: nothing left
    by an earlier run or another process (presence at a table, rendered standings) leaks in."""
    from django.conf import settings
    from django.test import override_settings

    caches = copy.deepcopy(settings.CACHES)
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    for cache in caches.values():
        cache["KEY_PREFIX"] = prefix  # one store, whichever alias reaches it
    with override_settings(CACHES=caches):
        yield


_test_number = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_cache_keys() -> Iterator[None]:
    """Each test's cache keys are its own too: table ids come again from test to test, and a page
    counted open at table 1 by an earlier test (a WebSocket whose close was cut short on a busy
    machine) made table 1's seat look taken in a later one, whose bots then waited for it."""
    from django.conf import settings
    from django.test import override_settings

    caches = copy.deepcopy(settings.CACHES)
    number = next(_test_number)
    for cache in caches.values():
        cache["KEY_PREFIX"] = f"{cache.get('KEY_PREFIX', '')}-{number}"
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def _test_settings(settings: Any) -> None:
    # Production uses whitenoise's manifest storage, which needs `collectstatic` first; templates
    # rendered in
    # tests use plain storage instead.
    settings.SECURE_SSL_REDIRECT = False  # the test client speaks plain HTTP
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher"
    ]  # fast, tests only
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each test gets the channel layer anew: a Redis layer refuses to receive from two event
    loops at once, and a test's event loop (a WebSocket test, a live server) ends with it."""
    yield
    from channels.layers import channel_layers

    channel_layers.backends.clear()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what a test needs beyond the process it runs in: ``browser`` for everything under
    tests/browser/, ``worker`` for a test that starts real Celery processes (tests/workers.py),
    itself or through a function of its module. `make test-fast` leaves both out; `make test` and
    CI run everything."""
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
        function = getattr(item, "function", None)
        module = getattr(item, "module", None)
        if function is None or module is None:
            continue
        codes = [function.__code__]
        fixtures = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        for definitions in fixtures.values():
            codes += [d.func.__code__ for d in definitions if hasattr(d.func, "__code__")]
        if any(_code_names(code) & _worker_names(module) for code in codes):
            item.add_marker(pytest.mark.worker)


_WORKER_ENTRIES = frozenset({"celery_workers", "start_worker", "workers"})


def _code_names(code: Any) -> set[str]:
    """The global names a function's code (with its nested functions) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _code_names(const)
    return names


def _worker_names(module: Any) -> set[str]:
    """Names of ``module`` whose use starts Celery processes: the entries of tests/workers.py
    (imported at the top or inside a function) and the module's functions that call them."""
    cached = getattr(module, "_luzi_worker_names", None)
    if cached is not None:
        return set(cached)
    names = set(_WORKER_ENTRIES)
    functions = {
        name: _code_names(value.__code__)
        for name, value in vars(module).items()
        if callable(value)
        and getattr(value, "__module__", None) == module.__name__
        and hasattr(value, "__code__")
    }
    grown = True
    while grown:
        grown = False
        for name, used in functions.items():
            if name not in names and used & names:
                names.add(name)
                grown = True
    module._luzi_worker_names = frozenset(names)
    return names
