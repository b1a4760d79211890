"""A docx tool's command line read without Typer (see ``plain_line``): ``deskcheck docx <tool
verb> FILE [ARGS]`` and ``deskcheck call --docx FILE TOOL [ARGS]``.

The plain spellings of such a line: the verb, its positionals (FILE and ARGS, or TOOL and ARGS)
and, for a verb that changes the document and for ``call``, the review options as ``--option
VALUE`` or ``--option=VALUE`` (``-o VALUE`` for the output) and the flags
``--require-document-version`` and ``--dry-run``; ``call`` also needs ``--docx FILE``. Any other
option (another family's context) leaves the line to Typer. ``tests/cli/test_docx_line.py`` checks
the reading against Typer itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from .option_values import option_problem
from .plain_line import Option, read_plain_line, run_guarded

# The review options of a docx verb that changes the document, as ``cli.options`` declares them
# (the test compares the two).
SPELLINGS: dict[str, Option] = {
    "--mode": Option("mode"),
    "--table-revisions": Option("table_revisions"),
    "--operation-types": Option("operation_types"),
    "--review-meta": Option("review_meta"),
    "--max-operations": Option("max_operations"),
    "--author": Option("author"),
    "--output": Option("output"),
    "-o": Option("output"),
    "--queue": Option("queue"),
    "--store": Option("store"),
}
FLAGS = {"--require-document-version": "require_document_version", "--dry-run": "dry_run"}
_PATHS = frozenset({"output", "queue", "docx"})
_MAX_OPERATIONS = range(1, 201)  # the bounds cli.options gives --max-operations


class DocxLine(NamedTuple):
    tool: str  # "suggest_changes"
    args: str | None
    options: dict[str, Any]  # build_context keywords, ``docx`` included


def read_docx_line(argv: list[str]) -> DocxLine | None:
    """The line ``argv`` (global flags already lifted out) when it is a plain docx tool line,
    else None (Typer reads it)."""
    if argv[:1] == ["call"]:
        line = read_plain_line(argv[1:], {**SPELLINGS, "--docx": Option("docx")}, FLAGS, _convert)
        if line is None or "docx" not in line.options or not 1 <= len(line.positionals) <= 2:
            return None
        tool, args = line.positionals[0], (line.positionals[1:] or [None])[0]
        return DocxLine(tool, args, _with_flags(line))
    if len(argv) < 3 or argv[0] != "docx":
        return None
    from deskcheck.engine.docx.tools.tooldefs import DOCX_TOOL_SPECS

    spec = next((s for s in DOCX_TOOL_SPECS if s.name.replace("_", "-") == argv[1]), None)
    if spec is None:
        return None
    options, flags = ({}, {}) if spec.read_only else (SPELLINGS, FLAGS)
    line = read_plain_line(argv[2:], options, flags, _convert)
    if line is None or not 1 <= len(line.positionals) <= 2:
        return None
    args = (line.positionals[1:] or [None])[0]
    return DocxLine(spec.name, args, {**_with_flags(line), "docx": Path(line.positionals[0])})


def _with_flags(line: Any) -> dict[str, Any]:
    return {**line.options, **{keyword: True for keyword in line.flags}}


def _convert(keyword: str, value: str) -> Any:
    """The option's value as Typer would pass it, or None to leave the line to Typer (which
    also reports a bad value)."""
    if keyword in _PATHS:
        return Path(value)
    if option_problem(keyword, value) is not None:
        return None
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
    from .tool_call import call_tool

    return run_guarded(lambda: call_tool(line.tool, line.args, build_context(**line.options)))
