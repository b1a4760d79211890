"""A compact text outline of an object schema: one line per property, for a ``body: compact``
input whose real schema is too large to hand to a model."""

from __future__ import annotations

from typing import Any

from ..document.text import collapse_whitespace, truncate

MAX_DESCRIPTION = 80
MAX_ENUM_VALUES = 8


def summarise_schema(schema: Any, *, max_depth: int = 0) -> str:
    """``name?: type | null — description`` lines; ``?`` marks an optional property, nested
    objects are indented two spaces per level (down to ``max_depth``)."""
    lines: list[str] = []
    _lines(schema, 0, max_depth, lines)
    return "\n".join(lines)


def _lines(schema: Any, depth: int, max_depth: int, out: list[str]) -> None:
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return
    required = set(schema.get("required") or [])
    for name, raw in schema["properties"].items():
        prop, nullable = _unwrap_nullable(raw)
        kind = _type_label(prop)
        if nullable:
            kind += " | null"
        description = raw.get("description") if isinstance(raw, dict) else None
        if not isinstance(description, str) and isinstance(prop, dict):
            description = prop.get("description")
        line = f"{'  ' * depth}{name}{'' if name in required else '?'}: {kind}"
        if isinstance(description, str) and description.strip():
            line += " — " + truncate(collapse_whitespace(description), MAX_DESCRIPTION)
        out.append(line)
        if depth < max_depth:
            inner = prop.get("items") if isinstance(prop, dict) and prop.get("type") == "array" else prop
            _lines(inner, depth + 1, max_depth, out)


def _unwrap_nullable(schema: Any) -> tuple[Any, bool]:
    if not isinstance(schema, dict):
        return schema, False
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and len(branches) == 2:
            plain = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            if len(plain) == 1:
                return plain[0], True
    return schema, False


def _type_label(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any"
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        import json

        values = [json.dumps(v, ensure_ascii=False) for v in enum]
        if len(values) > MAX_ENUM_VALUES:
            return "|".join(values[:MAX_ENUM_VALUES]) + f"|… ({len(values)} values)"
        return "|".join(values)
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(_type_label(b) for b in schema[key])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        if isinstance(items, dict) and (items.get("type") == "object" or "properties" in items):
            return "object[]"
        return f"{_type_label(items)}[]"
    if isinstance(kind, list):
        return "|".join(map(str, kind))
    if kind == "object" or (kind is None and "properties" in schema):
        return "object"
    return str(kind) if kind else "any"
