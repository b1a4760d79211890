"""Edits of a real or generated document and the two properties every save must keep:

(a) writing the document's own data back returns the very same bytes;
(b) after one edit, the file reads back as the edited data (every other path and the order of
    the keys kept) and its bytes changed only on the lines of the edited value (for a key added
    or removed, the lines of the entry and of its predecessor, whose comma may move; for an
    inline collection, its own lines).
"""

from __future__ import annotations

import copy
import random
from typing import Any, NamedTuple

from deskcheck.engine.textdoc import as_format, parse_tree, read_document, write_document
from deskcheck.engine.textdoc.flow_edit import Member, one_per_line
from deskcheck.engine.textdoc.layout import first_on_line, line_start
from deskcheck.engine.textdoc.nodes import Alias, Mapping, Node, Scalar, Sequence, same_value
from deskcheck.engine.textdoc.yaml_edit import YamlEditor


class Place(NamedTuple):
    path: tuple[Any, ...]
    node: Node
    parent: Mapping | Sequence | None
    index: int  # the entry's or item's index in the parent (-1: root)
    shared: bool = False  # inside an anchored value that an alias or a merge uses


def places(root: Node) -> list[Place]:
    """Every value reachable without passing through an alias or a merge, with its path."""
    used = _used_anchors(root)
    found = [Place((), root, None, -1, getattr(root, "anchor", None) in used)]
    stack = [found[0]]
    while stack:
        place = stack.pop()
        node = place.node
        if isinstance(node, Mapping):
            keys = [e.key for e in node.entries if not e.merge]
            if node.merges or len(keys) != len(set(keys)):
                continue
            for index, entry in enumerate(node.entries):
                shared = place.shared or getattr(entry.value, "anchor", None) in used
                child = Place((*place.path, entry.key), entry.value, node, index, shared)
                found.append(child)
                if not isinstance(entry.value, Alias):
                    stack.append(child)
        elif isinstance(node, Sequence):
            for index, item in enumerate(node.items):
                shared = place.shared or getattr(item, "anchor", None) in used
                child = Place((*place.path, index), item, node, index, shared)
                found.append(child)
                if not isinstance(item, Alias):
                    stack.append(child)
    return found


def _used_anchors(root: Node) -> set[str]:
    used: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Alias):
            used.add(node.name)
        elif isinstance(node, Mapping):
            used.update(source.anchor for source in node.merges if source.anchor)
            stack.extend(entry.value for entry in node.entries)
        elif isinstance(node, Sequence):
            stack.extend(node.items)
    return used


def get(data: Any, path: tuple[Any, ...]) -> Any:
    for token in path:
        data = data[token]
    return data


class Edit(NamedTuple):
    what: str
    data: Any  # the document after the edit
    start: int  # the part of the old text the edit may change: the lines from start to end
    end: int


def other_value(value: Any, rng: random.Random) -> Any:
    choices = [
        "changed",
        "two words",
        "yes",
        "on",
        "1e-9",
        "",
        "multi\nline\n",
        'quote"s',
        "a: b",
        "#x",
        42,
        -0.5,
        1e-9,
        True,
        False,
        None,
        {"k": "v"},
        [1, "x"],
        {},
        [],
    ]
    while True:
        candidate = rng.choice(choices)
        if not same_value(candidate, value):
            return copy.deepcopy(candidate)


def edits(text: str, kind: str, rng: random.Random, count: int = 6) -> list[Edit]:
    """Up to ``count`` single edits of the document in ``text``: values set, keys added and
    removed, items appended and removed."""
    root = parse_tree(text, kind, "doc")
    if root is None:
        return []
    data = read_document(text, kind, "doc")
    editor = YamlEditor(text, root) if as_format(kind).kind == "yaml" else None
    # A change inside a value that aliases share also rewrites those aliases (test_yaml_edits
    # covers it); the lines-only property is about the others.
    all_places = [p for p in places(root) if not p.shared]
    out: list[Edit] = []
    for _ in range(count * 3):
        if len(out) >= count:
            break
        place = rng.choice(all_places)
        node = place.node
        new = copy.deepcopy(data)
        op = rng.choice(["set", "set", "add", "remove"])
        try:
            target = get(new, place.path)
        except (KeyError, IndexError, TypeError):
            continue
        if op == "set" and place.parent is not None:
            parent_value = get(new, place.path[:-1])
            parent_value[place.path[-1]] = other_value(target, rng)
            start = _entry_start(place)
            out.append(Edit(f"set {place.path}", new, start, _end(text, editor, node)))
        elif op == "add" and isinstance(node, Mapping) and not node.merges and node.entries:
            key = rng.choice(["added", "on", "z z", "1", "new-key"])
            if key in target:
                continue
            target[key] = other_value(None, rng)
            last = node.entries[-1]
            start, end = _span_for_insert(text, editor, node, last.value)
            out.append(Edit(f"add {place.path}/{key}", new, start, end))
        elif op == "add" and isinstance(node, Sequence) and node.items:
            target.append(other_value(None, rng))
            start, end = _span_for_insert(text, editor, node, node.items[-1])
            out.append(Edit(f"append {place.path}", new, start, end))
        elif op == "remove" and place.parent is not None and isinstance(place.parent, Mapping | Sequence):
            parent_value = get(new, place.path[:-1])
            if isinstance(place.parent, Mapping) and (place.parent.merges or len(parent_value) < 2):
                continue
            if isinstance(place.parent, Sequence):
                i = place.path[-1]
                neighbours = parent_value[max(0, i - 1) : i] + parent_value[i + 1 : i + 2]
                if len(parent_value) < 2 or any(same_value(n, parent_value[i]) for n in neighbours):
                    continue  # which of two equal items went is not for the data to say
            del parent_value[place.path[-1]]
            start, end = _span_for_remove(text, editor, place)
            out.append(Edit(f"remove {place.path}", new, start, end))
    return out


def _entry_start(place: Place) -> int:
    if isinstance(place.parent, Mapping):
        return min(place.parent.entries[place.index].key_start, place.node.start)
    return place.node.start


def _end(text: str, editor: YamlEditor | None, node: Node) -> int:
    return editor.content_end(node) if editor else node.end


def _members(text: str, editor: YamlEditor | None, parent: Mapping | Sequence) -> list[Member]:
    if isinstance(parent, Mapping):
        return [Member(e.key_start, _end(text, editor, e.value)) for e in parent.entries]
    return [Member(item.start, _end(text, editor, item)) for item in parent.items]


def _inline(text: str, parent: Mapping | Sequence, members: list[Member]) -> bool:
    return parent.flow and not one_per_line(text, parent.close, members)


def _span_for_insert(text: str, editor: YamlEditor | None, parent: Mapping | Sequence, last: Node) -> tuple[int, int]:
    members = _members(text, editor, parent)
    if _inline(text, parent, members):
        return parent.open, parent.close
    end = _end(text, editor, last)
    return end, end


def _span_for_remove(text: str, editor: YamlEditor | None, place: Place) -> tuple[int, int]:
    parent = place.parent
    assert parent is not None
    members = _members(text, editor, parent)
    if _inline(text, parent, members):
        return parent.open, parent.close
    member = members[place.index]
    if place.index == 0 and not first_on_line(text, member.start) and len(members) > 1:
        return member.start, members[1].start  # "- a: 1\n  b: 2" loses a: b moves up to the dash
    start = members[place.index - 1].end if place.index else member.start
    return start, member.end


def check(text: str, kind: str, edit: Edit) -> None:
    """Property (b) for one edit; raises AssertionError with the texts when it fails."""
    raw = text.encode("utf-8")
    written = write_document(raw, edit.data, kind, "doc").decode("utf-8")
    back = read_document(written, kind, "doc")
    context = f"{edit.what}\n--- before\n{text}\n--- after\n{written}"
    assert same_value(back, edit.data), context
    if "<<" not in text:
        # (A key that a "<<" merge brings in and that must keep its old value gets an entry of
        # its own, which moves it among the mapping's own keys.)
        assert_key_order(back, edit.data, context)
    # The text before the allowed lines and the text after them are both still there.
    allowed_from = line_start(text, edit.start)
    allowed_to = _next_line(text, edit.end)
    head, tail = text[:allowed_from], text[allowed_to:]
    assert written.startswith(head) and written.endswith(tail) and len(written) >= len(head) + len(tail), (
        f"changed outside the lines {allowed_from}..{allowed_to}\n{context}"
    )


def save(text: str | bytes, change: Any, kind: str) -> str:
    """The file's text after ``change(data)`` is saved into it."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    data = read_document(raw.decode("utf-8-sig"), kind, "doc")
    change(data)
    return write_document(raw, data, kind, "doc").decode("utf-8")


def check_unchanged(raw: bytes, kind: str) -> None:
    """Property (a)."""
    text = raw.decode("utf-8-sig")
    data = read_document(text, kind, "doc")
    assert write_document(raw, copy.deepcopy(data), kind, "doc") == raw


def assert_key_order(back: Any, expected: Any, context: str) -> None:
    if isinstance(expected, dict) and isinstance(back, dict):
        assert list(back) == list(expected), f"key order {list(back)} != {list(expected)}\n{context}"
        for key, value in expected.items():
            assert_key_order(back[key], value, context)
    elif isinstance(expected, list) and isinstance(back, list):
        for a, b in zip(back, expected, strict=True):
            assert_key_order(a, b, context)


def _next_line(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end + 1


def scalar_places(root: Node) -> list[Place]:
    return [p for p in places(root) if isinstance(p.node, Scalar)]
