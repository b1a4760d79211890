"""YAML text to a tree of nodes with their positions (``nodes``), read as YAML 1.2.

The events (each node's position, style, anchor and tag) come from libyaml through PyYAML's C
binding, about twenty-five times faster than a pure-Python parser; ruamel.yaml's pure parser
reads what libyaml cannot (a text libyaml refuses, or one holding the line breaks that only YAML
1.1 knows: U+0085, U+2028, U+2029), and PyYAML without libyaml. This module resolves scalars and
builds the tree. What the data looks like, for a JSON Schema form:

- YAML 1.2 unless the document says ``%YAML 1.1`` or the reader asks for 1.1 (``version``):
  under 1.2 ``on``, ``yes`` and ``no`` are strings, so a GitHub workflow keeps its ``on:`` key;
  under 1.1 plain scalars resolve as PyYAML resolves them (the reader of Ansible and most
  Python tools): ``yes``/``no``/``on``/``off`` are booleans, ``0644`` is octal, ``1:30`` is 90.
- Mapping keys are strings: a key that YAML reads as another type (``200:``, ``true:``) is its
  text as written. A key that is a collection is refused. A key written twice in one mapping
  counts as its last occurrence, in the place of its first (``nodes.effective``;
  ``nodes.duplicate_keys`` lists them, for the reader to say so).
- Timestamps stay their text (JSON has no date type; a ``format: date`` field checks the text).
- Tags are kept in the file, not in the data: ``!Ref x`` is the string ``x``; the standard
  ``!!str``, ``!!int``, ``!!float``, ``!!bool`` and ``!!null`` convert as they say.
- ``<<`` merge keys merge (as YAML 1.1 defined and Compose and GitLab use them); aliases are
  copies of their anchor's value, counted against a budget (an alias bomb is refused).
- A stream of several documents (``---``) is read whole; ``YamlStream.select`` picks one.
"""

from __future__ import annotations

import io
from typing import Any, NamedTuple

from ..collector import collector_paused
from ..errors import InputError
from .layout import indicator_before
from .nodes import MAX_DEPTH, MAX_VALUES, Alias, Entry, Mapping, Node, Scalar, Sequence, effective

CORE = "tag:yaml.org,2002:"
_MISSING = object()
# Line breaks in YAML 1.1 only: libyaml would break lines there where YAML 1.2 does not.
_OLD_BREAKS = ("\x85", "\u2028", "\u2029")


class YamlDocument(NamedTuple):
    """One document of a stream: its tree (None: no content), the part of the text that is
    its own (from the end of the previous document to its own end: the documents of a stream
    cover it without gaps), and ``tail``, where content added to an empty document goes (its
    ``...`` or the next ``---``)."""

    root: Node | None
    start: int
    end: int
    tail: int


class YamlStream(NamedTuple):
    documents: list[YamlDocument]
    aliased: bool = False  # some value is read in several places (an alias, a << merge)
    libyaml: bool = False  # read by libyaml (not by the pure-Python parser)

    def select(self, document: int | None, what: str) -> YamlDocument:
        """Document ``document`` (counted from 0); None: the one document with content (an empty
        one, as after a trailing ``---``, does not count)."""
        index = choose([doc.root is not None for doc in self.documents], document, what)
        return self.documents[index] if index is not None else YamlDocument(None, 0, 0, 0)


def choose(contents: list[bool], document: int | None, what: str) -> int | None:
    """The index of document ``document`` of a stream whose documents have content or not
    (``contents``); see ``YamlStream.select``. None for a stream of no document."""
    if document is not None:
        if not 0 <= document < len(contents):
            raise InputError(
                f"{what} has {_count(len(contents))}, so there is no document {document + 1}; "
                f"give a number from 1 to {len(contents)}.",
                code="noDocument",
            )
        return document
    full = [index for index, content in enumerate(contents) if content]
    if len(full) > 1:
        raise InputError(
            f"{what} holds {len(full)} YAML documents (separated by ---); a form edits one: "
            f"choose it with --document N (1 to {len(contents)}), the others are kept as they are.",
            code="severalDocuments",
        )
    return full[0] if full else (0 if contents else None)


class PlainDocument(NamedTuple):
    """A document's data and span, read without a tree (``read_plain``)."""

    data: Any
    content: bool
    start: int
    end: int


def read_plain(text: str, what: str, *, version: tuple[int, int] | None = None) -> list[PlainDocument] | None:
    """Every document's data straight from libyaml's events, without the tree: about twice as
    fast as ``parse_stream``, for reading and for checking what a save wrote. None when this
    way cannot read the text as ``parse_stream`` does: an alias or a ``<<`` merge (shared
    values), a key written twice (its lines are wanted), or what only ruamel.yaml reads."""
    fast = _libyaml_parser()
    if fast is None or any(mark in text for mark in _OLD_BREAKS):
        return None
    import yaml

    try:
        with collector_paused():
            return _PlainReader(text, what, version).read(iter(fast(text).get_event, None))
    except (yaml.YAMLError, _NotPlain):
        return None
    except RecursionError:
        raise InputError(f"{what} nests too deeply to read.") from None


# Kinds of events, by the name of their class (libyaml's and ruamel.yaml's have the same names).
_SCALAR, _START, _END, _ALIAS, _DOCUMENT_START, _DOCUMENT_END, _OTHER = range(7)
_EVENT_KINDS = {
    "ScalarEvent": _SCALAR,
    "MappingStartEvent": _START,
    "SequenceStartEvent": _START,
    "MappingEndEvent": _END,
    "SequenceEndEvent": _END,
    "AliasEvent": _ALIAS,
    "DocumentStartEvent": _DOCUMENT_START,
    "DocumentEndEvent": _DOCUMENT_END,
}


class _NotPlain(Exception):
    pass


def _count(documents: int) -> str:
    return "1 YAML document" if documents == 1 else f"{documents} YAML documents"


def parse_yaml(
    text: str, what: str = "the document", *, version: tuple[int, int] | None = None, document: int | None = None
) -> Node | None:
    """The tree of the file's document (None when it has no content: empty, or comments); see
    ``YamlStream.select`` for ``document``."""
    return parse_stream(text, what, version=version).select(document, what).root


def parse_stream(text: str, what: str = "the document", *, version: tuple[int, int] | None = None) -> YamlStream:
    """Every document of ``text``. ``version``: how to read documents that do not declare
    their version (YAML 1.2 when None)."""
    try:
        stream = parse_with_libyaml(text, version, what)
    except RecursionError:
        raise InputError(f"{what} nests too deeply to read.") from None
    if stream is not None:
        return stream
    # libyaml is a YAML 1.1 parser: let the YAML 1.2 one read it, or say what is wrong.
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        with collector_paused():
            return _Builder(text, what, version).build(YAML(typ="safe", pure=True).parse(io.StringIO(text)))
    except YAMLError as exc:
        raise InputError(f"{what} is not valid YAML{_where(exc)}: {_problem(exc)}.") from None
    except RecursionError:
        raise InputError(f"{what} nests too deeply to read.") from None


def parse_with_libyaml(text: str, version: tuple[int, int] | None, what: str = "the document") -> YamlStream | None:
    """``parse_stream`` by libyaml alone: None when libyaml is missing or does not read the
    text (an ``InputError`` still says what is wrong with what it read)."""
    fast = _libyaml_parser()
    if fast is None or any(mark in text for mark in _OLD_BREAKS):
        return None
    import yaml

    try:
        with collector_paused():
            return _Builder(text, what, version).build(iter(fast(text).get_event, None))._replace(libyaml=True)
    except yaml.YAMLError:
        return None


def _libyaml_parser() -> Any:
    try:
        from yaml import CSafeLoader
    except ImportError:  # PyYAML built without libyaml
        return None
    return CSafeLoader


class _Builder:
    def __init__(self, text: str, what: str, version: tuple[int, int] | None) -> None:
        self.text, self.what = text, what
        self.default_version = version or (1, 2)
        self.anchors: dict[str, Node] = {}
        self.aliased = False  # an alias or a << merge seen: values are shared between places
        self.resolver: Any = None
        # First characters of the plain scalars that may resolve to something else than a string.
        self.special: frozenset[str] = frozenset()
        self.version: tuple[int, int] = (1, 2)
        self.plain: dict[str, Any] = {}  # plain scalar text -> value, for this document's version

    def fail(self, message: str, pos: int) -> InputError:
        return InputError(f"{self.what} {message} ({self.where(pos)}).")

    def where(self, pos: int) -> str:
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return f"line {line}, column {column}"

    def build(self, events: Any) -> YamlStream:
        documents: list[YamlDocument] = []
        root: Node | None = None
        text = self.text
        explicit_keys = "?" in text  # no "? key" anywhere: no need to look for one
        # Nodes built: a text of millions of tiny values ("[], [], ...") is refused before it
        # costs gigabytes (aliases are counted when the data is built: nodes.Budget).
        left = MAX_VALUES
        kinds: dict[type, int] = {}
        # Open collections (see below). A collection's data (``decoded``) is filled as its
        # members come.
        stack: list[list[Any]] = []
        plain, special = self.plain, self.special
        members_of = _Members(text, explicit_keys)
        for event in events:
            cls = type(event)
            kind = kinds.get(cls)
            if kind is None:
                kind = kinds[cls] = _EVENT_KINDS.get(cls.__name__, _OTHER)
            if kind == _SCALAR:
                source = event.value
                member: Any = None
                if event.style or event.anchor or event.tag is not None or not event.implicit[0]:
                    node: Node = self.scalar(event)
                else:
                    # A plain scalar without properties, the common case: a string when no
                    # implicit tag starts with its first character; otherwise resolved once per
                    # spelling and document (keys, booleans and nulls repeat).
                    if source[:1] not in special:
                        value = source
                    else:
                        value = plain.get(source, _MISSING)
                        if value is _MISSING:
                            value = plain[source] = self.convert(self.resolver(source), source, event)
                    # Kept as (start, end, source, value) until its collection's members are
                    # asked for (see _BuiltMapping).
                    member = (event.start_mark.index, event.end_mark.index, source, value)
                if member is None:
                    data: Any = node.value
                else:
                    node, data = member, member[3]
            elif kind == _START:
                if len(stack) >= MAX_DEPTH:
                    raise self.fail(f"nests deeper than {MAX_DEPTH} levels", event.start_mark.index)
                flow = bool(event.flow_style)
                begin = event.start_mark.index
                if cls.__name__[0] == "M":
                    container: Mapping | Sequence = _BuiltMapping(begin, flow, members_of)
                    container.decoded = {}
                else:
                    container = _BuiltSequence(begin, flow, members_of)
                    container.decoded = []
                if flow:
                    container.open = event.end_mark.index - 1
                container.anchor, container.tag = event.anchor, _tag(event.tag)
                if event.anchor:
                    self.anchors[event.anchor] = container
                # [collection, the key read and not yet given its value and its node (mappings),
                # where members go (None once a mapping's entries are built), its data, whether
                # it is a sequence]
                stack.append([container, None, None, container.raw, container.decoded, cls.__name__[0] == "S"])
                continue
            elif kind == _END:
                container = stack.pop()[0]
                if container.flow:
                    container.close, container.end = event.start_mark.index, event.end_mark.index
                else:
                    container.end = event.start_mark.index
                if isinstance(container, Mapping) and container.merges:
                    container.decoded = {key: _decoded(value) for key, (value, _) in effective(container).items()}
                node = container
                data = container.decoded
            elif kind == _ALIAS:
                target = self.anchors.get(event.anchor)
                if target is None:
                    raise self.fail(
                        f"uses the alias *{event.anchor} before any &{event.anchor} defines it", event.start_mark.index
                    )
                node = Alias(event.start_mark.index, event.end_mark.index, event.anchor, target)
                # An alias inside its own anchor's value has no data yet (the tree's readers
                # refuse the endless value it makes).
                data = None if any(target is open_[0] for open_ in stack) else _decoded(node)
                self.aliased = True
            elif kind == _DOCUMENT_START:
                root = None
                self.version = tuple(event.version) if event.version else self.default_version  # type: ignore[assignment]
                self.start_document()
                plain, special = self.plain, self.special
                continue
            elif kind == _DOCUMENT_END:
                start = documents[-1].end if documents else 0
                root = None if root is None else _node(root)
                content = None if root is None or _is_empty(root) else root
                documents.append(YamlDocument(content, start, event.end_mark.index, event.start_mark.index))
                self.anchors.clear()  # an alias refers to an anchor of its own document
                continue
            else:
                continue
            left -= 1
            if left < 0:
                raise _too_many(self.what)
            if not stack:
                root = node
                continue
            top = stack[-1]
            if top[5]:  # a sequence
                top[3].append(node)
                top[4].append(data)
            elif top[1] is None:
                if type(node) is tuple:
                    # A key: its text when YAML reads it as another type (200:, true:).
                    top[1], top[2] = data if isinstance(data, str) else node[2], node
                else:
                    top[1], top[2] = self.key(top[0], node)
            else:
                key_text, raw = top[1], top[3]
                if raw is not None and (key_text != "<<" or not _is_plain(top[2])):
                    raw.append((key_text, top[2], node))
                    top[4][key_text] = data  # a key written twice: the last value, in the place of the first
                else:
                    self.add_entry(top, node, data, explicit_keys)
                top[1] = None
        if documents:  # what follows the last document (comments) is its own
            documents[-1] = documents[-1]._replace(end=len(text))
        return YamlStream(documents, self.aliased)

    def start_document(self) -> None:
        tags = _tag_table(self.version)
        self.resolver, self.special, self.plain = tags.resolve, tags.special, {}

    def plain_value(self, event: Any) -> Any:
        """The value of a plain scalar without anchor or tag (the common case; keys repeat, so
        each spelling is read once); _MISSING for any other scalar."""
        if event.style or not event.implicit[0] or event.anchor or event.tag is not None:
            return _MISSING
        text = event.value
        if text[:1] not in self.special:
            return text
        found = self.plain.get(text, _MISSING)
        if found is _MISSING:
            found = self.plain[text] = self.convert(self.resolver(text), text, event)
        return found

    def scalar(self, event: Any) -> Scalar:
        style = event.style or None  # libyaml says "" for a plain scalar, ruamel.yaml None
        node = Scalar(event.start_mark.index, event.end_mark.index, None, style)
        text = node.source = event.value
        value = self.plain_value(event)
        if value is not _MISSING:
            node.value = value
            return node
        node.anchor, node.tag = event.anchor, _tag(event.tag)
        if event.anchor:
            self.anchors[event.anchor] = node
        if style is None and event.implicit[0]:
            tag = self.resolver(text)
        elif node.tag and node.tag.startswith(CORE):
            tag = node.tag
        else:
            tag = CORE + "str"
        node.value = self.convert(tag, text, event)
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

    def add_entry(self, top: list[Any], value: Any, data: Any, explicit_keys: bool) -> None:
        """A mapping's entry made at once: a ``<<`` merge changes what the mapping reads, so
        its entries are made now, and the ones after it as they come."""
        mapping: Mapping = top[0]
        entries = mapping.entries
        top[3] = None
        entry = _entry(self.text, top[1], _node(top[2]), _node(value), mapping, explicit_keys)
        entries.append(entry)
        if entry.merge:
            mapping.merges.extend(self.merge_sources(entry.value))
            self.aliased = True
        if not mapping.merges:
            top[4][top[1]] = data

    def merge_sources(self, value: Node) -> list[Mapping]:
        candidates = value.items if isinstance(value, Sequence) else [value]
        sources = []
        for candidate in candidates:
            target = candidate.target if isinstance(candidate, Alias) else candidate
            if not isinstance(target, Mapping):
                raise self.fail("merges (<<) something that is not a mapping", candidate.start)
            sources.append(target)
        return sources


class _PlainReader:
    """``read_plain``'s reader: the builder's reading of scalars and keys, without nodes."""

    def __init__(self, text: str, what: str, version: tuple[int, int] | None) -> None:
        self.builder = _Builder(text, what, version)

    def read(self, events: Any) -> list[PlainDocument]:
        builder = self.builder
        documents: list[PlainDocument] = []
        left = MAX_VALUES
        kinds: dict[type, int] = {}
        stack: list[list[Any]] = []  # [container, key waiting for its value (or _MISSING)]
        root: Any = None
        content, start = False, 0
        plain, special = builder.plain, builder.special
        for event in events:
            cls = type(event)
            kind = kinds.get(cls)
            if kind is None:
                kind = kinds[cls] = _EVENT_KINDS.get(cls.__name__, _OTHER)
            if kind == _SCALAR:
                value: Any = event.value
                if event.style or event.anchor or event.tag is not None or not event.implicit[0]:
                    value = builder.scalar(event).value
                elif value[:1] in special:  # (as in _Builder.build)
                    found = plain.get(value, _MISSING)
                    if found is _MISSING:
                        found = plain[value] = builder.convert(builder.resolver(value), value, event)
                    value = found
                if not stack:
                    content = bool(event.value or event.style or event.anchor) or event.tag is not None
                elif isinstance(stack[-1][0], dict) and stack[-1][1] is _MISSING:
                    # A key: its text when YAML reads it as another type (200:, true:).
                    if event.value == "<<" and not event.style:
                        raise _NotPlain
                    stack[-1][1] = value if isinstance(value, str) else event.value
                    continue
            elif kind == _START:
                if len(stack) >= MAX_DEPTH:
                    raise builder.fail(f"nests deeper than {MAX_DEPTH} levels", event.start_mark.index)
                stack.append([{} if cls.__name__[0] == "M" else [], _MISSING])
                continue
            elif kind == _END:
                value = stack.pop()[0]
                content = content or not stack
            elif kind == _ALIAS:
                raise _NotPlain
            elif kind == _DOCUMENT_START:
                root, content, start = None, False, (documents[-1].end if documents else 0)
                builder.version = tuple(event.version) if event.version else builder.default_version  # type: ignore[assignment]
                builder.start_document()
                plain, special = builder.plain, builder.special
                continue
            elif kind == _DOCUMENT_END:
                documents.append(PlainDocument(root if content else None, content, start, event.end_mark.index))
                continue
            else:
                continue
            left -= 1
            if left < 0:
                raise _too_many(builder.what)
            if not stack:
                root = value
                continue
            top = stack[-1]
            container = top[0]
            if isinstance(container, list):
                container.append(value)
            elif top[1] is _MISSING or top[1] in container:
                raise _NotPlain  # a key that is a list or a mapping, or a key written twice
            else:
                container[top[1]] = value
                top[1] = _MISSING
        if documents:
            documents[-1] = documents[-1]._replace(end=len(builder.text))
        return documents


class _Members:
    """How a built collection's members become nodes when they are first asked for: a large
    file's save looks at the members of the few collections on the way to its changes only, and
    a plain scalar kept as a tuple costs a fifth of a node."""

    __slots__ = ("explicit_keys", "text")

    def __init__(self, text: str, explicit_keys: bool) -> None:
        self.text, self.explicit_keys = text, explicit_keys

    def entries(self, mapping: Mapping, raw: list[tuple[str, Any, Any]]) -> list[Entry]:
        text, explicit = self.text, self.explicit_keys
        return [_entry(text, key_text, _node(key), _node(value), mapping, explicit) for key_text, key, value in raw]

    def items(self, sequence: Sequence, raw: list[Any]) -> list[Node]:
        items: list[Node] = []
        for member in raw:
            node = _node(member)
            if not sequence.flow and _is_empty(node):
                # Placed where its text would go: just after its dash, the first one after the
                # previous item.
                dash = _dash_after(self.text, items[-1].end if items else sequence.start)
                if dash is not None:
                    node.start = node.end = dash + 1  # type: ignore[union-attr]
            items.append(node)
        return items


def _made_when_asked(name: str) -> Any:
    """A built collection's ``entries`` or ``items``: made from its ``raw`` members by
    ``_Members`` when first asked for (``raw`` is None once they are). Set, it takes the value
    given, except the empty list the base class starts with."""
    made = "_" + name

    def get(node: Any) -> Any:
        members = getattr(node, made)
        if members is None:
            members = getattr(node.members, name)(node, node.raw or [])
            setattr(node, made, members)
            node.raw = None
        return members

    def put(node: Any, value: Any) -> None:
        if value:
            setattr(node, made, value)
            node.raw = None

    return property(get, put)


class _BuiltMapping(Mapping):
    """A mapping whose entries are made from ``raw`` (key text, key, value; a plain scalar as a
    tuple) when first asked for."""

    __slots__ = ("_entries", "members", "raw")
    entries = _made_when_asked("entries")

    def __init__(self, start: int, flow: bool, members: _Members) -> None:
        self._entries: list[Entry] | None = None
        self.raw: list[tuple[str, Any, Any]] | None = []
        self.members = members
        super().__init__(start, flow)


class _BuiltSequence(Sequence):
    """A sequence whose items are made from ``raw`` (a plain scalar as a tuple) when first asked
    for."""

    __slots__ = ("_items", "members", "raw")
    items = _made_when_asked("items")

    def __init__(self, start: int, flow: bool, members: _Members) -> None:
        self._items: list[Node] | None = None
        self.raw: list[Any] | None = []
        self.members = members
        super().__init__(start, flow)


def _node(member: Any) -> Node:
    """A member of a built collection as a node (a plain scalar kept as a tuple made one)."""
    if type(member) is tuple:
        start, end, source, value = member
        return Scalar(start, end, value, None, source)
    return member


def _is_plain(member: Any) -> bool:
    return type(member) is tuple or (isinstance(member, Scalar) and member.style is None)


def _entry(text: str, key_text: str, key: Node, value: Node, mapping: Mapping, explicit_keys: bool) -> Entry:
    """The entry of ``key: value`` in ``mapping``, with its colon placed, an explicit key's
    ``?`` found, an empty value placed at its colon, and a ``<<`` marked."""
    entry = Entry(key_text, key.start, key.end, value, getattr(key, "style", None))
    end = key.end
    entry.colon = end + 1 if text[end : end + 1] == ":" else _colon_after(text, end)
    if explicit_keys:
        # "? key": the entry starts at its "?" (in {...} too, where a writer folding a long line
        # makes one, possibly on the line before, so that removing the entry before it keeps the
        # indicator).
        explicit = indicator_before(text, key.start, "?", across_lines=mapping.flow)
        if explicit is not None:
            entry.key_start = explicit
    if entry.colon is not None and _is_empty(value):
        value.start = value.end = entry.colon  # type: ignore[union-attr]
    entry.merge = key_text == "<<" and isinstance(key, Scalar) and key.style is None
    return entry


def _too_many(what: str) -> InputError:
    return InputError(f"{what} holds more than {MAX_VALUES:,} values; a form cannot hold it.", code="tooLarge")


def _tag_table(version: tuple[int, int]) -> _TagTable:
    """The tag of a plain scalar's text: YAML 1.2's core schema as ruamel.yaml resolves it, or
    for 1.1 as PyYAML resolves it (``y`` and ``n`` stay strings, an exponent needs a dot)."""
    if version == (1, 1):
        from yaml.resolver import Resolver

        table = Resolver.yaml_implicit_resolvers
    else:
        from ruamel.yaml.resolver import VersionedResolver

        table = VersionedResolver(version=version).versioned_resolver
    return _TagTable(table)


class _EveryCharacter(frozenset):
    def __contains__(self, item: object) -> bool:
        return True


_EVERY_CHARACTER = _EveryCharacter()


class _TagTable:
    """A library's table of implicit tags (first character -> (tag, pattern) pairs), matched
    directly: the libraries' own ``resolve`` costs ten times more per scalar."""

    def __init__(self, table: dict[Any, list[tuple[Any, Any]]]) -> None:
        self.table = table
        self.by_first: dict[str, list[tuple[str, Any]]] = {}
        # A text whose first character is not among these resolves to a string without a match
        # (the empty text is: it may be a null). A pattern for any first character (key None)
        # would make every one special.
        first = [key for key, pairs in table.items() if pairs]
        self.special = frozenset(first) if None not in first else _EVERY_CHARACTER

    def resolve(self, text: str) -> str:
        first = text[:1]
        matchers = self.by_first.get(first)
        if matchers is None:
            pairs = [*self.table.get(first, []), *self.table.get(None, [])]
            # getattr reaches through ruamel.yaml's lazily compiled patterns to the real ones.
            matchers = self.by_first[first] = [(str(tag), getattr(pattern, "match")) for tag, pattern in pairs]  # noqa: B009
        for tag, match in matchers:
            if match(text):
                return tag if tag.startswith("tag:") else CORE + tag
        return CORE + "str"


def _decoded(node: Node) -> Any:
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Alias):
        node = node.target
        return node.value if isinstance(node, Scalar) else node.decoded  # type: ignore[union-attr]
    return node.decoded


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
