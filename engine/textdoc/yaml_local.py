"""Whether an edited YAML text reads as the new data, shown from the edited lines alone.

A save checks that what it writes reads back as the data it was given. Reading a 5 MB file
again costs most of a second; when every change replaced one value written on one line, the
edited lines are enough, by the argument below. ``reads_as_after_splices`` says True only when
every condition of the argument holds; anything else (False) leaves the check to the whole
reading, as before.

The argument, for libyaml (the reader of both the old and the new text; PyYAML's C binding):

1. The old text was read by libyaml as one document without directives, aliases or ``<<``
   merges, so its data is its tree's data (``decoded``), shaped as the tree, nothing shared.
2. Each splice replaces exactly one scalar node S of a block collection, with no anchor or
   tag, plain or quoted (not a ``|``/``>`` block), written on one line after something else on
   that line or on an earlier one (its column is not 0); the splice ends on that line, takes
   only blanks after S, and its new text T holds no line break. At most one splice per line.
3. libyaml reads a text line by line: the tokens of a line depend on the scanner's state when
   the line starts (flow level, the stack of indentations, whether a key may start) and on that
   line's characters; a key must be on one line, and whether a plain scalar goes on into the
   next line is decided from that next line's indentation and first characters. So if, on
   every edited line, the new line gives the same tokens as the old one with S's token
   replaced by one scalar token, the scanner's state at the start of the next line is the same
   as before (a scalar token opens or closes no collection and changes no indentation; after
   the line break a key may start again either way), and by induction over the lines the whole
   token stream is the old one with each S replaced: the same structure, every other value the
   same, the old text's following lines read as before.
4. On its line, S's token starts at the same place after the same tokens (the text before it
   did not change). T read there gives one scalar token spanning exactly T, followed by the
   rest of the line as before, when T does in ``k: T<rest of the line>``: both are block
   context (flow level 0) right after an indicator and a blank, where a key may start; a key
   S's position would have to be would have made S a key, and S is a value. That small document
   is read by libyaml here, with the same YAML version, and its value is the scalar's value.
5. Then the new text's data is the old data with each S's value replaced, which is compared
   with the new data (``equal_data``, exact) along the edited paths and as whole values
   elsewhere.

Cases outside the argument (aliases and anchors, merges, tags, block and multi-line scalars,
flow collections, several documents, directives, a new value that is a collection, a key's
change, more than ``MAX_LOCAL_SPLICES`` splices) are read whole.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from .nodes import Mapping, Node, Scalar, Sequence, effective, equal_data, node_equals, same_value
from .splices import Splice

# More edited values than this are checked by reading the whole text (the check per value is a
# small parse; past some hundreds, the whole reading is as quick).
MAX_LOCAL_SPLICES = 200
_BREAKS = ("\n", "\r", "\x85", "\u2028", "\u2029")
_DIRECTIVE = re.compile(r"(?:^|[\r\n])\ufeff?%")
_PREFIX = "k: "


def reads_as_after_splices(
    old: str, stream: Any, splices: list[Splice], data: Any, version: tuple[int, int] | None
) -> bool:
    """Whether ``old`` (read as ``stream``, a ``yaml_tree.YamlStream``) with ``splices``
    applied reads as ``data``, shown by the argument of the module docstring; False when it
    cannot be shown that way (the caller then reads the new text whole)."""
    if not stream.libyaml or stream.aliased or len(stream.documents) != 1 or not 0 < len(splices) <= MAX_LOCAL_SPLICES:
        return False
    root = stream.documents[0].root
    if root is None or _has_directive(old):
        return False
    replaced: dict[int, Any] = {}
    on_path: set[int] = set()
    lines: set[int] = set()
    for splice in splices:
        found = _scalar_at(root, splice.start)
        if found is None:
            return False
        node, chain = found
        line = old.rfind("\n", 0, splice.start) + 1
        if line in lines or not _replaced_in_place(old, node, chain[-1], splice, line):
            return False
        lines.add(line)
        value = _value_of_scalar_text(splice.text, old[splice.end : _line_end(old, splice.end)], version)
        if value is _UNREAD:
            return False
        replaced[id(node)] = value
        on_path.update(id(container) for container in chain)
    return _reads_as(root, data, replaced, on_path)


def _has_directive(text: str) -> bool:
    """Whether a line starts with ``%`` (a ``%YAML`` or ``%TAG`` directive, or text that only
    looks like one: either way the edited lines are not enough)."""
    return _DIRECTIVE.search(text) is not None


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _scalar_at(root: Node, pos: int) -> tuple[Scalar, list[Mapping | Sequence]] | None:
    """The scalar value that starts at ``pos`` and the block collections that hold it (the
    outermost first), found by position; None when it is not a scalar value of block
    collections."""
    node, chain = root, []
    while isinstance(node, Mapping | Sequence):
        if node.flow:
            return None
        chain.append(node)
        if isinstance(node, Mapping):
            at = bisect_right(node.entries, pos, key=lambda entry: entry.key_start) - 1
            if at < 0:
                return None
            node = node.entries[at].value
        else:
            at = bisect_right(node.items, pos, key=lambda item: item.start) - 1
            if at < 0:
                return None
            node = node.items[at]
    if not isinstance(node, Scalar) or node.start != pos or not chain:
        return None
    return node, chain


def _replaced_in_place(old: str, node: Scalar, parent: Mapping | Sequence, splice: Splice, line: int) -> bool:
    """Condition 2 of the argument."""
    start, end = node.start, node.end
    if node.anchor or node.tag or node.style not in (None, "'", '"') or parent.flow:
        return False
    if end <= start or splice.end < end or start == line:
        return False
    if any(mark in old[start:end] for mark in _BREAKS) or any(mark in splice.text for mark in _BREAKS):
        return False
    return not old[end : splice.end].strip(" \t")


_UNREAD = object()


def _value_of_scalar_text(text: str, rest: str, version: tuple[int, int] | None) -> Any:
    """The value of ``text`` read as a value in block context followed by ``rest`` (condition
    4), or _UNREAD when it does not read as one scalar spanning exactly ``text``."""
    from ..errors import InputError
    from .yaml_tree import parse_with_libyaml

    try:
        stream = parse_with_libyaml(_PREFIX + text + rest, version)
    except (InputError, RecursionError):
        return _UNREAD
    if stream is None or stream.aliased or len(stream.documents) != 1:
        return _UNREAD
    root = stream.documents[0].root
    if not isinstance(root, Mapping) or root.flow or len(root.entries) != 1:
        return _UNREAD
    value = root.entries[0].value
    start = len(_PREFIX)
    if not isinstance(value, Scalar) or value.anchor or value.tag or value.style in ("|", ">"):
        return _UNREAD
    if (value.start, value.end) != (start, start + len(text)):
        return _UNREAD
    return value.value


def _reads_as(node: Node, value: Any, replaced: dict[int, Any], on_path: set[int]) -> bool:
    """Whether ``node``'s data with the ``replaced`` scalars' new values is ``value``: the
    collections ``on_path`` member by member, the rest as whole values (in C)."""
    if id(node) in replaced:
        return same_value(replaced[id(node)], value)
    if id(node) not in on_path:
        return node_equals(node, value)
    if isinstance(node, Sequence):
        if not isinstance(value, list) or len(value) != len(node.items):
            return False
        start = 0
        for index, item in enumerate(node.items):
            if id(item) in replaced or id(item) in on_path:
                # The run of untouched items before this one at once, then this one.
                if not equal_data(node.decoded[start:index], value[start:index]):  # type: ignore[index]
                    return False
                if not _reads_as(item, value[index], replaced, on_path):
                    return False
                start = index + 1
        return equal_data(node.decoded[start:], value[start:])  # type: ignore[index]
    if not isinstance(value, dict) or not isinstance(node, Mapping):
        return False
    members = effective(node)
    return len(members) == len(value) and all(
        key in value and _reads_as(member, value[key], replaced, on_path) for key, (member, _) in members.items()
    )
