"""Small value helpers shared by the form state and its tools: the "unset" marker, strict JSON
equality, emptiness, and the lossless type coercion the ``coerce_types`` option enables."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any


class _Unset:
    """A value that is not there at all (JSON has no ``undefined``; a missing key)."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False

    def __deepcopy__(self, memo: Any) -> _Unset:
        return self

    def __copy__(self) -> _Unset:
        return self


UNSET: Any = _Unset()


def deep_copy(value: Any) -> Any:
    """A deep copy of a document (plain data): pickle's round trip, in C, takes half the time of
    ``copy.deepcopy``, which a large record pays at every write."""
    if value is None or value is UNSET or isinstance(value, (str, bool, int, float)):
        return value
    import pickle

    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


# Exact types whose == is JSON's equality when both sides have the type.
_PLAIN = (str, int, float, bool, type(None))


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON sees it: ``true`` is not ``1``, ``1`` is ``1.0``, key order does not count."""
    # Values of one exact type go first, and their plain members are compared in the loop: long
    # lists of like records (folded list items, modified flags) then cost a type test per value
    # instead of a call and a chain of isinstance checks.
    kind = type(a)
    if kind is type(b):
        if kind is dict:
            return a.keys() == b.keys() and _all_equal(zip(a.values(), map(b.__getitem__, a), strict=True))
        if kind is list:
            return len(a) == len(b) and _all_equal(zip(a, b, strict=True))
        if kind in _PLAIN:
            return a == b
    if a is UNSET or b is UNSET:
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _all_equal(pairs: Iterable[tuple[Any, Any]]) -> bool:
    for value, other in pairs:
        if type(value) is type(other) and type(value) in _PLAIN:
            if value != other:
                return False
        elif not json_equal(value, other):
            return False
    return True


def is_empty(value: Any) -> bool:
    """The values a form treats as "no value": unset, an empty string, an empty list or object."""
    if value is UNSET:
        return True
    return (isinstance(value, (str, list, dict))) and len(value) == 0


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def type_matches(value: Any, types: tuple[str, ...], nullable: bool) -> bool:
    kind = json_type(value)
    if kind == "null":
        return nullable or "null" in types
    if kind == "integer" and "number" in types:
        return True
    return kind in types


_NUMBER = re.compile(r"^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$")


def coerce(value: Any, types: tuple[str, ...], nullable: bool) -> Any:
    """``value`` converted to one of ``types`` when that loses nothing; otherwise unchanged."""
    if value is UNSET or not types or type_matches(value, types, nullable):
        return value
    for target in types:
        converted = _coerce_to(value, target)
        if converted is not UNSET:
            return converted
    if nullable and value == "":
        return None
    return value


def _coerce_to(value: Any, target: str) -> Any:
    if target in ("number", "integer"):
        if isinstance(value, str) and _NUMBER.match(value.strip()):
            number = json.loads(value.strip())
            if target == "integer":
                if isinstance(number, float) and number.is_integer():
                    return int(number)
                return number if isinstance(number, int) else UNSET
            return number
        if isinstance(value, bool):
            return int(value)
        if value is None:
            return 0
    elif target == "string":
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            return json.dumps(value)
        if value is None:
            return ""
    elif target == "boolean":
        if value in ("true", "false"):
            return value == "true"
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value in (0, 1):
            return bool(value)
        if value is None:
            return False
    elif target == "array":
        if not isinstance(value, (list, dict)):
            return [value]
    elif target == "null" and value in ("", 0, False):
        return None
    return UNSET


def parse_json_string(value: Any) -> Any:
    """A string that looks like a JSON object or array (``{...}`` / ``[...]``) parsed, within the
    bounds of untrusted JSON (``engine.json_text``: no ``NaN``, no 5,000-digit number, no lone
    surrogate, no 100,000 levels); anything else, including a string that does not parse or is
    out of those bounds, returned as it is."""
    if isinstance(value, str):
        text = value.strip()
        if (text.startswith("{") and text.endswith("}")) or (text.startswith("[") and text.endswith("]")):
            from ...errors import InputError
            from ...json_text import parse_json

            try:
                return parse_json(text, "the value")
            except InputError:
                return value
    return value


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=json_default)


def jsonable(value: Any) -> Any:
    """``value`` with what JSON has no type for turned into JSON values: a date or a time (from
    YAML) into its ISO text, as validation reads it, a tuple into a list, anything else into its
    text. Keys stay as they are. The value itself when there is nothing to turn."""
    if value is None or value is UNSET or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, dict):
        turned = {k: jsonable(v) for k, v in value.items()}
        return value if all(turned[k] is v for k, v in value.items()) else turned
    if isinstance(value, list):
        items = [jsonable(v) for v in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    return json_default(value)


def json_default(value: Any) -> Any:
    """How a value JSON has no type for is written: a date (from YAML) as its ISO text, as
    validation reads it; anything else as its text."""
    isoformat = getattr(value, "isoformat", None)
    return isoformat() if callable(isoformat) else str(value)
