"""``deskcheck batch``: JSON Lines of tool calls on stdin, one envelope per line on stdout.

Each input line is ``{"id": ..., "tool": "...", "args": {...}}``. A line that cannot be read (not
UTF-8, not JSON, nested too deeply, longer than ``MAX_LINE_BYTES``) gets an error envelope (with
its id when one could be read, else null) and the batch goes on with the next line. The
process exits 1 when any line failed, 0 otherwise. The tool set is opened once, so a family may
keep its document, schema or session warm between lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import typer

from deskcheck.engine.tools import ToolResult, fail

from ..args import MAX_ARGS_BYTES
from ..context import ContextOptions, open_toolset
from ..env import current_env
from ..exit import ExitCode
from ..options import with_context_options
from ..output.envelope import write_json_line


@with_context_options()
def batch(*, context: ContextOptions) -> None:
    """Run tool calls read as JSON Lines from stdin; print one envelope per line, same id."""
    env = current_env()
    toolset = open_toolset(context)
    failed = False
    for number, line in enumerate(_lines(env.stdin), start=1):
        if isinstance(line, str) and not line.strip():
            continue
        call_id, result = run_line(toolset, line, number)
        failed = failed or not result.ok
        write_json_line(env.stdout, {"id": call_id, **result.envelope()})
    raise typer.Exit(ExitCode.TOOL_ERROR if failed else ExitCode.OK)


# A line holds one call: its arguments plus a little framing.
MAX_LINE_BYTES = MAX_ARGS_BYTES + 4096


class Unreadable(NamedTuple):
    """A line that could not be read, and why (``run_line`` reports it)."""

    reason: str


def _lines(stdin) -> Iterator[str | Unreadable]:
    """The lines of ``stdin``, each read up to ``MAX_LINE_BYTES`` and decoded as UTF-8. A line
    that is longer, or is not UTF-8, comes out as an ``_Unreadable`` reason, and reading goes on
    after its end."""
    binary = getattr(stdin, "buffer", None)
    while True:
        line = (binary or stdin).readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n" if binary else "\n"):
            while line and not line.endswith(b"\n" if binary else "\n"):  # skip to the next line
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
