"""Lenient decoding of a suggest_changes call into ``Operation`` objects.

What a model commonly gets slightly wrong is accepted and reported in ``normalizations``: a
``kind`` key instead of ``type``, an operation sent as a JSON string, a property that does not
apply to the operation's type (dropped), a comment sent as ``{"text": ...}``, a precondition
sent as the bare hash, a whole number sent as ``3.0``, a numeric id. Anything else that is wrong
fails the whole call (``DecodeError``) with a message naming the place, before anything is read
or written. Ids the caller leaves out are generated, unique across calls.
"""

from __future__ import annotations

import json
import os
from typing import Any, NamedTuple

from . import registry
from .fields import AREA_FIELD, COMMENT_FIELD, PRECONDITION_FIELD, SEVERITY_FIELD, DecodeError, Decoding, kind_of
from .limits import MAX_ID_LENGTH
from .options import SuggestOptions
from .spec import Operation

TOP_LEVEL = ("operations", "documentVersion")


class Batch(NamedTuple):
    operations: list[Operation]
    document_version: str | None
    normalizations: list[dict[str, Any]]


def new_operation_id() -> str:
    """A generated id: random, so it never collides with an id recorded by an earlier call."""
    return "op-" + os.urandom(6).hex()


def decode_batch(args: dict[str, Any], options: SuggestOptions) -> Batch:
    state = Decoding()
    unknown = sorted(set(args) - set(TOP_LEVEL))
    if unknown:
        raise DecodeError(
            f"suggest_changes does not take {', '.join(unknown)}; it takes `operations` (an array) and "
            "`documentVersion`."
        )
    version = args.get("documentVersion")
    if version is not None and (not isinstance(version, str) or not version):
        raise DecodeError("documentVersion must be the string a read returned as documentVersion.")
    if options.require_document_version and version is None:
        raise DecodeError(
            "this host requires `documentVersion`: echo the documentVersion of your last read, so that edits "
            "never land on a document that changed since."
        )
    items = args.get("operations")
    if isinstance(items, str):
        try:
            items = json.loads(items)
        except ValueError:
            raise DecodeError("`operations` must be an array of operation objects.") from None
        state.note("operations", "operationsFromJsonString", "read `operations` from a JSON string.")
    if isinstance(items, dict):
        state.note("operations", "singleOperation", "read the single operation object as an array of one.")
        items = [items]
    if not isinstance(items, list):
        raise DecodeError(f"`operations` must be an array of operation objects, not {kind_of(items)}.")
    if not items:
        raise DecodeError("`operations` is empty; send at least one operation.")
    if len(items) > options.max_operations:
        raise DecodeError(
            f"`operations` has {len(items)} entries, over this host's limit of {options.max_operations} per "
            "call; send the rest in another call."
        )
    operations = [decode_operation(item, index, options, state) for index, item in enumerate(items)]
    seen: dict[str, int] = {}
    for op in operations:
        if op.id in seen:
            raise DecodeError(
                f"operations[{op.index}].id {op.id!r} is also the id of operations[{seen[op.id]}]; "
                "give every operation its own id (or leave ids out)."
            )
        seen[op.id] = op.index
    return Batch(operations, version, state.normalizations)


def decode_operation(item: Any, index: int, options: SuggestOptions, state: Decoding) -> Operation:
    path = f"operations[{index}]"
    if isinstance(item, str):
        try:
            item = json.loads(item)
        except ValueError:
            raise DecodeError(
                f"{path} is a string that is not a JSON object; send the operation as an object."
            ) from None
        state.note(path, "operationFromJsonString", "read the operation from a JSON string.")
    if not isinstance(item, dict):
        raise DecodeError(f"{path} must be an operation object, not {kind_of(item)}.")
    item = dict(item)
    if "kind" in item:
        kind = item.pop("kind")
        if "type" not in item:
            item["type"] = kind
            state.note(f"{path}.kind", "kindAsType", "read `kind` as `type`.")
        elif item["type"] != kind:
            raise DecodeError(f"{path} has both `type` {item['type']!r} and `kind` {kind!r}; send only `type`.")
        else:
            state.note(f"{path}.kind", "droppedProperty", "ignored `kind`, which repeats `type`.")
    op_type = item.pop("type", None)
    if op_type is None:
        raise DecodeError(f"{path} has no `type`; use one of {', '.join(options.operation_types)}.")
    if op_type not in registry.CONTRACT_TYPES:
        raise DecodeError(
            f"{path}.type {op_type!r} is not an operation type; use one of {', '.join(options.operation_types)}."
        )
    if not registry.is_available(op_type):
        raise DecodeError(
            f"{path}.type {op_type} is not implemented by deskcheck yet; use one of "
            f"{', '.join(options.operation_types)}."
        )
    if not options.allows(op_type):
        raise DecodeError(
            f"{path}.type {op_type} is not enabled here; this host accepts {', '.join(options.operation_types)}."
        )
    spec = registry.get_spec(op_type)

    op_id = item.pop("id", None)
    generated = op_id is None
    if isinstance(op_id, int) and not isinstance(op_id, bool):
        state.note(f"{path}.id", "idAsString", f"read the number {op_id} as the id {str(op_id)!r}.")
        op_id = str(op_id)
    if generated:
        op_id = new_operation_id()
    elif not isinstance(op_id, str) or not op_id.strip() or len(op_id) > MAX_ID_LENGTH:
        raise DecodeError(f"{path}.id must be a non-empty string of at most {MAX_ID_LENGTH} characters.")

    known = {field.name: field for field in spec.fields}
    known[PRECONDITION_FIELD.name] = PRECONDITION_FIELD
    known[SEVERITY_FIELD.name] = SEVERITY_FIELD
    known[AREA_FIELD.name] = AREA_FIELD
    if spec.comment and "comment" not in known:
        known["comment"] = COMMENT_FIELD
    fields: dict[str, Any] = {}
    for key, value in item.items():
        field = known.get(key)
        if field is None:
            state.note(f"{path}.{key}", "droppedProperty", f"ignored `{key}`, which {op_type} does not take.")
            continue
        if value is None and not field.required and key != "styleId":
            state.note(f"{path}.{key}", "droppedProperty", f"ignored `{key}`: null means not given.")
            continue
        fields[key] = field.decode(value, f"{path}.{key}", state)
    for field in known.values():
        if field.required and field.name not in fields:
            raise DecodeError(f"{path} ({op_type}) needs `{field.name}`: {field.help}")
    if options.review_meta == "required":
        for name in ("severity", "area"):
            if name not in fields:
                raise DecodeError(
                    f"{path} needs `{name}`: this host sorts edits for review by severity (low, medium, high) and area."
                )
    if spec.check is not None:
        spec.check(fields, path)
    return Operation(index, op_id, op_type, fields, generated)
