"""Progress of long work on a terminal: the engine's phases (``deskcheck.engine.progress``) drawn on
stderr with rich's progress display, once the outermost phase has lasted ``DELAY`` seconds.

Short commands show nothing and import nothing of rich for it: phases are only counted until the
delay passes. The display shows the phases running now (finished ones leave it) and is erased as
soon as no phase runs, so it never mixes with what a command prints afterwards. Nothing is drawn
unless stderr is a terminal; stdout is never touched.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from deskcheck.engine import progress

# Work shorter than this shows no progress at all.
DELAY = 0.5


class _Running:
    __slots__ = ("completed", "label", "task", "total")

    def __init__(self, label: str, total: int | None) -> None:
        self.label = label
        self.total = total
        self.completed = 0
        self.task: Any = None  # the rich task id, once drawn


class TerminalProgress:
    """A ``progress.Listener`` that draws the running phases on ``stream`` (a terminal)."""

    def __init__(self, stream: TextIO, *, color: bool = True, delay: float = DELAY) -> None:
        self.stream = stream
        self.color = color
        self.delay = delay
        self._lock = threading.RLock()
        self._running: list[_Running] = []
        self._timer: threading.Timer | None = None
        self._display: Any = None

    # -- the listener -----------------------------------------------------------------------------

    def begin(self, label: str, total: int | None) -> _Running:
        phase = _Running(label, total)
        with self._lock:
            self._running.append(phase)
            if self._display is not None:
                self._draw(phase)
            elif self._timer is None:
                self._timer = threading.Timer(self.delay, self._show)
                self._timer.daemon = True
                self._timer.start()
        return phase

    def advance(self, handle: _Running, amount: int) -> None:
        handle.completed += amount
        if handle.task is not None:
            with self._lock:
                if self._display is not None:
                    self._display.update(handle.task, completed=handle.completed)

    def end(self, handle: _Running) -> None:
        with self._lock:
            if handle in self._running:
                self._running.remove(handle)
            if self._display is not None and handle.task is not None:
                self._display.remove_task(handle.task)
            if not self._running:
                self.close()

    # -- drawing ----------------------------------------------------------------------------------

    def close(self) -> None:
        """Erase the display (if shown) and forget the delay; the next phase starts afresh."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._display is not None:
                display, self._display = self._display, None
                display.stop()
            for phase in self._running:
                phase.task = None

    def _show(self) -> None:
        with self._lock:
            if self._timer is None or not self._running or self._display is not None:
                return
            self._display = _make_display(self.stream, self.color)
            for phase in self._running:
                self._draw(phase)
            self._display.start()

    def _draw(self, phase: _Running) -> None:
        phase.task = self._display.add_task(phase.label, total=phase.total, completed=phase.completed)


def _make_display(stream: TextIO, color: bool):
    from rich.console import Console
    from rich.progress import Progress

    console = Console(file=stream, no_color=not color, highlight=False)
    # The command's own output goes to stdout after the display is erased: nothing to redirect.
    return Progress(*_columns(), console=console, transient=True, redirect_stdout=False, redirect_stderr=False)


def _columns():
    from rich.progress import BarColumn, ProgressColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class Count(ProgressColumn):
        """``3,000/20,000`` for a counted phase, nothing otherwise."""

        def render(self, task) -> Text:
            if task.total is None:
                return Text("")
            return Text(f"{int(task.completed):,}/{int(task.total):,}", style="progress.download")

    return (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(bar_width=24),
        Count(),
        TimeElapsedColumn(),
    )


def wanted(stderr: TextIO, *, quiet: bool) -> bool:
    """Whether to draw progress: stderr is a terminal (not a dumb one) and --quiet is not given."""
    from ..env import isatty

    return not quiet and os.environ.get("TERM") != "dumb" and isatty(stderr)


@contextmanager
def progress_on_terminal(*, quiet: bool, color: bool) -> Iterator[None]:
    """Draw the engine's phases on stderr for the length of the block, when ``wanted``."""
    if not wanted(sys.stderr, quiet=quiet):
        yield
        return
    listener = TerminalProgress(sys.stderr, color=color)
    try:
        with progress.listening(listener):
            yield
    finally:
        listener.close()
