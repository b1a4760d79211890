"""Tool definitions in the shapes model providers expect, with schemas every one of them accepts.

Providers differ in how much JSON Schema they take: some reject ``anyOf``, ``$ref``, ``const``,
type unions or ``format``. Exported input schemas are therefore reduced to a conservative subset
(``SUBSET_KEYWORDS``); anything outside it is either rewritten into an equivalent the subset can
express (``const`` → a one-value ``enum``, a union of constants → an ``enum``) or folded into the
description so the information still reaches the model. The executor keeps doing the real
validation against the full schema.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from .tools import Tool

SHAPES = ("json", "anthropic", "openai", "mcp")

# Keywords every provider we target accepts (Gemini's OpenAPI-3.0 subset is the strictest).
SUBSET_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "enum",
        "items",
        "additionalProperties",
        "description",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
    }
)
SUBSET_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean"})

# A long enum is noise for a model and some providers cap enum sizes; keep it in the description.
MAX_ENUM_VALUES = 100


def export_tools(tools: Iterable[Tool], shape: str) -> list[dict[str, Any]]:
    """The definitions of ``tools`` in one of ``SHAPES``, with conservative input schemas."""
    if shape not in SHAPES:
        raise ValueError(f"unknown export shape {shape!r}; choose one of {', '.join(SHAPES)}")
    out = []
    for tool in tools:
        schema = conservative_schema(tool.input_schema)
        if shape == "anthropic":
            out.append({"name": tool.name, "description": tool.description, "input_schema": schema})
        elif shape == "openai":
            out.append(
                {
                    "type": "function",
                    "function": {"name": tool.name, "description": tool.description, "parameters": schema},
                }
            )
        else:  # json and mcp share MCP's tool shape
            definition = tool.definition()
            definition["inputSchema"] = schema
            out.append(definition)
    return out


def conservative_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` rewritten into ``SUBSET_KEYWORDS``. The top level is always an object schema."""
    out = _reduce(copy.deepcopy(dict(schema)))
    out["type"] = "object"
    out.setdefault("properties", {})
    return out


def subset_violations(schema: Any, path: str = "$") -> list[str]:
    """Every place where ``schema`` leaves the conservative subset (empty when it stays inside)."""
    problems: list[str] = []
    if not isinstance(schema, dict):
        return [f"{path}: a schema must be an object"]
    for key, value in schema.items():
        where = f"{path}.{key}"
        if key not in SUBSET_KEYWORDS:
            problems.append(f"{where}: keyword not in the conservative subset")
        elif key == "type" and (not isinstance(value, str) or value not in SUBSET_TYPES):
            problems.append(f"{where}: type must be one plain type name, got {value!r}")
        elif key == "properties":
            if not isinstance(value, dict):
                problems.append(f"{where}: must be an object")
            else:
                for name, sub in value.items():
                    problems += subset_violations(sub, f"{where}.{name}")
        elif key == "items" or (key == "additionalProperties" and not isinstance(value, bool)):
            problems += subset_violations(value, where)
        elif key == "required" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            problems.append(f"{where}: must be a list of property names")
        elif key == "enum" and not (isinstance(value, list) and value):
            problems.append(f"{where}: must be a non-empty list")
        elif key == "description" and not isinstance(value, str):
            problems.append(f"{where}: must be a string")
    return problems


def _reduce(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        # `true` (anything) and `false` (nothing) have no subset equivalent but "no constraint".
        return {}
    notes: list[str] = []
    out: dict[str, Any] = {}

    schema = _merge_all_of(schema)
    if "const" in schema:
        schema.setdefault("enum", [schema.pop("const")])
    union = schema.get("oneOf") or schema.get("anyOf")
    if isinstance(union, list):
        constants = [b["const"] for b in union if isinstance(b, dict) and "const" in b]
        if constants and len(constants) == len(union):
            schema.setdefault("enum", constants)
            labels = [f"{b['const']!r} = {b['title']}" for b in union if isinstance(b, dict) and b.get("title")]
            if labels:
                notes.append("values: " + "; ".join(labels))
        else:
            kinds = [_branch_label(b) for b in union]
            notes.append("one of: " + " | ".join(k for k in kinds if k))
            typed = [b.get("type") for b in union if isinstance(b, dict) and isinstance(b.get("type"), str)]
            types = set(typed) - {"null"}
            if len(typed) == len(union) and len(types) == 1 and "type" not in schema:
                schema["type"] = types.pop()

    kind = schema.get("type")
    if isinstance(kind, list):
        plain = [t for t in kind if t != "null"]
        if "null" in kind:
            notes.append("may be null")
        if len(plain) == 1 and "null" not in kind:
            kind = plain[0]
        elif len(plain) == 1:
            # The subset has no type union: a nullable value is left untyped (the description says
            # which type), so that a client validating its call before sending accepts the null.
            notes.append(f"a {plain[0]}")
            kind = None
        else:
            notes.append("type: " + " or ".join(map(str, plain)))
            kind = None
    if kind == "null":
        notes.append("must be null")
        kind = None
    if isinstance(kind, str) and kind in SUBSET_TYPES:
        out["type"] = kind

    for key in ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"):
        if isinstance(schema.get(key), (int, float)) and not isinstance(schema.get(key), bool):
            out[key] = schema[key]
    for key, word in (("exclusiveMinimum", "greater than"), ("exclusiveMaximum", "less than")):
        if isinstance(schema.get(key), (int, float)) and not isinstance(schema.get(key), bool):
            notes.append(f"{word} {schema[key]}")
    if isinstance(schema.get("format"), str):
        notes.append(f"format: {schema['format']}")
    if isinstance(schema.get("pattern"), str):
        notes.append(f"pattern: {schema['pattern']}")
    if "default" in schema:
        notes.append(f"default: {_short(schema['default'])}")
    if schema.get("uniqueItems") is True:
        notes.append("items must be unique")

    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        if len(enum) <= MAX_ENUM_VALUES and all(isinstance(v, (str, int, float, bool)) for v in enum):
            out["enum"] = enum
            if "type" not in out:
                types = {_json_type(v) for v in enum}
                if len(types) == 1:
                    out["type"] = types.pop()
        else:
            notes.append("allowed values: " + ", ".join(_short(v) for v in enum[:20]))

    if isinstance(schema.get("properties"), dict):
        out["properties"] = {name: _reduce(sub) for name, sub in schema["properties"].items()}
        out.setdefault("type", "object")
    if isinstance(schema.get("required"), list):
        names = [n for n in schema["required"] if isinstance(n, str)]
        if names:
            out["required"] = names
    additional = schema.get("additionalProperties")
    if isinstance(schema.get("patternProperties"), dict) and schema["patternProperties"]:
        # Keys matching the patterns are allowed, and the subset cannot say which: a false here
        # would refuse every one of them (x-agent examples included), so the keys stay open.
        notes.append("property names: " + ", ".join(_short(k) for k in schema["patternProperties"]))
    elif isinstance(additional, bool):
        out["additionalProperties"] = additional
    elif isinstance(additional, dict):
        out["additionalProperties"] = _reduce(additional)

    items = schema.get("items")
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list) or isinstance(items, list):
        notes.append("a fixed-length list (tuple); see the tool description for each position")
        out["items"] = {}
    elif isinstance(items, dict):
        out["items"] = _reduce(items)
    if out.get("type") == "array" and "items" not in out:
        out["items"] = {}

    description = schema.get("description") or schema.get("title") or ""
    if notes:
        description = (description.rstrip(". ") + ". " if description else "") + "; ".join(notes) + "."
    if description:
        out["description"] = description
    return out


def _merge_all_of(schema: dict[str, Any]) -> dict[str, Any]:
    parts = schema.pop("allOf", None)
    if not isinstance(parts, list):
        return schema
    merged: dict[str, Any] = {}
    for part in [*parts, schema]:
        if not isinstance(part, dict):
            continue
        for key, value in part.items():
            if key == "properties" and isinstance(value, dict):
                merged.setdefault("properties", {}).update(value)
            elif key == "required" and isinstance(value, list):
                merged.setdefault("required", [])
                merged["required"] += [v for v in value if v not in merged["required"]]
            else:
                merged[key] = value
    return merged


def _branch_label(branch: Any) -> str:
    if not isinstance(branch, dict):
        return ""
    label = branch.get("title") or branch.get("type") or ("object" if "properties" in branch else "")
    return str(label) if not isinstance(label, list) else "/".join(map(str, label))


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


def _short(value: Any, limit: int = 40) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"
