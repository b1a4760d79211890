"""``deskcheck docx``: one verb per docx tool (generated from the tool registry), plus
``accept-all``, ``reject-all`` and ``tools``.

Only the lxml-free tool registry (``engine.docx.tooldefs``) is imported here, so ``deskcheck docx
--help`` stays fast; the engine is imported when a verb runs.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated

import typer

from deskcheck.engine.docx.tools.tooldefs import DOCX_TOOL_SPECS, DocxToolSpec

from ..app import help_with_example
from ..completion import choices
from ..context import ContextOptions, preflight
from ..env import current_env
from ..option_values import checked, metavar, one_of
from ..options import ArgsArg, DryRunOpt, OutputOpt, with_context_options
from ..output.emit import emit_export_error, emit_result, emit_value, exit_code_for
from ..review_lock import refuse_if_served
from ..tool_call import call_tool
from ..tool_help import ToolHelpCommand

DOCX_OPTIONS = (
    "author",
    "mode",
    "table_revisions",
    "operation_types",
    "review_meta",
    "max_operations",
    "require_document_version",
    "output",
    "dry_run",
    "queue",
    # a PostgreSQL store holds the writer locks of files served on other machines
    "store",
)
EXPORT_FORMATS = ("json", "anthropic", "openai", "mcp")

FileArg = Annotated[Path, typer.Argument(metavar="FILE", help="The .docx file.", show_default=False)]
ResolveAuthorOpt = Annotated[
    str | None,
    typer.Option(
        "--author",
        metavar="NAME",
        help="Resolve only the tracked changes made by this author.",
        callback=checked("author"),
    ),
]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        metavar=metavar(EXPORT_FORMATS),
        help="The definitions' shape (json, the default, is deskcheck's own); on a terminal without it, a list of "
        "names and summaries.",
        show_default=False,
        autocompletion=choices(EXPORT_FORMATS),
        callback=one_of(EXPORT_FORMATS),
    ),
]

docx_app = typer.Typer(
    name="docx",
    help=help_with_example(
        "Read a .docx as blocks and review it with tracked changes and comments.",
        "deskcheck docx read-document contract.docx '{\"maxBlocks\": 20}'",
        "deskcheck docx suggest-changes contract.docx @edits.json",
        more="Each docx tool is a verb (read_document is read-document); accept-all, reject-all, compare, redline, "
        "tools and queue complete them. A verb that changes the document writes it in place (atomically) "
        "unless -o/--output or --dry-run is given.",
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)


def verb(tool_name: str) -> str:
    return tool_name.replace("_", "-")


def _summary(description: str) -> str:
    first = description.split(". ")[0].rstrip(".")
    return first + "."


# Verbs that another verb mirrors, said in both helps.
ALIASES = {
    "compare_versions": " The comparison `deskcheck docx compare PREVIOUS CURRENT` makes, drawn the same way on a "
    "terminal (piped, the tool's own result: text for a model unless ARGS asks for json)."
}


def _tool_command(spec: DocxToolSpec):
    # Read tools take no review options; the others get every docx option.
    @with_context_options(only=() if spec.read_only else DOCX_OPTIONS)
    def command(file: FileArg, args: ArgsArg = None, *, context: ContextOptions) -> None:
        raise typer.Exit(call_tool(spec.name, args, dataclasses.replace(context, docx=file)))

    command.__doc__ = f"{_summary(spec.description)} (tool {spec.name})" + ALIASES.get(spec.name, "")
    command.__name__ = spec.name
    return command


def describe_tool(verb_name: str) -> tuple[dict, list, str]:
    """What a docx tool verb's help shows after its options (see ``tool_help``)."""
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    from ..help_examples import docx_example

    name = verb_name.replace("-", "_")
    schema = dict(docx_toolset(None).get(name).input_schema)
    extra = [("Operation types (* required)", operation_rows())] if name == "suggest_changes" else []
    return schema, extra, docx_example(name)


def operation_rows() -> list[tuple[str, str]]:
    """(type, its fields) for each suggest_changes operation type a host gets by default."""
    from deskcheck.engine.docx.edit import registry

    rows = []
    for name in registry.default_types():
        spec = registry.get_spec(name)
        fields = [f"{field.name}{'*' if field.required else ''}" for field in spec.fields]
        if spec.comment and not any(field.name == "comment" for field in spec.fields):
            fields.append("comment")
        rows.append((name, ", ".join(fields)))
    return rows


class DocxToolCommand(ToolHelpCommand):
    describe = staticmethod(describe_tool)


for _spec in DOCX_TOOL_SPECS:
    docx_app.command(verb(_spec.name), no_args_is_help=True, cls=DocxToolCommand)(_tool_command(_spec))


def _resolve(mode: str, file: Path, author: str | None, output: Path | None, dry_run: bool) -> None:
    from deskcheck.engine import progress
    from deskcheck.engine.docx.review.revisions import resolve_file
    from deskcheck.engine.errors import DeskcheckError, InputError
    from deskcheck.engine.tools import fail, ok

    env = current_env()
    preflight(ContextOptions(docx=file))
    if output is None and not dry_run:
        refuse_if_served(file)
    try:
        with progress.phase(f"{mode}ing every tracked change of {file.name}"):
            result = ok(resolve_file(file, mode, author=author, output=output, dry_run=dry_run))
    except InputError as exc:
        result = fail(exc.message, code=exc.code, input_error=True)
    except DeskcheckError as exc:
        result = fail(exc.message, code=exc.code)
    raise typer.Exit(emit_result(env, result, "docx:resolve_all"))


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


PreviousArg = Annotated[
    Path, typer.Argument(metavar="PREVIOUS", help="The earlier version (.docx).", show_default=False)
]
CurrentArg = Annotated[Path, typer.Argument(metavar="CURRENT", help="The later version (.docx).", show_default=False)]
COMPARE_FORMATS = ("text", "json")


@docx_app.command("compare", no_args_is_help=True)
def compare(
    previous: PreviousArg,
    current: CurrentArg,
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar=metavar(COMPARE_FORMATS),
            help="text (a summary line and one line per change, for a model or a diff tool) or json (the "
            "structured comparison); default: a coloured rendering on a terminal, json otherwise.",
            autocompletion=choices(COMPARE_FORMATS),
            callback=one_of(COMPARE_FORMATS),
        ),
    ] = None,
) -> None:
    """Compare two saved versions, each read with its pending tracked changes accepted: paragraphs
    added, deleted, modified (word diff), moved or reformatted, table cells, headers, footers and
    notes. The compare_versions tool makes the same comparison (`deskcheck docx compare-versions
    CURRENT '{"previous": "PREVIOUS"}'`, drawn the same way on a terminal). Exit 2 when a file
    cannot be read."""
    from deskcheck.engine import progress
    from deskcheck.engine.docx.versions.compare import compare_versions
    from deskcheck.engine.docx.versions.diff_report import format_diff_for_llm
    from deskcheck.engine.errors import DeskcheckError, InputError
    from deskcheck.engine.tools import fail, ok

    env = current_env()
    if output_format == "json":  # chosen: an envelope in every outcome, on a terminal too
        env = dataclasses.replace(env, json_output=True)
    try:
        with progress.phase(f"comparing {previous.name} with {current.name}"):
            result = ok(compare_versions(previous, current))
    except InputError as exc:
        result = fail(exc.message, code=exc.code, input_error=True)
    except DeskcheckError as exc:
        result = fail(exc.message, code=exc.code)
    if output_format != "text":
        raise typer.Exit(emit_result(env, result, None if env.json_output else "docx:compare"))
    # Text for a model or a diff tool: stdout holds that text or nothing, the error goes to stderr.
    if not result.ok:
        raise typer.Exit(emit_export_error(env, result.error or "the comparison failed", exit_code_for(result)))
    if not env.quiet:
        print(format_diff_for_llm(result.value), file=env.stdout)
    raise typer.Exit(0)


# The options that shape the tool definitions (not where or whether a call writes).
SCHEMA_OPTIONS = tuple(name for name in DOCX_OPTIONS if name not in ("output", "dry_run", "queue"))
CapabilitiesOpt = Annotated[
    bool,
    typer.Option(
        "--capabilities",
        help="Print, as plain text, what suggest_changes accepts under these options (for a system prompt).",
    ),
]


def _docx_options(context: ContextOptions):
    """The engine's options from the review flags; a bad combination is a usage error."""
    from deskcheck.engine.docx.edit.options import SuggestOptions
    from deskcheck.engine.docx.tools.toolset import DocxOptions
    from deskcheck.engine.errors import InputError

    from ..errors import UsageError

    options = DocxOptions(
        author=context.author,
        mode=context.mode,
        table_revisions=context.table_revisions,
        operation_types=context.operation_types,
        review_meta=context.review_meta,
        max_operations=context.max_operations,
        require_document_version=context.require_document_version,
    )
    try:
        suggest = SuggestOptions.from_docx_options(options)
    except InputError as exc:
        raise UsageError(exc.message.replace("operationTypes", "--operation-types")) from None
    return options, suggest


@docx_app.command("redline", no_args_is_help=True)
def redline(
    previous: PreviousArg,
    current: CurrentArg,
    output: Annotated[
        Path,
        typer.Option("-o", "--output", help="Where to write the redline (a new .docx).", show_default=False),
    ],
    author: Annotated[
        str | None,
        typer.Option(
            "--author",
            metavar="NAME",
            help="Author of the tracked changes (default: $DESKCHECK_AUTHOR, else the configuration file's "
            "author, else deskcheck compare).",
            callback=checked("author"),
        ),
    ] = None,
    scrub_metadata: Annotated[
        bool,
        typer.Option(
            "--scrub-metadata",
            help="Remove author names, timestamps, descriptive properties, revision session ids, the "
            "template path and custom properties from the redline's package.",
        ),
    ] = False,
) -> None:
    """Write a new .docx whose tracked changes turn PREVIOUS into CURRENT (insertions, deletions,
    moves, formatting), both read with their pending changes accepted. The result lists the stories
    that could not be paired and what package metadata was kept or removed. The output is written
    atomically; exit 2 when an input cannot be read or the output cannot be written."""
    from deskcheck.engine import progress
    from deskcheck.engine.docx.package.privacy import TRANSFORMS
    from deskcheck.engine.docx.versions.redline import redline_files
    from deskcheck.engine.errors import DeskcheckError, InputError
    from deskcheck.engine.tools import fail, ok

    from ..author import review_author

    env = current_env()
    try:
        privacy = list(TRANSFORMS) if scrub_metadata else None
        with progress.phase(f"redlining {previous.name} into {current.name}"):
            result = ok(redline_files(previous, current, output, author=review_author(author), privacy=privacy))
    except InputError as exc:
        result = fail(exc.message, code=exc.code, input_error=True)
    except DeskcheckError as exc:
        result = fail(exc.message, code=exc.code, input_error=exc.code == "badOutput")
    raise typer.Exit(emit_result(env, result, "docx:redline"))


ToolNameArg = Annotated[
    str | None,
    typer.Argument(
        metavar="[NAME]",
        help="One tool (read_document or read-document): its definition, or on a terminal its arguments and an "
        "example.",
        show_default=False,
    ),
]


@docx_app.command("tools")
@with_context_options(only=SCHEMA_OPTIONS)
def tools(
    name: ToolNameArg = None,
    format: FormatOpt = None,
    capabilities: CapabilitiesOpt = False,
    *,
    context: ContextOptions,
) -> None:
    """Print the docx tool definitions (json, anthropic, openai or mcp shape), shaped by the same
    review options the tools run with; on a terminal without --format, each tool's name and what it
    does. NAME prints one tool (on a terminal: its JSON arguments and an example). --capabilities
    prints suggest_changes' capabilities text."""
    from deskcheck.engine.docx.tools.toolset import docx_toolset
    from deskcheck.engine.providers import export_tools

    from ..errors import UsageError

    listing = format is None
    format = format or "json"
    env = current_env()
    try:
        options, suggest = _docx_options(context)
    except UsageError as exc:
        raise typer.Exit(emit_export_error(env, exc.message)) from None
    if capabilities:
        from deskcheck.engine.docx.edit.schema import capabilities_text

        env.stdout.write(capabilities_text(suggest) + "\n")
        raise typer.Exit(0)
    toolset = docx_toolset(None, options)
    if name is not None:
        tool_name = name.replace("-", "_")
        if tool_name not in toolset:
            from deskcheck.engine.close_matches import did_you_mean

            hint = did_you_mean(tool_name, toolset.names)
            listed = ", ".join(toolset.names)
            raise typer.Exit(emit_export_error(env, f"there is no docx tool {name!r}.{hint} The tools: {listed}."))
        if listing and not env.json_output:  # a person at a terminal: what --help of its verb says
            raise typer.Exit(emit_value(env, _one_tool(toolset.get(tool_name)), "tools:tool"))
        [definition] = export_tools([toolset.get(tool_name)], format)
        print(json.dumps(definition, ensure_ascii=False, indent=2), file=env.stdout)
        raise typer.Exit(0)
    definitions = export_tools(toolset, format)
    if listing and not env.json_output:  # a person at a terminal: names and summaries
        raise typer.Exit(emit_value(env, definitions, "tools:listing"))
    # An exporter: the definitions themselves, in the provider's shape, never in an envelope.
    print(json.dumps(definitions, ensure_ascii=False, indent=2), file=env.stdout)
    raise typer.Exit(0)


def _one_tool(tool) -> dict:
    """One tool as ``render.tools.one_tool`` shows it."""
    from ..help_examples import docx_example
    from ..tool_help import argument_rows

    return {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "arguments": argument_rows(dict(tool.input_schema)),
        "example": docx_example(tool.name),
    }


queue_app = typer.Typer(
    name="queue",
    help=help_with_example(
        "Park suggest_changes batches for a person to review, then apply them.",
        "deskcheck docx queue list review.jsonl",
        "deskcheck docx queue apply review.jsonl contract.docx --only op-1",
        more="suggest-changes --queue FILE parks a batch in the queue (JSON Lines) instead of applying it.",
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)
docx_app.add_typer(queue_app)

QueueFileArg = Annotated[Path, typer.Argument(metavar="QUEUE", help="The queue file (JSON Lines).", show_default=False)]
OnlyOpt = Annotated[
    list[str] | None, typer.Option("--only", help="Apply only this operation id (repeatable).", show_default=False)
]


@queue_app.command("apply", no_args_is_help=True)
def queue_apply(
    queue: QueueFileArg, file: FileArg, only: OnlyOpt = None, output: OutputOpt = None, dry_run: DryRunOpt = False
) -> None:
    """Apply the queued operations for FILE (only the --only ids when given), writing the file in place
    atomically unless -o/--output or --dry-run is given; the queue records what happened."""
    from deskcheck.engine import progress
    from deskcheck.engine.docx.tools.queue_tools import apply_queue
    from deskcheck.engine.errors import DeskcheckError, InputError
    from deskcheck.engine.tools import ToolResult, fail, ok

    env = current_env()
    preflight(ContextOptions(docx=file))
    if output is None and not dry_run:
        refuse_if_served(file)
    if not queue.exists():
        from ..errors import UsageError

        raise UsageError(f"the queue {queue} does not exist.")
    try:
        with progress.phase(f"applying the queue {queue.name} to {file.name}"):
            outcome = apply_queue(queue, file, tuple(only or ()), output=output, dry_run=dry_run)
        result = outcome if isinstance(outcome, ToolResult) else ok(outcome)
    except InputError as exc:
        result = fail(exc.message, code=exc.code, input_error=True)
    except DeskcheckError as exc:
        result = fail(exc.message, code=exc.code)
    raise typer.Exit(emit_result(env, result, "docx:queue_apply"))


@queue_app.command("list", no_args_is_help=True)
def queue_list(queue: QueueFileArg) -> None:
    """Print the queued batches with the status of each operation."""
    from deskcheck.engine.docx.tools.queue_tools import list_queue
    from deskcheck.engine.errors import InputError

    from ..errors import UsageError

    try:
        value = list_queue(queue)
    except InputError as exc:
        raise UsageError(exc.message) from None
    raise typer.Exit(emit_value(current_env(), value, "docx:queue_list"))
