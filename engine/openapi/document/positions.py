"""Where a JSON pointer sits in the text of a JSON or YAML document (1-based line and column).

Findings carry a line and a column so an editor, a GitHub annotation or a SARIF viewer can jump to
them, and where the token there ends so that they can underline it. A member is located at its
key (``"size": …`` points at ``"size"``), an array item at its first token.

JSON: the parsed data comes from the standard library (fast, C); positions come from a separate
scan of the text, done only when a finding needs one, and only as deep as the requested pointers
go. YAML: PyYAML's composer keeps a mark on every node, recorded while the data is built
(``yaml_source``).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable

from ... import jsonpointer

Position = tuple[int, int]
# (line, column, end line, end column): the end is the token's last character, all 1-based.
Span = tuple[int, int, int, int]

# Strings (with escapes), structural characters, and bare literals (numbers, true, false, null).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+', re.DOTALL)
# Parses one JSON value at an offset and returns (value, end offset); used to skip over values.
_SCAN_ONCE = json.JSONDecoder().scan_once


class LineIndex:
    """Character offset → (line, column), both 1-based."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def position(self, offset: int) -> Position:
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1


class PositionIndex:
    """Positions of pointers in one document. ``locate`` falls back to the nearest located
    ancestor, so every pointer into the document gets a useful place; ``span`` adds where the
    token there (a member's key, an item's first token) ends."""

    def __init__(self) -> None:
        self._offsets: dict[str, int] = {}
        self._lines: LineIndex | None = None
        self._text: str | None = None
        self._scanned: set[str] = set()

    @classmethod
    def for_json(cls, text: str) -> PositionIndex:
        index = cls()
        index._text = text
        return index

    def locate(self, pointer: str) -> Position | None:
        span = self.span(pointer)
        return None if span is None else (span[0], span[1])

    def span(self, pointer: str) -> Span | None:
        if self._text is None:
            return None
        if pointer not in self._offsets:
            self._scan_json([pointer])
        candidate = pointer
        while candidate not in self._offsets:
            if candidate == "":
                return None
            candidate = candidate.rsplit("/", 1)[0]
        start = self._offsets[candidate]
        token = _TOKEN.match(self._text, start)
        end = token.end() - 1 if token is not None else start
        if self._lines is None:
            self._lines = LineIndex(self._text)
        return (*self._lines.position(start), *self._lines.position(end))

    def prepare(self, pointers: Iterable[str]) -> None:
        """Locate many pointers with one scan of the text."""
        if self._text is not None:
            self._scan_json([p for p in pointers if p not in self._offsets])

    def _scan_json(self, pointers: list[str]) -> None:
        wanted = {p for p in pointers if p not in self._scanned}
        if not wanted or self._text is None:
            return
        self._scanned |= wanted
        # Every prefix of a wanted pointer must be entered; anything else is skipped over.
        prefixes: set[str] = set()
        for pointer in wanted:
            try:
                tokens = jsonpointer.split(pointer)
            except jsonpointer.PointerError:
                continue
            prefixes.update(jsonpointer.join(tokens[:depth]) for depth in range(len(tokens) + 1))
        _scan(self._text, prefixes, self._offsets)


def _scan(text: str, prefixes: set[str], offsets: dict[str, int]) -> None:
    """Record the offset of every value whose pointer is in ``prefixes`` (members at their key)."""
    # Each frame: [pointer, is_object, next_index, pending_key, key_offset]
    stack: list[list] = []
    expect_key = False
    offsets.setdefault("", 0)
    remaining = prefixes - offsets.keys()
    position = 0
    while remaining:
        match = _TOKEN.search(text, position)
        if match is None:
            break
        token = match.group()
        first = token[0]
        position = match.end()
        if first in "}]":
            stack.pop()
            _after_value(stack)
            continue
        if first == ",":
            if stack and stack[-1][1]:
                expect_key = True
            continue
        if first == ":":
            expect_key = False
            continue
        if stack and stack[-1][1] and (expect_key or stack[-1][3] is None):
            # A key inside an object.
            key = json.loads(token) if "\\" in token else token[1:-1]
            stack[-1][3] = key
            stack[-1][4] = match.start()
            expect_key = False
            continue
        # A value: work out its pointer.
        if not stack:
            pointer = ""
            start = match.start()
        else:
            frame = stack[-1]
            if frame[1]:
                pointer = frame[0] + "/" + jsonpointer.escape(frame[3])
                start = frame[4]
            else:
                pointer = frame[0] + "/" + str(frame[2])
                start = match.start()
        if pointer in prefixes:
            offsets.setdefault(pointer, start)
            remaining.discard(pointer)
            if first in "{[":
                stack.append([pointer, first == "{", 0, None, 0])
                expect_key = first == "{"
                continue
        elif first in "{[":
            # A container nobody asked about: the C scanner finds its end (the text was parsed by
            # the same module, so it is valid JSON), instead of a token-by-token walk in Python.
            position = _SCAN_ONCE(text, match.start())[1]
        _after_value(stack)


def _after_value(stack: list[list]) -> None:
    if not stack:
        return
    frame = stack[-1]
    if frame[1]:
        frame[3] = None
    else:
        frame[2] += 1
