"""JSON responses rendered for a reader (a model or a person): key/value lines, rows as a
markdown table, hints from the schema and from the response, excluded properties stripped and
long strings cut. What the API sent is written on one line each, control characters escaped
(``printable``): a key or a value with a line break cannot start a line of its own (a fake row,
a fake hint) in what the reader takes for the API's answer."""

from __future__ import annotations

import json
from typing import Any

from ..document.text import localize, printable
from .inputs import is_excluded

MAX_STRING_LENGTH = 500
NO_ROWS = "_(no rows)_"


def render(
    value: Any,
    *,
    schema: Any = None,
    response: dict[str, Any] | None = None,
    fields: list[str] | None = None,
    response_format: str | None = None,
    locale: str = "en",
    max_string_length: int = MAX_STRING_LENGTH,
) -> str:
    renderer = _Renderer(locale, max_string_length)
    keys = _projection(response, fields, response_format)
    value = strip_excluded(value, schema)
    if value is None:
        return ""
    if isinstance(value, list):
        items = _items_schema(schema)
        if any(isinstance(item, dict) for item in value):
            rows = [item for item in value if isinstance(item, dict)]
            return "\n".join(renderer.table(rows, items, keys))
        return "\n".join(f"- {renderer.text(item)}" for item in value)
    if not isinstance(value, dict):
        return renderer.text(value)

    response = response or {}
    rest = dict(value)
    rows: list[Any] | None = None
    rows_schema = None
    rows_key = response.get("rows")
    if isinstance(rows_key, str) and rows_key.startswith("/") and isinstance(rest.get(rows_key[1:]), list):
        rows = rest.pop(rows_key[1:])
        rows_schema = _items_schema(_property_schema(schema, rows_key[1:]))
    hints: list[str] = []
    if response.get("hints") is True and isinstance(rest.get("meta"), dict) and "hints" in rest["meta"]:
        meta = dict(rest["meta"])
        found = meta.pop("hints")
        hints = [str(h) for h in found] if isinstance(found, list) else [str(found)]
        if meta:
            rest["meta"] = meta
        else:
            rest.pop("meta")

    blocks: list[str] = []
    lines = renderer.key_values(rest, schema, 0, keys if rows is None else None)
    if lines:
        blocks.append("\n".join(lines))
    if rows is not None:
        blocks.append("\n".join(renderer.table([r for r in rows if isinstance(r, dict)], rows_schema, keys)))
    if hints:
        blocks.append("\n".join(f"> Hint: {printable(hint)}" for hint in hints))
    return "\n\n".join(blocks)


def strip_excluded(value: Any, schema: Any) -> Any:
    """``value`` without the properties the schema marks ``x-agent.exclude``, at every depth."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        props = schema["properties"]
        return {
            key: strip_excluded(item, props.get(key)) for key, item in value.items() if not is_excluded(props.get(key))
        }
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [strip_excluded(item, schema["items"]) for item in value]
    return value


def _projection(response: dict[str, Any] | None, fields: list[str] | None, response_format: str | None):
    if fields:
        return list(fields)
    if not response:
        return None
    if response_format == "detailed":
        detailed = response.get("detailed")
        return None if detailed is True or detailed is None else list(detailed)
    concise = response.get("concise")
    return list(concise) if isinstance(concise, list) else None


def _property_schema(schema: Any, name: str) -> Any:
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        return schema["properties"].get(name)
    return None


def _items_schema(schema: Any) -> Any:
    return schema.get("items") if isinstance(schema, dict) else None


class _Renderer:
    def __init__(self, locale: str, max_string_length: int) -> None:
        self.locale = locale
        self.limit = max_string_length

    def hint(self, schema: Any) -> str | None:
        agent = schema.get("x-agent") if isinstance(schema, dict) else None
        hint = localize(agent.get("hint"), self.locale) if isinstance(agent, dict) else None
        return printable(hint) if hint is not None else None

    def key_values(self, value: dict[str, Any], schema: Any, indent: int, keys: list[str] | None) -> list[str]:
        pad = " " * indent
        out: list[str] = []
        for key, item in value.items():
            if item is None or (keys is not None and key not in keys):
                continue
            prop = _property_schema(schema, key)
            hint = self.hint(prop)
            suffix = f" _({hint})_" if hint else ""
            name = printable(str(key))
            if isinstance(item, dict):
                out.append(f"{pad}- **{name}**:{suffix}")
                out += self.key_values(item, prop, indent + 2, None)
            elif isinstance(item, list) and any(isinstance(i, dict) for i in item):
                out.append(f"{pad}- **{name}**:{suffix}")
                for element in item:
                    if isinstance(element, dict):
                        out.append(f"{pad}  -")
                        out += self.key_values(element, _items_schema(prop), indent + 4, None)
                    else:
                        out.append(f"{pad}  - {self.text(element)}")
            elif key == "next" and isinstance(item, str):
                out.append(f"{pad}- **{name}**: {printable(item)}{suffix}")  # a pagination link must stay whole
            else:
                out.append(f"{pad}- **{name}**: {self.text(item)}{suffix}")
        return out

    def table(self, rows: list[dict[str, Any]], schema: Any, keys: list[str] | None) -> list[str]:
        if not rows:
            return [NO_ROWS]
        seen = list(dict.fromkeys(key for row in rows for key in row))
        if keys is not None:
            columns = [key for key in keys if key in seen]
        else:
            declared = _property_schema_names(schema)
            columns = [key for key in declared if key in seen]
            columns += [key for key in seen if key not in columns]
        lines = [
            "| " + " | ".join(printable(str(column)).replace("|", "\\|") for column in columns) + " |",
            "| " + " | ".join("---" for _ in columns) + " |",
        ]
        for row in rows:
            lines.append("| " + " | ".join(self.cell(row.get(column)) for column in columns) + " |")
        for column in columns:
            hint = self.hint(_property_schema(schema, column))
            if hint:
                lines.append(f"> {printable(str(column))}: {hint}")
        return lines

    def text(self, value: Any) -> str:
        """A value on a key/value line: arrays joined, objects as compact JSON, strings cut."""
        if isinstance(value, list):
            text = ", ".join(_compact(v) if isinstance(v, (dict, list)) else _scalar(v) for v in value)
        elif isinstance(value, dict):
            text = _compact(value)
        else:
            text = _scalar(value)
        return _cut(printable(text.replace("\r\n", " ").replace("\n", " ")), self.limit)

    def cell(self, value: Any) -> str:
        """A table cell: as ``text``, with ``|`` escaped so the table keeps its columns."""
        if value is None:
            return ""
        return self.text(value).replace("|", "\\|")


def _property_schema_names(schema: Any) -> list[str]:
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        return [name for name, sub in schema["properties"].items() if not is_excluded(sub)]
    return []


def _scalar(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
