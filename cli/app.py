"""The Typer application: the root command and the table of sub-commands.

Command modules import the engine inside their functions, so building this app costs only Typer.
"""

from __future__ import annotations

from typing import Annotated

import typer

from deskcheck.engine import __version__

from .commands.batch import batch
from .commands.call import call
from .commands.docx import docx_app
from .commands.openapi import openapi_app
from .commands.sample_api import sample_api

HELP = (
    "Drive an AI agent's tools by hand: form sessions over annotated OpenAPI APIs and reviews of "
    ".docx files as tracked changes.\n\n"
    'Tool calls print one JSON envelope ({"ok": true, "result": ...} or {"ok": false, "error": ...}) '
    "when --json is given or stdout is not a terminal. Exit codes: 0 ok, 1 the tool reported an "
    "error, 2 bad usage or bad input. ARGS is a JSON object, @file.json, or - for stdin."
)

app = typer.Typer(
    name="deskcheck",
    help=HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        print(f"deskcheck {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", is_eager=True, callback=_print_version, help="Print the version and exit.")
    ] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print JSON envelopes even on a terminal (accepted anywhere on the line).")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="Print nothing on success; errors still show.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colours (NO_COLOR is honoured too).")] = False,
) -> None:
    """Global flags are lifted out of the command line before parsing (see cli.main); they are
    declared here so that --help lists them."""


app.command("call", no_args_is_help=True)(call)
app.command("batch")(batch)
app.command("sample-api")(sample_api)
app.add_typer(openapi_app)
app.add_typer(docx_app)
