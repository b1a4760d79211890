"""Short, uniform messages for JSON Schema validation errors.

The wording follows the convention most JSON Schema tools (and the reference system's tests) use:
``/size must be <= 100``, ``/namePrefix must be string``, ``must have required property 'title'``,
``must NOT have additional properties (template)``. One error may become several messages (one per
unexpected property), each with the instance path it concerns.

Two validators feed this: jsonschema (Python; argument checks before a request) and jsonschema-rs
(Rust; the x-agent vocabulary and the document against the OpenAPI schemas, where speed matters).
Their errors are first read into one shape, ``_Failure``, so both get exactly the same wording.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ... import jsonpointer

# A schema node may carry its own wording for a failed anyOf/oneOf/not (validators ignore it).
MESSAGE_KEY = "x-message"

# jsonschema-rs names an error by its kind; the keyword it comes from, as jsonschema names it.
_RS_KEYWORDS = {
    "AdditionalItems": "additionalItems",
    "AdditionalProperties": "additionalProperties",
    "AnyOf": "anyOf",
    "Constant": "const",
    "Contains": "contains",
    "ContentEncoding": "contentEncoding",
    "ContentMediaType": "contentMediaType",
    "Enum": "enum",
    "ExclusiveMaximum": "exclusiveMaximum",
    "ExclusiveMinimum": "exclusiveMinimum",
    "FalseSchema": "false",
    "Format": "format",
    "MaxItems": "maxItems",
    "MaxLength": "maxLength",
    "MaxProperties": "maxProperties",
    "Maximum": "maximum",
    "MinItems": "minItems",
    "MinLength": "minLength",
    "MinProperties": "minProperties",
    "Minimum": "minimum",
    "MultipleOf": "multipleOf",
    "Not": "not",
    "OneOfMultipleValid": "oneOf",
    "OneOfNotValid": "oneOf",
    "Pattern": "pattern",
    "PropertyNames": "propertyNames",
    "Required": "required",
    "Type": "type",
    "UnevaluatedItems": "unevaluatedItems",
    "UnevaluatedProperties": "unevaluatedProperties",
    "UniqueItems": "uniqueItems",
}
# Where each kind keeps the keyword's value (used when the schema itself cannot be looked up).
_RS_VALUES = {
    "Type": "types",
    "Required": "property",
    "Enum": "options",
    "Constant": "expected_value",
    "MultipleOf": "multiple_of",
    "Format": "format",
    "Pattern": "pattern",
}


@dataclass
class _Failure:
    """One validation error, whichever validator produced it."""

    path: tuple[str | int, ...]  # where in the instance
    keyword: str
    value: Any  # the keyword's value in the schema
    instance: Any
    schema: dict[str, Any]  # the schema object holding the keyword ({} when unknown)
    message: str  # the validator's own sentence, the last resort
    unexpected: list[str] | None = None  # additional / unevaluated property names
    missing: str | None = None  # the property a `required` error is about
    context: list[_Failure] = field(default_factory=list)  # every branch's errors (anyOf, oneOf)
    undecided: bool = False  # a pattern the value could not be checked against (too much backtracking)


def error_messages(errors: Iterable[Any], *, schema: Any = None) -> list[tuple[str, str]]:
    """``(instance pointer, message)`` for each error, in a stable order. ``errors`` come from
    jsonschema or from jsonschema-rs; for the latter, ``schema`` (the root schema, without
    ``$ref``) lets a message use the schema's own values and ``x-message`` wording."""
    failures = [_from_rs(e, schema) if hasattr(e, "kind") else _from_jsonschema(e) for e in errors]
    out: list[tuple[str, str]] = []
    for failure in sorted(failures, key=lambda f: (list(map(str, f.path)), f.keyword)):
        out.extend(_messages(failure))
    return out


def format_messages(pairs: Iterable[tuple[str, str]], *, root: str = "/") -> str:
    """``/a must be string; / must NOT have additional properties (x)``."""
    return "; ".join(f"{pointer or root} {message}" for pointer, message in pairs)


def _from_jsonschema(error: Any) -> _Failure:
    schema = error.schema if isinstance(error.schema, dict) else {}
    keyword = str(error.validator)
    unexpected = None
    if keyword == "additionalProperties" and isinstance(error.instance, dict):
        unexpected = _unexpected(error.instance, schema)
    missing = None
    if keyword == "required":
        found = re.search(r"'([^']*)' is a required property", error.message)
        missing = found.group(1) if found else None
    return _Failure(
        path=tuple(error.absolute_path),
        keyword=keyword,
        value=error.validator_value,
        instance=error.instance,
        schema=schema,
        message=error.message,
        unexpected=unexpected,
        missing=missing,
        context=[_from_jsonschema(e) for e in error.context or ()],
    )


def _from_rs(error: Any, root: Any) -> _Failure:
    kind = error.kind
    name = type(kind).__name__
    details = kind.as_dict()
    keyword = _RS_KEYWORDS.get(name, name)
    schema_path = list(error.schema_path)
    holder = _lookup(root, schema_path[:-1]) if root is not None and schema_path else None
    schema = holder if isinstance(holder, dict) else {}
    undecided = name in ("BacktrackLimitExceeded", "RegexEngineFailure")
    if undecided:
        keyword = "pattern"
    elif name == "Custom":
        from ...forms.schema.validation import ECMA_PATTERN, UNDECIDED

        if details.get("keyword") == ECMA_PATTERN:
            # A pattern deskcheck tested itself (engine.forms.validation.bounded_validator).
            keyword, schema = "pattern", {**schema, "pattern": schema.get(ECMA_PATTERN)}
            undecided = details.get("message") == UNDECIDED
    if keyword in schema:
        value = schema[keyword]
    elif name in _RS_VALUES:
        value = details.get(_RS_VALUES[name])
    else:
        value = details.get("limit")
    if name == "PropertyNames":  # one error about a member's name, which the inner error holds
        context = [_from_rs(details["error"], None)]
    else:
        context = [_from_rs(e, root) for branch in details.get("context") or () for e in branch]
    return _Failure(
        path=tuple(error.instance_path),
        keyword=keyword,
        value=value,
        instance=error.instance,
        schema=schema,
        message=error.message,
        unexpected=details.get("unexpected"),
        missing=details.get("property") if name == "Required" else None,
        context=context,
        undecided=undecided,
    )


def _lookup(root: Any, path: Sequence[Any]) -> Any:
    node = root
    for token in path:
        present = token in node if isinstance(node, dict) else isinstance(token, int) and 0 <= token < len(node)
        if not isinstance(node, dict | list) or not present:
            return None
        node = node[token]
    return node


def _messages(failure: _Failure) -> list[tuple[str, str]]:
    where = jsonpointer.join(failure.path)
    keyword = failure.keyword
    if keyword in ("additionalProperties", "unevaluatedProperties") and failure.unexpected is not None:
        what = "additional" if keyword == "additionalProperties" else "unevaluated"
        return [(where, f"must NOT have {what} properties ({name})") for name in failure.unexpected] or [
            (where, f"must NOT have {what} properties")
        ]
    if keyword == "propertyNames" and failure.context and isinstance(failure.context[0].instance, str):
        name = failure.context[0].instance
        return [(jsonpointer.append(where, name), f"name {_short(name)} {_message(failure.context[0])}")]
    if keyword in ("anyOf", "oneOf", "not") and MESSAGE_KEY in failure.schema:
        return [(where, failure.schema[MESSAGE_KEY])]
    if keyword in ("anyOf", "oneOf") and failure.context:
        # The branch that got furthest usually says what was meant.
        best = max(failure.context, key=lambda f: (len(f.path), f.keyword != "type"))
        if len(best.path) > 0:
            return _messages(best)
    return [(where, _message(failure))]


def _message(failure: _Failure) -> str:
    keyword, value = failure.keyword, failure.value
    if keyword == "type":
        return "must be " + (",".join(value) if isinstance(value, list) else str(value))
    if keyword == "required":
        return f"must have required property '{failure.missing if failure.missing is not None else value}'"
    if keyword == "pattern":
        if failure.undecided:
            return (
                f'could not be checked against pattern "{value}" (it needs more backtracking than allowed, or '
                "this call already spent its time for patterns)"
            )
        return f'must match pattern "{value}"'
    if keyword == "enum":
        return "must be equal to one of the allowed values (" + ", ".join(map(_short, value or ())) + ")"
    if keyword == "const":
        return f"must be equal to constant {_short(value)}"
    bounds = {
        "maximum": "must be <= {}",
        "minimum": "must be >= {}",
        "exclusiveMaximum": "must be < {}",
        "exclusiveMinimum": "must be > {}",
        "minItems": "must NOT have fewer than {} items",
        "maxItems": "must NOT have more than {} items",
        "minLength": "must NOT have fewer than {} characters",
        "maxLength": "must NOT have more than {} characters",
        "minProperties": "must NOT have fewer than {} properties",
        "maxProperties": "must NOT have more than {} properties",
        "multipleOf": "must be multiple of {}",
        "format": 'must match format "{}"',
    }
    if keyword in bounds:
        return bounds[keyword].format(value)
    if keyword == "uniqueItems":
        return "must NOT have duplicate items"
    if keyword == "not":
        return "must NOT be valid against the schema under not"
    if keyword in ("anyOf", "oneOf"):
        return f"must match {'a schema in anyOf' if keyword == 'anyOf' else 'exactly one schema in oneOf'}"
    if keyword == "false":
        return "must NOT be present"
    return failure.message


def _unexpected(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    declared = schema.get("properties") or {}
    patterns = [re.compile(p) for p in (schema.get("patternProperties") or {})]
    return [name for name in instance if name not in declared and not any(p.search(name) for p in patterns)]


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"
