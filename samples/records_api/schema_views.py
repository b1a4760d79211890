"""The two shapes of a dataset's schema the API serves (``GET /datasets/{id}/schema``):

- ``mimeType=application/schema+json``: a JSON Schema of a record, with vjsf-style annotations
  (``x-fromUrl``, ``x-itemsProp``, ``x-itemTitle``, ``x-itemKey``, ``x-refersTo``,
  ``x-extension``, ``layout``), the form an editor compiles;
- the default, ``application/json``: the list of columns, one object per column.

Computed (``x-extension``) columns appear only with ``extension=true``. An ``x-fromUrl`` stored
as a path (``/api/v1/...``) is served as an absolute URL on the origin the client used, so the
document works whatever port the server listens on.
"""

from __future__ import annotations

import copy
from typing import Any

from .store import Dataset

SCHEMA_MIME_TYPES = ("application/json", "application/schema+json")

# Column attributes copied into the column list when a property has them.
_COLUMN_KEYS = ("title", "description", "format", "enum", "x-refersTo", "x-extension", "x-fromUrl")


def record_schema(dataset: Dataset, *, origin: str, extensions: bool) -> dict[str, Any]:
    schema = copy.deepcopy(dataset.schema)
    properties = schema.get("properties") or {}
    if not extensions:
        computed = [key for key, spec in properties.items() if isinstance(spec, dict) and "x-extension" in spec]
        for key in computed:
            del properties[key]
        if "required" in schema:
            schema["required"] = [key for key in schema["required"] if key not in computed]
    _absolute_urls(schema, origin)
    return schema


def _absolute_urls(node: Any, origin: str) -> None:
    if isinstance(node, dict):
        url = node.get("x-fromUrl")
        if isinstance(url, str) and url.startswith("/"):
            node["x-fromUrl"] = origin + url
        for value in node.values():
            _absolute_urls(value, origin)
    elif isinstance(node, list):
        for value in node:
            _absolute_urls(value, origin)


def column_list(dataset: Dataset, *, origin: str, extensions: bool) -> list[dict[str, Any]]:
    schema = record_schema(dataset, origin=origin, extensions=extensions)
    required = set(schema.get("required") or [])
    columns = []
    for key, spec in (schema.get("properties") or {}).items():
        spec = spec if isinstance(spec, dict) else {}
        column: dict[str, Any] = {"key": key, "type": spec.get("type", "string")}
        column.update({name: spec[name] for name in _COLUMN_KEYS if name in spec})
        if spec.get("type") == "array" and isinstance(spec.get("items"), dict):
            column["items"] = {"type": spec["items"].get("type", "string")}
            if "enum" in spec["items"]:
                column["items"]["enum"] = spec["items"]["enum"]
        if "oneOf" in spec:
            column["oneOf"] = [variant.get("title", f"variant {n + 1}") for n, variant in enumerate(spec["oneOf"])]
        column["required"] = key in required
        columns.append(column)
    return columns
