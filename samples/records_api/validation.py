"""Server-side validation of a record against its dataset's JSON Schema, with messages a person
(or an agent) can act on: each problem names the field by JSON pointer and says what is expected.

jsonschema is imported when the first record is validated, not when the server module loads.
"""

from __future__ import annotations

import functools
import json
import re
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from deskcheck.engine.tools import json_type_name

Problem = tuple[str, str]  # (JSON pointer, message)

_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$")

_FORMAT_HINTS = {
    "date": "expected a date written YYYY-MM-DD, e.g. 2024-05-31",
    "email": "expected an address like name@example.org",
    "uri": "expected an absolute address such as https://example.org/page",
}


def schema_problems(schema: dict[str, Any], data: Any) -> list[Problem]:
    """Every way ``data`` breaks ``schema``, deduplicated, in document order of the pointers."""
    validator = _validator(json.dumps(schema, sort_keys=True, ensure_ascii=False))
    problems: list[Problem] = []
    for error in validator.iter_errors(data):
        for problem in _describe(error):
            if problem not in problems:
                problems.append(problem)
    return sorted(problems, key=lambda problem: problem[0])


@functools.lru_cache(maxsize=32)
def _validator(schema_text: str):
    from jsonschema import Draft202012Validator, FormatChecker

    checker = FormatChecker()
    checker.checks("date", raises=ValueError)(_is_date)
    checker.checks("email")(_is_email)
    checker.checks("uri")(_is_uri)
    return Draft202012Validator(json.loads(schema_text), format_checker=checker)


def _is_date(value: object) -> bool:
    if not isinstance(value, str):
        return True
    return bool(_DATE.match(value)) and bool(date.fromisoformat(value))


def _is_email(value: object) -> bool:
    return not isinstance(value, str) or bool(_EMAIL.match(value))


def _is_uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and " " not in value


def pointer(path) -> str:
    parts = [str(part).replace("~", "~0").replace("/", "~1") for part in path]
    return "/" + "/".join(parts) if parts else "/"


def _describe(error) -> list[Problem]:
    where = pointer(error.absolute_path)
    kind = error.validator
    value = error.instance
    expected = error.validator_value
    if kind == "required":
        base = where.rstrip("/")
        return [(f"{base}/{name}", "this field is required") for name in expected if name not in value]
    if kind == "format":
        hint = _FORMAT_HINTS.get(expected, f"expected the {expected} format")
        return [(where, f"{show_value(value)} is not valid: {hint}")]
    if kind == "enum":
        allowed = ", ".join(show_value(option) for option in expected)
        return [(where, f"{show_value(value)} is not one of the allowed values: {allowed}")]
    if kind == "const":
        return [(where, f"must be {show_value(expected)}")]
    if kind == "pattern":
        return [(where, f"{show_value(value)} does not have the expected form (pattern {expected})")]
    if kind == "type":
        return [(where, f"expected {_type_name(expected)}, got {json_type_name(value)}")]
    if kind in ("minLength", "maxLength"):
        limit = "at least" if kind == "minLength" else "at most"
        return [(where, f"must have {limit} {expected} characters (has {len(value)})")]
    if kind in ("minItems", "maxItems"):
        limit = "at least" if kind == "minItems" else "at most"
        return [(where, f"must have {limit} {expected} item(s) (has {len(value)})")]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}
        return [(where, f"must be {words[kind]} {expected} (got {value})")]
    if kind == "uniqueItems":
        return [(where, "contains the same item twice")]
    if kind == "additionalProperties":
        extra = sorted(set(value) - set(error.schema.get("properties", {})))
        return [(f"{where.rstrip('/')}/{name}", "is not a known field here") for name in extra]
    if kind == "oneOf":
        return _describe_one_of(error, where)
    return [(where, error.message)]


def _describe_one_of(error, where: str) -> list[Problem]:
    """A oneOf over object variants told apart by a ``const`` property (a discriminator): report
    the errors of the variant the value chose, or say which variants exist."""
    variants = error.validator_value
    if not error.context:
        return [(where, "matches more than one of the allowed variants; remove the fields that make it ambiguous")]
    by_branch: dict[int, list] = {}
    for sub in error.context:
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    chosen = [
        index
        for index, variant in enumerate(variants)
        if not _rejects_discriminator(variant, by_branch.get(index, []), error.instance)
    ]
    if len(chosen) == 1:
        problems: list[Problem] = []
        for sub in by_branch.get(chosen[0], []):
            problems.extend(_describe(sub))
        return problems
    names = []
    for variant in variants:
        label = variant.get("title", "variant")
        key = _discriminator(variant)
        if key:
            label += f" ({key} = {show_value(variant['properties'][key]['const'])})"
        names.append(label)
    return [(where, "must match exactly one of: " + "; ".join(names))]


def _rejects_discriminator(variant: dict[str, Any], errors: list, instance: Any) -> bool:
    """True when the value clearly did not choose this variant: its discriminator is missing or
    holds another variant's constant."""
    key = _discriminator(variant)
    if key is None:
        return False
    if not isinstance(instance, dict) or key not in instance:
        return True
    return any(sub.validator == "const" for sub in errors)


def _discriminator(variant: dict[str, Any]) -> str | None:
    for key, spec in (variant.get("properties") or {}).items():
        if isinstance(spec, dict) and "const" in spec:
            return key
    return None


def show_value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _type_name(expected: Any) -> str:
    names = expected if isinstance(expected, list) else [expected]
    readable = {"object": "an object", "array": "an array", "integer": "a whole number"}
    return " or ".join(readable.get(name, f"a {name}") for name in names)
