"""Validation errors attached to the fields of a state tree.

The whole document is validated (``validation``, jsonschema-rs) on every change. Each error is then given to
the field it is about: a ``required`` error to the missing property's field, a type or format
error to the field at its data path, an error under a value the form shows as one field (a
combobox of strings, a JSON value) to that field. Under a variant selector only the active
variant's errors are kept, plus one error on the object saying the variants do not match; for a
nullable field (``anyOf [X, null]``) the errors of ``X`` are kept. A field carries one error;
the others of the same field are dropped from the list (the first is the one to fix first).
Errors no field can take are listed by their data pointer. A key the schema does not allow
(``additionalProperties: false``) has a field of its own (see ``tree``): the error goes to that
field, once per key.
"""

from __future__ import annotations

from typing import Any

from ... import jsonpointer
from ..schema.messages import closest_entry, message_for
from ..schema.record import FrozenRecord, Record
from ..schema.validation import SchemaError
from ..schema.values import UNSET
from .tree import Node, Tree


class FieldError(FrozenRecord):
    """``path``: the field's layout path, or the data pointer when no field takes it; ``at``: the
    data pointer of the value the error is about (inside ``data_path`` for a field that takes
    the errors of the values it holds whole)."""

    __slots__ = ("at", "data_path", "hidden", "message", "node", "path")

    def __init__(
        self,
        path: str,
        data_path: str,
        message: str,
        node: Node | None = None,
        hidden: bool = False,
        at: str | None = None,
    ) -> None:
        self._set(path=path, data_path=data_path, message=message, node=node, hidden=hidden, at=at or data_path)


class Validation(Record):
    __slots__ = ("errors", "valid")

    def __init__(self, valid: bool, errors: list[FieldError]) -> None:
        self.valid = valid
        self.errors = errors


def validate_tree(form: Any, tree: Tree) -> Validation:
    data = tree.data
    raw = form.iter_errors(None if data is UNSET else data)
    collector = _Collector(tree)
    for error in raw:
        collector.process(error)
    return Validation(not raw, collector.finish())


class _Collector:
    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.order = {id(node): index for index, node in enumerate(tree.nodes)}
        self.selectors: dict[str, list[Node]] = {}
        for node in tree.nodes:
            if node.is_selector:
                self.selectors.setdefault(node.data_path, []).append(node)
        self.attached: list[FieldError] = []
        self.loose: list[FieldError] = []
        self._taken: set[int] = set()

    def process(self, error: SchemaError) -> None:
        pointer = jsonpointer.join(error.path)
        if error.keyword in ("oneOf", "anyOf") and (
            self._variant_error(error, pointer)
            or self._nullable_error(error, pointer)
            or self._switch_error(error, pointer)
        ):
            return
        if error.extra and self._refused_keys(error, pointer):
            return
        if error.missing is not None:
            pointer = jsonpointer.append(pointer, error.missing)
        self.add(pointer, message_for(error))

    def _refused_keys(self, error: SchemaError, pointer: str) -> bool:
        """Each key an ``additionalProperties`` error names, on its own field (when every one
        has a field: an object written as one value takes the error whole)."""
        paths = [jsonpointer.append(pointer, key) for key in error.extra]
        nodes = [self.tree.by_data_path.get(path) for path in paths]
        if not all(node is not None and node.entry is not None for node in nodes):
            return False
        custom = message_for(error) if error.schema is not None and "errorMessage" in error.schema else None
        holder = self.tree.by_data_path.get(pointer)
        where = holder.path if holder is not None else pointer or "/"
        for path in paths:
            self.add(
                path,
                custom
                or "a key this form does not accept: remove it (setFieldValue with null) or rename it (editArray "
                f'on {where} with action "rename")',
            )
        return True

    def _variant_error(self, error: SchemaError, pointer: str) -> bool:
        for selector in self.selectors.get(pointer, []):
            owner = selector.variant_owner
            if owner is None or error.expected is not owner.schema.get(error.keyword):
                continue
            owner_node = selector.parent
            if owner_node is not None:
                self.add(owner_node.data_path, _variants_message(error, selector), prefer=owner_node)
            if selector.active_variant is not None:
                for branch, sub in error.context:
                    if branch == selector.active_variant:
                        self.process(sub)
            return True
        return False

    def _switch_error(self, error: SchemaError, pointer: str) -> bool:
        """A union whose value has fields of its own (a type switch showing an object or a
        list): the closest entry's errors go on those fields."""
        node = self.tree.by_data_path.get(pointer)
        if node is None or not node.children or error.several or node.skeleton is None or not node.skeleton.switched:
            return False
        found = closest_entry(error)
        if not found or not found[0]:
            return False
        for sub in found[0]:
            self.process(sub)
        return True

    def _nullable_error(self, error: SchemaError, pointer: str) -> bool:
        node = self.tree.by_data_path.get(pointer)
        entries = error.expected
        if node is None or not isinstance(entries, list) or len(entries) != 2 or error.instance is None:
            return False
        nulls = [i for i, e in enumerate(entries) if isinstance(e, dict) and e.get("type") == "null"]
        if len(nulls) != 1:
            return False
        other = 1 - nulls[0]
        subs = [sub for branch, sub in error.context if branch == other]
        if not subs:
            return False
        for sub in subs:
            self.process(sub)
        return True

    def add(self, pointer: str, message: str, *, prefer: Node | None = None) -> None:
        node = prefer or self._node_for(pointer)
        if node is None:
            self.loose.append(FieldError(pointer or "/", pointer, message))
            return
        if not node.shown:
            # A hidden field: listed by data pointer, unless a shown field says the same.
            self.loose.append(FieldError(pointer or "/", pointer, message, hidden=True))
            return
        if id(node) in self._taken:
            return
        self._taken.add(id(node))
        if node.error is None:
            node.error = message
        self.attached.append(FieldError(node.path, node.data_path, message, node, at=pointer))

    def _node_for(self, pointer: str) -> Node | None:
        node = self.tree.by_data_path.get(pointer)
        if node is not None:
            return node
        tokens = jsonpointer.split(pointer) if pointer else []
        while tokens:
            tokens.pop()
            ancestor = self.tree.by_data_path.get(jsonpointer.join(tokens))
            if ancestor is not None:
                # A value drawn as one field (a combobox, a JSON value, a select of objects)
                # takes the errors inside it; a section does not.
                if not ancestor.children:
                    return ancestor
                return None
        return None

    def finish(self) -> list[FieldError]:
        self.attached.sort(key=lambda e: self.order.get(id(e.node), 0))
        shown_messages = {e.message for e in self.attached}
        loose = []
        seen: set[tuple[str, str]] = set()
        for entry in self.loose:
            if entry.hidden and entry.message in shown_messages:
                continue
            if (entry.path, entry.message) in seen:
                continue
            seen.add((entry.path, entry.message))
            loose.append(entry)
        return self.attached + loose


def _variants_message(error: SchemaError, selector: Node) -> str:
    """The error of an object no variant accepts, said of the variant the form shows (the one
    chosen, or the data's closest match), whose own errors are on its fields."""
    owner, active = selector.variant_owner, selector.active_variant
    if error.several or owner is None or active is None:
        return message_for(error)
    title = owner.variant_titles[active]
    named = f'"{title}"' if title != f"option {active + 1}" else f"variant {active}"
    count = sum(1 for branch, _ in error.context if branch == active)
    problems = f"{count} problem(s)" if count else "problems"
    return (
        f"matches none of the variants; the closest is {named} ({selector.path} = {active}), which has {problems} "
        "on the fields marked below (or choose another variant)"
    )


def scoped(errors: list[FieldError], node: Node) -> tuple[list[FieldError], int]:
    """The errors at or under ``node``, and how many others the form has."""
    mine = []
    for error in errors:
        if error.node is not None:
            inside = node.full_key == "" or error.path == node.path or error.path.startswith(node.full_key + "/")
            # An item of a list of values is a field only on demand: its errors are its list's.
            if not inside and node.parent is not None and node.item_index is not None and not node.parent.children:
                inside = error.at == node.data_path or error.at.startswith(node.data_path + "/")
        else:
            inside = (
                node.data_path == ""
                or error.data_path == node.data_path
                or error.data_path.startswith(node.data_path + "/")
            )
        if inside:
            mine.append(error)
    return mine, len(errors) - len(mine)
