"""Local ``$ref`` resolution for JSON Schemas and OpenAPI documents, with cycles handled.

Only references inside the same document are followed (``#/components/schemas/Pet``, ``#``, or a
``$anchor`` name such as ``#item``); anything else (another file, a URL) is refused with
``ExternalRefError``: deskcheck never fetches a schema a document points at.

Two ways to use a resolver:
- ``deref(node)`` follows a chain of ``$ref`` at one node, on demand. This suits recursive
  schemas (a tree of comments), which have no finite expansion: a form expands them only as deep
  as the data goes.
- ``inline(node)`` returns a copy with every reference replaced by its target, for consumers that
  need a self-contained schema (a tool's input schema). A reference back into a schema that is
  already being expanded is cut and replaced by a note, so the result is always finite.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from . import jsonpointer
from .errors import DeskcheckError

# Past this depth inlining stops even without a cycle: real schemas are far shallower, and a
# document built to explode (a ref to a ref to ... a wide object) should not take the process down.
MAX_INLINE_DEPTH = 64


class RefError(DeskcheckError):
    """A reference that cannot be followed."""


class ExternalRefError(RefError):
    """A reference to another document."""


class RefResolver:
    def __init__(self, document: Any) -> None:
        self.document = document
        self._anchors: dict[str, str] | None = None

    def lookup(self, ref: str) -> tuple[str, Any]:
        """``(pointer, target)`` for a reference string."""
        if not isinstance(ref, str):
            raise RefError(f"$ref must be a string, not {type(ref).__name__}.")
        if not ref.startswith("#"):
            raise ExternalRefError(
                f"$ref {ref!r} points outside this document; only local references (starting with '#') "
                "are followed. Bundle the referenced schema into the document."
            )
        fragment = ref[1:]
        if fragment == "" or fragment.startswith("/"):
            pointer = _percent_decode(fragment)
        else:
            pointer = self._anchor_pointer(fragment)
        try:
            return pointer, jsonpointer.resolve(self.document, pointer)
        except jsonpointer.PointerError as exc:
            raise RefError(f"$ref {ref!r} leads nowhere: {exc}") from None

    def deref(self, node: Any) -> Any:
        """``node`` with its ``$ref`` chain followed. Keywords written beside a ``$ref`` are kept
        (JSON Schema 2020-12 applies them together with the target)."""
        seen: list[str] = []
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if ref in seen:
                raise RefError(f"$ref {ref!r} refers to itself through {' -> '.join(seen)}.")
            seen.append(ref)
            _, target = self.lookup(ref)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **siblings} if siblings and isinstance(target, dict) else target
        return node

    def inline(self, node: Any) -> Any:
        """A copy of ``node`` with every local reference replaced by its target."""
        return self._inline(node, (), 0)

    def _inline(self, node: Any, expanding: tuple[str, ...], depth: int) -> Any:
        if depth > MAX_INLINE_DEPTH:
            return {"description": "(nested too deeply to expand)"}
        if isinstance(node, list):
            return [self._inline(item, expanding, depth + 1) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            ref = node["$ref"]
            pointer, target = self.lookup(ref)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if pointer in expanding:
                note = f"(recursive: the same shape as {pointer or 'the whole document'})"
                cut = {k: copy.deepcopy(v) for k, v in siblings.items()}
                cut["description"] = (str(cut.get("description", "")) + " " + note).strip()
                return cut
            expanded = self._inline(target, (*expanding, pointer), depth + 1)
            if siblings and isinstance(expanded, dict):
                return {**expanded, **self._inline(siblings, expanding, depth + 1)}
            return expanded
        return {key: self._inline(value, expanding, depth + 1) for key, value in node.items()}

    def _anchor_pointer(self, name: str) -> str:
        if self._anchors is None:
            self._anchors = {}
            for pointer, value in _walk(self.document, ""):
                if isinstance(value, dict) and isinstance(value.get("$anchor"), str):
                    self._anchors.setdefault(value["$anchor"], pointer)
        if name not in self._anchors:
            raise RefError(f"$ref '#{name}' names no $anchor in this document.")
        return self._anchors[name]


def reachable_ref_errors(document: Any, node: Any, pointer: str) -> list[tuple[str, RefError]]:
    """Every reference reachable from ``node`` (which sits at ``pointer``) that cannot be followed,
    as ``(pointer of the $ref member, error)``. Targets are visited once, so cycles end."""
    resolver = RefResolver(document)
    problems: list[tuple[str, RefError]] = []
    visited: set[str] = set()
    pending = [(pointer, node)]
    while pending:
        where, value = pending.pop()
        for site, ref in iter_refs(value):
            site = where + site
            try:
                target_pointer, target = resolver.lookup(ref)
            except RefError as exc:
                problems.append((jsonpointer.append(site, "$ref"), exc))
                continue
            if target_pointer not in visited:
                visited.add(target_pointer)
                pending.append((target_pointer, target))
    return problems


def iter_refs(document: Any) -> Iterator[tuple[str, str]]:
    """``(pointer of the object holding it, ref string)`` for every ``$ref`` in the document."""
    # Token paths, joined only for the holders: most nodes of a large document hold no $ref.
    stack: list[tuple[tuple[Any, ...], Any]] = [((), document)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            if "$ref" in value:
                yield jsonpointer.join(path), value["$ref"]
            stack.extend(((*path, k), v) for k, v in reversed(value.items()) if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(value))) if isinstance(v, (dict, list)))


def _walk(node: Any, pointer: str) -> Iterator[tuple[str, Any]]:
    stack = [(pointer, node)]
    while stack:
        where, value = stack.pop()
        yield where, value
        if isinstance(value, dict):
            stack.extend((jsonpointer.append(where, k), v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((jsonpointer.append(where, i), v) for i, v in reversed(list(enumerate(value))))


def _percent_decode(fragment: str) -> str:
    if "%" not in fragment:
        return fragment
    from urllib.parse import unquote

    return unquote(fragment)
