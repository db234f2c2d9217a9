"""config.versioned_cache: one way of building the shared cache's keys, and get-or-build that
keeps only what was built whole."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.cache import caches

from config.versioned_cache import cached, versioned_key


def test_a_key_names_its_namespace_parts_and_version() -> None:
    assert versioned_key("standings", 3, 1.5, "team", version=7) == "luzi:standings:3:1.5:team@7"
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert versioned_key("replay", 12, version=moment) == (
        "luzi:replay:12@2026-01-02T03%3A04%3A05+00%3A00"
    )
    assert versioned_key("presence", 7, 2, "count", version=None) == "luzi:presence:7:2:count"


def test_different_parts_or_versions_never_make_one_key() -> None:
    keys = [
        versioned_key("x", "a:b", version=None),
        versioned_key("x", "a", "b", version=None),
        versioned_key("x", "a", version="b"),
        versioned_key("x", "a@b", version=None),
        versioned_key("x", version="a:b"),
        versioned_key("x", "a", version=None),
        versioned_key("x", "a", version=""),
        versioned_key("x", "a b", version=None),
        versioned_key("x", "a%3Ab", version=None),
        versioned_key("y", "a", version=None),
    ]
    assert len(set(keys)) == len(keys)
    assert all(" " not in key for key in keys)  # safe for any backend


@pytest.mark.parametrize("namespace", ["", "a:b", "a b", "a@b"])
def test_a_namespace_is_a_plain_word(namespace: str) -> None:
    with pytest.raises(ValueError):
        versioned_key(namespace, 1, version=None)


def test_cached_builds_once_per_version() -> None:
    built: list[int] = []

    def build(value: int) -> int:
        built.append(value)
        return value

    assert cached("t", (1,), version=1, build=lambda: build(10), timeout=60) == 10
    assert cached("t", (1,), version=1, build=lambda: build(11), timeout=60) == 10
    assert built == [10]
    assert cached("t", (1,), version=2, build=lambda: build(20), timeout=60) == 20  # rows moved
    assert cached("t", (2,), version=1, build=lambda: build(30), timeout=60) == 30  # another owner
    assert built == [10, 20, 30]
    assert caches["default"].get(versioned_key("t", 1, version=1)) == 10


def test_a_failed_build_keeps_nothing() -> None:
    def broken() -> int:
        raise RuntimeError("half built")

    with pytest.raises(RuntimeError):
        cached("t", ("x",), version=1, build=broken, timeout=60)
    assert caches["default"].get(versioned_key("t", "x", version=1), "missing") == "missing"
    assert cached("t", ("x",), version=1, build=lambda: 5, timeout=60) == 5


def test_none_and_falsy_values_are_kept_like_any_other() -> None:
    calls: list[None] = []

    def nothing() -> None:
        calls.append(None)

    assert cached("t", ("none",), version=1, build=nothing, timeout=60) is None
    assert cached("t", ("none",), version=1, build=nothing, timeout=60) is None
    assert len(calls) == 1
    assert cached("t", ("zero",), version=1, build=lambda: 0, timeout=60) == 0
    assert cached("t", ("zero",), version=1, build=lambda: 1, timeout=60) == 0


def test_cached_uses_the_cache_it_is_given() -> None:
    store = caches["presence"]
    assert cached("t", ("c",), version=1, build=lambda: "p", timeout=60, cache=store) == "p"
    assert store.get(versioned_key("t", "c", version=1)) == "p"
