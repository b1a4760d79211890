"""YAML documents: data built from PyYAML's node tree, with the position of every node.

Differences from ``yaml.safe_load`` that matter for OpenAPI: mapping keys are always strings
(``200:`` is the response code ``"200"``), and timestamps stay strings (a date in an example is
text in JSON too). Aliases are shared, and the number of nodes an expansion would produce is
capped.
"""

from __future__ import annotations

from typing import Any

from .. import jsonpointer
from ..errors import InputError
from .positions import Position


def load_yaml(text: str, location: str, *, max_nodes: int) -> tuple[Any, dict[str, Position]]:
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _error(f"{location} is not valid YAML: {_describe(exc)}", exc) from None
    finally:
        loader.dispose()
    if node is None:
        raise InputError(f"{location} is empty.")
    builder = _Builder(loader, location, max_nodes)
    data = builder.build(node, "")
    return data, builder.marks


class _Builder:
    def __init__(self, loader: Any, location: str, max_nodes: int) -> None:
        self.loader = loader
        self.location = location
        self.max_nodes = max_nodes
        self.count = 0
        self.marks: dict[str, Position] = {}
        self.built: dict[int, Any] = {}
        self.sizes: dict[int, int] = {}  # nodes an already built collection expands to

    def build(self, node: Any, pointer: str, key_mark: Any = None) -> Any:
        import yaml

        self._count(1)
        mark = key_mark or node.start_mark
        self.marks.setdefault(pointer, (mark.line + 1, mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == "tag:yaml.org,2002:timestamp":
                return node.value
            try:
                return self.loader.construct_object(node, deep=True)
            except yaml.YAMLError as exc:
                raise _error(f"{self.location} has a value YAML cannot read: {_describe(exc)}", exc) from None
        if id(node) in self.built:
            if id(node) not in self.sizes:
                raise InputError(
                    f"{self.location} has a YAML alias that contains itself (line {node.start_mark.line + 1}); "
                    "an OpenAPI document must be a finite tree."
                )
            # Walking the data later visits the shared value once per place it appears.
            self._count(self.sizes[id(node)])
            return self.built[id(node)]
        before = self.count
        if isinstance(node, yaml.SequenceNode):
            items: list[Any] = []
            self.built[id(node)] = items
            for index, child in enumerate(node.value):
                items.append(self.build(child, f"{pointer}/{index}"))
            self.sizes[id(node)] = self.count - before
            return items
        if isinstance(node, yaml.MappingNode):
            try:
                self.loader.flatten_mapping(node)  # merge keys (<<)
            except yaml.YAMLError as exc:
                raise _error(f"{self.location} has a merge key YAML cannot apply: {_describe(exc)}", exc) from None
            mapping: dict[str, Any] = {}
            self.built[id(node)] = mapping
            for key_node, value_node in node.value:
                key = _key_text(self.loader, key_node)
                mapping[key] = self.build(value_node, f"{pointer}/{jsonpointer.escape(key)}", key_node.start_mark)
            self.sizes[id(node)] = self.count - before
            return mapping
        raise InputError(f"{self.location} has a YAML node deskcheck cannot read ({type(node).__name__}).")

    def _count(self, nodes: int) -> None:
        self.count += nodes
        if self.count > self.max_nodes:
            raise InputError(
                f"{self.location} expands to more than {self.max_nodes} nodes (through YAML aliases); "
                "it is refused as a precaution."
            )


def _key_text(loader: Any, node: Any) -> str:
    import yaml

    if not isinstance(node, yaml.ScalarNode):
        raise InputError(
            f"a mapping key at line {node.start_mark.line + 1} is not a plain value; OpenAPI keys are strings."
        )
    if node.tag in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp"):
        return node.value
    value = loader.construct_object(node, deep=True)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _error(message: str, exc: Exception) -> InputError:
    from .source import DocumentError

    mark = getattr(exc, "problem_mark", None)
    if mark is None:
        return DocumentError(message)
    return DocumentError(message, line=mark.line + 1, column=mark.column + 1)


def _describe(exc: Exception) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is not None:
        return f"{problem} at line {mark.line + 1}, column {mark.column + 1}."
    return f"{problem}."
