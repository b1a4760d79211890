"""YAML documents: data built from the node tree libyaml composes, with the text offset of each key
and item kept for positions.

libyaml (PyYAML's C parser) composes the node tree, which keeps a mark on every node; the data is
built from it in one pass, which also keeps the offset of every key and item (a list of ints per
container, about 0.1 s for GitHub's 10 MB description), so that a finding's line and column are
found without composing the text again (0.6 s there). The cyclic garbage collector is
paused while the tree and the data are built: they are hundreds of thousands of fresh objects
without cycles, and a collection pass every few hundred allocations over all of them cost more
than building them (3 MB of YAML: 1.2 s with collections, 0.45 s without).

Differences from ``yaml.safe_load`` that matter for OpenAPI: mapping keys are always strings
(``200:`` is the response code ``"200"``), and timestamps stay strings (a date in an example is
text in JSON too). Aliases are shared, not copied; a document whose aliases would expand past
``max_nodes`` nodes, or that contains itself, is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ... import jsonpointer
from ...collector import collector_paused
from ...errors import InputError
from .positions import LineIndex, PositionIndex, Span

_STR = "tag:yaml.org,2002:str"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"


def load_yaml(text: str, location: str, *, max_nodes: int) -> tuple[Any, YamlPositions, int]:
    """The data of ``text``, its positions and how many values it holds (aliases counted each
    time they are reached); more than ``max_nodes`` is refused."""
    with collector_paused():
        node, merges, count = _compose(text, location, max_nodes=max_nodes)
        builder = _Builder(location, merges=merges)
        data = builder.build(node)
        offsets = builder.offsets
        if builder.shared:
            count = _check_expansion(node, location, max_nodes)
        # The tree goes now, while the collector is paused: it is most of the objects made, and
        # kept alive it would be walked by every collection the check triggers later.
        del node, builder
    return data, YamlPositions(text, data, offsets), count


def _compose(text: str, location: str, *, max_nodes: int) -> tuple[Any, bool, int]:
    """The node tree of ``text``, whether it may hold merge keys, and how many nodes it has.
    Composing stops at ``max_nodes`` nodes: the tree costs about 350 bytes a node, so a document
    of tiny values ("0," is two bytes) is refused before it is built."""
    import yaml

    loader = _loader_class()(text)
    budget = iter(range(max_nodes))
    # The composer calls ascend_resolver once per node it makes (aliases make none): the
    # iterator's own __next__ counts them at C speed and raises StopIteration past the budget.
    loader.ascend_resolver = budget.__next__
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _error(f"{location} is not valid YAML: {_describe(exc)}", exc) from None
    except StopIteration:
        raise _too_many_nodes(location, max_nodes) from None
    finally:
        loader.dispose()
    if node is None:
        raise InputError(f"{location} is empty.")
    return node, loader.merges, max_nodes - budget.__length_hint__()


class YamlPositions(PositionIndex):
    """Where a pointer sits in a YAML document: a member at its key, an item at its first
    character (1-based line and column), through to the end of that token on its line; a
    pointer that leads nowhere gets its nearest ancestor's place, as in JSON. The builder kept
    the text offset of every key and item (``offsets``: a list per container, in the container's
    order, or a dict by key for a mapping whose keys repeat); a pointer is followed through the
    data to the offset of its last step, without composing the text again."""

    def __init__(self, text: str, data: Any, offsets: dict[int, Any]) -> None:
        super().__init__()
        self._source_text = text
        self._data = data
        self._offsets = offsets
        self._keys: dict[int, dict[str, int]] = {}  # a mapping's keys by position, built when first asked
        self._found: dict[str, Span] = {}

    def prepare(self, pointers: Iterable[str]) -> None:
        """Nothing to prepare: every position was recorded when the data was built."""

    def span(self, pointer: str) -> Span | None:
        if pointer not in self._found:
            self._found[pointer] = self._span(pointer)
        return self._found[pointer]

    def _span(self, pointer: str) -> Span:
        node, offset = self._data, _first_token(self._source_text)
        try:
            tokens = jsonpointer.split(pointer)
        except jsonpointer.PointerError:
            tokens = []
        for token in tokens:
            offsets = self._offsets.get(id(node))
            if offsets is None:
                break
            if isinstance(node, dict) and token in node:
                if isinstance(offsets, dict):
                    offset = offsets[token]
                else:
                    keys = self._keys.get(id(node))
                    if keys is None:
                        keys = self._keys[id(node)] = {key: index for index, key in enumerate(node)}
                    offset = offsets[keys[token]]
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                offset = offsets[int(token)]
                node = node[int(token)]
            else:
                break
        if self._lines is None:
            self._lines = LineIndex(self._source_text)
        token = _YAML_TOKEN.match(self._source_text, offset)
        end = offset + max(len(token.group().rstrip()), 1) - 1 if token else offset
        return (*self._lines.position(offset), *self._lines.position(end))


# The token at a key or an item: a quoted scalar, or plain text up to where a key, a flow
# collection, a comment or the line ends.
_YAML_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"' r"|'(?:[^'\n]|'')*'" r"|[^\s#,\[\]{}][^\n,\[\]{}#]*?(?=:\s|:$|\s#|[,\]}]|$)",
    re.M,
)


def _first_token(text: str) -> int:
    """The offset of the document's first content (past comments, directives and ``---``)."""
    match = re.search(r"^(?!#|%|---[ \t]*$)\S", text, re.M)
    return match.start() if match else 0


class _Builder:
    """The data of a node tree, built without recursion (nesting depth is the document's)."""

    def __init__(self, location: str, *, merges: bool = True) -> None:
        from yaml.constructor import SafeConstructor

        self.location = location
        self.merges = merges  # the text may have merge keys (<<) to apply
        self.constructor = SafeConstructor()
        self.built: dict[int, Any] = {}
        self.pending: list[tuple[Any, Any]] = []  # (node, its container) still to fill
        self.shared = False  # an alias was met: the expansion must be measured
        # id(container) -> the text offset of each key or item, in the container's order (a dict
        # by key for a mapping whose keys repeat or merge): positions without composing again.
        self.offsets: dict[int, Any] = {}

    def build(self, root: Any) -> Any:
        import yaml

        value = self.value(root)
        while self.pending:
            node, target = self.pending.pop()
            if node.id == "mapping":
                if self.merges:
                    try:
                        self.constructor.flatten_mapping(node)  # merge keys (<<)
                    except yaml.YAMLError as exc:
                        message = f"{self.location} has a merge key YAML cannot apply: {_describe(exc)}"
                        raise _error(message, exc) from None
                # Most keys and values are strings: those skip the calls below (a collection
                # tagged !!str is not, and goes through them to be refused).
                for key_node, value_node in node.value:
                    key = key_node.value if key_node.tag == _STR and key_node.id == "scalar" else _key_text(key_node)
                    target[key] = (
                        value_node.value
                        if value_node.tag == _STR and value_node.id == "scalar"
                        else self.value(value_node)
                    )
                offsets: Any = [key_node.start_mark.index for key_node, _ in node.value]
                if len(offsets) != len(target):  # a repeated key: the last one, as in the data
                    offsets = _by_key(node, offsets)
                self.offsets[id(target)] = offsets
            else:
                target.extend(
                    item.value if item.tag == _STR and item.id == "scalar" else self.value(item) for item in node.value
                )
                self.offsets[id(target)] = [item.start_mark.index for item in node.value]
        return value

    def value(self, node: Any) -> Any:
        """The value of ``node``: a scalar's own, or the (still empty) container it fills."""
        kind = node.id
        if kind == "scalar":
            if node.tag == _STR or node.tag == _TIMESTAMP:
                return node.value
            return self.scalar(node)
        if node.tag == _STR:
            return self.scalar(node)  # refused: a string tag on a collection
        known = self.built.get(id(node))
        if known is not None:
            self.shared = True
            return known[1]
        if kind == "sequence":
            container: Any = []
        elif kind == "mapping":
            container = {}
        else:
            raise InputError(f"{self.location} has a YAML node deskcheck cannot read ({type(node).__name__}).")
        # The node is kept beside its value: ids are only unique while the node lives.
        self.built[id(node)] = (node, container)
        self.pending.append((node, container))
        return container

    def scalar(self, node: Any) -> Any:
        import yaml

        from .unrepresentable import Unrepresentable, check_scalar, too_many_digits

        try:
            value = self.constructor.construct_object(node, deep=True)
            check_scalar(value)
        except yaml.YAMLError as exc:
            raise _error(f"{self.location} has a value YAML cannot read: {_describe(exc)}", exc) from None
        except Unrepresentable as exc:
            raise _at_node(exc, self.location, node) from None
        except ValueError:  # a decimal integer past Python's conversion limit
            raise _at_node(too_many_digits(len(node.value.lstrip("+-"))), self.location, node) from None
        return value


def _by_key(node: Any, offsets: list[int]) -> dict[str, int]:
    """A mapping's key offsets by key, the last of a repeated key winning as in the data."""
    return {_key_text(key_node): offset for (key_node, _), offset in zip(node.value, offsets, strict=True)}


def _check_expansion(root: Any, location: str, max_nodes: int) -> int:
    """Refuse a document whose aliases make it contain itself, or expand past ``max_nodes``
    nodes (the "billion laughs" document), measured on the shared tree in linear time. Returns
    the expanded size."""
    import yaml

    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = node.value if isinstance(node, yaml.SequenceNode) else [v for _, v in node.value]
            sizes[key] = 1 + sum(sizes.get(id(child), 1) for child in children)
            if sizes[key] > max_nodes:
                raise InputError(
                    f"{location} expands to more than {max_nodes} nodes (through YAML aliases); it is refused "
                    "as a precaution."
                )
            continue
        if isinstance(node, yaml.ScalarNode) or key in sizes:
            continue
        if key in on_path:
            raise InputError(
                f"{location} has a YAML alias that contains itself (line {node.start_mark.line + 1}); an OpenAPI "
                "document must be a finite tree."
            )
        on_path.add(key)
        stack.append((node, True))
        children = node.value if isinstance(node, yaml.SequenceNode) else [v for _, v in node.value]
        stack.extend((child, False) for child in children if not isinstance(child, yaml.ScalarNode))
    return sizes.get(id(root), 1)


def _too_many_nodes(location: str, max_nodes: int) -> InputError:
    return InputError(
        f"{location} holds more than {max_nodes:,} values (objects, arrays, strings, numbers); deskcheck refuses "
        "more, so that a crafted document cannot exhaust memory or time.",
        code="tooLarge",
    )


_KEY_CONSTRUCTOR: Any = None


def _constructor() -> Any:
    global _KEY_CONSTRUCTOR
    if _KEY_CONSTRUCTOR is None:
        from yaml.constructor import SafeConstructor

        _KEY_CONSTRUCTOR = SafeConstructor()
    return _KEY_CONSTRUCTOR


def _key_text(node: Any) -> str:
    import yaml

    if not isinstance(node, yaml.ScalarNode):
        raise InputError(
            f"a mapping key at line {node.start_mark.line + 1} is not a plain value; OpenAPI keys are strings."
        )
    if node.tag == _STR or node.tag == _TIMESTAMP:
        return node.value
    try:
        value = _constructor().construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError):  # ValueError: an integer past Python's conversion limit
        return node.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    try:
        return str(value)
    except ValueError:  # a long hexadecimal integer: past Python's conversion limit in decimal
        return node.value


_LOADER: Any = None


def _loader_class() -> Any:
    """libyaml's parser (PyYAML's pure Python one where libyaml is missing) with a resolver that
    remembers the tag of each plain scalar it has seen: an OpenAPI document repeats the same few
    hundred words (``type``, ``string``, ``description``) tens of thousands of times."""
    global _LOADER
    if _LOADER is None:
        import yaml
        from yaml.nodes import ScalarNode

        try:
            from yaml.cyaml import CParser as parser
        except ImportError:  # PyYAML built without libyaml
            parser = None
        base = (parser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver) if parser else (yaml.SafeLoader,)
        tags: dict[str, str] = {}

        class Loader(*base):  # type: ignore[misc]
            merges = parser is None  # without the resolver below, merge keys are not noticed

            def __init__(self, stream: str) -> None:
                if parser is None:
                    yaml.SafeLoader.__init__(self, stream)
                    return
                parser.__init__(self, stream)
                yaml.constructor.SafeConstructor.__init__(self)
                yaml.resolver.Resolver.__init__(self)

            def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
                if kind is ScalarNode and implicit[0]:
                    tag = tags.get(value)
                    if tag is None:
                        tag = super().resolve(kind, value, implicit)
                        if len(tags) < 100_000:
                            tags[value] = tag
                    if tag == _MERGE:
                        self.merges = True
                    return tag
                return super().resolve(kind, value, implicit)

            # Path resolvers are never registered: the parser's two calls per node need not
            # run Python code (C builtins that take the same arguments and do nothing useful).
            if parser is not None and not yaml.resolver.Resolver.yaml_path_resolvers:
                descend_resolver = staticmethod(slice)
                ascend_resolver = staticmethod(tuple)

        _LOADER = Loader
    return _LOADER


def _error(message: str, exc: Exception) -> InputError:
    from .document_error import DocumentError

    mark = getattr(exc, "problem_mark", None)
    if mark is None:
        return DocumentError(message)
    return DocumentError(message, line=mark.line + 1, column=mark.column + 1)


def _at_node(exc: Any, location: str, node: Any) -> InputError:
    """An ``Unrepresentable`` value as the error of the document, at its node."""
    from .document_error import DocumentError

    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    return DocumentError(exc.message(location, line, column), line=line, column=column)


def _describe(exc: Exception) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is not None:
        return f"{problem} at line {mark.line + 1}, column {mark.column + 1}."
    return f"{problem}."
