"""Readable views of a form state for the REPL: the field tree of `show`, the errors, the diff
against the loaded copy, and the completion candidates (field paths with their label, type and
value). Only reads the state's tree; every change goes through the form tools.

A tree line is ``<marks> <label>  <path>  <type, flags>  = <value>  — <error>``, where the
marks column shows ``!`` for a field with an error and ``*`` for a modified one. Values are
folded to one line; lists nested in the part shown print their first items and count the rest
(`show` on the list prints them all). Layout groups that hold no data of their own (a variant's
branch, a condition's branch) are not printed: their fields appear in their place.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

from ..render.draw import plural
from ..render.values import fold, one_line
from .suggest import Candidate

if TYPE_CHECKING:
    from deskcheck.engine.forms.state.state import FormState
    from deskcheck.engine.forms.state.tree import Node

# A list inside the part shown prints this many items; `show` on the list prints all.
FOLD_ITEMS = 5
INDENT = "  "


def label_of(node: Node) -> str:
    skeleton = node.skeleton
    if node.item_index is not None:
        title = _item_title(node.data)
        return f"[{node.item_index}]" + (f" {title}" if title else "")
    if node.wrapper or node.is_selector:
        return node.title or ("variant" if node.is_selector else "")
    label = (skeleton.label or skeleton.title) if skeleton is not None else None
    return label or node.title or node.key or "(record)"


def _item_title(data: Any) -> str | None:
    if isinstance(data, dict):
        for key in ("title", "name", "label", "id", "key"):
            value = data.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and value != "":
                return fold(str(value), 40)
    return None


def type_of(node: Node) -> str:
    from deskcheck.engine.forms.schema.layout import agent_type

    return agent_type(node.comp)


def value_text(node: Node) -> str:
    from deskcheck.engine.forms.schema.values import UNSET

    if node.data is UNSET:
        return "unset"
    return one_line(node.data)


def _flags(node: Node) -> list[str]:
    flags = [type_of(node)]
    if node.required:
        flags.append("required")
    if node.read_only:
        flags.append("read-only")
    if node.is_list and isinstance(node.data, list):
        flags.append(plural(len(node.data), "item"))
    if node.items_state in ("static", "resolved", "url"):
        flags.append("suggestions")
    elif node.items_state == "blocked":
        from deskcheck.engine.forms.state.text import waiting_flag

        flags.append(waiting_flag(node))
    return flags


def _has_value_line(node: Node) -> bool:
    return not node.visible_children and not node.is_selector and node.comp != "slot"


def tree_lines(state: FormState, node: Node) -> list[Any]:
    """The lines of `show` for ``node`` and what is shown under it (rich ``Text`` objects)."""
    lines: list[Any] = []
    _walk(state, node, 0, lines, top=True)
    return lines


def _walk(state: FormState, node: Node, depth: int, lines: list[Any], *, top: bool) -> None:
    if node.wrapper and not node.is_selector and not top:
        for child in node.visible_children:
            _walk(state, child, depth, lines, top=False)
        return
    lines.append(_line(node, depth))
    if node.is_selector:
        _variant_lines(node, depth + 1, lines)
    children = node.visible_children
    folded = node.is_list and not top and len(children) > FOLD_ITEMS
    for child in children[:FOLD_ITEMS] if folded else children:
        _walk(state, child, depth + 1, lines, top=False)
    if folded:
        from rich.text import Text

        more = len(children) - FOLD_ITEMS
        lines.append(Text(f"   {INDENT * (depth + 1)}… {plural(more, 'more item')}: show {node.path}", style="dim"))


def _line(node: Node, depth: int):
    from rich.text import Text

    line = Text()
    line.append("!" if node.error else " ", style="bold red")
    line.append("*" if node.modified else " ", style="bold yellow")
    line.append(" " + INDENT * depth)
    line.append(label_of(node), style="bold")
    line.append(f"  {node.path}", style="cyan")
    line.append(f"  {', '.join(_flags(node))}", style="dim")
    if _has_value_line(node):
        line.append("  = ")
        line.append(value_text(node), style="green")
    if node.error:
        line.append(f"  — {node.error}", style="red")
    for note in node.notes:
        line.append(f"  — note: {note}", style="dim")
    return line


def _variant_lines(node: Node, depth: int, lines: list[Any]) -> None:
    from rich.text import Text

    owner = node.variant_owner
    if owner is None:
        return
    for index, title in enumerate(owner.variant_titles):
        active = index == node.active_variant
        text = f"   {INDENT * depth}{'●' if active else '○'} variant {index}: {title}" + (" (active)" if active else "")
        lines.append(Text(text, style="" if active else "dim"))


def error_lines(state: FormState) -> list[str]:
    return [f"{error.path}: {error.message}" for error in state.errors]


def diff_lines(state: FormState) -> list[tuple[str, str, str]]:
    """``(pointer, loaded value, current value)`` for every field whose value differs from the
    copy loaded (or last saved); ``unset`` where a side has no value. Inside a list the items are
    paired first (``changed_paths``), so an edit deep in one item names that field."""
    from deskcheck.engine.forms.schema.values import UNSET

    if not state.tracking:
        return []
    return [
        (pointer, "unset" if old is UNSET else one_line(old), "unset" if new is UNSET else one_line(new))
        for pointer, old, new in changed_paths(state.base, state.document)
    ]


IDENTITY_KEYS = ("id", "_id", "key", "name", "title")


def _identity(item: Any) -> str:
    """What makes a list item the same item when other fields change: an object's id, key, name
    or title when it has one, else its whole value."""
    if isinstance(item, dict):
        for key in IDENTITY_KEYS:
            value = item.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return f"{key}={value!r}"
    return json.dumps(item, sort_keys=True, default=str)


def changed_paths(base: Any, data: Any, pointer: str = "") -> list[tuple[str, Any, Any]]:
    """``(pointer, old, new)`` of what differs between ``base`` and ``data``, as deep as both sides
    have the same shape: objects key by key, lists item by item after pairing the items that are the
    same item (``_identity``), so that an item inserted or removed is one change, not a shift of
    every item after it; a removed item is named by its place in ``base``. A missing side is
    ``UNSET``."""
    from deskcheck.engine import jsonpointer
    from deskcheck.engine.forms.schema.values import UNSET, json_equal

    if isinstance(base, dict) and isinstance(data, dict):
        out: list[tuple[str, Any, Any]] = []
        for key in [*base, *(k for k in data if k not in base)]:
            out += changed_paths(base.get(key, UNSET), data.get(key, UNSET), jsonpointer.append(pointer, key))
        return out
    if isinstance(base, list) and isinstance(data, list):
        return _changed_items(base, data, pointer)
    if base is not UNSET and data is not UNSET and json_equal(base, data):
        return []
    return [] if base is UNSET and data is UNSET else [(pointer or "/", base, data)]


def _changed_items(base: list[Any], data: list[Any], pointer: str) -> list[tuple[str, Any, Any]]:
    import difflib

    from deskcheck.engine import jsonpointer
    from deskcheck.engine.forms.schema.values import UNSET

    out: list[tuple[str, Any, Any]] = []
    matcher = difflib.SequenceMatcher(None, [_identity(i) for i in base], [_identity(i) for i in data], autojunk=False)
    for _tag, i1, i2, j1, j2 in matcher.get_opcodes():
        # Items with the same identity are the same item (what changed inside it is listed); the
        # others are paired in order as far as both sides go, the rest was removed or added.
        paired = min(i2 - i1, j2 - j1)
        for offset in range(paired):
            out += changed_paths(base[i1 + offset], data[j1 + offset], jsonpointer.append(pointer, str(j1 + offset)))
        for index in range(i1 + paired, i2):  # removed: named by where it was
            out.append((jsonpointer.append(pointer, str(index)), base[index], UNSET))
        for index in range(j1 + paired, j2):
            out.append((jsonpointer.append(pointer, str(index)), UNSET, data[index]))
    return out


# -- completion candidates ---------------------------------------------------------------------------


def field_candidates(state: FormState) -> tuple[dict[str, list[Candidate]], dict[str, dict[str, list[Candidate]]]]:
    """The candidates of each path kind, and the dependent ones (variants of each selector,
    items of each list), from the fields the state shows."""
    everything: list[Candidate] = []
    settable: list[Candidate] = []
    lists: list[Candidate] = []
    selectors: list[Candidate] = []
    with_options: list[Candidate] = []
    variants: dict[str, list[Candidate]] = {}
    items: dict[str, list[Candidate]] = {}
    seen: set[str] = set()
    for node in state.tree.root.walk():
        if not node.shown or (node.wrapper and not node.is_selector) or not node.full_key:
            continue
        meta = _meta(node)
        paths = [node.full_key]
        if node.data_path != node.full_key and not node.is_selector:
            paths.append(node.data_path)  # the JSON pointer of a field inside a variant works too
        for path in paths:
            if path in seen:
                continue
            seen.add(path)
            candidate = Candidate(path, meta)
            everything.append(candidate)
            if node.is_selector:
                selectors.append(candidate)
                with_options.append(candidate)
            else:
                settable.append(candidate)
            if node.is_list:
                lists.append(candidate)
            if node.items_state is not None and not node.is_list:
                with_options.append(candidate)
        if node.is_selector and node.variant_owner is not None:
            variants[node.full_key] = [
                Candidate(str(i), title) for i, title in enumerate(node.variant_owner.variant_titles)
            ]
        if node.is_list:
            items[node.full_key] = [
                Candidate(str(child.item_index), label_of(child)) for child in node.visible_children
            ]
            items[node.data_path] = items[node.full_key]
    values = {
        "field": everything,
        "settable": settable,
        "list": lists,
        "selector": selectors,
        "options": with_options,
    }
    return values, {"variant": variants, "item": items}


def _meta(node: Node) -> str:
    text = f"{label_of(node)} ({type_of(node)})"
    if _has_value_line(node):
        text += f" = {fold(value_text(node), 40)}"
    if node.error:
        text += " !"
    return text


class Listing(NamedTuple):
    """A getFieldSuggestions answer as the REPL shows it: numbered from 0 whatever indices the tool
    gave (its indices keep growing across listings of a field, so that an agent's earlier index
    keeps its meaning); ``base`` turns a number shown back into the tool's index."""

    text: str
    options: list[Candidate]
    base: int


def suggestion_listing(text: str) -> Listing:
    """The tool's answer (``- [7] Title (key) — value=...`` lines) renumbered from 0 for `pick N`."""
    import re

    indices = [int(m.group(1)) for m in re.finditer(r"^- \[(\d+)\] ", text, flags=re.MULTILINE)]
    base = min(indices, default=0)
    options: list[Candidate] = []
    lines = []
    for line in text.splitlines():
        found = re.match(r"- \[(\d+)\] (.*)$", line)
        if found is None:
            # The tool tells an agent how to apply an option; at the prompt, `pick N` does it.
            lines.append(re.sub(r"Apply one with setFieldValue .*:$", "`pick N` writes option N:", line))
            continue
        number = int(found.group(1)) - base
        rest = found.group(2).replace(f"apply with suggestionIndex={found.group(1)}", f"pick {number}")
        options.append(Candidate(str(number), rest.split(" — ")[0]))
        lines.append(f"- [{number}] {rest}")
    return Listing("\n".join(lines), options, base)


def parse_get(text: str) -> dict[str, Any]:
    """getData's answer (JSON text) as an object."""
    return json.loads(text)
