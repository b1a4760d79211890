"""Typer declarations of the context options, defined once and shared by every command that
opens a tool set (``call``, ``batch``, the family sub-commands, ``repl``), and of a tool's ARGS."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .completion import choices, profiles, tool_args
from .context import build_context
from .option_values import DATA_FORMATS, MODES, REVIEW_META, TABLE_REVISIONS, YAML_VERSIONS, checked, metavar

CONTEXT = "Context"
API = "API access (--spec)"
REVIEW = "Review options (--docx)"

DocxOpt = Annotated[
    Path | None, typer.Option("--docx", metavar="FILE", help="A .docx file to review.", rich_help_panel=CONTEXT)
]
SpecOpt = Annotated[
    str | None,
    typer.Option(
        "--spec",
        metavar="SPEC",
        help="An OpenAPI document (file or URL) annotated with x-agent.",
        rich_help_panel=CONTEXT,
    ),
]
SchemaOpt = Annotated[
    Path | None,
    typer.Option(
        "--schema", metavar="FILE", help="A JSON Schema (JSON or YAML) for a file-backed form.", rich_help_panel=CONTEXT
    ),
]
DataOpt = Annotated[
    Path | None,
    typer.Option(
        "--data",
        metavar="FILE",
        help="The record a file-backed form edits (JSON, YAML or TOML).",
        rich_help_panel=CONTEXT,
    ),
]
DataFormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        metavar=metavar(DATA_FORMATS),
        help="How the --data file is written (default: by its suffix, else by its content).",
        rich_help_panel=CONTEXT,
        autocompletion=choices(DATA_FORMATS),
        callback=checked("data_format"),
        show_default=False,
    ),
]
YamlVersionOpt = Annotated[
    str | None,
    typer.Option(
        "--yaml-version",
        metavar=metavar(YAML_VERSIONS),
        help="Read a YAML --data file as YAML 1.1 (yes/no/on/off are booleans, 0644 is octal: as Ansible reads "
        "it) or 1.2 (the default); a project's .deskcheck.toml can set it ([form] yaml-version).",
        rich_help_panel=CONTEXT,
        autocompletion=choices(YAML_VERSIONS),
        callback=checked("yaml_version"),
        show_default=False,
    ),
]
DocumentOpt = Annotated[
    int | None,
    typer.Option(
        "--document",
        metavar="N",
        help="The document of a multi-document YAML --data file to edit, 1 for the first; the others are kept "
        "byte for byte.",
        rich_help_panel=CONTEXT,
        min=1,
        show_default=False,
    ),
]
ProfileOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--profile",
        metavar="NAME",
        help="An x-agent profile to load (repeatable).",
        rich_help_panel=API,
        autocompletion=profiles,
    ),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        metavar="URL",
        help="Send requests here instead of the document's server.",
        rich_help_panel=API,
        callback=checked("base_url"),
    ),
]
HeaderOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--header",
        "-H",
        metavar="'NAME: VALUE'",
        help="An HTTP header for every request (repeatable).",
        rich_help_panel=API,
        callback=checked("header"),
    ),
]
TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        metavar="TOKEN",
        help="A bearer token (default: $DESKCHECK_TOKEN). Never stored or printed.",
        rich_help_panel=API,
        show_default=False,
    ),
]
AllowHostOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        metavar="HOST",
        help="Another host that suggestion URLs and a schema's references may reach (repeatable).",
        rich_help_panel=API,
        callback=checked("allow_host"),
    ),
]
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        metavar="URL",
        help="The session store: sqlite:///PATH or postgresql://USER@HOST/DATABASE (default: $DESKCHECK_STORE, "
        "else [store] url in the user's config.toml, else sessions.sqlite3 in the state directory). Its password "
        "is never printed; keep it in $DESKCHECK_STORE, PGPASSWORD or ~/.pgpass rather than on the command line.",
        rich_help_panel=CONTEXT,
        show_default=False,
    ),
]
IdentityOpt = Annotated[
    str | None,
    typer.Option(
        "--identity",
        metavar="NAME",
        help="Keep form sessions apart per identity (e.g. one per user).",
        rich_help_panel=API,
    ),
]
TimeoutOpt = Annotated[
    float,
    typer.Option(
        "--timeout", metavar="SECONDS", help="Seconds to wait for each HTTP request.", rich_help_panel=API, min=0.1
    ),
]
FillDefaultsOpt = Annotated[
    bool,
    typer.Option(
        "--fill-defaults",
        help="File-backed forms: write the schema's defaults and constants where the record has no value.",
        rich_help_panel=CONTEXT,
    ),
]
ModeOpt = Annotated[
    str,
    typer.Option(
        "--mode",
        metavar=metavar(MODES),
        help="Propose edits as tracked changes (the default) or write them directly.",
        rich_help_panel=REVIEW,
        autocompletion=choices(MODES),
        callback=checked("mode"),
    ),
]
TableRevisionsOpt = Annotated[
    str,
    typer.Option(
        "--table-revisions",
        metavar=metavar(TABLE_REVISIONS),
        help="How tracked column inserts/deletes, merges and splits are written: cells (default: cell "
        "revisions, read by Word) or rows (each changed row deleted and re-inserted, read by Word and "
        "LibreOffice).",
        rich_help_panel=REVIEW,
        autocompletion=choices(TABLE_REVISIONS),
        callback=checked("table_revisions"),
    ),
]
OperationTypesOpt = Annotated[
    str | None,
    typer.Option(
        "--operation-types",
        metavar="TYPE,...",
        help="Comma-separated subset of suggest_changes operation types (deskcheck docx tools suggest_changes "
        "lists them).",
        rich_help_panel=REVIEW,
        callback=checked("operation_types"),
    ),
]
ReviewMetaOpt = Annotated[
    str,
    typer.Option(
        "--review-meta",
        metavar=metavar(REVIEW_META),
        help="Whether each operation must carry a severity and an area.",
        rich_help_panel=REVIEW,
        autocompletion=choices(REVIEW_META),
        callback=checked("review_meta"),
    ),
]
MaxOperationsOpt = Annotated[
    int,
    typer.Option(
        "--max-operations",
        metavar="1-200",
        help="Most operations per suggest_changes call.",
        rich_help_panel=REVIEW,
        min=1,
        max=200,
    ),
]
RequireVersionOpt = Annotated[
    bool,
    typer.Option(
        "--require-document-version",
        help="suggest_changes must echo the documentVersion it read.",
        rich_help_panel=REVIEW,
    ),
]
AuthorOpt = Annotated[
    str | None,
    typer.Option(
        "--author",
        metavar="NAME",
        help="Author of tracked changes and comments (default: $DESKCHECK_AUTHOR, else the configuration "
        "file's author, else deskcheck).",
        rich_help_panel=REVIEW,
        callback=checked("author"),
    ),
]
OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write the changed document here instead of in place.",
        rich_help_panel=REVIEW,
    ),
]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Resolve and validate, report, write nothing.", rich_help_panel=REVIEW)
]
QueueOpt = Annotated[
    Path | None,
    typer.Option(
        "--queue",
        metavar="FILE",
        help="Park suggest_changes batches in this JSON Lines file instead of applying them.",
        rich_help_panel=REVIEW,
    ),
]
# A tool's arguments on the line (``call TOOL [ARGS]``, ``docx VERB FILE [ARGS]``).
ArgsArg = Annotated[
    str | None,
    typer.Argument(
        metavar="[ARGS]",
        help="The tool's arguments: a JSON object, @file.json, or - for stdin.",
        show_default=False,
        autocompletion=tool_args,
    ),
]

# Every context option: (parameter name, Typer annotation, default). The names match
# ``build_context``'s keywords.
_CONTEXT_PARAMETERS: tuple[tuple[str, object, object], ...] = (
    ("docx", DocxOpt, None),
    ("spec", SpecOpt, None),
    ("schema", SchemaOpt, None),
    ("data", DataOpt, None),
    ("data_format", DataFormatOpt, None),
    ("yaml_version", YamlVersionOpt, None),
    ("document", DocumentOpt, None),
    ("profile", ProfileOpt, None),
    ("base_url", BaseUrlOpt, None),
    ("header", HeaderOpt, None),
    ("token", TokenOpt, None),
    ("allow_host", AllowHostOpt, None),
    ("identity", IdentityOpt, None),
    ("store", StoreOpt, None),
    ("timeout", TimeoutOpt, 30.0),
    ("fill_defaults", FillDefaultsOpt, False),
    ("mode", ModeOpt, "tracked-changes"),
    ("table_revisions", TableRevisionsOpt, "cells"),
    ("operation_types", OperationTypesOpt, None),
    ("review_meta", ReviewMetaOpt, "optional"),
    ("max_operations", MaxOperationsOpt, 50),
    ("require_document_version", RequireVersionOpt, False),
    ("author", AuthorOpt, None),
    ("output", OutputOpt, None),
    ("dry_run", DryRunOpt, False),
    ("queue", QueueOpt, None),
)
CONTEXT_OPTION_NAMES = tuple(name for name, _, _ in _CONTEXT_PARAMETERS)


def with_context_options(*, only: tuple[str, ...] | None = None):
    """Give a command the context options as Typer parameters, and call it with one
    ``context: ContextOptions`` keyword instead. ``only`` limits the options offered (a docx verb
    has no use for --spec). A command that takes its context from an argument (the FILE of
    ``docx <verb>``) completes it with ``dataclasses.replace``."""
    import functools
    import inspect

    def decorate(func):
        signature = inspect.signature(func, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name != "context"]
        added = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
            for name, annotation, default in _CONTEXT_PARAMETERS
            if only is None or name in only
        ]

        @functools.wraps(func)
        def command(**kwargs):
            options = {p.name: kwargs.pop(p.name) for p in added}
            return func(context=build_context(**options), **kwargs)

        parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + added
        command.__signature__ = signature.replace(parameters=parameters)
        command.__annotations__ = {p.name: p.annotation for p in parameters}
        del command.__wrapped__
        return command

    return decorate
