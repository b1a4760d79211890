"""Driving the REPL without a terminal: keys go through prompt_toolkit's pipe input, the prompt
draws on a ``DummyOutput``, and what the commands print is captured (colours off)."""

from __future__ import annotations

import fcntl
import io
import struct
import termios
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from deskcheck.cli.context import ContextOptions
from deskcheck.cli.env import Env

# Between chunks of keys, once the prompt has read the keys sent, it gets this long to run what
# they started (a Tab's completion runs as a task of the prompt's event loop, after the keys
# already read). Waiting for the read first, rather than a longer fixed pause from the send, is
# what keeps this both short and safe on a busy machine.
CHUNK_PAUSE = 0.1
# How long the prompt may take to read keys sent to it (it may be busy with a command).
READ_TIMEOUT = 30.0
# How long the REPL may take to start (open a session, read a document) before keys are sent anyway.
START_TIMEOUT = 60.0


@dataclass
class Transcript:
    code: int
    output: str

    def after(self, marker: str) -> str:
        """The output from the first occurrence of ``marker`` on."""
        assert marker in self.output, f"{marker!r} not in:\n{self.output}"
        return self.output[self.output.index(marker) :]


def drive(
    context: ContextOptions,
    keys: str | Sequence[str],
    positionals: Sequence[str] = (),
    *,
    color: bool = False,
    **options,
) -> Transcript:
    """Run an interactive REPL on ``context`` fed with ``keys`` (one string, or chunks sent one
    after the other with a pause, for keys whose effect the next ones depend on)."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from deskcheck.cli.repl.start import run

    out = io.StringIO()
    env = Env(
        stdin=io.StringIO(), stdout=out, stderr=out, json_output=False, quiet=False, color=color, stdin_is_tty=True
    )
    chunks = [keys] if isinstance(keys, str) else list(keys)
    with create_pipe_input() as pipe:
        if len(chunks) == 1:
            pipe.send_text(chunks[0])

        def feed() -> None:
            if len(chunks) == 1:
                return
            # The pauses count from the prompt's start (the mode's greeting ends with this hint).
            deadline = time.monotonic() + START_TIMEOUT
            while "Type `help`" not in out.getvalue() and time.monotonic() < deadline:
                time.sleep(0.05)
            for chunk in chunks:
                _wait_until_read(pipe.pipe.read_fd)
                time.sleep(CHUNK_PAUSE)
                pipe.send_text(chunk)

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        code = run(context, list(positionals), env, prompt_input=pipe, prompt_output=DummyOutput(), **options)
        feeder.join(timeout=30)
    return Transcript(int(code), out.getvalue())


def _wait_until_read(fd: int) -> None:
    """Wait until nothing written to the pipe is left unread (FIONREAD says how much is)."""
    deadline = time.monotonic() + READ_TIMEOUT
    pending = bytearray(struct.calcsize("i"))
    while time.monotonic() < deadline:
        fcntl.ioctl(fd, termios.FIONREAD, pending)
        if struct.unpack("i", pending)[0] == 0:
            return
        time.sleep(0.01)


def lines(*commands: str, end: str = "\x04") -> str:
    """Commands as typed keys, each ended by Enter, then Ctrl-D."""
    return "".join(f"{command}\n" for command in commands) + end


def section(text: str, heading: str) -> str:
    """The lines after the line starting with ``heading`` that are indented under it (a group
    of a table drawn per author)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        body.append(line)
    return "\n".join(body)
