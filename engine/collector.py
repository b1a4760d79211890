"""Python's cycle collector held off while a large value is built.

Each pass of the collector walks every object still alive; while a reader builds a 5 MB record
(a million values, all kept), the passes that the allocations trigger free nothing and took a
fifth to a third of the building. What is built in these sections holds no reference cycles
that become garbage during them; whatever does is collected by the next pass after.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
