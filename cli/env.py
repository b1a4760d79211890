"""What a command needs to know about the process it runs in, read when the command runs.

Global flags (``--json``, ``--quiet``, ``--no-color``, ``--no-pager``) may appear anywhere on the command line;
``cli.main`` lifts them out before Typer parses the rest and records them here.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

# Where sessions, drafts and history live: the rule is the engine's (DESKCHECK_STATE_DIR, else the
# platform's per-user state directory); commands import it from here.
from deskcheck.engine.state_dir import state_dir


@dataclass(frozen=True)
class GlobalFlags:
    json: bool = False
    quiet: bool = False
    no_color: bool = False
    no_pager: bool = False


_flags = GlobalFlags()


def set_global_flags(flags: GlobalFlags) -> None:
    global _flags
    _flags = flags


def global_flags() -> GlobalFlags:
    """The global flags given on the command line (not what the streams imply)."""
    return _flags


@dataclass(frozen=True)
class Env:
    stdin: TextIO
    stdout: TextIO
    stderr: TextIO
    json_output: bool  # the contract's JSON envelopes instead of rich rendering
    quiet: bool  # nothing on stdout for a success; errors still reported
    color: bool
    stdin_is_tty: bool
    # Long readable output goes through a pager (stdout is a terminal, no --no-pager, no --json).
    pager: bool = False

    @property
    def state_dir(self) -> Path:
        return state_dir()


def current_env() -> Env:
    """The environment of the running command: the process streams and the global flags."""
    stdout_tty = _isatty(sys.stdout)
    no_color = _flags.no_color or "NO_COLOR" in os.environ or not stdout_tty
    return Env(
        stdin=sys.stdin,
        stdout=sys.stdout,
        stderr=sys.stderr,
        json_output=_flags.json or not stdout_tty,
        quiet=_flags.quiet,
        color=not no_color,
        stdin_is_tty=_isatty(sys.stdin),
        pager=stdout_tty and not _flags.no_pager and not _flags.json and not _flags.quiet,
    )


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


# For the commands that ask of another stream (stderr: progress; stdout: batch).
isatty = _isatty
