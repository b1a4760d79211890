"""How many examples the property tests draw: fewer on a developer's machine, the full number
in CI.

A profile's ``max_examples`` is the share of each test's written number that runs: the ``ci``
profile (100, Hypothesis's default) runs every test as written, ``dev`` a quarter of it, and
``thorough`` ten times as many. A test asks for its number through ``examples(n)`` so that the
share applies to it too (an explicit ``max_examples`` would otherwise override the profile).

The profile is ``ci`` when ``CI=true``, else the one ``DESKCHECK_HYPOTHESIS_PROFILE`` names, else
``dev``; Hypothesis's own ``--hypothesis-profile NAME`` option overrides both.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests import absent

# Hypothesis's default: a test's written number of examples, unscaled.
FULL = 100
PROFILES = {
    # In CI the property tests draw the same examples on every run (seeded from each test), so
    # that a red CI means a change broke something, not that a new draw found an old case.
    "ci": {"max_examples": FULL, "derandomize": True},
    # Anywhere else they draw afresh, which is how new cases are found (then pinned as plain
    # tests); a quarter of the examples keeps the quick loop quick.
    "dev": {"max_examples": FULL // 4},
    # For hunting: ten times the written numbers.
    "thorough": {"max_examples": FULL * 10},
}
ENV = "DESKCHECK_HYPOTHESIS_PROFILE"
# Registered on import, so that --hypothesis-profile finds them whichever configure hook runs first;
# each over Hypothesis's defaults, not over the profile Hypothesis loads itself where CI is set.
for _name, _values in PROFILES.items():
    settings.register_profile(_name, settings.get_profile("default"), **_values)


def load(chosen_on_the_command_line: str | None) -> None:
    """Load the profile the environment chooses, unless pytest's
    ``--hypothesis-profile`` chose one (Hypothesis loads that one itself). An unknown name is a
    usage error naming the profiles."""
    if chosen_on_the_command_line:
        return
    chosen = "ci" if absent.in_ci() else os.environ.get(ENV, "").strip() or "dev"
    if chosen not in PROFILES:
        raise pytest.UsageError(f"{ENV}={chosen!r} is not a profile; choose one of {', '.join(PROFILES)}")
    settings.load_profile(chosen)


def examples(written: int) -> int:
    """The number of examples a test written for ``written`` draws under the loaded profile
    (at least one)."""
    return max(1, written * settings.default.max_examples // FULL)


def draws_are_fixed() -> bool:
    """Whether every run draws the same examples (the ``ci`` profile). Only then is a count of
    what the draws exercised (enough operations applied, each kind met) a fact about the test
    rather than about one draw: fresh draws fall short now and then, and that is no failure."""
    return bool(settings.default.derandomize)
