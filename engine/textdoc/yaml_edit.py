"""Splices that change a YAML text (``yaml_tree``) the way the planner (``plan``) asks.

Block mappings and lists are edited line by line: a removed entry takes its lines (and the
comment on its last line), an added one is inserted after its predecessor's last line at the
same column, a changed value is replaced where it stands. A value keeps its anchor, a custom tag
(``!Ref``) and, for strings, its quoting or block style when that can hold the new text.
Bracketed collections are edited as in JSON (``flow_edit``). A shape this cannot edit in place
(an entry sharing its line with a ``- `` when it is removed, say) returns None: the planner
then rewrites the enclosing collection.
"""

from __future__ import annotations

import re
from typing import Any

from .flow_edit import Member, change_flow, next_line
from .layout import column, first_on_line, indicator_before, line_end, line_start, yaml_layout
from .nodes import Alias, Entry, Mapping, Node, Scalar, Sequence
from .render import is_block, yaml_after_key, yaml_block, yaml_flow, yaml_in_item, yaml_key, yaml_scalar
from .splices import Splice

KEEP_HEADER = re.compile(r"[|>][1-9]?\+|[|>]\+")
STANDARD_TAG = "tag:yaml.org,2002:"


class YamlEditor:
    def __init__(self, text: str, root: Node | None) -> None:
        self.text = text
        self.layout = yaml_layout(text, root)

    def _nl(self, text: str) -> str:
        return text if self.layout.newline == "\n" else text.replace("\n", self.layout.newline)

    # -- where things end ---------------------------------------------------------------------

    def content_end(self, node: Node) -> int:
        """The end of a node's last character that belongs to it (a block scalar's trailing
        blank lines do not, unless it keeps them)."""
        text = self.text
        if isinstance(node, Scalar) and node.style in ("|", ">"):
            header = text[node.start : line_end(text, node.start)]
            if KEEP_HEADER.search(header):
                end = node.end
                if text.endswith("\r\n", 0, end):
                    return end - 2
                return end - 1 if text.endswith("\n", 0, end) else end
            last = len(text[: node.end].rstrip(" \t\r\n")) - 1
            return line_end(text, max(last, node.start))
        if isinstance(node, Mapping) and not node.flow and node.entries:
            return self.content_end(node.entries[-1].value)
        if isinstance(node, Sequence) and not node.flow and node.items:
            return self.content_end(node.items[-1])
        return node.end

    def _value_end(self, node: Node) -> tuple[int, bool]:
        """Where a replaced value's text ends, and whether a ``|`` block may end there: only
        where a line break follows (a comment or more text after it would join its last line;
        trailing blanks are taken into the replaced text)."""
        end = self.content_end(node)
        stop = line_end(self.text, end)
        if self.text[end:stop].strip(" \t"):
            return end, False
        return stop, stop < len(self.text)

    # -- values -------------------------------------------------------------------------------

    def _props(self, node: Node, value: Any, anchor: str | None) -> str:
        """The custom tag a replaced node keeps (a standard ``!!`` tag would fight the new
        value's own type), and the anchor the new value gets."""
        props = []
        tag = None if isinstance(node, Alias) else node.tag
        if tag and not tag.startswith(STANDARD_TAG):
            kind_kept = (
                (isinstance(node, Scalar) and not isinstance(value, dict | list))
                or (isinstance(node, Mapping) and isinstance(value, dict))
                or (isinstance(node, Sequence) and isinstance(value, list))
            )
            if kind_kept:
                props.append(tag if tag.startswith("!") else f"!<{tag}>")
        if anchor:
            props.append("&" + anchor)
        return " ".join(props)

    def replace(
        self,
        node: Node,
        value: Any,
        parent: Mapping | Sequence | None,
        entry: Entry | None = None,
        anchor: str | None = None,
    ) -> list[Splice] | None:
        text, layout = self.text, self.layout
        props = self._props(node, value, anchor)
        style = node.style if isinstance(node, Scalar) else None
        if parent is not None and parent.flow:
            rendered = yaml_flow(value, layout)
            return [Splice(node.start, node.end, (props + " " if props else "") + rendered)]
        end, block_ok = self._value_end(node)
        if isinstance(parent, Mapping):
            if entry is None or entry.colon is None:
                return None
            key_column = column(text, entry.key_start)
            after = yaml_after_key(value, layout, key_column, style=style, block_ok=block_ok)
            old_block = isinstance(node, Mapping | Sequence) and not node.flow
            if is_block(value) or old_block or node.start == node.end:
                if props:
                    after = " " + props + after
                return [Splice(entry.colon, end, self._nl(after))]
            # A scalar for a scalar: the spacing after the colon stays as it was.
            return [Splice(node.start, end, self._nl((props + " " if props else "") + after[1:]))]
        if isinstance(parent, Sequence):
            start = node.start
            lead = " " if start > 0 and text[start - 1] == "-" else ""
            indent = column(text, start) + len(lead)
            if props and is_block(value):
                rendered = props + "\n" + yaml_block(value, layout, indent)
            else:
                rendered = (props + " " if props else "") + yaml_in_item(
                    value, layout, indent, style=style, block_ok=block_ok
                )
            return [Splice(start, end, self._nl(lead + rendered))]
        # The root.
        indent = column(text, node.start)
        if is_block(value):
            rendered = yaml_block(value, layout, indent)[indent:]
            if props:
                rendered = props + "\n" + " " * indent + rendered
        else:
            scalar = (
                yaml_flow(value, layout)
                if isinstance(value, dict | list)
                else yaml_scalar(value, layout, flow=False, indent=len(layout.indent), style=style, block_ok=False)
            )
            rendered = (props + " " if props else "") + scalar
        return [Splice(node.start, end, self._nl(rendered))]

    # -- collections --------------------------------------------------------------------------

    def _key_style(self, node: Mapping) -> str | None:
        styles = {e.key_style for e in node.entries if not e.merge}
        return styles.pop() if len(styles) == 1 and None not in styles else None

    def change_mapping(
        self, node: Mapping, removed: set[int], inserted: list[tuple[int, str, Any]], children: list[Splice]
    ) -> list[Splice] | None:
        key_style = self._key_style(node)
        if node.flow:
            first = node.entries[0]
            colon = self.text[first.key_end : first.value.start]
            if "\n" in colon or "#" in colon or ":" not in colon or not colon.endswith(" "):
                colon = ": "
            members = [Member(e.key_start, e.value.end) for e in node.entries]
            texts = [
                (after, yaml_key(key, self.layout, flow=True, style=key_style) + colon + yaml_flow(value, self.layout))
                for after, key, value in inserted
            ]
            return change_flow(self.text, node, members, removed, texts, children, self.layout.newline, ", ")
        if any(e.colon is None for e in node.entries):
            return None
        key_column = column(self.text, node.entries[0].key_start)
        members = [Member(e.key_start, self.content_end(e.value)) for e in node.entries]

        def render(value: Any, key: str, block_ok: bool) -> str:
            return (
                yaml_key(key, self.layout, flow=False, style=key_style)
                + ":"
                + yaml_after_key(value, self.layout, key_column, block_ok=block_ok)
            )

        texts = [(after, key, value) for after, key, value in inserted]
        return self._block(members, key_column, removed, texts, children, render)

    def change_sequence(
        self, node: Sequence, removed: set[int], inserted: list[tuple[int, Any]], children: list[Splice]
    ) -> list[Splice] | None:
        if node.flow:
            members = [Member(item.start, item.end) for item in node.items]
            texts = [(after, yaml_flow(value, self.layout)) for after, value in inserted]
            return change_flow(self.text, node, members, removed, texts, children, self.layout.newline, ", ")
        dashes = [indicator_before(self.text, item.start, "-", across_lines=True) for item in node.items]
        if any(d is None for d in dashes):
            return None
        members = [Member(d, self.content_end(item)) for d, item in zip(dashes, node.items, strict=True)]  # type: ignore[arg-type]
        dash_column = column(self.text, members[0].start)

        def render(value: Any, _: Any, block_ok: bool) -> str:
            return "- " + yaml_in_item(value, self.layout, dash_column + 2, block_ok=block_ok)

        texts = [(after, None, value) for after, value in inserted]
        return self._block(members, dash_column, removed, texts, children, render)

    def _block(
        self,
        members: list[Member],
        indent: int,
        removed: set[int],
        inserted: list[tuple[int, Any, Any]],
        children: list[Splice],
        render: Any,
    ) -> list[Splice] | None:
        text, newline = self.text, self.layout.newline
        if len(removed) == len(members) and not inserted:
            return None  # nothing left: the collection becomes {} or []
        pad = " " * indent
        splices = list(children)
        if 0 in removed and not first_on_line(text, members[0].start):
            # The first entry shares its line with a "- ": the first kept entry moves up to it.
            kept = next((i for i in range(len(members)) if i not in removed), None)
            if kept is None or any(after < kept for after, _, _ in inserted):
                return None
            splices.append(Splice(members[0].start, members[kept].start, ""))
            removed = {i for i in removed if i > kept}
        for index in sorted(removed):
            member = members[index]
            if not first_on_line(text, member.start):
                return None
            start, end = line_start(text, member.start), next_line(text, member.end)
            if end == len(text) and not text.endswith("\n") and start > 0:
                start -= 2 if text.endswith("\r\n", 0, start) else 1  # keep the file's missing final newline
            splices.append(Splice(start, end, ""))
        for after, key, value in inserted:
            if after < 0:
                if not first_on_line(text, members[0].start):
                    return None
                at = line_start(text, members[0].start)
                splices.append(Splice(at, at, self._nl(pad + render(value, key, True)) + newline))
                continue
            at = next_line(text, members[after].end)
            if at == len(text) and not text.endswith("\n"):
                splices.append(Splice(at, at, newline + self._nl(pad + render(value, key, False))))
            else:
                splices.append(Splice(at, at, self._nl(pad + render(value, key, True)) + newline))
        return splices
