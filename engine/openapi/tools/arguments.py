"""Checking a tool's arguments against its input schema before any request is sent, with the
schema's defaults filled in (an omitted ``size`` becomes its default, as the agent was told).

Arguments are written by a model and schemas by whoever wrote the OpenAPI document: validation
uses the forms' bounded validator (jsonschema-rs; a ``pattern`` that needs backtracking gets a
limited number of steps, see ``engine.forms.patterns``), never Python's backtracking ``re``."""

from __future__ import annotations

import copy
from typing import Any

from ..document.schema_messages import error_messages, format_messages

_validators: dict[int, Any] = {}


def fill_defaults(schema: Any, value: Any) -> Any:
    """A copy of ``value`` with missing object properties set to their schema ``default``."""
    value = copy.deepcopy(value)
    _fill(schema, value)
    return value


def _fill(schema: Any, value: Any) -> None:
    if not isinstance(schema, dict):
        return
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        for name, sub in schema["properties"].items():
            if name not in value and isinstance(sub, dict) and "default" in sub:
                value[name] = copy.deepcopy(sub["default"])
            if name in value:
                _fill(sub, value[name])
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for item in value:
            _fill(schema["items"], item)


def argument_errors(schema: dict[str, Any], value: Any, *, root: str) -> str | None:
    """``None`` when ``value`` is valid, else the messages joined (``/size must be <= 100``)."""
    checked, validator = _validator(schema)
    pairs = error_messages(validator.iter_errors(value), schema=checked)
    if not pairs:
        return None
    return format_messages(pairs, root=root)


def _validator(schema: dict[str, Any]) -> tuple[Any, Any]:
    key = id(schema)
    cached = _validators.get(key)
    if cached is None or cached[0] is not schema:
        from ...forms.schema.validation import bounded_validator

        cached = (schema, *bounded_validator(schema))
        _validators[key] = cached
    return cached[1], cached[2]
