"""``engine.collector``: the cycle collector held off while a reader builds a large value, then
running as before; what was built is still collected when it becomes garbage, and objects a host
froze stay frozen."""

from __future__ import annotations

import gc
import weakref

import pytest

from deskcheck.engine.collector import collector_paused
from deskcheck.engine.textdoc.yaml_tree import parse_stream


class Cell:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


@pytest.fixture
def collecting():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_runs_again_after_and_frees_cycles_built_meanwhile(collecting):
    with collector_paused():
        assert not gc.isenabled()
        cell = Cell()
        parse_stream("a: [1, 2]\nb: {c: d}\n")
    assert gc.isenabled()
    gone = weakref.ref(cell)
    del cell
    gc.collect()
    assert gone() is None


def test_it_stays_off_when_it_was_off(collecting):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_objects_a_host_froze_stay_frozen(collecting):
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > frozen_before
        parse_stream("- x\n- y\n")
        with collector_paused():
            [[i] for i in range(1000)]
        # Unfreezing would empty the permanent generation; a frozen object that another thread
        # of the process drops meanwhile leaves it (one did in a full run), so "nearly all".
        assert gc.get_freeze_count() > frozen * 0.9
    finally:
        gc.unfreeze()
