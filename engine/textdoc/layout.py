"""How a file is laid out, read from its text and tree, so that what an edit adds looks like
what is there: line ends, the indentation step, JSON separators and escaping, YAML quoting."""

from __future__ import annotations

import re
from typing import NamedTuple

from .nodes import Alias, Mapping, Node, Scalar, Sequence


class Layout(NamedTuple):
    newline: str = "\n"
    indent: str = "  "  # one step: spaces, or a tab (JSON)
    seq_offset: int = 2  # YAML: columns from a key to the dashes of its block list
    colon: str = ": "  # JSON: between a key and its value
    comma: str = ", "  # JSON and flow YAML: between items on one line
    ascii_only: bool = False  # JSON: non-ASCII characters written as \u escapes
    quote: str = '"'  # YAML: the quote a string that needs one gets


def newline_of(text: str) -> str:
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def json_layout(text: str, root: Node) -> Layout:
    indent = "  "
    match = re.search(r"\n([ \t]+)\S", text)
    if match:
        lead = match.group(1)
        indent = "\t" if lead.startswith("\t") else " " * len(lead)
    colon, comma = ": ", ", "
    for node in _walk(root, 50):
        if isinstance(node, Mapping) and node.entries:
            entry = node.entries[0]
            between = text[entry.key_end : entry.value.start]
            if "\n" not in between and "/" not in between:
                colon = between
            break
    inline = re.search(r",([ \t]*)[^\s]", text)
    if inline:
        comma = "," + inline.group(1)
    escaped = re.search(r"\\u00[89a-fA-F][0-9a-fA-F]|\\u0[1-9a-fA-F][0-9a-fA-F]{2}|\\u[1-9a-fA-F][0-9a-fA-F]{3}", text)
    ascii_only = bool(escaped) and text.isascii()
    return Layout(newline_of(text), indent, 2, colon, comma, ascii_only)


def yaml_layout(text: str, root: Node | None) -> Layout:
    step = offset = None
    single = double = 0
    for node in _walk(root, 2000):
        if isinstance(node, Scalar):
            single += node.style == "'"
            double += node.style == '"'
        if not isinstance(node, Mapping) or node.flow:
            continue
        for entry in node.entries:
            value = entry.value
            key_column = column(text, entry.key_start)
            if step is None and isinstance(value, Mapping) and not value.flow and value.entries:
                first = column(text, value.entries[0].key_start)
                if first > key_column:
                    step = first - key_column
            if offset is None and isinstance(value, Sequence) and not value.flow and value.items:
                offset = max(0, column(text, value.start) - key_column)
    step = step or 2
    return Layout(
        newline_of(text),
        " " * step,
        step if offset is None else offset,
        quote="'" if single > double else '"',
    )


def _walk(root: Node | None, limit: int):
    """The first ``limit`` nodes, breadth first (enough to see a file's habits)."""
    queue = [root] if root is not None else []
    seen = 0
    while queue and seen < limit:
        node = queue.pop(0)
        seen += 1
        yield node
        if isinstance(node, Mapping):
            queue.extend(entry.value for entry in node.entries)
        elif isinstance(node, Sequence):
            queue.extend(node.items)
        elif isinstance(node, Alias):
            continue


def line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def line_end(text: str, pos: int) -> int:
    """The end of the line holding ``pos``, before its line break (``\\r\\n`` or ``\\n``)."""
    end = text.find("\n", pos)
    if end < 0:
        return len(text)
    return end - 1 if end > 0 and text[end - 1] == "\r" and end - 1 >= pos else end


def column(text: str, pos: int) -> int:
    return pos - line_start(text, pos)


def first_on_line(text: str, pos: int) -> bool:
    return not text[line_start(text, pos) : pos].strip()


def indicator_before(text: str, pos: int, char: str, *, across_lines: bool) -> int | None:
    """The index of the indicator ``char`` (a ``-`` or ``?``) when only blanks (and, with
    ``across_lines``, line breaks) separate it from ``pos``."""
    blanks = " \t\r\n" if across_lines else " \t"
    pos -= 1
    while pos >= 0 and text[pos] in blanks:
        pos -= 1
    return pos if pos >= 0 and text[pos] == char else None
