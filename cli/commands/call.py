"""``deskcheck call``: run one tool of a context and print its envelope."""

from __future__ import annotations

from typing import Annotated

import typer

from ..args import read_args
from ..context import ContextOptions, open_toolset, preflight
from ..env import current_env
from ..options import with_context_options
from ..output.emit import emit_result

ToolArg = Annotated[str, typer.Argument(help="The tool to run, e.g. read_document.", show_default=False)]
ArgsArg = Annotated[
    str | None,
    typer.Argument(help="The tool's arguments: a JSON object, @file.json, or - for stdin.", show_default=False),
]


@with_context_options()
def call(tool: ToolArg, args: ArgsArg = None, *, context: ContextOptions) -> None:
    """Run one tool and print {"ok": true, "result": ...} or {"ok": false, "error": ...}."""
    env = current_env()
    arguments = read_args(args, env.stdin)
    preflight(context)
    result = open_toolset(context).call(tool, arguments)
    raise typer.Exit(emit_result(env, result))
