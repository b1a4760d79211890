"""Our sentence for each validation error (``validation.SchemaError``).

A schema's ``errorMessage`` (a string, or an object by keyword, ``required`` by property, ``_``
for the rest) replaces our wording, as the form library does. Otherwise the sentence says what
the value must be, in words a person filling the form understands, from the keyword's value in
the schema.
"""

from __future__ import annotations

import json
from typing import Any

from .formats import FORMAT_HINTS
from .validation import SchemaError

_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object",
    "array": "an array",
    "null": "null",
}


def _json(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _type_words(expected: Any) -> str:
    if isinstance(expected, list):
        return " or ".join(_TYPE_NAMES.get(t, str(t)) for t in expected)
    return _TYPE_NAMES.get(expected, str(expected))


def _visible(text: Any) -> str:
    """``text`` with its control characters escaped (a pattern may hold a raw line break)."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in str(text))


def _plural(count: Any, word: str, plural: str | None = None) -> str:
    return f"{count} " + (word if count == 1 else plural or word + "s")


def _bound(error: SchemaError, other: str) -> Any:
    """The limit of an exclusive bound: draft 4 writes ``exclusiveMinimum: true`` next to the
    ``minimum`` it makes exclusive."""
    if isinstance(error.expected, bool) and isinstance(error.schema, dict):
        return error.schema.get(other)
    return error.expected


def message_for(error: SchemaError) -> str:
    """Our sentence for one error (the schema's ``errorMessage`` wins)."""
    custom = _custom_message(error)
    if custom:
        return custom
    keyword = error.keyword
    expected = error.expected
    if keyword == "required":
        return "required: give this field a value"
    if keyword == "type":
        return f"must be {_type_words(expected)}"
    if keyword == "enum":
        options = list(expected) if isinstance(expected, list) else []
        shown = ", ".join(_json(v, 30) for v in options[:8])
        more = f" (and {len(options) - 8} more)" if len(options) > 8 else ""
        return f"must be one of the accepted values: {shown}{more}"
    if keyword == "const":
        return f"must be exactly {_json(expected)}"
    if keyword == "pattern":
        if error.undecided:
            return (
                f"could not be checked against the pattern {expected} (not a usable regular expression, too slow, "
                "or this call already spent its time for patterns)"
            )
        return f"must match the pattern {_visible(expected)}"
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
        return f"must be more than {_bound(error, 'minimum')}"
    if keyword == "exclusiveMaximum":
        return f"must be less than {_bound(error, 'maximum')}"
    if keyword == "multipleOf":
        return f"must be a multiple of {expected}"
    if keyword == "minItems":
        return f"must have at least {_plural(expected, 'item')}"
    if keyword == "maxItems":
        return f"must have at most {_plural(expected, 'item')}"
    if keyword == "uniqueItems":
        return "must not repeat an item"
    if keyword == "minProperties":
        return f"must have at least {_plural(expected, 'property', 'properties')}"
    if keyword == "maxProperties":
        return f"must have at most {_plural(expected, 'property', 'properties')}"
    if keyword in ("additionalProperties", "unevaluatedProperties"):
        extra = error.extra
        return f"has properties this form does not accept: {', '.join(extra)}" if extra else "has unexpected properties"
    if keyword in ("additionalItems", "unevaluatedItems"):
        return "has more items than this list accepts"
    if keyword == "oneOf" and error.several:
        return "matches more than one variant: make it fit exactly one"
    if keyword in ("oneOf", "anyOf"):
        return closest_match(error) or (
            "matches none of the variants: choose one and fill it in"
            if keyword == "oneOf"
            else "does not match any of the accepted shapes"
        )
    if keyword == "not":
        return "is a value this field does not accept"
    if keyword in ("dependentRequired", "dependencies"):
        return "required when a related field is set"
    if keyword == "contains":
        return "must contain at least one matching item"
    if keyword == "propertyNames":
        return "has a property name this form does not accept"
    if keyword == "false":
        return "is not accepted here"
    return error.text


def _custom_message(error: SchemaError) -> str | None:
    schema = error.schema
    if schema is None or "errorMessage" not in schema:
        return None
    custom = schema["errorMessage"]
    if isinstance(custom, str):
        return custom
    if isinstance(custom, dict):
        specific = custom.get(error.keyword)
        if error.keyword == "required" and isinstance(specific, dict):
            specific = specific.get(error.missing) if error.missing else None
        if isinstance(specific, str):
            return specific
        if isinstance(custom.get("_"), str):
            return custom["_"]
    return None


def closest_entry(error: SchemaError) -> tuple[list[SchemaError], list[str]] | None:
    """``(errors of the closest entry, words for the other types)`` of a union none of whose
    entries accepts the value, as ``jsonschema``'s best match picks it: an entry for another type
    of value is not the one meant; of the others, the one with fewest errors, deepest first.
    The errors are [] when every entry is for another type; None without details, or when two
    entries are equally close."""
    branches: dict[int, list[SchemaError]] = {}
    for branch, sub in error.context:
        branches.setdefault(branch, []).append(sub)
    if not branches:
        return None
    depth = len(error.path)
    other_types: list[str] = []
    candidates: list[list[SchemaError]] = []
    for subs in branches.values():
        if all(sub.keyword == "type" and len(sub.path) == depth for sub in subs):
            for sub in subs:
                words = _type_words(sub.expected)
                if words not in other_types:
                    other_types.append(words)
        else:
            candidates.append(subs)
    if not candidates:
        return [], other_types
    ranked = sorted(candidates, key=_rank)
    if len(ranked) > 1 and _rank(ranked[0]) == _rank(ranked[1]):
        return None  # no entry is closer than another: naming one would mislead
    return ranked[0], other_types


def _rank(errors: list[SchemaError]) -> tuple[int, int]:
    """Fewer errors first, then the deepest (the furthest the value got into the entry)."""
    return len(errors), -max(len(sub.path) for sub in errors)


def closest_match(error: SchemaError) -> str | None:
    """What is wrong with a value none of a union's entries accepts, said of the closest entry
    (``closest_entry``): its deepest error, with the field it is on, then the other types."""
    found = closest_entry(error)
    if found is None:
        return None
    best, other_types = found
    if not best:
        return f"must be {' or '.join(other_types)}" if other_types else None
    first = max(best, key=lambda sub: len(sub.path))
    where = "/".join(str(token) for token in first.path[len(error.path) :])
    if first.missing is not None:
        where = f"{where}/{first.missing}" if where else first.missing
    said = f"{where}: {message_for(first)}" if where else message_for(first)
    if other_types:
        said += f" (or else it must be {' or '.join(other_types)})"
    return said
