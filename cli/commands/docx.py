"""``deskcheck docx``: one verb per docx tool (generated from the tool registry), plus
``accept-all``, ``reject-all`` and ``tools``.

Only the lxml-free tool registry (``engine.docx.tooldefs``) is imported here, so ``deskcheck docx
--help`` stays fast; the engine is imported when a verb runs.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from deskcheck.engine.docx.tooldefs import DOCX_TOOL_SPECS, DocxToolSpec

from ..args import read_args
from ..context import ContextOptions, open_toolset, preflight
from ..env import current_env
from ..options import DryRunOpt, OutputOpt, with_context_options
from ..output.emit import emit_result, emit_value

DOCX_OPTIONS = (
    "author",
    "mode",
    "operation_types",
    "review_meta",
    "max_operations",
    "require_document_version",
    "output",
    "dry_run",
    "queue",
)
EXPORT_FORMATS = ("json", "anthropic", "openai", "mcp")

FileArg = Annotated[Path, typer.Argument(help="The .docx file.", show_default=False)]
ArgsArg = Annotated[
    str | None,
    typer.Argument(help="The tool's arguments: a JSON object, @file.json, or - for stdin.", show_default=False),
]
ResolveAuthorOpt = Annotated[
    str | None, typer.Option("--author", help="Resolve only the tracked changes made by this author.")
]
FormatOpt = Annotated[str, typer.Option("--format", help="json (default), anthropic, openai or mcp.")]

docx_app = typer.Typer(
    name="docx",
    help="Review a .docx file: run any docx tool by its verb, accept or reject tracked changes, export definitions.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def verb(tool_name: str) -> str:
    return tool_name.replace("_", "-")


def _summary(description: str) -> str:
    first = description.split(". ")[0].rstrip(".")
    return first + "."


def _tool_command(spec: DocxToolSpec):
    # Read tools take no review options; the others get every docx option.
    @with_context_options(only=() if spec.read_only else DOCX_OPTIONS)
    def command(file: FileArg, args: ArgsArg = None, *, context: ContextOptions) -> None:
        env = current_env()
        arguments = read_args(args, env.stdin)
        context = dataclasses.replace(context, docx=file)
        preflight(context)
        raise typer.Exit(emit_result(env, open_toolset(context).call(spec.name, arguments)))

    command.__doc__ = f"{_summary(spec.description)} (tool {spec.name})"
    command.__name__ = spec.name
    return command


for _spec in DOCX_TOOL_SPECS:
    docx_app.command(verb(_spec.name), no_args_is_help=True)(_tool_command(_spec))


def _resolve(mode: str, file: Path, author: str | None, output: Path | None, dry_run: bool) -> None:
    from deskcheck.engine.docx.revisions import resolve_file
    from deskcheck.engine.errors import DeskcheckError, InputError
    from deskcheck.engine.tools import fail, ok

    env = current_env()
    preflight(ContextOptions(docx=file))
    try:
        result = ok(resolve_file(file, mode, author=author, output=output, dry_run=dry_run))
    except InputError as exc:
        result = fail(exc.message, code=exc.code, input_error=True)
    except DeskcheckError as exc:
        result = fail(exc.message, code=exc.code)
    raise typer.Exit(emit_result(env, result))


@docx_app.command("accept-all", no_args_is_help=True)
def accept_all(
    file: FileArg, author: ResolveAuthorOpt = None, output: OutputOpt = None, dry_run: DryRunOpt = False
) -> None:
    """Accept every tracked change (only --author's when given), writing the file in place
    atomically unless -o/--output or --dry-run is given."""
    _resolve("accept", file, author, output, dry_run)


@docx_app.command("reject-all", no_args_is_help=True)
def reject_all(
    file: FileArg, author: ResolveAuthorOpt = None, output: OutputOpt = None, dry_run: DryRunOpt = False
) -> None:
    """Reject every tracked change (only --author's when given), writing the file in place
    atomically unless -o/--output or --dry-run is given."""
    _resolve("reject", file, author, output, dry_run)


PreviousArg = Annotated[Path, typer.Argument(help="The earlier version (.docx).", show_default=False)]
CurrentArg = Annotated[Path, typer.Argument(help="The later version (.docx).", show_default=False)]
COMPARE_FORMATS = ("text", "json")


@docx_app.command("compare", no_args_is_help=True)
def compare(
    previous: PreviousArg,
    current: CurrentArg,
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="text (a summary line and one line per change) or json (the structured comparison); "
            "default: text on a terminal, json otherwise.",
        ),
    ] = None,
) -> None:
    """Compare two saved versions, each read with its pending tracked changes accepted: paragraphs
    added, deleted, modified (word diff), moved or reformatted, table cells, headers, footers and
    notes. Exit 2 when a file cannot be read."""
    from deskcheck.engine.docx.compare import compare_versions
    from deskcheck.engine.docx.diff_report import format_diff_for_llm
    from deskcheck.engine.errors import DeskcheckError, InputError
    from deskcheck.engine.tools import fail, ok

    from ..output.emit import emit_usage_error

    env = current_env()
    if output_format is not None and output_format not in COMPARE_FORMATS:
        raise typer.Exit(emit_usage_error(env, f"--format must be text or json, not {output_format!r}."))
    as_text = output_format == "text" or (output_format is None and not env.json_output)
    try:
        diff = compare_versions(previous, current)
    except InputError as exc:
        raise typer.Exit(emit_result(env, fail(exc.message, code=exc.code, input_error=True))) from None
    except DeskcheckError as exc:
        raise typer.Exit(emit_result(env, fail(exc.message, code=exc.code))) from None
    if as_text:
        if not env.quiet:
            print(format_diff_for_llm(diff), file=env.stdout)
        raise typer.Exit(0)
    raise typer.Exit(emit_result(dataclasses.replace(env, json_output=True), ok(diff)))


@docx_app.command("tools")
def tools(format: FormatOpt = "json") -> None:
    """Print the docx tool definitions (json, anthropic, openai or mcp shape)."""
    from deskcheck.engine.docx.toolset import docx_toolset
    from deskcheck.engine.providers import export_tools

    from ..errors import UsageError

    if format not in EXPORT_FORMATS:
        raise UsageError(f"--format must be one of {', '.join(EXPORT_FORMATS)}, not {format!r}.")
    raise typer.Exit(emit_value(current_env(), export_tools(docx_toolset(None), format)))
