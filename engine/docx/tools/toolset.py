"""The docx family's entry point: ``docx_toolset(path, options) -> ToolSet``.

Building the tool set reads nothing: definitions are static data (``tooldefs``) and each tool
opens the file when it runs, so a missing or broken file is reported per call (``deskcheck batch
--docx missing.docx`` answers every line with an error). Within one process the parsed document
is cached and reused until the file changes on disk (``document.load_document``).
"""

from __future__ import annotations

import contextlib
import importlib
import os
from pathlib import Path
from typing import Any, NamedTuple

from ...tools import READ_ONLY, Tool, ToolAnnotations, ToolResult, ToolSet, unknown_arguments_error
from .tooldefs import DOCX_INSTRUCTIONS, DOCX_TOOL_SPECS, UNSUPPORTED_TOOLS, DocxToolSpec

# The package the "module:function" names of tooldefs are relative to.
_DOCX = __package__.rpartition(".")[0]


class DocxOptions(NamedTuple):
    """Options that shape the docx tools (filled from the CLI's review flags)."""

    author: str | None = None
    mode: str = "tracked-changes"
    # How tracked column, merge and split changes are written: "cells" (cell revisions) or
    # "rows" (row replacements, see edit.row_replacement).
    table_revisions: str = "cells"
    operation_types: tuple[str, ...] = ()
    review_meta: str = "optional"
    max_operations: int = 50
    require_document_version: bool = False
    output: Path | None = None
    dry_run: bool = False
    queue: Path | None = None


class DocxSession:
    """What a handler gets: the file, the options, and the parsed document on demand."""

    def __init__(self, path: str | os.PathLike[str] | None, options: DocxOptions) -> None:
        self.path = Path(path) if path is not None else None
        self.options = options
        # documentVersion of the file an editing tool last wrote (set by edit_tools).
        self.written_version: str | None = None

    def document(self):
        """The parsed document (shared per process: mutating code opens its own copy with
        ``DocxDocument.open`` and calls ``forget_document`` after saving)."""
        from ...errors import InputError
        from ..model.document import load_document

        if self.path is None:
            raise InputError("no .docx file was given; pass one with --docx FILE.", code="missingFile")
        return load_document(self.path)


def _function(name: str):
    """The function a ``"module:function"`` name of ``tooldefs`` points to, imported now."""
    module_name, _, function = name.partition(":")
    module = importlib.import_module(f"{_DOCX}.{module_name}")
    return getattr(module, function)


def _shaped(spec: DocxToolSpec, options: DocxOptions) -> tuple[str, dict[str, Any]]:
    """The description and input schema of a tool, computed from the options when they shape it."""
    if spec.shaped_by_options is None:
        return spec.description, spec.input_schema
    return _function(spec.shaped_by_options)(options)


_LAZY_FIELDS = ("description", "input_schema")


class _OptionShapedTool(Tool):
    """A tool whose description and input schema depend on the options (suggest_changes): they
    are computed on first use, so that a command running another tool (read_document) does not
    pay for building them."""

    def __getattribute__(self, name: str) -> Any:
        if name in _LAZY_FIELDS:
            state = object.__getattribute__(self, "__dict__")
            if "_shaped" not in state:
                state["_shaped"] = state["_shape"]()
            return state["_shaped"][_LAZY_FIELDS.index(name)]
        return object.__getattribute__(self, name)


def _annotations(spec: DocxToolSpec, options: DocxOptions) -> ToolAnnotations:
    """The hints of a tool as the options make it behave: suggest_changes in direct mode deletes
    and rewrites text with no tracked change to reject, so it is destructive there."""
    if spec.read_only:
        return READ_ONLY
    destructive = spec.destructive or (spec.name == "suggest_changes" and options.mode == "direct")
    return ToolAnnotations(destructive=destructive, idempotent=spec.idempotent)


def _updating(spec: DocxToolSpec, session: DocxSession) -> contextlib.AbstractContextManager:
    """The file held from read to write when the tool may write it in place (see ``file_lock``):
    parallel writers each land in turn, and a version check is made against what it replaces."""
    options = session.options
    if spec.read_only or session.path is None or options.dry_run or options.output is not None:
        return contextlib.nullcontext()
    from ...file_lock import updating

    return updating(session.path)


def _make_tool(spec: DocxToolSpec, session: DocxSession) -> Tool:
    # Top-level argument names come from the static definition (options shape what is inside
    # them, never which arguments exist), so checking them never builds a shaped schema.
    allowed = set(spec.input_schema.get("properties", {}))

    def execute(args: dict[str, Any]) -> ToolResult | Any:
        unknown = set(args) - allowed
        if unknown:
            raise unknown_arguments_error(spec.name, unknown, sorted(allowed))
        with _updating(spec, session):
            return _function(spec.handler)(session, args)

    annotations = _annotations(spec, session.options)
    if spec.shaped_by_options is None:
        tool = Tool(
            name=spec.name,
            title=spec.title,
            description=spec.description,
            input_schema=spec.input_schema,
            execute=execute,
            annotations=annotations,
            output_schema=spec.output_schema,
        )
        return tool
    tool = _OptionShapedTool(
        name=spec.name,
        title=spec.title,
        description="",
        input_schema={},
        execute=execute,
        annotations=annotations,
        output_schema=spec.output_schema,
    )
    object.__setattr__(tool, "_shape", lambda: _shaped(spec, session.options))
    return tool


def docx_toolset(path: str | os.PathLike[str] | None, options: DocxOptions | None = None) -> ToolSet:
    """The docx tools over the file at ``path`` (``None``: definitions only, for export). An
    author a .docx cannot store is refused here, with ``InputError``, before any tool runs."""
    from ..wml.text import check_author

    options = options or DocxOptions()
    check_author(options.author)
    session = DocxSession(path, options)
    return ToolSet(
        "docx",
        [_make_tool(spec, session) for spec in DOCX_TOOL_SPECS],
        instructions=DOCX_INSTRUCTIONS,
        unsupported=UNSUPPORTED_TOOLS,
    )
