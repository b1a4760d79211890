"""Long readable output through a pager, as git does: ``$DESKCHECK_PAGER``, else ``$PAGER``, else
``less -R``; an empty value or ``cat`` means none. Only when stdout is a terminal (``Env.pager``:
never with --json, --quiet, --no-pager or a pipe) and the text is taller than the screen.

``less`` gets ``LESS=FRX`` when LESS is not set (keep colours, leave the text on the screen when
it ends, quit at once when it fits), like git. Ctrl-C belongs to the pager while it runs.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from collections.abc import Sequence
from typing import TextIO

DEFAULT_PAGER = "less -R"


def pager_command(environ: dict[str, str] | os._Environ[str] = os.environ) -> str | None:
    """The pager's shell command, or None for none."""
    for variable in ("DESKCHECK_PAGER", "PAGER"):
        if variable in environ:
            chosen = environ[variable].strip()
            return None if chosen in ("", "cat") else chosen
    return DEFAULT_PAGER if shutil.which("less") else None


def show_lines(stream: TextIO, lines: Sequence[str], *, page: bool, height: int, width: int | None = None) -> None:
    """Write ``lines`` to ``stream``, through the pager when ``page`` and they do not fit in
    ``height`` rows of ``width`` cells (a screen keeps one row for the shell's prompt; a line
    wider than the screen takes as many rows as the terminal wraps it onto)."""
    text = "".join(f"{line}\n" for line in lines)
    command = pager_command() if page and rows(lines, width, stop=height) >= height else None
    if command is None or not run_pager(command, text, stream):
        stream.write(text)
        stream.flush()


# What a terminal draws in no cells: colour codes (CSI sequences) and hyperlinks (OSC 8).
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def rows(lines: Sequence[str], width: int | None, *, stop: int | None = None) -> int:
    """The terminal rows ``lines`` take at ``width`` cells (each line as many as it wraps onto;
    escape sequences take none); counting ends at ``stop``, all a caller needs to know."""
    if not width or width <= 0:
        return len(lines)
    from ..render.draw import width_of

    total = 0
    for line in lines:
        cells = width_of(_ESCAPES.sub("", line)) if "\x1b" in line else width_of(line)
        total += max(1, -(-cells // width))
        if stop is not None and total >= stop:
            break
    return total


def run_pager(command: str, text: str, stream: TextIO) -> bool:
    """Show ``text`` in the pager; False (nothing shown) when the pager cannot be started."""
    environ = dict(os.environ)
    environ.setdefault("LESS", "FRX")
    environ.setdefault("LV", "-c")
    stream.flush()
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=stream, env=environ)
    except OSError:
        return False
    previous = _ignore_interrupts()
    try:
        assert pager.stdin is not None
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            pager.stdin.write(text.encode(encoding, errors="replace"))
            pager.stdin.close()
        except BrokenPipeError:
            pass  # the reader quit before the end: that is what a pager is for
        pager.wait()
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return pager.returncode != 127  # 127: the shell did not find the command


def _ignore_interrupts():
    """Ignore Ctrl-C (the pager handles it) and return the previous handler; None outside the
    main thread, where handlers cannot change."""
    try:
        return signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        return None
