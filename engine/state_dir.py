"""Where deskcheck keeps per-user state (the form-session store, REPL history and review copies).

The rule lives here once: ``DESKCHECK_STATE_DIR`` when set, else the platform's per-user state
directory (``~/.local/state/deskcheck`` on Linux). It is read on every call, never at import, so
a test or a script can point it elsewhere at any time.
"""

from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    """``DESKCHECK_STATE_DIR`` (``~`` expanded) or the platform's per-user state directory."""
    override = os.environ.get("DESKCHECK_STATE_DIR")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_state_dir

    return Path(user_state_dir("deskcheck", appauthor=False))
