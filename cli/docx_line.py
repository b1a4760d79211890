"""A ``deskcheck docx <tool verb> FILE [ARGS]`` command line read without Typer (see
``plain_line``).

The plain spellings of a docx tool verb's line: the verb, the FILE and optional ARGS, and, for a
verb that changes the document, the review options as ``--option VALUE`` or ``--option=VALUE``
(``-o VALUE`` for the output) and the flags ``--require-document-version`` and ``--dry-run``.
``tests/cli/test_docx_line.py`` checks the reading against Typer itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .plain_line import Option, read_plain_line, run_guarded

if TYPE_CHECKING:
    from .context import ContextOptions

# The review options of a docx verb that changes the document, as ``cli.options`` declares them
# (the test compares the two).
SPELLINGS: dict[str, Option] = {
    "--mode": Option("mode"),
    "--operation-types": Option("operation_types"),
    "--review-meta": Option("review_meta"),
    "--max-operations": Option("max_operations"),
    "--author": Option("author"),
    "--output": Option("output"),
    "-o": Option("output"),
    "--queue": Option("queue"),
}
FLAGS = {"--require-document-version": "require_document_version", "--dry-run": "dry_run"}
_PATHS = frozenset({"output", "queue"})
_MAX_OPERATIONS = range(1, 201)  # the bounds cli.options gives --max-operations


class DocxLine(NamedTuple):
    tool: str  # "suggest_changes"
    file: Path
    args: str | None
    options: dict[str, Any]  # build_context keywords


def read_docx_line(argv: list[str]) -> DocxLine | None:
    """The line ``argv`` (global flags already lifted out) when it is a plain docx tool verb's
    line, else None (Typer reads it)."""
    if len(argv) < 3 or argv[0] != "docx":
        return None
    from deskcheck.engine.docx.tooldefs import DOCX_TOOL_SPECS

    spec = next((s for s in DOCX_TOOL_SPECS if s.name.replace("_", "-") == argv[1]), None)
    if spec is None:
        return None
    options, flags = ({}, {}) if spec.read_only else (SPELLINGS, FLAGS)
    line = read_plain_line(argv[2:], options, flags, _convert)
    if line is None or not 1 <= len(line.positionals) <= 2:
        return None
    values = dict(line.options)
    values.update((keyword, True) for keyword in line.flags)
    args = line.positionals[1] if len(line.positionals) == 2 else None
    return DocxLine(spec.name, Path(line.positionals[0]), args, values)


def _convert(keyword: str, value: str) -> Any:
    """The option's value as Typer would pass it, or None to leave the line to Typer."""
    if keyword in _PATHS:
        return Path(value)
    if keyword == "max_operations":
        # Plain decimal digits only: Python's int() also takes signs, spaces, underscores and
        # other scripts' digits, which is Typer's business.
        if not (value.isascii() and value.isdigit()) or int(value) not in _MAX_OPERATIONS:
            return None
        return int(value)
    return value


def run_docx_line(line: DocxLine) -> int:
    """Run the line's tool and return the exit code (see ``plain_line.run_guarded``)."""
    from .context import build_context

    return run_guarded(lambda: run_tool(line.tool, line.file, line.args, build_context(**line.options)))


def run_tool(tool: str, file: Path, args: str | None, context: ContextOptions) -> int:
    """A docx tool verb's work, whichever reader read its line: the tool run on ``file`` with
    ``args`` (inline JSON, @file or -), its result printed; returns the exit code."""
    import dataclasses

    from .args import read_args
    from .context import open_toolset, preflight
    from .env import current_env
    from .output.emit import emit_result

    env = current_env()
    arguments = read_args(args, env.stdin)
    context = dataclasses.replace(context, docx=file)
    preflight(context)
    return int(emit_result(env, open_toolset(context).call(tool, arguments)))
