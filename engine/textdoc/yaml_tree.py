"""YAML text to a tree of nodes with their positions (``nodes``), read as YAML 1.2.

ruamel.yaml parses (its event stream carries each node's position, style, anchor and tag); this
module resolves scalars and builds the tree. What the data looks like, for a JSON Schema form:

- YAML 1.2 unless the file says ``%YAML 1.1``: ``on``, ``yes`` and ``no`` are strings, so a
  GitHub workflow keeps its ``on:`` key.
- Mapping keys are strings: a key that YAML reads as another type (``200:``, ``true:``) is its
  text as written. A key that is a collection is refused; so is a key written twice (YAML 1.2
  forbids it and readers disagree on which one wins).
- Timestamps stay their text (JSON has no date type; a ``format: date`` field checks the text).
- Tags are kept in the file, not in the data: ``!Ref x`` is the string ``x``; the standard
  ``!!str``, ``!!int``, ``!!float``, ``!!bool`` and ``!!null`` convert as they say.
- ``<<`` merge keys merge (as YAML 1.1 defined and Compose and GitLab use them); aliases are
  copies of their anchor's value, counted against a budget (an alias bomb is refused).
- One document per file: a stream of several is refused.
"""

from __future__ import annotations

import io
from typing import Any

from ..errors import InputError
from .layout import indicator_before
from .nodes import MAX_DEPTH, Alias, Entry, Mapping, Node, Scalar, Sequence

CORE = "tag:yaml.org,2002:"


def parse_yaml(text: str, what: str = "the document") -> Node | None:
    """The tree of the file's one document (None when it has no content: empty, or comments)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        return _Builder(text, what).build(YAML(typ="safe", pure=True).parse(io.StringIO(text)))
    except YAMLError as exc:
        raise InputError(f"{what} is not valid YAML{_where(exc)}: {_problem(exc)}.") from None
    except RecursionError:
        raise InputError(f"{what} nests too deeply to read.") from None


class _Builder:
    def __init__(self, text: str, what: str) -> None:
        self.text, self.what = text, what
        self.anchors: dict[str, Node] = {}
        self.keys: dict[int, set[str]] = {}  # the keys of each open mapping, by id
        self.resolver: Any = None
        self.version: tuple[int, int] = (1, 2)

    def fail(self, message: str, pos: int) -> InputError:
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return InputError(f"{self.what} {message} (line {line}, column {column}).")

    def build(self, events: Any) -> Node | None:
        from ruamel.yaml import events as ev
        from ruamel.yaml.resolver import VersionedResolver

        root: Node | None = None
        documents = 0
        # Open collections, with the key read and not yet given its value (mappings).
        stack: list[tuple[Mapping | Sequence, Any]] = []
        for event in events:
            if isinstance(event, ev.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise self.fail(
                        "holds more than one YAML document (separated by ---); a form edits one document, "
                        "so split the file or give one document",
                        event.start_mark.index,
                    )
                self.version = tuple(event.version) if event.version else (1, 2)  # type: ignore[assignment]
                self.resolver = VersionedResolver(version=self.version)
                continue
            if isinstance(event, ev.MappingStartEvent | ev.SequenceStartEvent):
                if len(stack) >= MAX_DEPTH:
                    raise self.fail(f"nests deeper than {MAX_DEPTH} levels", event.start_mark.index)
                flow = bool(event.flow_style)
                start = event.start_mark.index
                container: Mapping | Sequence = (
                    Mapping(start, flow) if isinstance(event, ev.MappingStartEvent) else Sequence(start, flow)
                )
                if flow:
                    container.open = event.end_mark.index - 1
                container.anchor, container.tag = event.anchor, _tag(event.tag)
                if event.anchor:
                    self.anchors[event.anchor] = container
                stack.append((container, None))
                continue
            if isinstance(event, ev.MappingEndEvent | ev.SequenceEndEvent):
                container, _ = stack.pop()
                if container.flow:
                    container.close, container.end = event.start_mark.index, event.end_mark.index
                else:
                    container.end = event.start_mark.index
                node: Node = container
            elif isinstance(event, ev.ScalarEvent):
                node = self.scalar(event)
            elif isinstance(event, ev.AliasEvent):
                target = self.anchors.get(event.anchor)
                if target is None:
                    raise self.fail(
                        f"uses the alias *{event.anchor} before any &{event.anchor} defines it", event.start_mark.index
                    )
                node = Alias(event.start_mark.index, event.end_mark.index, event.anchor, target)
            else:
                continue
            if not stack:
                root = node
                continue
            parent, key = stack[-1]
            if isinstance(parent, Sequence):
                if _is_empty(node) and not parent.flow:
                    # Placed where its text would go: just after its dash, the first one after
                    # the previous item.
                    dash = _dash_after(self.text, parent.items[-1].end if parent.items else parent.start)
                    if dash is not None:
                        node.start = node.end = dash + 1
                parent.items.append(node)
            elif key is None:
                stack[-1] = (parent, self.key(parent, node))
            else:
                self.add_entry(parent, key, node)
                stack[-1] = (parent, None)
        return root

    def scalar(self, event: Any) -> Scalar:
        from ruamel.yaml.nodes import ScalarNode

        node = Scalar(event.start_mark.index, event.end_mark.index, None, event.style)
        node.anchor, node.tag = event.anchor, _tag(event.tag)
        if event.anchor:
            self.anchors[event.anchor] = node
        text = event.value
        if event.style is None and event.implicit[0]:
            tag = str(self.resolver.resolve(ScalarNode, text, (True, False)))
        elif node.tag and node.tag.startswith(CORE):
            tag = node.tag
        else:
            tag = CORE + "str"
        node.value = self.convert(tag, text, event)
        node.source = text
        return node

    def convert(self, tag: str, text: str, event: Any) -> Any:
        kind = tag[len(CORE) :] if tag.startswith(CORE) else "str"
        try:
            if kind == "null":
                return None
            if kind == "bool":
                return text.lower() in ("true", "yes", "on", "y")
            if kind == "int":
                return _int(text, self.version)
            if kind == "float":
                return _float(text, self.version)
        except ValueError:
            raise self.fail(f"has a {kind} that cannot be read: {text[:40]!r}", event.start_mark.index) from None
        return text

    def key(self, mapping: Mapping, node: Node) -> tuple[str, Node]:
        if isinstance(node, Alias) and isinstance(node.target, Scalar):
            return self.key_text(node.target), node
        if not isinstance(node, Scalar):
            raise self.fail(
                "has a mapping key that is a list or a mapping; JSON keys are strings, so a form cannot edit it",
                node.start,
            )
        return self.key_text(node), node

    def key_text(self, node: Scalar) -> str:
        # 200:, true:, 1.0: — the key as written (JSON keys are strings).
        return node.value if isinstance(node.value, str) else node.source

    def add_entry(self, mapping: Mapping, key: tuple[str, Node], value: Node) -> None:
        text, key_node = key
        entry = Entry(text, key_node.start, key_node.end, value, getattr(key_node, "style", None))
        entry.colon = _colon_after(self.text, key_node.end)
        explicit = indicator_before(self.text, key_node.start, "?", across_lines=False)
        if explicit is not None:
            # "? key": the entry starts at its "?" (in {...} too, where a writer folding a long
            # line makes one, so that removing the entry before it keeps the indicator).
            entry.key_start = explicit
        if _is_empty(value) and entry.colon is not None:
            value.start = value.end = entry.colon  # type: ignore[union-attr]
        keys = self.keys.setdefault(id(mapping), set())
        if isinstance(key_node, Scalar) and key_node.style is None and text == "<<":
            entry.merge = True
            mapping.merges.extend(self.merge_sources(value))
        elif text in keys:
            raise self.fail(
                f'has the key "{text}" twice in one mapping; YAML forbids it and readers disagree on which '
                "value counts: remove one",
                key_node.start,
            )
        keys.add(text)
        mapping.entries.append(entry)

    def merge_sources(self, value: Node) -> list[Mapping]:
        candidates = value.items if isinstance(value, Sequence) else [value]
        sources = []
        for candidate in candidates:
            target = candidate.target if isinstance(candidate, Alias) else candidate
            if not isinstance(target, Mapping):
                raise self.fail("merges (<<) something that is not a mapping", candidate.start)
            sources.append(target)
        return sources


def _is_empty(node: Node) -> bool:
    return isinstance(node, Scalar) and node.style is None and node.source == "" and not node.anchor and not node.tag


def _dash_after(text: str, pos: int) -> int | None:
    """The index of the first ``-`` from ``pos`` on, when only blanks and comments come first."""
    pos = _past_blanks(text, pos)
    return pos if pos < len(text) and text[pos] == "-" else None


def _past_blanks(text: str, pos: int) -> int:
    """The first index from ``pos`` on that is not a blank, a line break or in a comment."""
    while pos < len(text):
        if text[pos] in " \t\r\n":
            pos += 1
        elif text[pos] == "#":
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
        else:
            break
    return pos


def _tag(tag: Any) -> str | None:
    return None if tag is None else str(tag)


def _colon_after(text: str, pos: int) -> int | None:
    """Just after the ``:`` that follows a key (on a later line for an explicit ``? key``)."""
    pos = _past_blanks(text, pos)
    return pos + 1 if pos < len(text) and text[pos] == ":" else None


def _int(text: str, version: tuple[int, int]) -> int:
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    if digits[:2] in ("0b", "0B"):
        return sign * int(digits[2:], 2)
    if digits[:2] in ("0x", "0X"):
        return sign * int(digits[2:], 16)
    if digits[:2] in ("0o", "0O"):
        return sign * int(digits[2:], 8)
    if version == (1, 1) and ":" in digits:
        return sign * _sexagesimal(digits, int)
    if version == (1, 1) and len(digits) > 1 and digits.startswith("0"):
        return sign * int(digits, 8)
    return sign * int(digits)


def _float(text: str, version: tuple[int, int]) -> float:
    digits = text.replace("_", "").lower()
    sign = -1.0 if digits.startswith("-") else 1.0
    digits = digits.lstrip("+-")
    if digits == ".inf":
        return sign * float("inf")
    if digits == ".nan":
        return float("nan")
    if version == (1, 1) and ":" in digits:
        return sign * _sexagesimal(digits, float)
    return sign * float(digits)


def _sexagesimal(digits: str, kind: Any) -> Any:
    value = kind(0)
    for part in digits.split(":"):
        value = value * 60 + kind(part)
    return value


def _where(exc: Exception) -> str:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""


def _problem(exc: Exception) -> str:
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return str(problem).rstrip(".")
