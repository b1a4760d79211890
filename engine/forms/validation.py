"""Validation of a form's data with jsonschema, and our wording of its errors.

The draft comes from ``$schema`` when the schema names one (draft 4, 6, 7, 2019-09, 2020-12).
Without it, a schema that uses draft-7 shapes (``definitions``, ``dependencies``, ``items`` as a
list) is read as draft 7 and any other as 2020-12, because validating a draft-7 schema under
2020-12 silently ignores its tuples and dependencies.

Formats are checked (``date``, ``date-time``, ``time``, ``email``, ``uri``, ``uuid``, ``ipv4``,
``ipv6``, ``hostname``, ``regex``) with our own small checkers, so the result does not depend on
which optional packages happen to be installed. A schema's ``errorMessage`` (a string, or an
object by keyword, ``required`` by property) replaces our wording, as the form library does.

jsonschema is imported inside functions: importing this module costs nothing.
"""

from __future__ import annotations

import ipaddress
import json
import re
from datetime import date
from typing import Any

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$", re.IGNORECASE)
_DATE_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))$", re.IGNORECASE)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
_HOSTNAME = re.compile(
    r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$", re.I
)

FORMAT_HINTS = {
    "date": "a date such as 2025-06-15",
    "date-time": "a date and time with an offset, such as 2025-06-15T14:30:00Z",
    "time": "a time with an offset, such as 14:30:00+00:00",
    "email": "an email address",
    "uri": "an absolute URI such as https://example.org/page",
    "uuid": "a UUID",
    "ipv4": "an IPv4 address",
    "ipv6": "an IPv6 address",
    "hostname": "a host name",
    "regex": "a regular expression",
}


def _check_date(value: str) -> bool:
    if not _DATE.match(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _check_time(value: str) -> bool:
    match = _TIME.match(value)
    if not match:
        return False
    hour, minute, second = int(match.group(1)), int(match.group(2)), int(match.group(3))
    return hour < 24 and minute < 60 and second <= 60


def _check_date_time(value: str) -> bool:
    match = _DATE_TIME.match(value)
    return bool(match) and _check_date(match.group(1)) and _check_time(match.group(2))


def _check_uri(value: str) -> bool:
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    return bool(parts.scheme) and re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*$", parts.scheme) is not None and " " not in value


def _check_ip(version: int):
    def check(value: str) -> bool:
        try:
            return ipaddress.ip_address(value).version == version
        except ValueError:
            return False

    return check


def _check_regex(value: str) -> bool:
    try:
        re.compile(value)
    except re.error:
        return False
    return True


_CHECKERS = {
    "date": _check_date,
    "date-time": _check_date_time,
    "time": _check_time,
    "email": lambda v: bool(_EMAIL.match(v)),
    "uri": _check_uri,
    "uuid": lambda v: bool(_UUID.match(v)),
    "ipv4": _check_ip(4),
    "ipv6": _check_ip(6),
    "hostname": lambda v: bool(_HOSTNAME.match(v)),
    "regex": _check_regex,
}


def format_checker() -> Any:
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    for name, check in _CHECKERS.items():
        checker.checks(name)(lambda value, check=check: not isinstance(value, str) or check(value))
    return checker


def validator_class(schema: Any) -> Any:
    from jsonschema import Draft7Validator, Draft202012Validator, validators

    if isinstance(schema, dict) and isinstance(schema.get("$schema"), str):
        return validators.validator_for(schema, default=Draft202012Validator)
    if isinstance(schema, dict) and _uses_draft7_shapes(schema):
        return Draft7Validator
    return Draft202012Validator


def _uses_draft7_shapes(schema: dict[str, Any]) -> bool:
    if "definitions" in schema and "$defs" not in schema:
        return True
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("items"), list) or isinstance(node.get("dependencies"), dict):
                return True
            if "prefixItems" in node or "dependentSchemas" in node or "$defs" in node:
                return False
            stack.extend(v for k, v in node.items() if k not in ("enum", "const", "default", "examples", "layout"))
        elif isinstance(node, list):
            stack.extend(node)
    return False


_safe_classes: dict[Any, Any] = {}


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    from .expressions import regex_test

    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    verdict = regex_test(pattern, instance)
    if verdict is False:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")
    elif verdict is None:
        yield ValidationError(f"{UNDECIDED} {pattern!r}")


UNDECIDED = "could not be checked against the pattern"


def make_validator(schema: dict[str, Any]) -> Any:
    """A validator for ``schema`` whose ``pattern`` runs in the sandboxed engine (the dialect
    JSON Schema specifies, with a time limit), with our format checkers."""
    from jsonschema import validators

    base = validator_class(schema)
    cls = _safe_classes.get(base)
    if cls is None:
        cls = _safe_classes[base] = validators.extend(base, {"pattern": _pattern})
    return cls(schema, format_checker=format_checker())


# -- messages -------------------------------------------------------------------------------


def _json(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object",
    "array": "an array",
    "null": "null",
}


def _type_words(expected: Any) -> str:
    if isinstance(expected, list):
        names = [_TYPE_NAMES.get(t, str(t)) for t in expected]
        return " or ".join(names)
    return _TYPE_NAMES.get(expected, str(expected))


def _plural(count: Any, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def message_for(error: Any) -> str:
    """Our sentence for one jsonschema error (the schema's ``errorMessage`` wins)."""
    custom = _custom_message(error)
    if custom:
        return custom
    keyword = error.validator
    expected = error.validator_value
    if keyword == "required":
        return "required: give this field a value"
    if keyword == "type":
        return f"must be {_type_words(expected)}"
    if keyword == "enum":
        shown = ", ".join(_json(v, 30) for v in list(expected)[:8])
        more = f" (and {len(expected) - 8} more)" if len(expected) > 8 else ""
        return f"must be one of the accepted values: {shown}{more}"
    if keyword == "const":
        return f"must be exactly {_json(expected)}"
    if keyword == "pattern":
        if error.message.startswith(UNDECIDED):
            return f"could not be checked against the pattern {expected} (not a usable regular expression, or too slow)"
        return f"must match the pattern {expected}"
    if keyword == "format":
        return f"must be {FORMAT_HINTS.get(expected, f'in the {expected} format')}"
    if keyword == "minLength":
        return f"must be at least {_plural(expected, 'character')} long"
    if keyword == "maxLength":
        return f"must be at most {_plural(expected, 'character')} long"
    if keyword == "minimum":
        return f"must be {expected} or more"
    if keyword == "maximum":
        return f"must be {expected} or less"
    if keyword == "exclusiveMinimum":
        return f"must be more than {expected}"
    if keyword == "exclusiveMaximum":
        return f"must be less than {expected}"
    if keyword == "multipleOf":
        return f"must be a multiple of {expected}"
    if keyword == "minItems":
        return f"must have at least {_plural(expected, 'item')}"
    if keyword == "maxItems":
        return f"must have at most {_plural(expected, 'item')}"
    if keyword == "uniqueItems":
        return "must not repeat an item"
    if keyword == "minProperties":
        return f"must have at least {_plural(expected, 'property')}".replace("propertys", "properties")
    if keyword == "maxProperties":
        return f"must have at most {_plural(expected, 'property')}".replace("propertys", "properties")
    if keyword in ("additionalProperties", "unevaluatedProperties"):
        extra = _extra_keys(error)
        return f"has properties this form does not accept: {', '.join(extra)}" if extra else "has unexpected properties"
    if keyword == "oneOf":
        if _matches_several(error):
            return "matches more than one variant: make it fit exactly one"
        return "matches none of the variants: choose one and fill it in"
    if keyword == "anyOf":
        return "does not match any of the accepted shapes"
    if keyword == "not":
        return "is a value this field does not accept"
    if keyword == "dependentRequired":
        return "required when a related field is set"
    if keyword == "contains":
        return "must contain at least one matching item"
    if keyword == "false":
        return "is not accepted here"
    return error.message


def _matches_several(error: Any) -> bool:
    return "is valid under each of" in error.message


def _extra_keys(error: Any) -> list[str]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    schema = error.schema if isinstance(error.schema, dict) else {}
    declared = set(schema.get("properties", {}) or {})
    patterns = list((schema.get("patternProperties") or {}).keys())
    out = []
    for key in instance:
        if key in declared or any(re.search(p, key) for p in patterns):
            continue
        out.append(key)
    return out


def extra_keys(error: Any) -> list[str]:
    """The keys an ``additionalProperties: false`` error is about."""
    return _extra_keys(error)


def _custom_message(error: Any) -> str | None:
    schema = error.schema if isinstance(error.schema, dict) else None
    if schema is None or "errorMessage" not in schema:
        return None
    custom = schema["errorMessage"]
    if isinstance(custom, str):
        return custom
    if isinstance(custom, dict):
        specific = custom.get(error.validator)
        if error.validator == "required" and isinstance(specific, dict):
            missing = missing_property(error)
            specific = specific.get(missing) if missing else None
        if isinstance(specific, str):
            return specific
        if isinstance(custom.get("_"), str):
            return custom["_"]
    return None


def missing_property(error: Any) -> str | None:
    """The property a ``required`` / ``dependentRequired`` error is about (jsonschema names it,
    as a Python literal, at the start of its message)."""
    import ast

    match = re.match(r"^(.*) is a required property$", error.message, re.S) or re.match(
        r"^(.*?) is a dependency of ", error.message, re.S
    )
    if match:
        try:
            name = ast.literal_eval(match.group(1))
        except (ValueError, SyntaxError):
            name = None
        if isinstance(name, str):
            return name
    if error.validator == "required" and isinstance(error.validator_value, list) and isinstance(error.instance, dict):
        for name in error.validator_value:
            if name not in error.instance:
                return name
    return None
