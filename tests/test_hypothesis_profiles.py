"""The property tests' profiles (tests/hypothesis_profiles.py): ``make test`` and CI try every
example a test asks for; only ``dev`` (``make test-fast``) tries fewer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.hypothesis_profiles import DEV, examples


@pytest.fixture
def profile() -> Iterator[None]:
    loaded = settings.get_current_profile_name()
    yield
    settings.load_profile(loaded)


@pytest.mark.parametrize("name", ["default", "ci"])
def test_make_test_and_ci_try_every_example(profile: None, name: str) -> None:
    settings.load_profile(name)
    assert settings().max_examples == 100
    assert [examples(n) for n in (1, 6, 25, 300)] == [1, 6, 25, 300]


def test_the_fast_loop_tries_a_tenth(profile: None) -> None:
    settings.load_profile(DEV)
    assert settings().max_examples == 10
    assert settings().deadline == settings.get_profile("default").deadline
    assert [examples(n) for n in (1, 6, 25, 300)] == [1, 2, 2, 30]
