"""Driving commands in a real terminal through tmux, for the tests that need one (the pager,
progress on stderr, the REPL's prompt and menus): sessions are started, read and waited on by
name."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable

# How long a terminal may take to show what a step waits for (only a failing test waits it out).
WAIT_SECONDS = 60.0


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def screen(name: str) -> str:
    """What session ``name`` shows now."""
    return tmux("capture-pane", "-t", name, "-p")


def running(name: str) -> bool:
    return name in tmux("list-sessions", "-F", "#{session_name}").split()


def eventually(test: Callable[[], bool], what: str, interval: float = 0.05) -> None:
    """Return once ``test()`` holds; fail saying ``what`` was expected if it has not after
    WAIT_SECONDS."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {WAIT_SECONDS:.0f} s")
        time.sleep(interval)


def wait_until(condition: Callable[[str], bool], what: str, name: str) -> str:
    """The screen of session ``name`` that first meets ``condition``; on failure the message shows
    the last screen read."""
    last = [""]

    def shows() -> bool:
        last[0] = screen(name)
        return condition(last[0])

    try:
        eventually(shows, what)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; the screen:\n{last[0]}") from None
    return last[0]
