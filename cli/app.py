"""The Typer application: the root command and the table of sub-commands.

Command modules import the engine inside their functions, so building this app costs only Typer.
"""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperGroup

from deskcheck.engine import __version__

# Every command, by name: "module:attribute" (a Typer sub-app or a command function) and the
# Typer settings of a function command. Only the command being run is imported and turned into
# a click command, so start-up does not grow with the number of commands; --help loads them all.
COMMANDS: dict[str, tuple[str, dict[str, object]]] = {
    "call": ("deskcheck.cli.commands.call:call", {"no_args_is_help": True}),
    "batch": ("deskcheck.cli.commands.batch:batch", {}),
    "docx": ("deskcheck.cli.commands.docx:docx_app", {}),
    "openapi": ("deskcheck.cli.commands.openapi:openapi_app", {}),
    "form": ("deskcheck.cli.commands.form:form_app", {}),
    "sample-api": ("deskcheck.cli.commands.sample_api:sample_api", {}),
    "repl": ("deskcheck.cli.commands.repl:repl", {}),
    "demo": ("deskcheck.cli.commands.demo:demo", {}),
}


class LazyCommands(TyperGroup):
    """The root group: builds a sub-command the first time it is looked up."""

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx, cmd_name: str):
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = _load_command(cmd_name)
        return self.commands.get(cmd_name)


def _load_command(name: str):
    import importlib

    import typer.main

    target, settings = COMMANDS[name]
    module, attribute = target.split(":")
    obj = getattr(importlib.import_module(module), attribute)
    if isinstance(obj, typer.Typer):
        command = typer.main.get_group(obj)
    else:
        single = typer.Typer(rich_markup_mode=None, add_completion=False)
        single.command(name, **settings)(obj)
        command = typer.main.get_command(single)
    command.name = name
    return command


HELP = (
    "Drive an AI agent's tools by hand: form sessions over annotated OpenAPI APIs and reviews of "
    ".docx files as tracked changes.\n\n"
    'Tool calls print one JSON envelope ({"ok": true, "result": ...} or {"ok": false, "error": ...}) '
    "when --json is given or stdout is not a terminal. Exit codes: 0 ok, 1 the tool reported an "
    "error, 2 bad usage or bad input. ARGS is a JSON object, @file.json, or - for stdin."
)

app = typer.Typer(
    name="deskcheck",
    cls=LazyCommands,
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
