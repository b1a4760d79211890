"""``deskcheck batch``: JSON Lines of tool calls on stdin, one envelope per line on stdout.

Each input line is ``{"id": ..., "tool": "...", "args": {...}}``. A line that cannot be read gets
an error envelope (with its id when one could be read, else null) and the batch goes on. The
process exits 1 when any line failed, 3 when none failed but one did only part of its work (it
skipped some operations), 0 otherwise. The tool set is opened once, so a family may keep its
document, schema or session warm between lines.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Iterable
from typing import Any

import typer

from deskcheck.engine.tools import ToolResult, fail

from ..context import ContextOptions, open_toolset
from ..env import current_env, isatty
from ..exit import ExitCode
from ..options import with_context_options
from ..output.emit import outcome
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
            if not line.strip():
                continue
            call_id, result = run_line(toolset, line, number)
            envelope, code = outcome(result)
            codes.add(code)
            write_json_line(env.stdout, {"id": call_id, **envelope})
            if step is not None:
                step.advance()
    raise typer.Exit(batch_exit_code(codes))


def batch_exit_code(codes: set[ExitCode]) -> ExitCode:
    """1 when any line failed; else 3 when any line did only part of its work; else 0."""
    if codes - {ExitCode.OK, ExitCode.PARTIAL}:
        return ExitCode.TOOL_ERROR
    return ExitCode.PARTIAL if ExitCode.PARTIAL in codes else ExitCode.OK


def _input(stdin) -> tuple[Iterable[str], int | None]:
    """The input lines and how many calls they hold: counted when stdin is a file (read whole);
    a pipe is read as it comes (a producer may wait for each answer), its total unknown."""
    try:
        regular = stat.S_ISREG(os.fstat(stdin.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):
        regular = False
    if not regular:
        return stdin, None
    lines = stdin.readlines()
    return lines, sum(1 for line in lines if line.strip())


def run_line(toolset, line: str, number: int) -> tuple[Any, ToolResult]:
    """The id and the result of one input line."""
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, fail(
            f"line {number} is not valid JSON ({exc.msg} at column {exc.colno}); expected "
            '{"id": ..., "tool": "...", "args": {...}}.',
            input_error=True,
        )
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
