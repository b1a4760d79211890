"""``deskcheck call``: run one tool of a context and print its envelope."""

from __future__ import annotations

from typing import Annotated

import typer

from ..completion import tool_args, tool_names
from ..context import ContextOptions
from ..options import with_context_options
from ..tool_call import call_tool

ToolArg = Annotated[
    str,
    typer.Argument(
        metavar="TOOL", help="The tool to run, e.g. read_document.", show_default=False, autocompletion=tool_names
    ),
]
ArgsArg = Annotated[
    str | None,
    typer.Argument(
        metavar="[ARGS]",
        help="The tool's arguments: a JSON object, @file.json, or - for stdin.",
        show_default=False,
        autocompletion=tool_args,
    ),
]


@with_context_options()
def call(tool: ToolArg, args: ArgsArg = None, *, context: ContextOptions) -> None:
    """Run one tool and print {"ok": true, "result": ...} or {"ok": false, "error": ...}."""
    raise typer.Exit(call_tool(tool, args, context))
