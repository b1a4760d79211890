"""A document in parts, for its validation against the OpenAPI schema.

jsonschema-rs gathers every error of a validation before the first one reaches Python, about
20 KB and 0.1 ms each: a document with 120,000 violations took 2.6 GB and 30 s at once. Its big
collections (``paths``, ``webhooks`` and each section of ``components``: maps whose entries the
schema checks one by one) are validated a slice of entries at a time instead, each slice inside a
small valid document, so an error keeps its pointer, one validation gathers what one slice holds,
and the check can stop once it has more violations than a report lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .. import jsonpointer

# Entries per slice. A collection this size or smaller is validated with the rest of the document.
SLICE = 200


@dataclass(frozen=True)
class Part:
    document: dict[str, Any]  # what to validate: a document of the same OpenAPI version
    start: str  # the pointer of the first entry it holds, or "" for the document's other members


def parts(document: dict[str, Any]) -> Iterator[Part]:
    """``document`` without its big collections, then those collections a slice at a time."""
    collections = [path for path in _collections(document) if len(_get(document, path)) > SLICE]
    if not collections:
        yield Part(document, "")
        return
    rest = _emptied(document, collections)
    yield Part(rest, "")
    # paths is required by 3.0 and one of paths, components and webhooks by later versions.
    head = {"openapi": document.get("openapi"), "info": {"title": "", "version": ""}, "paths": {}}
    for path in collections:
        entries = list(_get(document, path).items())
        for start in range(0, len(entries), SLICE):
            piece = dict(entries[start : start + SLICE])
            yield Part(_placed(head, path, piece), jsonpointer.join([*path, entries[start][0]]))


def _collections(document: dict[str, Any]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [(name,) for name in ("paths", "webhooks") if isinstance(document.get(name), dict)]
    components = document.get("components")
    if isinstance(components, dict):
        out += [("components", name) for name, value in components.items() if isinstance(value, dict)]
    return out


def _get(document: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    node: Any = document
    for name in path:
        node = node[name]
    return node


def _emptied(document: dict[str, Any], collections: list[tuple[str, ...]]) -> dict[str, Any]:
    """A shallow copy of ``document`` whose ``collections`` are empty (an empty map is valid
    where each of them stands)."""
    out = dict(document)
    if any(path[0] == "components" for path in collections):
        out["components"] = dict(out["components"])
    for path in collections:
        _get(out, path[:-1])[path[-1]] = {}
    return out


def _placed(head: dict[str, Any], path: tuple[str, ...], piece: dict[str, Any]) -> dict[str, Any]:
    out = dict(head)
    if len(path) == 1:
        out[path[0]] = piece
    else:
        out[path[0]] = {path[1]: piece}
    return out
