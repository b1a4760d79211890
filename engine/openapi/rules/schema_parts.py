"""A document in parts, for its validation against the OpenAPI schema.

jsonschema-rs gathers every error of a validation before the first one reaches Python, about
20 KB and 0.1 ms each: a document with 120,000 violations took 2.6 GB and 30 s at once, and one
schema of 200,000 wrong properties 4 GB. So a large collection (an object or a list of more than
``SLICE`` objects or lists, wherever it is: ``paths``, a components section, a schema's
``properties``, an operation's ``parameters``) is validated a slice at a time, each slice in
place of the whole collection in a copy of the document where every other large collection holds
only its first member (never empty: an empty one may break a minimum the schema sets). One
validation then gathers what one slice holds, and the check can stop once it has more violations
than a report lists. A finding's pointer is the one it has in the document (a list's slice is
counted from its place in the whole list).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ... import jsonpointer

# Members per slice. A collection this size or smaller is validated with what holds it.
SLICE = 200

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Part:
    document: Any  # what to validate: the document, or a copy made of some of it
    start: str = ""  # the pointer of the first member of the slice it holds ("" for the first part)
    # For each list sliced on the way to this part: its path in the part, and the place of the
    # slice's first item in the whole list.
    offsets: tuple[tuple[Path, int], ...] = field(default=())

    def pointer(self, pointer: str) -> str:
        """``pointer`` (into this part) as a pointer into the document."""
        if not self.offsets:
            return pointer
        tokens = jsonpointer.split(pointer)
        for path, offset in reversed(self.offsets):  # the innermost first: outer paths are in part terms
            depth = len(path)
            if len(tokens) > depth and tokens[:depth] == [str(token) for token in path]:
                tokens[depth] = str(int(tokens[depth]) + offset)
        return jsonpointer.join(tokens)


def parts(document: Any) -> Iterator[Part]:
    """``document`` with its large collections cut to their first member, then each of those
    collections a slice at a time (and so on inside each slice)."""
    yield from _parts(Part(document))


def _parts(part: Part) -> Iterator[Part]:
    large = _large_collections(part.document)
    if not large:
        yield part
        return
    document = part.document
    yield Part(_replaced(document, {path: _first(_get(document, path)) for path in large}), part.start, part.offsets)
    for path in large:
        collection = _get(document, path)
        others = {other: _first(_get(document, other)) for other in large if other != path}
        if isinstance(collection, dict):
            # Names starting with x- go with every slice: in a map of names (properties) they are
            # checked like the others (a finding found twice is kept once), and they were not
            # counted, so that an object of many extensions is never cut (a slice could lose a
            # member its schema requires).
            kept = {key: value for key, value in collection.items() if key.startswith("x-")}
            keys = [key for key in collection if not key.startswith("x-")]
            for begin in range(0, len(keys), SLICE):
                piece = {**kept, **{key: collection[key] for key in keys[begin : begin + SLICE]}}
                start = part.pointer(jsonpointer.join([*path, keys[begin]]))
                yield from _parts(Part(_replaced(document, {**others, path: piece}), start, part.offsets))
        else:
            for begin in range(0, len(collection), SLICE):
                offsets = (*part.offsets, (path, begin)) if begin else part.offsets
                start = part.pointer(jsonpointer.join(path)) + f"/{begin}"
                piece = collection[begin : begin + SLICE]
                yield from _parts(Part(_replaced(document, {**others, path: piece}), start, offsets))


def _large_collections(document: Any) -> list[Path]:
    """The paths of the outermost collections (not the document itself) of more than ``SLICE``
    objects or lists, extensions aside."""
    found: list[Path] = []
    stack: list[tuple[Path, Any]] = [((), document)]
    while stack:
        path, node = stack.pop()
        if type(node) is dict:
            members = list(node.items())
            counted = [value for key, value in members if not key.startswith("x-")]
        else:
            members = list(enumerate(node))
            counted = node
        if path and len(counted) > SLICE and type(counted[0]) in (dict, list):
            found.append(path)
            continue
        stack.extend(((*path, key), value) for key, value in members if type(value) in (dict, list))
    return sorted(found, key=lambda path: [str(token) for token in path])


def _first(collection: Any) -> Any:
    """A large collection reduced to its first member (and its extensions)."""
    if isinstance(collection, dict):
        first = next(key for key in collection if not key.startswith("x-"))
        return {key: value for key, value in collection.items() if key == first or key.startswith("x-")}
    return collection[:1]


def _get(document: Any, path: Path) -> Any:
    for token in path:
        document = document[token]
    return document


def _replaced(document: Any, replacements: dict[Path, Any]) -> Any:
    """A copy of ``document`` with the value at each path replaced: only the containers on the
    way are copied, the rest is shared."""
    copies: dict[Path, Any] = {(): _copy(document)}
    for path, value in replacements.items():
        holder = copies[()]
        for depth in range(1, len(path)):
            prefix = path[:depth]
            if prefix not in copies:
                copies[prefix] = holder[path[depth - 1]] = _copy(holder[path[depth - 1]])
            holder = copies[prefix]
        holder[path[-1]] = value
    return copies[()]


def _copy(container: Any) -> Any:
    return dict(container) if isinstance(container, dict) else list(container)
