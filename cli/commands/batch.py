"""``deskcheck batch``: JSON Lines of tool calls on stdin, one envelope per line on stdout.

Each input line is ``{"id": ..., "tool": "...", "args": {...}}``. A line that cannot be read (not
UTF-8, not JSON, nested too deeply, longer than ``MAX_LINE_BYTES``) gets an error envelope (with
its id when one could be read, else null) and the batch goes on with the next line. The
process exits 1 when any line failed, 3 when none failed but one did only part of its work (it
skipped some operations), 0 otherwise. The tool set is opened once, so a family may keep its
document, schema or session warm between lines.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from typing import Any, NamedTuple

import typer

from deskcheck.engine.tools import ToolResult, fail

from ..args import MAX_ARGS_BYTES
from ..context import ContextOptions, open_toolset
from ..env import current_env, isatty
from ..exit import ExitCode
from ..options import with_context_options
from ..output.emit import outcome, print_plain_error
from ..output.envelope import write_json_line


@with_context_options()
def batch(*, context: ContextOptions) -> None:
    """Run tool calls read as JSON Lines from stdin; print one envelope per line, same id."""
    from deskcheck.engine import progress

    env = current_env()
    toolset = open_toolset(context)
    codes: set[ExitCode] = set()
    lines, total = _input(env.stdin)
    # Lines done of the total (when stdin is a file) on a terminal's stderr; not when the envelopes
    # themselves go to the terminal: they show the progress, and the two would mix.
    shown = contextlib.nullcontext(None) if isatty(env.stdout) else progress.phase("running tool calls", total)
    with shown as step:
        for number, line in enumerate(lines, start=1):
            if isinstance(line, str) and not line.strip():
                continue
            call_id, result = run_line(toolset, line, number)
            envelope, code = outcome(result)
            codes.add(code)
            write_json_line(env.stdout, {"id": call_id, **envelope})
            if code != ExitCode.OK:
                print_plain_error(env, envelope["error"] if call_id is None else f"id {call_id}: {envelope['error']}")
            if step is not None:
                step.advance()
    raise typer.Exit(batch_exit_code(codes))


def batch_exit_code(codes: set[ExitCode]) -> ExitCode:
    """1 when any line failed; else 3 when any line did only part of its work; else 0."""
    if codes - {ExitCode.OK, ExitCode.PARTIAL}:
        return ExitCode.TOOL_ERROR
    return ExitCode.PARTIAL if ExitCode.PARTIAL in codes else ExitCode.OK


# A line holds one call: its arguments plus a little framing.
MAX_LINE_BYTES = MAX_ARGS_BYTES + 4096


class Unreadable(NamedTuple):
    """A line that could not be read, and why (``run_line`` reports it)."""

    reason: str


def _input(stdin) -> tuple[Iterator[str | Unreadable], int | None]:
    """The input lines and how many calls they hold: counted when stdin is a file (a pass over it
    in chunks, then back to its start); a pipe is read as it comes (a producer may wait for each
    answer), its total unknown."""
    binary = getattr(stdin, "buffer", None)
    try:
        regular = binary is not None and stat.S_ISREG(os.fstat(stdin.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):
        regular = False
    return _lines(stdin), _count_calls(binary) if regular else None


def _count_calls(binary) -> int | None:
    start = binary.tell()
    count, carry = 0, b""
    for chunk in iter(lambda: binary.read(1 << 20), b""):
        pieces = (carry + chunk).split(b"\n")
        carry = pieces.pop()[: MAX_LINE_BYTES + 1]
        count += sum(1 for piece in pieces if piece.strip())
    binary.seek(start)
    return count + (1 if carry.strip() else 0)


def _lines(stdin) -> Iterator[str | Unreadable]:
    """The lines of ``stdin``, each read up to ``MAX_LINE_BYTES`` and decoded as UTF-8. A line
    that is longer, or is not UTF-8, comes out as ``Unreadable``, and reading goes on after its
    end."""
    binary = getattr(stdin, "buffer", None)
    newline = b"\n" if binary is not None else "\n"
    while True:
        line = (binary or stdin).readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(newline):
            while line and not line.endswith(newline):  # skip to the next line
                line = (binary or stdin).readline(1 << 20)
            yield Unreadable(f"is longer than {MAX_LINE_BYTES:,} bytes, the most deskcheck reads for one call")
            continue
        if binary is None:
            yield line
            continue
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield Unreadable(f"is not UTF-8 text (byte {exc.start:,})")


def run_line(toolset, line: str | Unreadable, number: int) -> tuple[Any, ToolResult]:
    """The id and the result of one input line."""
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.json_text import parse_json

    if isinstance(line, Unreadable):
        return None, fail(f"line {number} {line.reason}; the batch went on with the next line.", input_error=True)
    try:
        entry = parse_json(line, f"line {number}")
    except InputError as exc:
        expected = '; expected {"id": ..., "tool": "...", "args": {...}}.' if exc.code == "badJson" else "."
        return None, fail(exc.message.rstrip(".") + expected, input_error=True)
    if not isinstance(entry, dict):
        return None, fail(f"line {number} must be a JSON object with id, tool and args.", input_error=True)
    call_id = entry.get("id")
    unknown = sorted(set(entry) - {"id", "tool", "args"})
    if unknown:
        return call_id, fail(
            f"line {number} has unexpected keys {', '.join(unknown)}; only id, tool and args are read.",
            input_error=True,
        )
    tool = entry.get("tool")
    if not isinstance(tool, str) or not tool:
        return call_id, fail(f'line {number} needs a "tool" name (a string).', input_error=True)
    return call_id, toolset.call(tool, entry.get("args", {}))
