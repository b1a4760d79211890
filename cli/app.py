"""The Typer application: the root command and the table of sub-commands.

Command modules import the engine inside their functions, so building this app costs only Typer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Annotated, Any

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
    "mcp": ("deskcheck.cli.commands.mcp:mcp_app", {}),
}


class SuggestingGroup(TyperGroup):
    """A group whose sub-commands are built when looked up: an unknown name gets "did you mean"
    drawn from every listed name (Typer's own suggestion sees only the commands built so far)."""

    extra_names: tuple[str, ...] = ()  # names the group answers besides its commands

    def resolve_command(self, ctx, args: list[str]):
        from typer._click.exceptions import UsageError

        try:
            return self._click_resolve_command(ctx, args)
        except UsageError as exc:
            if args and not args[0].startswith("-"):
                from deskcheck.engine.close_matches import did_you_mean

                names = [*self.list_commands(ctx), *self.extra_names]
                exc.message = exc.message + did_you_mean(args[0], names, quote="'")
            raise


class LazyCommands(SuggestingGroup):
    """The root group: builds a sub-command the first time it is looked up."""

    extra_names = ("help",)  # cli.main reads `deskcheck help ...` as --help

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
        command = _lazy_group(obj)
    else:
        single = typer.Typer(rich_markup_mode=None, add_completion=False)
        single.command(name, **settings)(obj)
        command = typer.main.get_command(single)
    command.name = name
    return command


class _CommandTable(MutableMapping):
    """A group's sub-commands by name, each turned into a click command the first time it is
    looked up. Names are known up front (in the order Typer would list them), so --help,
    completion and "did you mean" suggestions see every verb; running one verb builds only it."""

    def __init__(self, builders: dict[str, Callable[[], Any]]) -> None:
        self._builders = builders
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        command = self._built.get(name)
        if command is None:
            command = self._built[name] = self._builders[name]()
        return command

    def __setitem__(self, name: str, command: Any) -> None:
        self._builders.setdefault(name, lambda: command)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._builders[name]
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._builders)

    def __len__(self) -> int:
        return len(self._builders)


def _lazy_group(sub_app: typer.Typer):
    """The click group ``typer.main.get_group(sub_app)`` builds, except that its sub-commands
    are built on demand (a sub-app such as docx has twenty verbs; turning each into a click
    command reads its signature and annotations, ~1 ms a verb)."""
    import copy
    from functools import partial

    import typer.main

    short, markup, suggest = sub_app.pretty_exceptions_short, sub_app.rich_markup_mode, sub_app.suggest_commands
    # Same names and order as typer's get_group_from_info: commands, then sub-groups; a later
    # entry with the same name replaces an earlier one.
    builders: dict[str, Callable[[], Any]] = {}
    for info in sub_app.registered_commands:
        name = info.name or typer.main.get_command_name(info.callback.__name__)
        builders[name] = partial(
            typer.main.get_command_from_info, info, pretty_exceptions_short=short, rich_markup_mode=markup
        )
    for info in sub_app.registered_groups:
        name = typer.main.solve_typer_info_defaults(info).name
        if not name:  # a nameless sub-app merges its commands into this group: build it all
            return typer.main.get_group(sub_app)
        builders[name] = partial(
            typer.main.get_group_from_info,
            info,
            pretty_exceptions_short=short,
            rich_markup_mode=markup,
            suggest_commands=suggest,
        )
    # The group itself (its options, help, callback) from a copy without sub-commands.
    shell = copy.copy(sub_app)
    shell.registered_commands, shell.registered_groups = [], []
    group = typer.main.get_group(shell)
    group.commands = _CommandTable(builders)
    return group


HELP = (
    "Drive an AI agent's tools by hand: form sessions and .docx reviews.\n\n"
    "\b\nExamples:\n"
    "  deskcheck docx read-document contract.docx\n"
    "  deskcheck form describe-state --schema event.schema.json --data event.json\n"
    "  deskcheck openapi check openapi.yaml\n"
    "  deskcheck demo                       (the whole job on the shipped samples)\n\n"
    "Form sessions edit JSON records behind annotated OpenAPI APIs (or local files); reviews propose edits "
    "to .docx files as tracked changes and comments; openapi check validates x-agent annotations in CI. "
    'Tool calls print one JSON envelope ({"ok": true, "result": ...} or {"ok": false, "error": ...}) '
    "when --json is given or stdout is not a terminal; on a terminal they print a readable view, long "
    "ones through a pager. Exit codes: 0 ok, 1 the tool reported an error (or skipped every "
    "operation), 2 bad usage or bad input, 3 done in part (some operations skipped). ARGS is a JSON "
    "object, @file.json, or - for stdin."
)


def help_with_example(purpose: str, *examples: str, more: str = "") -> str:
    """A group's help: one line of what it is for, its examples (kept as written), then ``more``."""
    lines = "\n".join(f"  {example}" for example in examples)
    text = f"{purpose}\n\n\b\nExample{'s' if len(examples) > 1 else ''}:\n{lines}"
    return f"{text}\n\n{more}" if more else text


def _usage_without_braces() -> None:
    """Typer 0.26-0.28 write a required argument as ``{file}`` in usage lines; deskcheck writes it
    as ``FILE`` (as click and most tools do, and as the README does): each argument declares its
    metavar, and the braces around it are dropped here."""
    from typer.core import TyperArgument

    original = TyperArgument.make_metavar

    def make_metavar(self, ctx, *, usage: bool = False) -> str:
        var = original(self, ctx, usage=usage)
        return var[1:-1] if usage and var.startswith("{") and var.endswith("}") else var

    TyperArgument.make_metavar = make_metavar  # type: ignore[method-assign]


def _did_you_mean_options() -> None:
    """Click answers a mistyped option with "(Possible options: --header, --schema, --spec)";
    deskcheck words it as for commands, tools and argument keys, closest names only
    ("Did you mean --schema?")."""
    from typer._click.exceptions import NoSuchOption

    def format_message(self) -> str:
        from deskcheck.engine.close_matches import did_you_mean

        hint = did_you_mean(self.option_name, self.possibilities or ())
        return f"{self.message.rstrip('.')}.{hint}" if hint else self.message

    NoSuchOption.format_message = format_message  # type: ignore[method-assign]


def _named_placeholders() -> None:
    """Typer names an option's value by its type (``--locale <str>``, ``--log <path>``); deskcheck
    names what to give instead (``--locale LOCALE``, ``--log FILE``, ``--port N``). Options that
    take one of a few values declare them as their metavar (``--mode tracked-changes|direct``)."""
    from typer.core import TyperOption

    original = TyperOption.make_metavar

    def make_metavar(self, ctx) -> str:
        var = original(self, ctx)
        if self.metavar is not None or not (var.startswith("<") and var.endswith(">")):
            return var
        name = max(self.opts, key=len).lstrip("-")
        last = name.rsplit("-", 1)[-1].upper()
        kind = var[1:-1].split()[0]
        if kind == "path":
            return "DIR" if last in ("DIR", "FOLDER") else "FILE"
        if kind in ("int", "integer", "float"):
            return "SECONDS" if "timeout" in name else "N"
        return last

    TyperOption.make_metavar = make_metavar  # type: ignore[method-assign]


_usage_without_braces()
_did_you_mean_options()
_named_placeholders()

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
        bool,
        typer.Option("--version", "-V", is_eager=True, callback=_print_version, help="Print the version and exit."),
    ] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print JSON envelopes even on a terminal (accepted anywhere on the line).")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="Print nothing on success; errors still show.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colours (NO_COLOR is honoured too).")] = False,
    no_pager: Annotated[
        bool,
        typer.Option(
            "--no-pager",
            help="Print long output straight to the terminal instead of through a pager "
            "($DESKCHECK_PAGER, else $PAGER, else less -R; never when stdout is not a terminal).",
        ),
    ] = False,
) -> None:
    """Global flags are lifted out of the command line before parsing (see cli.main); they are
    declared here so that --help lists them."""
