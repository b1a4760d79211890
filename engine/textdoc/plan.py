"""Which parts of a text a new document changes: the tree (``nodes``) is compared with the new
data, and only what differs becomes splices, asked of a format's editor (``json_edit``,
``yaml_edit``).

A changed scalar, or a value whose type changed, is replaced where it stands. In a mapping,
kept keys are compared in turn, removed keys are removed, and new keys are added after the
key that precedes them in the new data (before the first key when none does). A list is
matched item for item (``difflib``), so removing the first of a hundred items removes one item
rather than rewriting a hundred. When an editor cannot make a change in place it says so and
the enclosing value is rewritten instead.

Aliases: an alias whose new value is the new value of its anchor stays an alias (a change made
to every copy of a shared value is written once, where the anchor is); a changed anchored value
keeps its anchor then, even when it is rewritten. An alias whose new value differs is replaced
by a copy of that value (the anchor and the other aliases keep theirs). A key that ``<<``
merges in and that the new data changes gets its own entry in the merging mapping; one it
removes rewrites that mapping.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from typing import Any, Protocol

from .nodes import (
    MAX_VALUES,
    Alias,
    Budget,
    Entry,
    Mapping,
    Node,
    Sequence,
    effective,
    equal_data,
    node_equals,
    same_value,
    to_data,
    value_of,
)
from .splices import Splice

# Lists longer than this are matched by position: the matcher's cost grows with the square.
MAX_MATCHED_ITEMS = 2000


class Editor(Protocol):
    def replace(
        self, node: Node, value: Any, parent: Mapping | Sequence | None, entry: Entry | None = None
    ) -> list[Splice] | None: ...

    def change_mapping(
        self, node: Mapping, removed: set[int], inserted: list[tuple[int, str, Any]], children: list[Splice]
    ) -> list[Splice] | None: ...

    def change_sequence(
        self, node: Sequence, removed: set[int], inserted: list[tuple[int, Any]], children: list[Splice]
    ) -> list[Splice] | None: ...


class Planner:
    def __init__(self, editor: Editor, root: Node, *, aliases: bool = True) -> None:
        """``aliases``: the format has aliases (YAML); without (JSON), the tree is not walked
        ahead, so that a lazily read one stays unread where nothing changed."""
        self.editor = editor
        self.budget = Budget(MAX_VALUES, "the document")
        # Where each node sits, every alias in the order of the text, the anchors something uses.
        self.places: dict[int, tuple[Mapping | Sequence, Entry | None]] = {}
        self.aliases: list[Alias] = []
        self.used: set[str] = set()
        # Nodes whose text a splice removes or rewrites.
        self.dropped: list[Node] = []
        # The new value of each anchored node that aliases use, once planned; the anchors an
        # alias follows (its new value is the anchor's new value); anchored values rewritten,
        # with the splices that rewrite them without and with their anchor.
        self.anchor_values: dict[str, Any] = {}
        self.followed: set[str] = set()
        self.rewritten: dict[str, tuple[list[Splice], list[Splice]]] = {}
        stack = [root] if aliases else []
        while stack:
            node = stack.pop()
            if isinstance(node, Alias):
                self.aliases.append(node)
                self.used.add(node.name)
            elif isinstance(node, Mapping):
                for entry in node.entries:
                    self.places[id(entry.value)] = (node, entry)
                    stack.append(entry.value)
            elif isinstance(node, Sequence):
                for item in node.items:
                    self.places[id(item)] = (node, None)
                    stack.append(item)
        self.aliases.sort(key=lambda alias: alias.start)

    def run(self, root: Node, value: Any) -> list[Splice] | None:
        """Splices that make the whole text read as ``value``."""
        splices = self.plan(root, value)
        if splices is None:
            splices = self._replace(root, value, None, None)
        if splices is None:
            return None
        for name in self.followed & set(self.rewritten):
            # An alias reads the new value: the anchor stays on it instead of moving away.
            without, with_anchor = self.rewritten[name]
            splices = [s for s in splices if not any(s is w for w in without)] + with_anchor
            self.dropped = [n for n in self.dropped if getattr(n, "anchor", None) != name]
        relocated = self._relocate_anchors()
        return None if relocated is None else splices + relocated

    def plan(
        self, node: Node, value: Any, parent: Mapping | Sequence | None = None, entry: Entry | None = None
    ) -> list[Splice] | None:
        """Splices that make ``node`` read as ``value`` (None: rewrite the enclosing value)."""
        if isinstance(node, Alias) and node.name in self.anchor_values:
            if same_value(self.anchor_values[node.name], value):
                self.followed.add(node.name)
                return []
        elif getattr(node, "anchor", None) in self.used:
            self.anchor_values[node.anchor] = value  # type: ignore[union-attr]
        if node_equals(node, value):
            return []
        if not isinstance(node, Alias):
            if isinstance(node, Mapping) and isinstance(value, dict) and node.entries:
                splices = self._mapping(node, value)
                if splices is not None:
                    return splices
            if isinstance(node, Sequence) and isinstance(value, list) and node.items:
                splices = self._sequence(node, value)
                if splices is not None:
                    return splices
        return self._replace(node, value, parent, entry)

    def _replace(
        self, node: Node, value: Any, parent: Mapping | Sequence | None, entry: Entry | None
    ) -> list[Splice] | None:
        self.dropped.append(node)
        anchor = getattr(node, "anchor", None)
        if anchor not in self.used:
            return self.editor.replace(node, value, parent, entry, anchor)  # kept on the new value
        # One that aliases use moves to the first of them with the old value
        # (``_relocate_anchors``), unless an alias follows the new value (``run``).
        without = self.editor.replace(node, value, parent, entry, None)
        with_anchor = self.editor.replace(node, value, parent, entry, anchor)
        if without is not None and with_anchor is not None:
            self.rewritten[anchor] = (without, with_anchor)
        return without

    def _relocate_anchors(self) -> list[Splice] | None:
        """An anchored value that a splice removes or rewrites while aliases elsewhere still use
        it: the first of those aliases becomes ``&anchor`` with the old value, so that it and
        the aliases after it keep reading what they read."""
        spans = [(node.start, node.end) for node in self.dropped]
        lost: dict[str, Node] = {}
        for dropped in self.dropped:
            stack = [dropped]
            while stack:
                node = stack.pop()
                if isinstance(node, Alias):
                    continue
                if node.anchor in self.used:
                    lost.setdefault(node.anchor, node)
                if isinstance(node, Mapping):
                    stack.extend(entry.value for entry in node.entries)
                elif isinstance(node, Sequence):
                    stack.extend(node.items)
        splices: list[Splice] = []
        for name, definition in lost.items():
            alias = next(
                (a for a in self.aliases if a.target is definition and not any(s <= a.start < e for s, e in spans)),
                None,
            )
            if alias is None:
                continue
            parent, entry = self.places.get(id(alias), (None, None))
            moved = self.editor.replace(alias, to_data(definition, self.budget), parent, entry, name)
            if moved is None:
                return None
            spans.append((alias.start, alias.end))
            splices.extend(moved)
        return splices

    def _mapping(self, node: Mapping, value: dict) -> list[Splice] | None:
        seen = effective(node)
        merged_keys = {key for source in node.merges for key in effective(source)}
        children: list[Splice] = []
        removed: set[int] = set()
        overrides: set[str] = set()
        for key, (child, index) in seen.items():
            if key in value:
                if index is None:
                    if not self._merged_reads(node, key, child, value[key]):
                        overrides.add(key)
                    continue
                splices = self.plan(child, value[key], node, node.entries[index])
                if splices is None:
                    return None
                children.extend(splices)
            elif index is None or key in merged_keys:
                return None  # a merged key cannot be removed in place
            else:
                removed.update(i for i, e in enumerate(node.entries) if e.key == key and not e.merge)
        self.dropped.extend(node.entries[i].value for i in removed)
        inserted: list[tuple[int, str, Any]] = []
        after = -1
        for key, item in value.items():
            if key in seen and key not in overrides:
                if seen[key][1] is not None and seen[key][1] not in removed:
                    after = seen[key][1]  # type: ignore[assignment]
                continue
            inserted.append((after, key, item))
        if not removed and not inserted:
            return children
        return self.editor.change_mapping(node, removed, inserted, children)

    def _merged_reads(self, node: Mapping, key: str, child: Node, value: Any) -> bool:
        """Whether a key that ``<<`` merges in reads as ``value`` once the merged mapping has
        its new value (a shared value changed where its anchor is)."""
        source = next((m for m in node.merges if key in effective(m)), None)
        new = self.anchor_values.get(source.anchor) if source is not None and source.anchor else None
        if isinstance(new, dict) and key in new:
            return same_value(new[key], value)
        return node_equals(child, value)

    def _sequence(self, node: Sequence, value: list) -> list[Splice] | None:
        children: list[Splice] = []
        removed: set[int] = set()
        inserted: list[tuple[int, Any]] = []
        for tag, i1, i2, j1, j2 in self._match(node.items, value):
            if tag == "equal":
                continue
            paired = min(i2 - i1, j2 - j1)
            for k in range(paired):
                splices = self.plan(node.items[i1 + k], value[j1 + k], node)
                if splices is None:
                    return None
                children.extend(splices)
            removed.update(range(i1 + paired, i2))
            self.dropped.extend(node.items[i1 + paired : i2])
            inserted.extend((i1 + paired - 1, value[j]) for j in range(j1 + paired, j2))
        if not removed and not inserted:
            return children
        return self.editor.change_sequence(node, removed, inserted, children)

    def _match(self, items: list[Node], value: list) -> list[tuple[str, int, int, int, int]]:
        """How the old items map to the new ones: the items both ends share stay; in between,
        difflib's matching, unless it finds nothing in common (then item i becomes item i)."""
        if len(items) > MAX_MATCHED_ITEMS or len(value) > MAX_MATCHED_ITEMS:
            old_values = [value_of(item) for item in items]
            head, tail = _shared_ends(old_values, value)
            return _by_position(head, len(items) - tail, head, len(value) - tail)
        old = [_fingerprint(to_data(item, self.budget)) for item in items]
        new = [_fingerprint(v) for v in value]
        head, tail = _common_ends(old, new)
        old_end, new_end = len(old) - tail, len(new) - tail
        codes = SequenceMatcher(None, old[head:old_end], new[head:new_end], autojunk=False).get_opcodes()
        if not any(tag == "equal" for tag, *_ in codes):
            return _by_position(head, old_end, head, new_end)
        return [(tag, i1 + head, i2 + head, j1 + head, j2 + head) for tag, i1, i2, j1, j2 in codes]


def _common_ends(old: list[Any], new: list[Any]) -> tuple[int, int]:
    """How many items (``==``) both lists have in common at their start and at their end."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def _shared_ends(old: list[Any], new: list[Any]) -> tuple[int, int]:
    """``_common_ends`` of two lists of data, found with ``==`` in C and confirmed at once by the
    C encoder (``==`` takes true for 1); 0, 0 when it cannot confirm them."""
    head, tail = _common_ends(old, new)
    same = old[:head] + old[len(old) - tail :]
    if equal_data(same, new[:head] + new[len(new) - tail :]):
        return head, tail
    return 0, 0


def _by_position(i1: int, i2: int, j1: int, j2: int) -> list[tuple[str, int, int, int, int]]:
    return [("replace", i1, i2, j1, j2)] if i2 > i1 or j2 > j1 else []


def _fingerprint(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
