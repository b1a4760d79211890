"""What a test does when something it needs is absent (the test corpus, LibreOffice, tmux): it is
skipped with the reason, except in CI (``CI=true``), where it fails, because .ci/run provides all
of them and a silent skip there would hide the check."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def skip_or_fail(reason: str) -> NoReturn:
    """Skip the running test for ``reason`` (what is absent, and how to get it); fail in CI."""
    if in_ci():
        pytest.fail(f"CI=true and {reason} (.ci/run should have provided it)")
    pytest.skip(reason)
