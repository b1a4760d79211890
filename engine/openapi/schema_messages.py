"""Short, uniform messages for JSON Schema validation errors.

The wording follows the convention most JSON Schema tools (and the reference system's tests) use:
``/size must be <= 100``, ``/namePrefix must be string``, ``must have required property 'title'``,
``must NOT have additional properties (template)``. One jsonschema error may become several
messages (one per unexpected property), each with the instance path it concerns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .. import jsonpointer

# A schema node may carry its own wording for a failed anyOf/oneOf/not (jsonschema ignores it).
MESSAGE_KEY = "x-message"


def error_messages(errors: Iterable[Any]) -> list[tuple[str, str]]:
    """``(instance pointer, message)`` for each jsonschema ``ValidationError``, in a stable order."""
    out: list[tuple[str, str]] = []
    for error in sorted(errors, key=lambda e: (list(map(str, e.absolute_path)), str(e.validator))):
        out.extend(_messages(error))
    return out


def format_messages(pairs: Iterable[tuple[str, str]], *, root: str = "/") -> str:
    """``/a must be string; / must NOT have additional properties (x)``."""
    return "; ".join(f"{pointer or root} {message}" for pointer, message in pairs)


def _messages(error: Any) -> list[tuple[str, str]]:
    where = jsonpointer.join(error.absolute_path)
    keyword = error.validator
    value = error.validator_value
    schema = error.schema if isinstance(error.schema, dict) else {}
    if keyword == "additionalProperties" and isinstance(error.instance, dict):
        extras = _unexpected(error.instance, schema)
        return [(where, f"must NOT have additional properties ({name})") for name in extras] or [
            (where, "must NOT have additional properties")
        ]
    if keyword in ("anyOf", "oneOf", "not") and MESSAGE_KEY in schema:
        return [(where, schema[MESSAGE_KEY])]
    if keyword in ("anyOf", "oneOf") and error.context:
        # The branch that got furthest usually says what was meant.
        best = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
        if len(best.absolute_path) > 0:
            return _messages(best)
    return [(where, _message(keyword, value, error))]


def _message(keyword: str, value: Any, error: Any) -> str:
    if keyword == "type":
        return "must be " + (",".join(value) if isinstance(value, list) else str(value))
    if keyword == "required":
        missing = re.search(r"'([^']*)' is a required property", error.message)
        return f"must have required property '{missing.group(1) if missing else value}'"
    if keyword == "pattern":
        return f'must match pattern "{value}"'
    if keyword == "enum":
        return "must be equal to one of the allowed values (" + ", ".join(map(_short, value)) + ")"
    if keyword == "const":
        return f"must be equal to constant {_short(value)}"
    if keyword == "maximum":
        return f"must be <= {value}"
    if keyword == "minimum":
        return f"must be >= {value}"
    if keyword == "exclusiveMaximum":
        return f"must be < {value}"
    if keyword == "exclusiveMinimum":
        return f"must be > {value}"
    if keyword == "minItems":
        return f"must NOT have fewer than {value} items"
    if keyword == "maxItems":
        return f"must NOT have more than {value} items"
    if keyword == "minLength":
        return f"must NOT have fewer than {value} characters"
    if keyword == "maxLength":
        return f"must NOT have more than {value} characters"
    if keyword == "minProperties":
        return f"must NOT have fewer than {value} properties"
    if keyword == "maxProperties":
        return f"must NOT have more than {value} properties"
    if keyword == "uniqueItems":
        return "must NOT have duplicate items"
    if keyword == "multipleOf":
        return f"must be multiple of {value}"
    if keyword == "format":
        return f'must match format "{value}"'
    if keyword == "not":
        return "must NOT be valid against the schema under not"
    if keyword in ("anyOf", "oneOf"):
        return f"must match {'a schema in anyOf' if keyword == 'anyOf' else 'exactly one schema in oneOf'}"
    if keyword == "false":
        return "must NOT be present"
    return error.message


def _unexpected(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    declared = schema.get("properties") or {}
    patterns = [re.compile(p) for p in (schema.get("patternProperties") or {})]
    return [name for name in instance if name not in declared and not any(p.search(name) for p in patterns)]


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"
