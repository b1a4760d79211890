"""The parse tree both formats share: every value with the place it occupies in the text.

Offsets are indexes into the decoded text (without a byte order mark). ``start``/``end`` cover a
node's text, its YAML properties (``&anchor``, ``!tag``) included; a flow collection's ``open``
and ``close`` are the indexes of its brackets. Block collections (YAML) have no brackets.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

# Deeper documents are refused: configuration and records nest a few levels, and every layer
# that walks a document (validation, the form tree, the store's JSON) recurses.
MAX_DEPTH = 200
# Values an alias-heavy YAML file may expand to.
MAX_VALUES = 1_000_000


class Scalar:
    """``source`` is the scalar's text as YAML read it, before it was resolved to a value."""

    __slots__ = ("anchor", "end", "source", "start", "style", "tag", "value")

    def __init__(self, start: int, end: int, value: Any, style: str | None = None, source: str = "") -> None:
        self.start, self.end, self.value, self.style, self.source = start, end, value, style, source
        self.anchor: str | None = None
        self.tag: str | None = None


class Entry:
    """One ``key: value`` of a mapping. ``colon`` is the index just after the ``:`` (None when
    it could not be placed, as for an explicit ``? key``); ``merge`` marks YAML's ``<<``."""

    __slots__ = ("colon", "key", "key_end", "key_start", "key_style", "merge", "value")

    def __init__(self, key: str, key_start: int, key_end: int, value: Node, key_style: str | None = None) -> None:
        self.key, self.key_start, self.key_end, self.value, self.key_style = key, key_start, key_end, value, key_style
        self.colon: int | None = None
        self.merge = False


class Mapping:
    """``decoded``: the mapping's data when the parser gives it (None otherwise), for quick
    comparisons; an alias inside it is the same object as its anchor's (read it, do not change
    it)."""

    __slots__ = ("anchor", "close", "decoded", "end", "entries", "flow", "merges", "open", "start", "tag")

    def __init__(self, start: int, flow: bool) -> None:
        self.start, self.end, self.flow = start, start, flow
        self.entries: list[Entry] = []
        self.merges: list[Mapping] = []  # the mappings ``<<`` merges in, the first winning
        self.open = self.close = -1
        self.anchor: str | None = None
        self.tag: str | None = None
        self.decoded: dict[str, Any] | None = None


class Sequence:
    __slots__ = ("anchor", "close", "decoded", "end", "flow", "items", "open", "start", "tag")

    def __init__(self, start: int, flow: bool) -> None:
        self.start, self.end, self.flow = start, start, flow
        self.items: list[Node] = []
        self.open = self.close = -1
        self.anchor: str | None = None
        self.tag: str | None = None
        self.decoded: list[Any] | None = None


class Alias:
    __slots__ = ("end", "name", "start", "target")

    def __init__(self, start: int, end: int, name: str, target: Node) -> None:
        self.start, self.end, self.name, self.target = start, end, name, target


Node = Scalar | Mapping | Sequence | Alias


class Duplicate(NamedTuple):
    """A key written more than once in one mapping: the lines of its first and last occurrence."""

    key: str
    first_line: int
    last_line: int


def duplicate_keys(root: Node | None, text: str) -> list[Duplicate]:
    """Every key written more than once in a mapping of the tree (``<<`` merges aside)."""
    found: list[tuple[str, int, int]] = []
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            first: dict[str, int] = {}
            for entry in node.entries:
                if not entry.merge:
                    start = first.setdefault(entry.key, entry.key_start)
                    if start != entry.key_start:
                        found.append((entry.key, start, entry.key_start))
                stack.append(entry.value)
        elif isinstance(node, Sequence):
            stack.extend(node.items)

    def line(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    return [Duplicate(key, line(first), line(last)) for key, first, last in sorted(found, key=lambda f: f[2])]


def resolve(node: Node) -> Node:
    while isinstance(node, Alias):
        node = node.target
    return node


def effective(mapping: Mapping) -> dict[str, tuple[Node, int | None]]:
    """The mapping as data sees it: key -> (value node, index of its entry, None for a key that
    ``<<`` merges in). Own keys come first, in the file's order; a key written twice is its last
    occurrence, in the place of its first (as ``JSON.parse`` and PyYAML read it); merged keys
    follow, from the first merged mapping on."""
    own: dict[str, tuple[Node, int | None]] = {}
    for index, entry in enumerate(mapping.entries):
        if not entry.merge:
            own[entry.key] = (entry.value, index)
    for source in mapping.merges:
        for key, (node, _) in effective(source).items():
            own.setdefault(key, (node, None))
    return own


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON data: a boolean is never a number, 1 and 1.0 are the same number, NaN
    equals NaN, and a mapping's key order does not matter."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    if isinstance(a, dict):
        return isinstance(b, dict) and len(a) == len(b) and all(k in b and same_value(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if a is None or b is None:
        return a is None and b is None
    return type(a) is type(b) and a == b


def value_of(node: Node) -> Any:
    """A node's data for reading (its decoded value when it has one, else built)."""
    node = resolve(node)
    if isinstance(node, Scalar):
        return node.value
    if node.decoded is not None:
        return node.decoded
    return to_data(node, Budget(MAX_VALUES, "the document"))


def node_equals(node: Node, value: Any) -> bool:
    """``same_value`` of a node's data and ``value``, without building the node's data. For a
    collection read with its decoded value (``json_tree.parse_json_lazy``) the comparison is
    ``==`` in C, made exact by the C encoder; a NaN inside makes it say "differs", and the
    planner then compares member by member, where NaN is NaN."""
    node = resolve(node)
    decoded = getattr(node, "decoded", None)
    if decoded is not None:
        return equal_data(decoded, value)
    if isinstance(node, Scalar):
        return same_value(node.value, value)
    if isinstance(node, Sequence):
        return (
            isinstance(value, list)
            and len(value) == len(node.items)
            and all(node_equals(item, v) for item, v in zip(node.items, value, strict=True))
        )
    if not isinstance(value, dict):
        return False
    seen = effective(node)
    return len(seen) == len(value) and all(k in value and node_equals(n, value[k]) for k, (n, _) in seen.items())


class Budget:
    """Counts the values built from a tree, so that aliases cannot expand without end."""

    def __init__(self, limit: int, what: str) -> None:
        self.left, self.limit, self.what = limit, limit, what

    def take(self, count: int = 1) -> None:
        self.left -= count
        if self.left < 0:
            from ..errors import InputError

            raise InputError(
                f"{self.what} expands to more than {self.limit:,} values through its aliases; "
                "a form cannot hold it (is it an alias bomb?)."
            )


def equal_data(a: Any, b: Any) -> bool:
    """``same_value`` at the speed of C for two documents, except that a NaN inside a list or a
    mapping makes them differ (it is never ``==`` to another NaN)."""
    if type(a) is not type(b) or a != b:
        # Two collections that are not == differ (a NaN inside included, as said above); two
        # scalars may still be one value (0 and 0.0, NaN and NaN).
        return not isinstance(a, dict | list) and same_value(a, b)
    # == takes true for 1 and for 1.0: their pickles tell them apart.
    try:
        if _written_alike(a, b):
            return True
    except Exception:  # (a value pickle cannot write, a cycle: compared value by value below)
        pass
    return same_value(a, b)


# Items of a long list written at a time (so that no copy of a whole large document is made).
_CHUNK = 500


def _written_alike(a: Any, b: Any) -> bool:
    """For ``a == b``: whether pickle writes them alike, piece by piece (keys compared by name,
    whatever their order)."""
    if isinstance(a, dict):
        return all(_written_alike(value, b[key]) for key, value in a.items())
    if isinstance(a, list) and len(a) > _CHUNK:
        return all(_pickled(a[i : i + _CHUNK]) == _pickled(b[i : i + _CHUNK]) for i in range(0, len(a), _CHUNK))
    return _pickled(a) == _pickled(b)


def _pickled(value: Any) -> bytes:
    """``value`` as pickle writes it without its memo: an object met twice is written twice, so
    two values that are ``==`` are written alike exactly when their types match everywhere
    (True is not 1, 1 is not 1.0) and their keys come in the same order, however their objects
    are shared. About three times as quick as the JSON encoder."""
    import io
    import pickle

    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # (no memo)
    pickler.dump(value)
    return buffer.getvalue()


def to_data(node: Node, budget: Budget, depth: int = 0) -> Any:
    """The node as plain JSON data, every alias as its own copy (a lazily read JSON collection
    gives its decoded value, which holds no alias: read it, do not change it)."""
    node = resolve(node)
    if getattr(node, "lazy", False):
        return node.decoded  # type: ignore[union-attr]
    budget.take()
    if isinstance(node, Scalar):
        return node.value
    if depth >= MAX_DEPTH:
        from ..errors import InputError

        raise InputError(f"{budget.what} nests deeper than {MAX_DEPTH} levels through its aliases.")
    if isinstance(node, Sequence):
        return [to_data(item, budget, depth + 1) for item in node.items]
    return {key: to_data(value, budget, depth + 1) for key, (value, _) in effective(node).items()}


def shared_paths(root: Node | None) -> list[list[str]]:
    """The values the document writes once and reads in several places, each as the JSON
    pointers of its places, the written one first: an anchored value and its aliases, and a key
    that ``<<`` merges in from an anchored mapping and the mappings that merge it without
    overriding it. (A value reached only through an alias has no place of its own here.)"""
    from ..jsonpointer import escape

    anchors: dict[int, str] = {}
    uses: dict[int, list[str]] = {}
    merged: dict[tuple[int, str], list[str]] = {}
    stack: list[tuple[Node, str]] = [(root, "")] if root is not None else []
    while stack:
        node, path = stack.pop()
        if isinstance(node, Alias):
            uses.setdefault(id(node.target), []).append(path)
            continue
        if node.anchor:
            anchors[id(node)] = path
        if isinstance(node, Mapping):
            own = []
            for key, (value, index) in effective(node).items():
                if index is not None:
                    own.append((value, path + "/" + escape(key)))
                    continue
                source = next(m for m in node.merges if key in effective(m))
                merged.setdefault((id(source), key), []).append(path + "/" + escape(key))
            stack.extend(reversed(own))
        elif isinstance(node, Sequence):
            stack.extend((item, f"{path}/{i}") for i, item in reversed(list(enumerate(node.items))))
    groups = [[anchors[target], *paths] for target, paths in uses.items() if target in anchors]
    groups += [
        [anchors[source] + "/" + escape(key), *paths] for (source, key), paths in merged.items() if source in anchors
    ]
    return groups
