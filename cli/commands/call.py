"""``deskcheck call``: run one tool of a context and print its envelope."""

from __future__ import annotations

from typing import Annotated

import typer

from ..completion import tool_names
from ..context import ContextOptions
from ..options import ArgsArg, with_context_options
from ..tool_call import call_tool

ToolArg = Annotated[
    str,
    typer.Argument(
        metavar="TOOL", help="The tool to run, e.g. read_document.", show_default=False, autocompletion=tool_names
    ),
]


@with_context_options()
def call(tool: ToolArg, args: ArgsArg = None, *, context: ContextOptions) -> None:
    """Run one tool and print {"ok": true, "result": ...} or {"ok": false, "error": ...}."""
    raise typer.Exit(call_tool(tool, args, context))
