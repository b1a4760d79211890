"""The suggest_changes tool definition and the capabilities text, both generated from the
operation specs and the host's ``SuggestOptions`` (so the schema a model sees, the text pasted
into its system prompt and what the executor accepts cannot drift apart)."""

from __future__ import annotations

from typing import Any

from . import registry
from .fields import AREA_FIELD, COMMENT_FIELD, PRECONDITION_FIELD, SEVERITY_FIELD
from .options import SuggestOptions

RULES = (
    "Block ids, ranges and hashes come only from earlier reads of this document (read_document, find_text, "
    "read_section); never invent one.",
    "Every operation of one call addresses the document as you read it. Give each block or stretch of text "
    "at most one operation that deletes, rewrites, splits or merges it; a later operation on something an "
    "earlier one already changes is skipped (overlappingOperation).",
    "Offsets count UTF-16 code units of a block's text and must fall between two characters.",
    'Text read_document marks as placeholder (the prompt an empty content control shows, such as "Choose an '
    'item.") is not content: an operation that would change it is skipped (placeholderText); a new block '
    "next to such a control goes outside it.",
    "A skipped operation changes nothing and the others still apply; each skip has a code and a reason "
    "saying what to do (usually: re-read and retry with fresh ids).",
    "An operation id names one operation for the whole document: resending a call whose operations already "
    "landed returns them under `replayed` without applying them twice (while the document still shows "
    "their changes; otherwise they are skipped with replayUnverified). Never reuse an id for a different "
    "operation; leave ids out to have them generated.",
    "Successful operations come back in `receipts` (input order) with typed `affected` targets, including "
    "the ids of created blocks and comments.",
)


def _mode_sentence(options: SuggestOptions) -> str:
    if options.mode == "direct":
        return "Edits are applied directly to the text (direct mode), without tracked changes."
    return "Every edit lands as a tracked change (or a comment) for a person to accept or reject; nothing is finalized."


_TABLE_SHAPE_TYPES = ("insertTableColumn", "deleteTableColumn", "mergeTableCells", "splitTableCell")


def _table_revisions_sentence(options: SuggestOptions) -> str:
    """How tracked column, merge and split changes are written (the host's tableRevisions)."""
    if options.mode == "direct" or not any(options.allows(name) for name in _TABLE_SHAPE_TYPES):
        return ""
    if options.table_revisions == "rows":
        return (
            "Table columns inserted or deleted and cells merged or split are recorded row by row: every table row "
            "they change shows up twice, first as it was (marked deleted), then as it becomes (marked inserted), "
            "which Word and LibreOffice both accept or reject exactly. Here tracked mode takes every column, merge "
            "and split that direct mode takes (the tracked-mode limits in the summaries below do not apply); a "
            "change whose rows hold a comment anchor, bookmark or note reference that would have to be copied is "
            "skipped (unsupportedBlock)."
        )
    return (
        "Table columns inserted or deleted and cells merged or split are recorded as cell revisions, which Word "
        "reads; some editors (LibreOffice 7.4) show such changes as already made."
    )


def capabilities_text(options: SuggestOptions) -> str:
    """What suggest_changes accepts under ``options``, as plain text for a system prompt."""
    lines = [
        "suggest_changes proposes edits to the document. " + _mode_sentence(options),
        f"Send at most {options.max_operations} operations per call in `operations`.",
    ]
    if options.require_document_version:
        lines.append(
            "Echo `documentVersion` from your last read; if the document changed since, nothing is applied "
            "(documentVersionMismatch)."
        )
    else:
        lines.append(
            "You may echo `documentVersion` from your last read: if the document changed since, nothing is "
            "applied (documentVersionMismatch)."
        )
    table_sentence = _table_revisions_sentence(options)
    if table_sentence:
        lines.append(table_sentence)
    if options.review_meta == "required":
        lines.append("Every operation must carry `severity` (low, medium or high) and `area` (a review area).")
    else:
        lines.append("Operations may carry `severity` (low, medium or high) and `area` for review sorting.")
    lines.append("")
    lines.append("Operation types (the `type` of each operation):")
    for name in options.operation_types:
        spec = registry.get_spec(name)
        lines.append(f"- {name}: {spec.summary}")
        for field in spec.fields:
            need = "required" if field.required else "optional"
            lines.append(f"    {field.name} ({need}): {field.help}")
        if spec.comment and all(field.name != "comment" for field in spec.fields):
            lines.append(f"    comment (optional): {COMMENT_FIELD.help}")
    lines.append("Any operation may carry `precondition: {blockTextHash}` and an `id`.")
    lines.append("")
    lines.append("Rules:")
    lines.extend(f"- {rule}" for rule in RULES)
    return "\n".join(lines)


def suggest_changes_schema(options: SuggestOptions) -> dict[str, Any]:
    """The input schema: one operation object whose properties are the union of the enabled
    types' fields (providers reject ``oneOf``; the executor checks each type's own fields)."""
    properties: dict[str, Any] = {
        "id": {"type": "string", "minLength": 1, "description": "Optional; names this operation for replay."},
        "type": {"type": "string", "enum": list(options.operation_types), "description": "The operation type."},
    }
    any_comment = False
    for name in options.operation_types:
        spec = registry.get_spec(name)
        any_comment = any_comment or spec.comment
        for field in spec.fields:
            properties.setdefault(field.name, field.schema)
    if any_comment:
        properties.setdefault("comment", COMMENT_FIELD.schema)
    properties["precondition"] = PRECONDITION_FIELD.schema
    properties["severity"] = SEVERITY_FIELD.schema
    properties["area"] = AREA_FIELD.schema
    required = ["type"]
    if options.review_meta == "required":
        required += ["severity", "area"]
    operation = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
    top: dict[str, Any] = {
        "operations": {
            "type": "array",
            "minItems": 1,
            "maxItems": options.max_operations,
            "items": operation,
            "description": f"The edits, at most {options.max_operations}.",
        },
        "documentVersion": {
            "type": "string",
            "description": "The documentVersion of your last read; a changed document applies nothing.",
        },
    }
    top_required = ["operations"] + (["documentVersion"] if options.require_document_version else [])
    return {"type": "object", "properties": top, "required": top_required, "additionalProperties": False}


def suggest_changes_description(options: SuggestOptions) -> str:
    return capabilities_text(options)


def suggest_changes_definition(docx_options) -> tuple[str, dict[str, Any]]:
    """(description, input schema) of suggest_changes for the docx family's options."""
    options = SuggestOptions.from_docx_options(docx_options)
    return suggest_changes_description(options), suggest_changes_schema(options)
