"""JSON text to a tree of nodes with their positions (``nodes``), for edits that keep the rest of
the text as it was.

Values are read exactly as Python's ``json`` reads them (strings through its own scanner, the
same number grammar, ``NaN``/``Infinity`` accepted, a repeated key's last occurrence wins), so
the tree agrees with the data a session loaded with ``json.loads``. Comments (``//``, ``/* */``)
and trailing commas, which tsconfig-style files carry, are accepted when ``lenient``. The parser
keeps its own stack: a deeply nested document cannot exhaust Python's.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from ..errors import InputError
from .nodes import MAX_DEPTH, Entry, Mapping, Node, Scalar, Sequence

NUMBER = re.compile(r"(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?")
CONSTANTS = {"true": True, "false": False, "null": None, "NaN": float("nan"), "Infinity": float("inf")}
WHITESPACE = " \t\n\r"
BLANKS = re.compile(r"[ \t\n\r]*")


class JsonSyntaxError(InputError):
    def __init__(self, message: str, text: str, pos: int) -> None:
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        super().__init__(f"{message} at line {line}, column {column}")
        self.line, self.column = line, column


def parse_json(text: str, *, lenient: bool = False) -> Node:
    return _Parser(text, lenient).parse()


class _Parser:
    def __init__(self, text: str, lenient: bool) -> None:
        self.text, self.lenient = text, lenient

    def fail(self, message: str, pos: int) -> JsonSyntaxError:
        return JsonSyntaxError(message, self.text, pos)

    def skip(self, pos: int) -> int:
        text = self.text
        while pos < len(text):
            char = text[pos]
            if char in WHITESPACE:
                pos = BLANKS.match(text, pos).end()  # type: ignore[union-attr]
            elif char == "/" and self.lenient and text.startswith("//", pos):
                end = text.find("\n", pos)
                pos = len(text) if end < 0 else end
            elif char == "/" and self.lenient and text.startswith("/*", pos):
                end = text.find("*/", pos + 2)
                if end < 0:
                    raise self.fail("unterminated comment", pos)
                pos = end + 2
            else:
                break
        return pos

    def parse(self) -> Node:
        text = self.text
        # Each open collection: (node, index of the key being read for a mapping).
        stack: list[Mapping | Sequence] = []
        pending_key: list[tuple[str, int, int, int] | None] = []
        pos = self.skip(0)
        root: Node | None = None
        while True:
            # Here a value starts (or a collection closes, handled below).
            if pos >= len(text):
                raise self.fail("unexpected end of the document", pos)
            char = text[pos]
            node: Node | None = None
            if char == "{" or char == "[":
                if len(stack) >= MAX_DEPTH:
                    raise self.fail(f"the document nests deeper than {MAX_DEPTH} levels", pos)
                container: Mapping | Sequence = Mapping(pos, True) if char == "{" else Sequence(pos, True)
                container.open = pos
                stack.append(container)
                pending_key.append(None)
                pos = self.skip(pos + 1)
                closer = "}" if char == "{" else "]"
                if pos < len(text) and text[pos] == closer:
                    node = self.close(stack, pending_key, pos)
                    pos += 1
                elif isinstance(container, Mapping):
                    pos = self.read_key(pending_key, pos)
                    continue
                else:
                    continue
            else:
                node, pos = self.scalar(pos)
            # A value is complete: attach it, then read separators and closers.
            while True:
                if not stack:
                    root = node
                    end = self.skip(pos)
                    if end != len(text):
                        raise self.fail("unexpected text after the document", end)
                    return root
                self.attach(stack[-1], pending_key, node)
                pos = self.skip(pos)
                if pos >= len(text):
                    raise self.fail("unexpected end of the document", pos)
                closer = "}" if isinstance(stack[-1], Mapping) else "]"
                if text[pos] == ",":
                    after = self.skip(pos + 1)
                    if self.lenient and after < len(text) and text[after] == closer:
                        pos = after
                    else:
                        pos = self.read_key(pending_key, after) if closer == "}" else after
                        break
                if text[pos] == closer:
                    node = self.close(stack, pending_key, pos)
                    pos += 1
                    continue
                raise self.fail(f"expected ',' or '{closer}'", pos)

    def read_key(self, pending_key: list[tuple[str, int, int, int] | None], pos: int) -> int:
        text = self.text
        if pos >= len(text) or text[pos] != '"':
            raise self.fail("expected a property name in double quotes", pos)
        key, end = self.string(pos)
        colon = self.skip(end)
        if colon >= len(text) or text[colon] != ":":
            raise self.fail("expected ':' after the property name", colon)
        pending_key[-1] = (key, pos, end, colon + 1)
        return self.skip(colon + 1)

    def attach(self, container: Mapping | Sequence, pending_key: list, node: Node) -> None:
        if isinstance(container, Sequence):
            container.items.append(node)
            return
        key, start, end, colon = pending_key[-1]
        entry = Entry(key, start, end, node, '"')
        entry.colon = colon
        container.entries.append(entry)
        pending_key[-1] = None

    def close(self, stack: list, pending_key: list, pos: int) -> Node:
        container = stack.pop()
        pending_key.pop()
        container.close, container.end = pos, pos + 1
        return container

    def string(self, pos: int) -> tuple[str, int]:
        try:
            return scanstring(self.text, pos + 1, True)
        except json.JSONDecodeError as exc:
            raise self.fail(exc.msg.lower(), exc.pos) from None

    def scalar(self, pos: int) -> tuple[Scalar, int]:
        text = self.text
        char = text[pos]
        if char == '"':
            value, end = self.string(pos)
            return Scalar(pos, end, value, '"'), end
        match = NUMBER.match(text, pos)
        if match:
            integer, fraction, exponent = match.groups()
            try:
                number: int | float = float(match.group()) if fraction or exponent else int(integer)
            except ValueError:  # more digits than Python converts
                raise self.fail("a number too long to read", pos) from None
            return Scalar(pos, match.end(), number), match.end()
        for word, value in CONSTANTS.items():
            if text.startswith(word, pos):
                return Scalar(pos, pos + len(word), value), pos + len(word)
        if text.startswith("-Infinity", pos):
            return Scalar(pos, pos + 9, float("-inf")), pos + 9
        raise self.fail("expected a value", pos)


# -- lazily read trees -------------------------------------------------------------------------
#
# A save of one value into a large file needs the positions of what lies on the way to that value
# only. ``parse_json_lazy`` reads a strict JSON text (no comments, no trailing commas) level by
# level: a collection's members are read when first asked for (``entries``, ``items``), each
# member's value decoded by Python's C scanner, which gives its end too. Every collection keeps
# its decoded value (``decoded``), so comparing an untouched part with the new data costs what
# ``==`` costs in C.


def parse_json_lazy(text: str) -> Node:
    """The tree of a strict JSON text, read as it is walked (see above); ``ValueError`` (a
    ``json.JSONDecodeError``) when the text is not strict JSON."""
    scan = json.JSONDecoder().scan_once
    start = BLANKS.match(text, 0).end()  # type: ignore[union-attr]
    try:
        value, end = scan(text, start)
    except StopIteration:
        raise json.JSONDecodeError("Expecting value", text, start) from None
    if BLANKS.match(text, end).end() != len(text):  # type: ignore[union-attr]
        raise json.JSONDecodeError("Extra data", text, end)
    return _lazy_node(text, scan, start, end, value)


def _lazy_node(text: str, scan: Any, start: int, end: int, value: Any) -> Node:
    if isinstance(value, dict):
        return LazyMapping(text, scan, start, end, value)
    if isinstance(value, list):
        return LazySequence(text, scan, start, end, value)
    return Scalar(start, end, value, '"' if text[start] == '"' else None)


def _members(container: Any) -> list[tuple[str | None, int, int, int, Node]]:
    """(key, key start, key end, colon end, value node) of each member, in the text's order."""
    text, scan, decoded = container._text, container._scan, container.decoded
    closer = "}" if isinstance(container, LazyMapping) else "]"
    pos = BLANKS.match(text, container.open + 1).end()  # type: ignore[union-attr]
    out: list[tuple[str | None, int, int, int, Node]] = []
    seen: dict[str, int] = {}
    while text[pos] != closer:
        key, key_start, key_end, colon = None, pos, pos, pos
        if closer == "}":
            key, key_end = scanstring(text, pos + 1, True)
            colon = text.index(":", key_end) + 1
            pos = BLANKS.match(text, colon).end()  # type: ignore[union-attr]
        # The scanner finds where the value ends; the value itself is the one the container
        # decoded already (the same text read the same way), so a large member is not held twice.
        end = scan(text, pos)[1]
        if key is None:
            value = decoded[len(out)]
        else:
            if key in seen:  # written twice: the earlier one is not the one the container holds
                earlier = seen[key]
                k, k_start, k_end, k_colon, node = out[earlier]
                out[earlier] = (
                    k,
                    k_start,
                    k_end,
                    k_colon,
                    _lazy_node(text, scan, node.start, node.end, scan(text, node.start)[0]),
                )
            seen[key] = len(out)
            value = decoded[key]
        out.append((key, key_start, key_end, colon, _lazy_node(text, scan, pos, end, value)))
        pos = BLANKS.match(text, end).end()  # type: ignore[union-attr]
        if text[pos] == ",":
            pos = BLANKS.match(text, pos + 1).end()  # type: ignore[union-attr]
    return out


class LazyMapping(Mapping):
    __slots__ = ("_entries", "_scan", "_text")
    lazy = True

    def __init__(self, text: str, scan: Any, start: int, end: int, decoded: dict) -> None:
        self._entries: list[Entry] | None = None
        super().__init__(start, True)
        self._text, self._scan, self.decoded = text, scan, decoded
        self.open, self.close, self.end = start, end - 1, end

    @property  # type: ignore[override]
    def entries(self) -> list[Entry]:
        if self._entries is None:
            self._entries = []
            for key, key_start, key_end, colon, node in _members(self):
                entry = Entry(key, key_start, key_end, node, '"')  # type: ignore[arg-type]
                entry.colon = colon
                self._entries.append(entry)
        return self._entries

    @entries.setter
    def entries(self, value: list[Entry]) -> None:
        self._entries = value or None  # (the base class starts it empty: read when asked)


class LazySequence(Sequence):
    __slots__ = ("_items", "_scan", "_text")
    lazy = True

    def __init__(self, text: str, scan: Any, start: int, end: int, decoded: list) -> None:
        self._items: list[Node] | None = None
        super().__init__(start, True)
        self._text, self._scan, self.decoded = text, scan, decoded
        self.open, self.close, self.end = start, end - 1, end

    @property  # type: ignore[override]
    def items(self) -> list[Node]:
        if self._items is None:
            self._items = [member[4] for member in _members(self)]
        return self._items

    @items.setter
    def items(self, value: list[Node]) -> None:
        self._items = value or None
