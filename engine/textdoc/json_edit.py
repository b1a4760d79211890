"""Splices that change a JSON text (``json_tree``) the way the planner (``plan``) asks."""

from __future__ import annotations

from typing import Any

from .flow_edit import Member, change_flow, one_per_line
from .layout import json_layout, line_start
from .nodes import Mapping, Node, Sequence
from .render import json_string, json_value
from .splices import Splice


class JsonEditor:
    def __init__(self, text: str, root: Node) -> None:
        self.text = text
        self.layout = json_layout(text, root)

    def _nl(self, text: str) -> str:
        return text if self.layout.newline == "\n" else text.replace("\n", self.layout.newline)

    def _base(self, pos: int) -> str:
        start = line_start(self.text, pos)
        line = self.text[start:pos]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def _multiline(self, parent: Mapping | Sequence | None) -> bool:
        if parent is None:
            return "\n" in self.text.strip()
        return "\n" in self.text[parent.open : parent.close]

    def replace(
        self, node: Node, value: Any, parent: Mapping | Sequence | None, entry: Any = None, anchor: Any = None
    ) -> list[Splice]:
        text = json_value(value, self.layout, base=self._base(node.start), multiline=self._multiline(parent))
        return [Splice(node.start, node.end, self._nl(text))]

    def change_mapping(
        self, node: Mapping, removed: set[int], inserted: list[tuple[int, str, Any]], children: list[Splice]
    ) -> list[Splice] | None:
        members = [Member(e.key_start, e.value.end) for e in node.entries]
        first = node.entries[0]
        colon = self.text[first.key_end : first.value.start]
        if "\n" in colon or "/" in colon:
            colon = self.layout.colon
        multiline = one_per_line(self.text, node.close, members)
        base = self._base(members[0].start)
        texts = [
            (
                after,
                json_string(key, self.layout) + colon + json_value(value, self.layout, base=base, multiline=multiline),
            )
            for after, key, value in inserted
        ]
        return change_flow(self.text, node, members, removed, texts, children, self.layout.newline, self.layout.comma)

    def change_sequence(
        self, node: Sequence, removed: set[int], inserted: list[tuple[int, Any]], children: list[Splice]
    ) -> list[Splice] | None:
        members = [Member(item.start, item.end) for item in node.items]
        multiline = one_per_line(self.text, node.close, members)
        base = self._base(members[0].start)
        texts = [(after, json_value(value, self.layout, base=base, multiline=multiline)) for after, value in inserted]
        return change_flow(self.text, node, members, removed, texts, children, self.layout.newline, self.layout.comma)
