"""The state tree: one ``Node`` per field, section, wrapper and list item the data currently
has, built from a compiled form and the data by ``build_tree``.

The data is kept as it is: a key the schema does not allow stays in the data and gets a field of
its own that carries the error, a ``const`` or a ``default`` is shown and checked but not written
over a value, and no object is created. Only a state that fills defaults (``fill=True``: a record
being created, or a host that asks for it) writes something on its own, and only where the data
has no value: defaults, constants, and the empty value of a required container (a required object
starts as ``{}``, a required list as ``[]``, a required checkbox as ``false``, a required nullable
field as ``null``); there a branch of ``if``/``then``/``else`` that stops applying also takes its
own keys with it, as the form library does. In both modes the active variant of a ``oneOf`` is
chosen, values are coerced when the form asks for it (only values that differ from the base
copy: what was written), conditions (``layout.if``) are evaluated and decide what is shown, and
option lists known without a request are resolved.

Objects expand lazily: an object in the data gets its fields; an object that is not in the data
is a field without fields under it (describeState lists what it declares), unless a path names
something inside it (``expand``: a write there builds that one object's fields). So the tree is
the data plus one level, and a recursive schema costs what its data costs.

Long lists fold (``FOLD_FROM`` items and more): an object item that is neither written since
the load, nor the list's active item, nor named by a path (``expand``) is one field without
fields under it (``Node.folded``), its errors on it; the state unfolds an item a path names. So
a list of 21,000 objects costs 21,000 fields, not ten times that, and what is shown or written
is built as before.

Keys that no property names get a field each: a map entry (its schema from ``patternProperties``
or ``additionalProperties``), a key nothing describes, or a key the schema refuses.

Paths: ``full_key`` is the layout path (``/shape/$oneOf/1/w``, ``/$comp-1/theme``), ``data_path``
the JSON pointer of the value (``/shape/w``, ``/theme``). Wrappers (``$allOf-<i>``, ``$oneOf``
and its branch, ``$then``/``$else``, ``$deps-<prop>``, ``$comp-<n>``) share the data path of
their parent and hold no data of their own.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from ... import jsonpointer
from ..schema.compile import ChildPlan, CompiledForm, Skeleton
from ..schema.expressions import Expression, ExpressionError, evaluate, shared_scope
from ..schema.layout import ITEMS_COMPONENTS, normal_item
from ..schema.record import Record
from ..schema.switch import settle, switch_note
from ..schema.values import UNSET, coerce, json_equal


class Node:
    """One field or group of the state tree. Nodes compare by identity. ``text``: a slot's
    text; ``items_state``: where a choice field's options stand (``static``, ``resolved``,
    ``url``, ``blocked``, ``failed`` or None); ``active_variant``: a variant selector's active
    branch (None: none yet)."""

    __slots__ = (
        "active_variant",
        "child_modified",
        "children",
        "comp",
        "data",
        "data_path",
        "entry",
        "error",
        "folded",
        "full_key",
        "item_index",
        "items",
        "items_key",
        "items_source_text",
        "items_state",
        "key",
        "modified",
        "notes",
        "parent",
        "read_only",
        "required",
        "shown",
        "skeleton",
        "text",
        "title",
        "variant_owner",
        "wrapper",
    )

    def __init__(
        self,
        *,
        key: str,
        full_key: str,
        data_path: str,
        parent: Node | None,
        skeleton: Skeleton | None,
        comp: str,
        data: Any = UNSET,
        shown: bool = True,
        required: bool = False,
        read_only: bool = False,
        wrapper: bool = False,
        title: str | None = None,
        text: str | None = None,
        item_index: int | None = None,
        variant_owner: Skeleton | None = None,
    ) -> None:
        self.key = key
        self.full_key = full_key
        self.data_path = data_path
        self.parent = parent
        self.skeleton = skeleton
        self.comp = comp
        self.data = data
        self.shown = shown
        self.required = required
        self.read_only = read_only
        self.wrapper = wrapper
        self.children: list[Node] = []
        self.error: str | None = None
        self.modified: bool | None = None
        self.child_modified = False
        self.title = title
        self.text = text
        self.notes: list[str] = []
        self.items_state: str | None = None
        self.items: list[dict[str, Any]] | None = None
        self.items_key: str | None = None
        self.items_source_text: str | None = None
        self.active_variant: int | None = None
        self.variant_owner = variant_owner
        self.item_index = item_index
        # A key no property names: "map" (a pattern or additionalProperties gives its schema),
        # "free" (nothing describes it, nothing forbids it) or "refused" (the schema allows no
        # other key). None for every other node.
        self.entry: str | None = None
        # An item of a long list built without its fields (see the module docstring).
        self.folded = False

    def __repr__(self) -> str:
        return f"Node({self.path!r}, {self.comp})"

    @property
    def path(self) -> str:
        """The layout path as printed (``/`` for the root)."""
        return self.full_key or "/"

    @property
    def owns_data(self) -> bool:
        return not self.wrapper

    @property
    def visible_children(self) -> list[Node]:
        return [child for child in self.children if child.shown]

    @property
    def is_list(self) -> bool:
        return self.comp == "list"

    @property
    def is_selector(self) -> bool:
        return self.comp == "one-of-select"

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


class Tree(Record):
    __slots__ = ("branches", "by_data_path", "by_full_key", "data", "nodes", "removed_branch_keys", "root")

    def __init__(
        self,
        root: Node,
        data: Any,
        nodes: list[Node],
        by_full_key: dict[str, Node],
        by_data_path: dict[str, Node],
        branches: dict[str, str],
        removed_branch_keys: list[str],
    ) -> None:
        self.root = root
        self.data = data
        self.nodes = nodes
        self.by_full_key = by_full_key
        self.by_data_path = by_data_path
        self.branches = branches
        self.removed_branch_keys = removed_branch_keys


# Lists with this many items or more fold the items nobody is looking at (module docstring).
FOLD_FROM = 100
# Fields nested deeper than this are shown as one JSON value: real forms are far shallower, and a
# recursive schema with data built to be deep must not exhaust the stack.
MAX_TREE_DEPTH = 40


def _ptr(parent: str, key: str | int) -> str:
    key = str(key)
    if "/" in key or "~" in key:
        key = jsonpointer.escape(key)
    return parent + "/" + key


def _lookup(document: Any, pointer: str) -> Any:
    if pointer == "":
        return document
    node = document
    for token in jsonpointer.split(pointer):
        if isinstance(node, dict):
            if token not in node:
                # A key that is not a string (YAML allows `1:` or `true:`) is named by its text.
                key = next((k for k in node if not isinstance(k, str) and str(k) == token), UNSET)
                if key is UNSET:
                    return UNSET
                token = key
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return UNSET
            node = node[int(token)]
        else:
            return UNSET
    return node


def lookup(document: Any, pointer: str) -> Any:
    """The value at ``pointer``, or ``UNSET``."""
    return _lookup(document, pointer)


def digest(value: Any) -> str:
    return hashlib.sha1(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


class _Keys:
    """What an object's fields claim while its plan is built: the keys properties name, and the
    schemas (the object's own and its wrappers') whose patterns or ``additionalProperties`` give
    the other keys their shape."""

    __slots__ = ("claimed", "schemas")

    def __init__(self, owner: Skeleton) -> None:
        self.claimed: set[str] = set()
        self.schemas: list[Skeleton] = [owner]


class TreeBuilder:
    """Builds the tree for one state of the data (see ``build_tree``)."""

    def __init__(
        self,
        form: CompiledForm,
        *,
        variants: dict[str, int],
        base: Any,
        context: Any,
        previous_branches: dict[str, str] | None,
        fill: bool = False,
        expand: frozenset[str] = frozenset(),
        active_items: dict[str, int] | None = None,
    ) -> None:
        self.form = form
        self.active_items = active_items or {}
        # The folded items of each long list (by the list node's id).
        self._folded: dict[int, set[int]] = {}
        self.variants = variants
        self.base = base
        self.fill = fill
        self.tracking = base is not UNSET
        self.context = context if context is not None else {}
        self.previous_branches = previous_branches or {}
        self.branches: dict[str, str] = {}
        self.removed_branch_keys: list[str] = []
        self.nodes: list[Node] = []
        self.root_data: Any = UNSET
        self._pure_cache: dict[tuple[str, str], Any] = {}
        self.coerce = form.options.coerce_types
        # Above zero while building the fields of an object that is not in the data: they show
        # what could be written, and their defaults wait until the object exists.
        self._absent = 0
        self._shared_text: str | None = None
        self._depth = 0
        self._keys: list[_Keys] = []
        # Skeletons of the objects being filled in (a state that fills defaults).
        self._filling: set[int] = set()
        self.expand = expand

    # -- entry --------------------------------------------------------------------------------

    def build(self, data: Any) -> Tree:
        self.root_data = data
        root, data = self._field(self.form.root, "", "", "", None, data, required=True)
        by_full_key: dict[str, Node] = {}
        by_data_path: dict[str, Node] = {}
        for node in self.nodes:
            by_full_key.setdefault(node.full_key, node)
            if node.wrapper or node.comp == "slot":
                continue
            current = by_data_path.get(node.data_path)
            # Prefer a shown node over a hidden one, and the first in document order.
            if current is None or (not current.shown and node.shown):
                by_data_path[node.data_path] = node
        return Tree(root, data, self.nodes, by_full_key, by_data_path, self.branches, self.removed_branch_keys)

    # -- fields -------------------------------------------------------------------------------

    def _node(self, **kwargs: Any) -> Node:
        node = Node(**kwargs)
        self.nodes.append(node)
        if node.parent is not None:
            node.parent.children.append(node)
        return node

    def _field(
        self,
        skeleton: Skeleton,
        key: str,
        full_key: str,
        data_path: str,
        parent: Node | None,
        value: Any,
        *,
        required: bool,
        item_index: int | None = None,
    ) -> tuple[Node, Any]:
        if value is not UNSET:
            # A type switch: the branch the value's type selects (see ``switch``).
            skeleton = settle(skeleton, value)
        elif full_key in self.expand and (skeleton.branches or skeleton.accepts_anything):
            # A path goes inside a switch with no value yet: it names the object branch's fields.
            skeleton = settle(skeleton, {})
        parent_shown = parent is None or parent.shown
        node = self._node(
            key=key,
            full_key=full_key,
            data_path=data_path,
            parent=parent,
            skeleton=skeleton,
            comp=skeleton.comp,
            required=required,
            read_only=skeleton.read_only or (parent is not None and parent.read_only),
            title=skeleton.title,
            item_index=item_index,
        )
        if skeleton.branches:
            note = switch_note(skeleton)
            if note:
                node.notes.append(note)
        if self.coerce and value is not UNSET and self._written(data_path, value):
            value = coerce(value, skeleton.types, skeleton.nullable)
        shown_by_condition = parent_shown and self._condition(skeleton, node, value, parent)
        node.shown = shown_by_condition and skeleton.comp != "none"

        filled = False
        # A recursive schema fills one level of itself (_filling: the objects being filled in).
        fills = self.fill and not self._absent and shown_by_condition and id(skeleton) not in self._filling
        if fills and value is UNSET:
            value = self._default(skeleton, value, required=required, root=parent is None)
            filled = value is not UNSET

        descends = skeleton.object_composite or skeleton.comp == "list" or skeleton.tuple_items
        if descends and self._depth >= MAX_TREE_DEPTH:
            # A document this deep is most likely built to exhaust us; its depths are one value.
            node.comp = "json"
            node.notes.append(f"nested more than {MAX_TREE_DEPTH} levels deep: read and write it as a whole")
        elif descends:
            self._depth += 1
            if filled:
                self._filling.add(id(skeleton))
            try:
                if skeleton.object_composite:
                    value = self._object(skeleton, node, value)
                elif skeleton.comp == "list":
                    value = self._list(skeleton, node, value)
                else:
                    value = self._tuple(skeleton, node, value)
            finally:
                self._depth -= 1
                if filled:
                    self._filling.discard(id(skeleton))
        node.data = value

        if node.shown and skeleton.items is not None and (skeleton.comp in ITEMS_COMPONENTS or skeleton.items):
            self._resolve_items(skeleton, node, value, parent)
        if self.tracking:
            self._modified(node)
        return node, value

    def _written(self, data_path: str, value: Any) -> bool:
        """Whether ``value`` differs from the base copy (was written since the load); without a
        base copy every value counts as written."""
        return not self.tracking or not json_equal(_lookup(self.base, data_path), value)

    def _default(self, skeleton: Skeleton, value: Any, *, required: bool, root: bool) -> Any:
        """What a state that fills defaults writes where the data has no value."""
        if skeleton.has_const:
            return copy.deepcopy(skeleton.const)
        if skeleton.has_default:
            return copy.deepcopy(skeleton.default)
        if value is not UNSET:
            return value
        if root:
            return {"object": {}, "array": [], "string": ""}.get(
                skeleton.kind or ("object" if skeleton.is_object else ""), value
            )
        if required:
            if skeleton.is_object and (skeleton.is_composite or skeleton.object_one_of):
                return {}
            if skeleton.comp == "list":
                return []
            if skeleton.nullable:
                return None
            if skeleton.kind == "boolean":
                return False
        return value

    def _scope(self, value: Any, parent: Node | None) -> dict[str, Any]:
        parent_data = parent.data if parent is not None else UNSET
        return {
            "data": None if value is UNSET else value,
            "parent": {"data": None if parent_data is UNSET else parent_data},
        }

    @property
    def _shared(self) -> str:
        """The root document and the context, serialised once per build for every expression."""
        if self._shared_text is None:
            self._shared_text = shared_scope(
                rootData=None if self.root_data is UNSET else self.root_data,
                context=self.context,
                options={"context": self.context, "readOnly": False, "summary": False},
                summary=False,
                mode="default",
                display={},
            )
        return self._shared_text

    def _condition(self, skeleton: Skeleton, node: Node, value: Any, parent: Node | None) -> bool:
        expression = skeleton.if_expression
        if expression is None:
            return True
        try:
            return bool(self._evaluate(expression, self._scope(value, parent)))
        except ExpressionError as exc:
            if exc.reason == "unresolved":
                return False
            node.notes.append(f"its condition could not be evaluated ({exc.message}), so it is shown")
            return True

    def _evaluate(self, expression: Expression, scope: dict[str, Any]) -> Any:
        if expression.pure:
            key = (expression.kind, expression.source)
            if key not in self._pure_cache:
                try:
                    self._pure_cache[key] = evaluate(expression, scope, self._shared)
                except ExpressionError as exc:
                    self._pure_cache[key] = exc
            cached = self._pure_cache[key]
            if isinstance(cached, ExpressionError):
                raise cached
            return cached
        return evaluate(expression, scope, self._shared)

    # -- objects ------------------------------------------------------------------------------

    def _object(self, skeleton: Skeleton, node: Node, value: Any) -> Any:
        if not isinstance(value, dict):
            # Not in the data (or not an object): a field of its own, without fields under it
            # (describeState lists what it declares), unless a path asks for them: a recursive
            # schema would otherwise unfold without end.
            if node.full_key in self.expand:
                self._absent += 1
                try:
                    self._children(skeleton, node, {}, detached=True)
                finally:
                    self._absent -= 1
            return value
        obj = dict(value)
        node.data = obj
        keys = _Keys(skeleton)
        self._keys.append(keys)
        try:
            obj = self._children(skeleton, node, obj)
        finally:
            self._keys.pop()
        self._entries(keys, node, obj)
        return obj

    def _entries(self, keys: _Keys, node: Node, obj: dict[str, Any]) -> None:
        """A field for every key of ``obj`` that no property claimed, in the data's order."""
        for key in [k for k in obj if k not in keys.claimed]:
            entry, skeleton = "free", None
            for schema in keys.schemas:
                skeleton = schema.entry_schema(key)
                if skeleton is not None:
                    entry = "map"
                    break
            if skeleton is None:
                entry = "refused" if any(s.refuses_other_keys for s in keys.schemas) else "free"
                skeleton = self.form.any_skeleton
            child, result = self._field(
                skeleton, key, _ptr(node.full_key, key), _ptr(node.data_path, key), node, obj[key], required=False
            )
            child.entry = entry
            obj[key] = result

    def _children(self, skeleton: Skeleton, node: Node, obj: dict[str, Any], *, detached: bool = False) -> dict:
        return self._plan(skeleton.plan, skeleton, node, obj, detached)

    def _plan(
        self, plan: list[ChildPlan], owner: Skeleton, node: Node, obj: dict[str, Any], detached: bool
    ) -> dict[str, Any]:
        for entry in plan:
            if entry.kind == "property":
                assert entry.skeleton is not None
                child_value = obj.get(entry.key, UNSET) if not detached else UNSET
                required = entry.key in owner.required and not entry.skeleton.nullable
                _, result = self._field(
                    entry.skeleton,
                    entry.key,
                    _ptr(node.full_key, entry.key),
                    _ptr(node.data_path, entry.key),
                    node,
                    child_value,
                    required=required,
                )
                if detached:
                    continue
                self._keys[-1].claimed.add(entry.key)
                if result is UNSET:
                    obj.pop(entry.key, None)
                else:
                    obj[entry.key] = result
            elif entry.kind == "deps":
                name = entry.key[len("$deps-") :]
                if obj.get(name, UNSET) is not UNSET:
                    obj = self._wrapper(entry.skeleton, entry.key, node, obj, detached)
            elif entry.kind == "allOf":
                obj = self._wrapper(entry.skeleton, entry.key, node, obj, detached)
            elif entry.kind == "oneOf":
                obj = self._variants(owner, node, obj, detached)
            elif entry.kind == "condition":
                obj = self._if(owner, node, obj, detached)
            elif entry.kind == "composite":
                assert entry.composite is not None
                group = self._node(
                    key=entry.key,
                    full_key=_ptr(node.full_key, entry.key),
                    data_path=node.data_path,
                    parent=node,
                    skeleton=None,
                    comp=entry.composite.comp,
                    shown=node.shown,
                    wrapper=True,
                    read_only=node.read_only,
                    title=entry.composite.title,
                    data=obj,
                )
                obj = self._plan(entry.composite.children, owner, group, obj, detached)
                if self.tracking:
                    self._modified(group)
                continue
            elif entry.kind == "slot":
                self._node(
                    key=entry.key,
                    full_key=_ptr(node.full_key, entry.key),
                    data_path=node.data_path,
                    parent=node,
                    skeleton=None,
                    comp="slot",
                    shown=node.shown,
                    wrapper=True,
                    text=entry.text,
                )
        return obj

    def _wrapper(
        self, skeleton: Skeleton | None, key: str, node: Node, obj: dict[str, Any], detached: bool
    ) -> dict[str, Any]:
        if skeleton is None:
            return obj
        wrapper = self._node(
            key=key,
            full_key=_ptr(node.full_key, key),
            data_path=node.data_path,
            parent=node,
            skeleton=skeleton,
            comp=skeleton.comp if skeleton.comp not in ("json", "none") else "section",
            wrapper=True,
            read_only=node.read_only or skeleton.read_only,
            title=skeleton.title,
            data=obj,
        )
        wrapper.shown = node.shown and self._condition(skeleton, wrapper, obj, node) and skeleton.comp != "none"
        if not detached:
            self._keys[-1].schemas.append(skeleton)
        obj = self._plan(skeleton.plan, skeleton, wrapper, obj, detached)
        wrapper.data = obj
        if self.tracking:
            self._modified(wrapper)
        return obj

    def _variants(self, owner: Skeleton, node: Node, obj: dict[str, Any], detached: bool) -> dict[str, Any]:
        full_key = _ptr(node.full_key, "$oneOf")
        selector = self._node(
            key="$oneOf",
            full_key=full_key,
            data_path=node.data_path,
            parent=node,
            skeleton=owner,
            comp="one-of-select",
            shown=node.shown,
            wrapper=True,
            read_only=node.read_only,
            title=owner.variant_label,
            data=obj,
            variant_owner=owner,
        )
        active = self._active_variant(owner, full_key, obj, detached)
        selector.active_variant = active
        if active is not None:
            branch = owner.variants[active]
            obj = self._wrapper(branch, str(active), selector, obj, detached)
            selector.data = obj
        if self.tracking:
            self._modified(selector)
        return obj

    def _active_variant(self, owner: Skeleton, full_key: str, obj: dict[str, Any], detached: bool) -> int | None:
        chosen = self.variants.get(full_key)
        count = len(owner.variants)
        if isinstance(chosen, int) and 0 <= chosen < count:
            return chosen
        if detached:
            return None  # no data to match: the variants are listed, none is unfolded
        if owner.discriminator and owner.discriminator in obj:
            for index in range(count):
                if json_equal(owner.variant_tag(index), obj[owner.discriminator]):
                    return index
        for index, validator in enumerate(owner.variant_validators):
            if validator.is_valid(obj):
                return index
        # Nothing validates yet (a branch being filled in): the branch whose constants match.
        for index, variant in enumerate(owner.variants):
            constants = [(name, sub.const) for name, sub in variant.properties if sub.has_const]
            if constants and all(name in obj and json_equal(obj[name], const) for name, const in constants):
                return index
        return best_variant(owner, obj)

    def _if(self, owner: Skeleton, node: Node, obj: dict[str, Any], detached: bool) -> dict[str, Any]:
        condition = owner.condition
        if condition is None:
            return obj
        validator, then_skeleton, else_skeleton = condition
        holds = validator.is_valid(obj)
        branch = "then" if holds else "else"
        previous = self.previous_branches.get(node.full_key)
        self.branches[node.full_key] = branch
        if self.fill and previous is not None and previous != branch and not detached:
            inactive = else_skeleton if holds else then_skeleton
            active = then_skeleton if holds else else_skeleton
            if inactive is not None:
                keep = {name for name, _ in owner.properties}
                for wrapper in [*owner.all_of, *owner.variants, *owner.dependent.values()]:
                    keep |= wrapper.declared_keys
                if active is not None:
                    keep |= active.declared_keys
                for name in inactive.declared_keys - keep:
                    if name in obj:
                        del obj[name]
                        self.removed_branch_keys.append(_ptr(node.data_path, name))
        skeleton = then_skeleton if holds else else_skeleton
        return self._wrapper(skeleton, f"${branch}", node, obj, detached)

    # -- arrays -------------------------------------------------------------------------------

    def _list(self, skeleton: Skeleton, node: Node, value: Any) -> Any:
        if not isinstance(value, list):
            return value
        item = skeleton.item
        if item is None:
            return value
        out = list(value)
        node.data = out
        folds = self._folds(item, node, value)
        if folds:
            self._folded[id(node)] = folds
        for index, entry in enumerate(value):
            if folds is not None and index in folds:
                self._folded_item(item, node, index, entry)
                continue
            _, result = self._field(
                item,
                str(index),
                _ptr(node.full_key, index),
                _ptr(node.data_path, index),
                node,
                entry,
                required=False,
                item_index=index,
            )
            out[index] = None if result is UNSET else result
        return out

    def _folds(self, item: Skeleton, node: Node, value: list[Any]) -> set[int] | None:
        """The items of a long list built folded: unwritten objects nobody is looking at."""
        foldable = item.object_composite or item.accepts_anything or bool(item.branches)
        if len(value) < FOLD_FROM or self.fill or not foldable or (self.coerce and not self.tracking):
            return None
        base = _lookup(self.base, node.data_path) if self.tracking else UNSET
        active = self.active_items.get(node.full_key)
        folded = set()
        for index, entry in enumerate(value):
            if not isinstance(entry, dict) or index == active or _ptr(node.full_key, index) in self.expand:
                continue
            if self.tracking and not (isinstance(base, list) and index < len(base) and json_equal(base[index], entry)):
                continue
            folded.add(index)
        return folded

    def _folded_item(self, item: Skeleton, parent: Node, index: int, entry: Any) -> None:
        node = self._node(
            key=str(index),
            full_key=_ptr(parent.full_key, index),
            data_path=_ptr(parent.data_path, index),
            parent=parent,
            skeleton=item,
            comp=item.comp,
            data=entry,
            read_only=item.read_only or parent.read_only,
            title=item.title,
            item_index=index,
        )
        node.folded = True
        node.shown = parent.shown and self._condition(item, node, entry, parent) and item.comp != "none"
        if self.tracking:
            node.modified = node.child_modified = False

    def _tuple(self, skeleton: Skeleton, node: Node, value: Any) -> Any:
        if isinstance(value, list):
            return self._tuple_entries(skeleton, node, value)
        if node.full_key in self.expand:  # as for objects
            self._absent += 1
            try:
                self._tuple_entries(skeleton, node, [])
            finally:
                self._absent -= 1
        node.data = value
        return value

    def _tuple_entries(self, skeleton: Skeleton, node: Node, current: list[Any]) -> list[Any]:
        out = list(current)
        node.data = out
        minimum = skeleton.min_items or 0
        for index, entry_skeleton in enumerate(skeleton.tuple_entries):
            entry = current[index] if index < len(current) else UNSET
            _, result = self._field(
                entry_skeleton,
                str(index),
                _ptr(node.full_key, index),
                _ptr(node.data_path, index),
                node,
                entry,
                required=index < minimum,
                item_index=index,
            )
            if index < len(out) and result is not UNSET:
                out[index] = result
        return out

    # -- options ------------------------------------------------------------------------------

    def _resolve_items(self, skeleton: Skeleton, node: Node, value: Any, parent: Node | None) -> None:
        source = skeleton.items
        assert source is not None
        if source.kind == "static":
            node.items_state = "static"
            node.items = list(source.items)  # shared: options are never changed in place
            node.items_key = "static:" + skeleton.pointer
            return
        if source.kind == "expression" and source.expression is not None:
            node.items_source_text = source.expression.describe()
            try:
                raw = self._evaluate(source.expression, self._scope(value, parent))
            except ExpressionError as exc:
                self._items_failure(node, exc)
                return
            if not isinstance(raw, list):
                node.items_state = "failed"
                node.notes.append("its options expression did not give a list")
                return
            try:
                node.items = [prepare_item(source, entry) for entry in raw]
            except ExpressionError as exc:
                self._items_failure(node, exc)
                return
            node.items_state = "resolved"
            node.items_key = "expr:" + digest(node.items)
            return
        if source.kind == "url" and source.url is not None:
            node.items_source_text = source.url.describe()
            try:
                url = self._evaluate(source.url, self._scope(value, parent))
            except ExpressionError as exc:
                self._items_failure(node, exc)
                return
            node.items_state = "url"
            node.items_key = "url:" + str(url)
            node.items = None

    def _items_failure(self, node: Node, exc: ExpressionError) -> None:
        if exc.reason == "unresolved":
            node.items_state = "blocked"
        else:
            node.items_state = "failed"
            node.notes.append(f"its list of options could not be computed: {exc.message}")
        node.items_key = None

    # -- modified -----------------------------------------------------------------------------

    def _modified(self, node: Node) -> None:
        if self._absent:
            # Nothing under an object that is not in the data is in the data either.
            node.modified = False
            node.child_modified = False
            return
        if node.wrapper and not node.is_selector:
            node.modified = False
            node.child_modified = any(c.modified or c.child_modified for c in node.children)
            return
        if node.children and not node.is_list and not node.is_selector:
            node.modified = False
            node.child_modified = any(c.modified or c.child_modified for c in node.children)
            return
        base_value = _lookup(self.base, node.data_path) if self.base is not None else UNSET
        if self.base is None and node.data_path == "":
            # No document, or a null one (an empty YAML file): the same nothing.
            base_value = UNSET if node.data is UNSET else None
        folded = self._folded.get(id(node))
        if folded is not None and isinstance(base_value, list) and isinstance(node.data, list):
            # Folded items are their base copy's: only the others can differ.
            differs = len(base_value) != len(node.data) or any(
                not json_equal(base_value[i], item) for i, item in enumerate(node.data) if i not in folded
            )
        else:
            differs = not json_equal(base_value, node.data)
        node.modified = differs
        node.child_modified = differs or any(c.modified or c.child_modified for c in node.children)
        if differs and node.children:
            for child in node.children:
                for below in child.walk():
                    below.modified = None
                    below.child_modified = False


def best_variant(owner: Skeleton, obj: dict[str, Any]) -> int | None:
    """The variant closest to an object none of them accepts: the one that declares most of its
    keys, then the one whose constants it contradicts least (the first on a tie), as a reader
    would guess which shape was meant. None for an object with no key any variant declares."""
    best, best_score = None, (0, 0)
    for index, variant in enumerate(owner.variants):
        declared = variant.declared_keys
        known = sum(1 for key in obj if key in declared)
        clashes = sum(
            1
            for name, sub in variant.properties
            if sub.has_const and name in obj and not json_equal(obj[name], sub.const)
        )
        score = (known - 2 * clashes, -clashes)
        if known and score > best_score:
            best, best_score = index, score
    return best


def prepare_item(source: Any, raw: Any) -> dict[str, Any]:
    """One raw option (from an expression or a response) in its normal form, through the
    field's ``itemTitle``/``itemKey``/``itemValue``/``itemIcon`` extractors."""
    if source.header is not None and bool(evaluate(source.header, {"data": raw, "item": raw})):
        title = evaluate(source.title, {"data": raw, "item": raw}) if source.title else raw
        return {"header": True, "title": str(title)}
    if isinstance(raw, dict) and raw.get("header") is True:
        return {"header": True, "title": str(raw.get("title", ""))}
    scope = {"data": raw, "item": raw}
    value = evaluate(source.value, scope) if source.value is not None else UNSET
    key = evaluate(source.key, scope) if source.key is not None else UNSET
    title = evaluate(source.title, scope) if source.title is not None else UNSET
    if isinstance(raw, dict):
        if value is UNSET:
            # An option already shaped as {title, key, value} gives its value; a bare object is
            # the value itself when the field holds objects.
            value = raw.get("value", raw if source.return_objects else UNSET)
        if key is UNSET:
            key = raw.get("key", UNSET)
        if title is UNSET:
            title = raw.get("title", UNSET)
        if value is UNSET:
            value = key
        if key is UNSET or key is None:
            key = normal_item(value)["key"] if value is not UNSET else ""
        if title is UNSET or title is None:
            title = key
        item = {"key": str(key), "title": str(title), "value": None if value is UNSET else value}
        if source.icon is not None:
            item["icon"] = evaluate(source.icon, scope)
        elif "icon" in raw:
            item["icon"] = raw["icon"]
        return item
    if value is UNSET:
        value = raw
    if key is UNSET:
        key = value
    if title is UNSET:
        title = value
    return {"key": normal_item(key)["key"], "title": normal_item(title)["key"], "value": value}


def build_tree(
    form: CompiledForm,
    data: Any,
    *,
    variants: dict[str, int],
    base: Any = UNSET,
    context: Any = None,
    previous_branches: dict[str, str] | None = None,
    fill: bool = False,
    expand: frozenset[str] = frozenset(),
    active_items: dict[str, int] | None = None,
) -> Tree:
    """The tree of ``data`` (what it writes on its own, with ``fill``: see the module docstring).
    ``expand``: layout paths of objects absent from the data, and of items of long lists, whose
    fields are built too; ``active_items``: each list's active item (never folded)."""
    builder = TreeBuilder(
        form,
        variants=variants,
        base=base,
        context=context,
        previous_branches=previous_branches,
        fill=fill,
        expand=expand,
        active_items=active_items,
    )
    # The builder copies every container it shapes; callers hand it data they own.
    return builder.build(data)
