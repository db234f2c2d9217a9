"""How many examples the property tests (hypothesis) try, by settings profile.

Hypothesis's own profiles hold for ``make test`` and CI, untouched: ``default`` on a developer's
machine, ``ci`` where the ``CI`` variable is set (.ci/run). ``make test-fast`` loads ``dev``
(``--hypothesis-profile=dev``), the developer's loop between changes: every property test still
runs, on a tenth of its examples. A test that names its own count writes it as
``max_examples=examples(N)``: ``N`` in every profile but ``dev``, a tenth of it there.

Registered by tests/conftest.py when pytest starts, before the profile is loaded and the test
modules are imported (their ``@settings`` read the profile then).
"""

from __future__ import annotations

from hypothesis import settings

__all__ = ["DEV", "DEV_SHARE", "examples", "register"]

#: the profile of ``make test-fast``
DEV = "dev"
#: the share of each test's examples that ``dev`` tries: one in ten
DEV_SHARE = 10
#: the fewest examples a test tries under ``dev`` (fewer if the test itself asks for fewer)
DEV_LEAST = 2


def register() -> None:
    """Register ``dev``: the default profile with a tenth of its examples."""
    default = settings.get_profile("default")
    settings.register_profile(DEV, default, max_examples=default.max_examples // DEV_SHARE)


def examples(count: int) -> int:
    """A test's own number of examples under the profile loaded: ``count``, or a tenth of it
    (at least :data:`DEV_LEAST`) under ``dev``."""
    if settings.get_current_profile_name() != DEV:
        return count
    return min(count, max(DEV_LEAST, count // DEV_SHARE))
