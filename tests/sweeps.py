"""Corpus-wide sweeps (one test per document of a corpus) in the quick loop: every case runs in
the whole suite, and one in ``QUICK_SHARE`` runs in ``pytest -m "not slow"`` as well (the others
are marked ``slow``), so that the quick loop still reads real documents of each sweep for a
tenth of its time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

QUICK_SHARE = 10


def sweep(cases: Iterable[Any], *, unpack: bool = False) -> list[Any]:
    """``cases`` for ``parametrize`` with all but every ``QUICK_SHARE``-th marked slow; with
    ``unpack`` each case is a tuple of the arguments of several names. A ``pytest.param`` (such as
    the corpus-absent placeholder) is kept as it is."""
    marked: list[Any] = []
    for index, case in enumerate(cases):
        if isinstance(case, pytest.ParameterSet) or index % QUICK_SHARE == 0:
            marked.append(case)
        else:
            marked.append(pytest.param(*(case if unpack else (case,)), marks=pytest.mark.slow))
    return marked
