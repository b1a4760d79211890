"""Python's cycle collector held off while a large value is built.

Each pass of the collector walks every object still alive; while a reader builds a 5 MB document
(a million values, all kept), the passes that the allocations trigger free nothing and took a
fifth to a third of the reading. Used where a reader builds values it keeps (the YAML readers of
textdoc and openapi); whatever becomes cyclic garbage meanwhile is collected by the next pass
after.
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
            if gc.get_freeze_count() == 0:
                # What was built is kept: it joins the oldest generation at once (a move of two
                # lists) instead of being walked object by object by the next young passes on
                # its way there. (Not when a host froze objects of its own: unfreeze would release
                # them too.)
                gc.freeze()
                gc.unfreeze()
            gc.enable()
