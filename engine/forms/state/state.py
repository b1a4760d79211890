"""``FormState``: one form being filled — the data, the copy it started from, and what the tools
remember between calls — with the operations the form tools perform.

Everything a state needs between two calls is plain JSON (``snapshot()``), so a session layer
can keep it anywhere (a SQLite row) and rebuild it in another process with
``FormState.from_snapshot(compiled, snapshot)``:

- ``data``: the document as it is now;
- ``base``: the document as it was loaded or last saved (absent: no modified tracking);
- ``variants``: the variant chosen for each variant selector, by layout path;
- ``activeItems``: the list item being worked on in each list (describeState shows it whole);
- ``branches``: which branch of each ``if`` applied, so that a branch that stops applying takes
  its keys with it;
- ``suggestions``: the options listed by ``getFieldSuggestions`` (see ``suggestions``);
- ``variantsMemo``: where each variant list was last printed in full (printed once per union);
- ``editCount``: the number of writes made through the tools;
- ``fillDefaults``: whether the state writes defaults and constants where the data has none (a
  record being created; see ``tree``). Otherwise the data is only ever changed by the tools' writes.

What is not in a snapshot comes from the host at each call: the ``context`` that schema
expressions may read, and the ``fetcher`` that lists options behind a URL.

Operations return report objects; ``text`` turns them into the tools' answers.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ... import jsonpointer
from ...errors import DeskcheckError
from ..schema.compile import CompiledForm
from ..schema.record import Record
from ..schema.values import UNSET, deep_copy, is_empty, jsonable, parse_json_string
from . import paths
from .errors import FieldError, Validation, scoped, validate_tree
from .suggestions import Fetcher, Listing, SuggestionError, SuggestionStore, list_options
from .tree import FOLD_FROM, MAX_TREE_DEPTH, Node, Tree, build_tree, lookup

SNAPSHOT_FORMAT = 1
# Keys that only exist in form paths (a data key could be "$then"; these cannot be mistaken).
_STRUCTURAL_KEY = re.compile(r"^\$(oneOf|comp-\d+|slot-\d+)$")


class FormError(DeskcheckError):
    pass


class VisibilityChange(Record):
    __slots__ = ("hidden", "shown")

    def __init__(self, shown: list[str] | None = None, hidden: list[str] | None = None) -> None:
        self.shown = [] if shown is None else shown
        self.hidden = [] if hidden is None else hidden


class WriteReport(Record):
    __slots__ = ("activated", "errors", "node", "other_errors", "valid", "value", "visibility")

    def __init__(
        self,
        node: Node,
        value: Any,
        visibility: VisibilityChange,
        errors: list[FieldError],
        other_errors: int,
        valid: bool,
        activated: Node | None = None,
    ) -> None:
        self.node = node
        self.value = value
        self.visibility = visibility
        self.errors = errors
        self.other_errors = other_errors
        self.valid = valid
        self.activated = activated


class ArrayReport(Record):
    """An item of a list added or removed (``index``, ``length``: the list's count after), or,
    with ``key``, a key of an object added, removed or renamed (``new_key``). ``item``: the field
    of what was added (or renamed)."""

    __slots__ = (
        "action",
        "errors",
        "index",
        "item",
        "key",
        "length",
        "new_key",
        "node",
        "other_errors",
        "valid",
        "visibility",
    )

    def __init__(
        self,
        node: Node,
        action: str,
        index: int | None,
        length: int,
        item: Node | None,
        visibility: VisibilityChange,
        errors: list[FieldError],
        other_errors: int,
        valid: bool,
        *,
        key: str | None = None,
        new_key: str | None = None,
    ) -> None:
        self.node = node
        self.action = action
        self.index = index
        self.length = length
        self.item = item
        self.visibility = visibility
        self.errors = errors
        self.other_errors = other_errors
        self.valid = valid
        self.key = key
        self.new_key = new_key


class SetDataReport(Record):
    """``whole``: the document is not an object: it was written whole. ``unknown``: written keys
    no property names (kept; ``refused`` among them: keys the schema does not allow)."""

    __slots__ = ("errors", "refused", "removed", "unknown", "valid", "visibility", "whole", "written")

    def __init__(
        self,
        written: list[str],
        removed: list[str],
        unknown: list[str],
        refused: list[str],
        visibility: VisibilityChange,
        errors: list[FieldError],
        valid: bool,
        whole: bool = False,
    ) -> None:
        self.written = written
        self.removed = removed
        self.unknown = unknown
        self.refused = refused
        self.visibility = visibility
        self.errors = errors
        self.valid = valid
        self.whole = whole


class FormState:
    """One form being filled. ``data`` is the document (None or absent: no document yet, as when
    a record is being created); ``base`` the copy it is compared with for modified flags (leave
    it out for no tracking; None for a record being created). ``fill_defaults``: write defaults,
    constants and required empty containers where the data has no value, as for a new record
    (None, the default: only when there is no document); without it the data changes only where
    a tool writes. The other keywords restore what a
    snapshot holds; ``context`` and ``fetcher`` come from the host (see the module docstring).
    A state is not thread-safe: a host gives each call its own, or serialises calls."""

    def __init__(
        self,
        form: CompiledForm,
        data: Any = UNSET,
        *,
        base: Any = UNSET,
        variants: dict[str, int] | None = None,
        active_items: dict[str, int] | None = None,
        branches: dict[str, str] | None = None,
        suggestions: dict[str, Any] | None = None,
        variants_memo: dict[str, str] | None = None,
        edit_count: int = 0,
        fill_defaults: bool | None = None,
        context: Any = None,
        fetcher: Fetcher | None = None,
        owned: bool = False,
    ) -> None:
        self.form = form
        self.fill_defaults = (data is None or data is UNSET) if fill_defaults is None else fill_defaults
        # A YAML date is its ISO text here, as validation reads it: a state is plain JSON. Data
        # handed over (``owned``: plain JSON the caller will not touch again, as a snapshot it
        # just decoded) is neither turned nor copied: a large record costs no copy.
        own = (lambda value: value) if owned else (lambda value: deep_copy(jsonable(value)))
        self.base = own(base)
        self.variants: dict[str, int] = dict(variants or {})
        self.active_items: dict[str, int] = dict(active_items or {})
        self.branches: dict[str, str] = dict(branches or {})
        self.suggestions = SuggestionStore(suggestions)
        self.variants_memo: dict[str, str] = dict(variants_memo or {})
        self.edit_count = edit_count
        self.context = context if context is not None else {}
        self.fetcher = fetcher
        # Objects absent from the data whose fields a path asked for (see ``_unfold``).
        self._expand: set[str] = set()
        # No document yet (a record being created) may be given as None.
        self._rebuild(UNSET if data is None else own(data))

    # -- snapshots --------------------------------------------------------------------------------

    @classmethod
    def from_snapshot(
        cls,
        form: CompiledForm,
        snapshot: dict[str, Any],
        *,
        context: Any = None,
        fetcher: Fetcher | None = None,
        fill_defaults: bool | None = None,
        owned: bool = False,
    ) -> FormState:
        """The state ``snapshot`` holds; ``fill_defaults`` overrides the snapshot's choice.
        ``owned``: the caller hands the snapshot's documents over (see ``__init__``)."""
        if not isinstance(snapshot, dict) or snapshot.get("format") != SNAPSHOT_FORMAT:
            raise FormError("this form snapshot is not one this version of deskcheck can read.", code="badSnapshot")
        return cls(
            form,
            snapshot.get("data", UNSET),
            base=snapshot.get("base", UNSET),
            variants=snapshot.get("variants"),
            active_items=snapshot.get("activeItems"),
            branches=snapshot.get("branches"),
            suggestions=snapshot.get("suggestions"),
            variants_memo=snapshot.get("variantsMemo"),
            edit_count=int(snapshot.get("editCount", 0)),
            fill_defaults=snapshot.get("fillDefaults") if fill_defaults is None else fill_defaults,
            context=context,
            fetcher=fetcher,
            owned=owned,
        )

    def snapshot(self, *, copy: bool = True) -> dict[str, Any]:
        """Everything this state needs to be rebuilt, as JSON-ready data. Without ``copy`` the
        documents are the state's own (for a caller that writes them out at once and changes
        nothing)."""
        out: dict[str, Any] = {"format": SNAPSHOT_FORMAT, "version": self.form.version}
        if self.data is not UNSET:
            out["data"] = deep_copy(self.data) if copy else self.data
        if self.base is not UNSET:
            out["base"] = deep_copy(self.base) if copy else self.base
        out["variants"] = dict(self.variants)
        out["activeItems"] = dict(self.active_items)
        out["branches"] = dict(self.branches)
        out["suggestions"] = deep_copy(self.suggestions.as_json())
        out["variantsMemo"] = dict(self.variants_memo)
        out["editCount"] = self.edit_count
        out["fillDefaults"] = self.fill_defaults
        return out

    # -- what a host reads ------------------------------------------------------------------------

    @property
    def document(self) -> Any:
        """The data as JSON (None when there is none)."""
        return None if self.data is UNSET else deep_copy(self.data)

    @property
    def valid(self) -> bool:
        return self.validation.valid

    @property
    def errors(self) -> list[FieldError]:
        return self.validation.errors

    @property
    def tracking(self) -> bool:
        return self.base is not UNSET

    @property
    def modified(self) -> bool:
        root = self.tree.root
        return self.tracking and bool(root.modified or root.child_modified)

    def set_base(self, base: Any) -> None:
        """Adopt ``base`` as the unmodified copy (after a save: the document that was saved)."""
        self.base = deep_copy(jsonable(base))
        self._rebuild(self.data)

    def node(self, path: str) -> Node:
        """The shown field at ``path`` (layout, data or mixed path); ``FieldNotFound`` otherwise.
        A path inside objects the data does not have yet builds their fields on the way."""
        normal = paths.normalise(path)
        if normal.count("/") > 4 * MAX_TREE_DEPTH:
            raise paths.FieldNotFound(
                f"no field at a path of {normal.count('/')} segments: fields are at most {MAX_TREE_DEPTH} levels "
                "deep (deeper values are read and written whole, with their ancestor's path).",
                code="fieldNotFound",
            )
        node = paths.resolve(self.tree, normal) or self._unfold(normal)
        if node is None:
            raise paths.not_found(self.tree, normal)
        if node.folded:
            node = self.unfold_items([node])[0]
        return node

    def unfold_items(self, items: list[Node]) -> list[Node]:
        """The folded items of a long list (``tree.FOLD_FROM``) built with their fields."""
        folded = [node for node in items if node.folded]
        if not folded:
            return items
        self._expand.update(node.full_key for node in folded)
        self._rebuild(self.data)
        return [self.tree.by_full_key.get(node.full_key, node) for node in items]

    def _unfold(self, path: str) -> Node | None:
        """The node at ``path`` once the objects absent from the data that it goes through have
        their fields built (the tree holds the data and one level more; a recursive schema
        has no end below that, so only what a path names is built)."""
        tokens = path[1:].split("/") if path else []
        if len(tokens) > 2 * MAX_TREE_DEPTH:
            return None  # deeper than the tree goes (each level may add a layout segment)
        for _ in tokens:
            holder = None
            for cut in range(len(tokens) - 1, 0, -1):
                holder = paths.resolve(self.tree, "/" + "/".join(tokens[:cut]))
                if holder is not None:
                    break
            if holder is None or holder.children or holder.full_key in self._expand or holder.skeleton is None:
                return None
            if not (holder.folded or _expandable(holder.skeleton)):
                return None
            self._expand.add(holder.full_key)
            self._rebuild(self.data)
            found = paths.resolve(self.tree, path)
            if found is not None:
                return found
        return None

    def node_for_edit(self, path: str) -> Node:
        """``node`` and, when it is inside a list item, that item becomes the list's active one."""
        node = self.node(path)
        found = paths.item_list_of(node)
        if found is not None:
            self.active_items[found[0].full_key] = found[1]
        return node

    # -- building -------------------------------------------------------------------------------

    def _rebuild(self, data: Any) -> None:
        # Keys the schema refuses stay: they are errors on their own fields, and only a write
        # removes them (the form library drops them, which loses what a file had).
        tree = build_tree(
            self.form,
            data,
            variants=self.variants,
            base=self.base,
            context=self.context,
            previous_branches=self.branches,
            fill=self.fill_defaults,
            expand=frozenset(self._expand),
            active_items=self.active_items,
        )
        # An item unfolded once stays so for this state's life: what a call reports shown or
        # hidden is what the data did, not what the folding did.
        self._expand.update(
            node.full_key
            for node in tree.nodes
            if node.item_index is not None and node.children and len(node.parent.children) >= FOLD_FROM  # type: ignore[union-attr]
        )
        self.tree: Tree = tree
        self.validation: Validation = validate_tree(self.form, tree)
        self.data = tree.data
        self.branches = dict(tree.branches)

    def _visible_map(self) -> dict[str, tuple[bool, bool]]:
        return {node.full_key: (node.shown, node.owns_data) for node in self.tree.nodes if node.comp != "slot"}

    def _visibility(self, before: dict[str, tuple[bool, bool]], *exclude: str | None) -> VisibilityChange:
        """The fields shown and hidden since ``before``, except at and under ``exclude`` (the
        part the answer describes anyway)."""
        change = VisibilityChange()
        after = self._visible_map()
        skipped = tuple(path for path in exclude if path is not None)

        def excluded(key: str) -> bool:
            return any(key == path or key.startswith(path + "/") for path in skipped)

        for key, (shown, owns) in after.items():
            if excluded(key):
                continue
            previous = before.get(key)
            if shown and owns and (previous is None or not previous[0]):
                change.shown.append(key or "/")
        for key, (shown, owns) in before.items():
            if excluded(key):
                continue
            now = after.get(key)
            if shown and owns and (now is None or not now[0]):
                change.hidden.append(key or "/")
        # A field under another reported one is implied by it.
        change.shown = _outermost(change.shown)
        change.hidden = _outermost(change.hidden)
        return change

    # -- operations -----------------------------------------------------------------------------

    def set_field_value(self, path: Any, value: Any = UNSET, *, suggestion_index: Any = None) -> WriteReport:
        if path is None:
            raise FormError("path is required: the field to write, as describeState lists it.", code="missingPath")
        has_index = suggestion_index is not None
        if has_index and value is not UNSET:
            raise FormError(
                "pass either value or suggestionIndex, not both: they are two ways to give the same value.",
                code="exclusiveArguments",
            )
        if not has_index:
            if value is UNSET:
                raise FormError(
                    "value or suggestionIndex is required (pass value null to clear the field).", code="missingValue"
                )
            value = parse_json_string(value)
            check_structural_keys(value, "the value")
        try:
            node = self.node_for_edit(path)
        except paths.FieldNotFound:
            node = None if has_index else self._new_map_entry(path)
            if node is None:
                raise
        if has_index:
            value = self.suggestions.value(node.path, suggestion_index)
        before = self._visible_map()
        if node.is_selector:
            return self._activate_variant(node, value, before)
        self._write(node, value)
        self.edit_count += 1
        self._after_write(retain=True)
        node = self._same_node(node)
        mine, others = scoped(self.errors, node)
        return WriteReport(node, node.data, self._visibility(before), mine, others, self.valid)

    def _new_map_entry(self, path: Any) -> Node | None:
        """The field of a new key of a map, for a write to a path one key below the map (the
        key is added with no value, and the write gives it one); None for any other path."""
        normal = paths.normalise(path)
        tokens = jsonpointer.split(normal) if normal else []
        if not tokens or tokens[-1].startswith("$"):
            return None
        holder = paths.resolve(self.tree, jsonpointer.join(tokens[:-1]))
        if holder is None or holder.wrapper or holder.skeleton is None or not holder.skeleton.is_map:
            return None
        if (
            not (isinstance(holder.data, dict) or holder.data is UNSET)
            or holder.skeleton.entry_schema(tokens[-1]) is None
        ):
            return None
        key = tokens[-1]
        data = deep_copy(self.data) if self.data is not UNSET else {}
        entry_path = jsonpointer.append(holder.data_path, key)
        # A placeholder the write replaces: the field must exist to be written.
        data = _set_in(data, entry_path, None)
        self._rebuild(data)
        return self.tree.by_data_path.get(entry_path)

    def _same_node(self, old: Node) -> Node:
        return (
            self.tree.by_full_key.get(old.full_key)
            or self.tree.by_data_path.get(old.data_path)
            or paths.value_item(self.tree, old.full_key)
            or self.tree.root
        )

    def _activate_variant(self, node: Node, value: Any, before: dict[str, tuple[bool, bool]]) -> WriteReport:
        owner = node.variant_owner
        assert owner is not None
        count = len(owner.variants)
        index = _variant_index(value, count)
        if index is None:
            listing = ", ".join(f"variant {i}: {title}" for i, title in enumerate(owner.variant_titles))
            raise FormError(
                f'"{node.path}" chooses a variant: its value is the number of the variant to use, one of {listing}.',
                code="badVariant",
            )
        previous = node.active_variant
        data = deep_copy(self.data) if self.data is not UNSET else UNSET
        target = lookup(data, node.data_path)
        if previous is not None and previous != index and isinstance(target, dict):
            keep = {name for name, _ in owner.properties}
            for wrapper in [*owner.all_of, *owner.dependent.values()]:
                keep |= wrapper.declared_keys
            keep |= owner.variants[index].declared_keys
            for name in owner.variants[previous].declared_keys - keep:
                target.pop(name, None)
            # A constant of the old variant would otherwise pick it again.
            for name, sub in owner.variants[previous].properties:
                if sub.has_const and name in target:
                    del target[name]
        # The chosen variant's constants (its discriminator) are part of the choice: written
        # where the object has no value for them, never over one.
        constants = {name: sub.const for name, sub in owner.variants[index].properties if sub.has_const}
        if constants and target is UNSET:
            target = {}
            data = target if node.data_path == "" else _set_in(data, node.data_path, target)
        if isinstance(target, dict):
            for name, value in constants.items():
                target.setdefault(name, deep_copy(value))
        self.variants[node.full_key] = index
        self.edit_count += 1
        self._rebuild(data)
        self._after_write(retain=True)
        selector = self._same_node(node)
        mine, others = scoped(self.errors, selector)
        activated = selector.children[0] if selector.children else None
        return WriteReport(
            selector,
            index,
            self._visibility(before, selector.full_key),
            mine,
            others,
            self.valid,
            activated=activated,
        )

    def _write(self, node: Node, value: Any) -> None:
        skeleton = node.skeleton
        nullable = skeleton.nullable if skeleton is not None else False
        if value is None and not nullable:
            value = UNSET
        elif self.fill_defaults and is_empty(value) and not (isinstance(value, list) and node.required):
            # The form library's way for a new record: an emptied field goes (and its default
            # comes back). In an existing document "" or {} is a value like any other.
            value = None if nullable and value is not UNSET else UNSET
        data = deep_copy(self.data) if self.data is not UNSET else {}
        if node.data_path == "":
            data = deep_copy(value) if value is not UNSET else UNSET
        else:
            data = _set_in(data, node.data_path, deep_copy(value))
            if self.fill_defaults:
                data = self._prune(data, node.data_path)
        self._rebuild(data)

    def _prune(self, data: Any, pointer: str) -> Any:
        """Objects emptied by a write leave the data, unless their field is required (a state
        that fills defaults only: elsewhere an object the user emptied stays, empty)."""
        tokens = jsonpointer.split(pointer)
        while len(tokens) > 1:
            tokens.pop()
            parent_pointer = jsonpointer.join(tokens)
            container = lookup(data, parent_pointer)
            if container != {}:
                break
            holder = self.tree.by_data_path.get(parent_pointer)
            if holder is None or holder.required or holder.item_index is not None:
                break
            grand = lookup(data, jsonpointer.join(tokens[:-1]))
            if isinstance(grand, dict):
                grand.pop(tokens[-1], None)
            else:
                break
        return data

    def _after_write(self, *, retain: bool) -> None:
        if retain:

            def node_key(path: str) -> tuple[bool, str | None]:
                found = self.tree.by_full_key.get(path)
                return (found is not None and found.shown, found.items_key if found is not None else None)

            self.suggestions.retain_fresh(node_key)
        else:
            self.suggestions.clear()

    def set_data(self, data: Any, *, merge: bool = True) -> SetDataReport:
        if data is None or data is UNSET:
            raise FormError("data is required: the object of values to write.", code="missingData")
        data = parse_json_string(data)
        root_is_object = self.form.root.is_object
        if root_is_object and not isinstance(data, dict):
            raise FormError(
                "data must be a JSON object whose keys are the form's fields"
                + (" (the string given does not parse as JSON)" if isinstance(data, str) else "")
                + "; to change one field, use setFieldValue.",
                code="dataNotObject",
            )
        check_structural_keys(data, "data")
        before = self._visible_map()
        removed: list[str] = []
        current = self.data if isinstance(self.data, dict) else {}
        if root_is_object and merge:
            new_data = _deep_merge(deep_copy(current), data)
        else:
            new_data = deep_copy(data)
            if isinstance(data, dict):
                removed = [key for key in current if key not in data]
        self.variants.clear()
        self.edit_count += 1
        self._rebuild(new_data)
        self._after_write(retain=False)
        unknown = self._unknown_keys(data, "") if isinstance(data, dict) else []
        refused = [path for path in unknown if self.tree.by_data_path[path].entry == "refused"]
        return SetDataReport(
            written=list(data) if isinstance(data, dict) else [],
            removed=removed,
            unknown=unknown,
            refused=refused,
            visibility=self._visibility(before),
            errors=list(self.errors),
            valid=self.valid,
            whole=not isinstance(data, dict),
        )

    def _unknown_keys(self, written: dict[str, Any], pointer: str) -> list[str]:
        """The data paths of written keys no property names and no map expects."""
        out = []
        for key, value in written.items():
            child = jsonpointer.append(pointer, key)
            node = self.tree.by_data_path.get(child)
            if node is None:
                continue  # under a hidden field, or inside a value written whole
            if node.entry in ("free", "refused"):
                out.append(child)
            elif isinstance(value, dict) and node.children:
                out.extend(self._unknown_keys(value, child))
        return out

    def edit_array(
        self,
        path: Any,
        action: Any,
        index: Any = None,
        value: Any = UNSET,
        *,
        key: Any = None,
        new_key: Any = None,
    ) -> ArrayReport:
        """Add or remove an item of a list; or, given ``key``, add, remove or rename a key of an
        object (a map's entry, or a key the schema does not accept)."""
        if path is None or action is None:
            raise FormError(
                "path and action are required: the list or object to edit, and what to do.", code="missingArgs"
            )
        node = self.node(path)
        if key is not None or new_key is not None or action == "rename" or self._holds_keys(node):
            return self._edit_keys(node, action, key, new_key, value)
        if not (node.is_list or paths.holds_values(node)):
            kind = node.comp
            raise FormError(
                f'"{node.path}" is not a list of items (it is a {kind} field); editArray edits lists, and the keys '
                "of objects (give key). Write the whole value of this field with setFieldValue.",
                code="notAList",
            )
        if action == "rename":
            raise FormError(
                "rename is for the keys of an object; a list's items are added and removed.", code="badAction"
            )
        items = list(node.data) if isinstance(node.data, list) else []
        length = len(items)
        before = self._visible_map()
        if action == "add":
            position = length if index is None else index
            if not _is_index(position) or not 0 <= int(position) <= length:
                raise FormError(
                    f"index {_show(position)} is out of range: the list has {length} item(s), so a new item "
                    f"goes at 0 to {length}.",
                    code="indexOutOfRange",
                )
            position = int(position)
            if (
                value is UNSET
                and not node.is_list
                and not _has_empty_value(node.skeleton.item if node.skeleton else None)
            ):
                raise FormError(
                    f'give value: the item to add to "{node.path}", a list of plain values with no empty one to start '
                    "from.",
                    code="missingValue",
                )
            new_item = parse_json_string(value) if value is not UNSET else self._empty_item(node)
            check_structural_keys(new_item, "the value")
            items.insert(position, deep_copy(new_item))
            self._shift(node.full_key, position, +1)
            self.active_items[node.full_key] = position
        elif action == "remove":
            if length == 0:
                raise FormError(f'"{node.path}" is empty: there is no item to remove.', code="emptyList")
            position = length - 1 if index is None else index
            if not _is_index(position) or not 0 <= int(position) < length:
                raise FormError(
                    f"index {_show(position)} is out of range: the list has {length} item(s) (0 to {length - 1}).",
                    code="indexOutOfRange",
                )
            position = int(position)
            items.pop(position)
            active = self.active_items.get(node.full_key)
            self._shift(node.full_key, position, -1)
            if active is not None:
                if active == position:
                    self.active_items.pop(node.full_key, None)
                elif active > position:
                    self.active_items[node.full_key] = active - 1
        else:
            raise FormError(f'unknown action {_show(action)}: use "add" or "remove".', code="badAction")
        data = deep_copy(self.data) if self.data is not UNSET else {}
        data = _set_in(data, node.data_path, items) if node.data_path else items
        self.edit_count += 1
        self._rebuild(data)
        self._after_write(retain=False)
        list_node = self._same_node(node)
        item = None
        if action == "add":
            item = next((c for c in list_node.children if c.item_index == position), None)
        mine, others = scoped(self.errors, list_node)
        return ArrayReport(
            list_node,
            action,
            position,
            len(list_node.data) if isinstance(list_node.data, list) else 0,
            item,
            self._visibility(before, item.full_key if item is not None else None),
            mine,
            others,
            self.valid,
        )

    def _holds_keys(self, node: Node) -> bool:
        """An object whose keys are the user's to choose: a map."""
        return node.skeleton is not None and node.skeleton.comp == "map" and not node.wrapper

    def _edit_keys(self, node: Node, action: Any, key: Any, new_key: Any, value: Any) -> ArrayReport:
        if node.wrapper:
            node = self.tree.by_data_path.get(node.data_path, node)
        skeleton = node.skeleton
        if skeleton is None or not skeleton.is_object or not (isinstance(node.data, dict) or node.data is UNSET):
            raise FormError(
                f'"{node.path}" is not an object ({node.comp} field): key, newKey and rename are for the keys of an '
                "object. A list's items are added and removed by index.",
                code="notAnObject",
            )
        if not isinstance(key, str) or not key:
            raise FormError(
                f'key is required: the name of the key of "{node.path}" to add, remove or rename.', code="missingKey"
            )
        current = dict(node.data) if isinstance(node.data, dict) else {}
        where = node.data_path
        before = self._visible_map()
        if action == "add":
            if key in current:
                raise FormError(
                    f'"{node.path}" already has the key "{key}": change its value with setFieldValue on '
                    f"{jsonpointer.append(where, key)}.",
                    code="keyExists",
                )
            self._refuse_unaccepted_key(node, key)
            new_value = parse_json_string(value) if value is not UNSET else self._empty_entry(skeleton, key)
            check_structural_keys(new_value, "the value")
            current[key] = deep_copy(new_value)
        elif action in ("remove", "rename"):
            if key not in current:
                listed = ", ".join(json.dumps(k, ensure_ascii=False) for k in list(current)[:12]) or "none"
                raise FormError(f'"{node.path}" has no key "{key}" (its keys: {listed}).', code="noSuchKey")
            if action == "remove":
                del current[key]
                self._rekey(jsonpointer.append(node.full_key, key), None)
            else:
                if not isinstance(new_key, str) or not new_key:
                    raise FormError("newKey is required to rename a key: the name it takes.", code="missingKey")
                if new_key in current:
                    raise FormError(
                        f'"{node.path}" already has the key "{new_key}": remove it first, or choose another name.',
                        code="keyExists",
                    )
                self._refuse_unaccepted_key(node, new_key)
                current = {(new_key if k == key else k): v for k, v in current.items()}
                self._rekey(jsonpointer.append(node.full_key, key), jsonpointer.append(node.full_key, new_key))
        else:
            raise FormError(f'unknown action {_show(action)}: use "add", "remove" or "rename".', code="badAction")
        data = deep_copy(self.data) if self.data is not UNSET else {}
        data = _set_in(data, where, current) if where else current
        self.edit_count += 1
        self._rebuild(data)
        self._after_write(retain=False)
        holder = self._same_node(node)
        name = new_key if action == "rename" else key
        entry = self.tree.by_data_path.get(jsonpointer.append(where, name)) if action != "remove" else None
        mine, others = scoped(self.errors, holder)
        return ArrayReport(
            holder,
            str(action),
            None,
            len(holder.data) if isinstance(holder.data, dict) else 0,
            entry,
            self._visibility(
                before,
                jsonpointer.append(node.full_key, key),
                jsonpointer.append(node.full_key, new_key) if isinstance(new_key, str) else None,
                entry.full_key if entry is not None else None,
            ),
            mine,
            others,
            self.valid,
            key=key,
            new_key=new_key if action == "rename" else None,
        )

    def _refuse_unaccepted_key(self, node: Node, key: str) -> None:
        """A new key the object's schema refuses would only be an error: say so instead."""
        skeleton = node.skeleton
        assert skeleton is not None
        if key in skeleton.declared_keys or skeleton.entry_schema(key) is not None:
            return
        if skeleton.refuses_other_keys:
            names = sorted(skeleton.declared_keys)
            shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
            patterns = [p for p in skeleton.schema.get("patternProperties") or {}]
            accepted = f"its properties ({shown})" if names else "no named property"
            if patterns:
                accepted += f" and keys matching {', '.join(patterns)}"
            raise FormError(
                f'"{node.path}" does not accept the key "{key}": it takes {accepted}.', code="keyNotAccepted"
            )

    def _empty_entry(self, skeleton: Any, key: str) -> Any:
        entry = next((sub for name, sub in skeleton.properties if name == key), None) or skeleton.entry_schema(key)
        return _empty_value(entry)

    def _rekey(self, old: str, new: str | None) -> None:
        """Move what is remembered per path (variant choices, active items, branches) from the
        key at ``old`` to ``new`` (None: forget it)."""
        for mapping in (self.variants, self.active_items, self.branches):
            moved = {}
            for path, remembered in mapping.items():
                if path == old or path.startswith(old + "/"):
                    if new is not None:
                        moved[new + path[len(old) :]] = remembered
                else:
                    moved[path] = remembered
            mapping.clear()
            mapping.update(moved)

    def _empty_item(self, node: Node) -> Any:
        return _empty_value(node.skeleton.item if node.skeleton is not None else None)

    def _shift(self, list_key: str, position: int, delta: int) -> None:
        """Re-key what is remembered per item path after an insertion or a removal."""
        prefix = list_key + "/"

        def moved(key: str) -> str | None:
            if not key.startswith(prefix):
                return key
            rest = key[len(prefix) :]
            head, _, tail = rest.partition("/")
            if not head.isdigit():
                return key
            number = int(head)
            if number < position:
                return key
            if delta < 0 and number == position:
                return None
            return prefix + str(number + delta) + ("/" + tail if tail else "")

        for mapping in (self.variants, self.active_items, self.branches):
            updated = {}
            for key, val in mapping.items():
                new_key = moved(key)
                if new_key is not None:
                    updated[new_key] = val
            mapping.clear()
            mapping.update(updated)

    def get_data(self, path: Any = None) -> dict[str, Any]:
        """``{"data": ..., "valid": ...}`` or ``{"unset": True, "valid": ...}``."""
        if path is None or paths.normalise(path) == "":
            if self.data is UNSET:
                return {"unset": True, "valid": self.valid}
            return {"data": deep_copy(self.data), "valid": self.valid}
        node = self.node(path)
        if node.wrapper:
            listed, total = paths.data_descendants(node, 12)
            where = "the whole document" if node.data_path == "" else f'"{node.data_path}"'
            fields = ", ".join(listed) if listed else "(none shown)"
            more = f" and {total - len(listed)} more" if total > len(listed) else ""
            raise FormError(
                f'"{node.path}" is a layout group, not a value: it holds no data of its own (its fields belong to '
                f"{where}). Read one of its fields instead: {fields}{more}. Omit path to read the whole document.",
                code="layoutPath",
            )
        if node.data is UNSET:
            return {"unset": True, "valid": self.valid}
        return {"data": deep_copy(node.data), "valid": self.valid}

    def list_suggestions(self, path: Any, query: Any = None) -> tuple[Node, Listing, int]:
        """The options of a field and the index the first one got in the store."""
        if path is None:
            raise FormError("path is required: the field whose options you want.", code="missingPath")
        if query is not None and not isinstance(query, str):
            query = str(query)
        node = self.node_for_edit(path)
        if node.is_selector and node.variant_owner is not None:
            options = [
                {"key": str(i), "title": title, "value": i} for i, title in enumerate(node.variant_owner.variant_titles)
            ]
            if query:
                options = [o for o in options if query.casefold() in o["title"].casefold()]
            listing = Listing(options)
        elif node.is_list:
            raise SuggestionError(
                f"{node.path} is a list: it has no options of its own. Add an item with editArray, then ask for "
                "the options of the item's field (describeState marks the fields that have options).",
                code="listHasNoOptions",
            )
        elif node.skeleton is None or node.skeleton.items is None or node.items_state is None:
            raise SuggestionError(
                f"{node.path} has no list of options: describeState marks the fields that have one; "
                "give this field a value with setFieldValue.",
                code="noOptions",
            )
        else:
            listing = list_options(node, query, self.context, self.document, self.fetcher)
        base = self.suggestions.add(node.path, [o["value"] for o in listing.options], node.items_key)
        return node, listing, base

    def scoped_errors(self, node: Node) -> tuple[list[FieldError], int]:
        return scoped(self.errors, node)


# -- helpers -----------------------------------------------------------------------------------


def _empty_value(skeleton: Any) -> Any:
    """The value a new list item or a new key starts with: its default or constant, else an
    empty object or list, else null."""
    if skeleton is None:
        return None
    if skeleton.has_default:
        return deep_copy(skeleton.default)
    if skeleton.has_const:
        return deep_copy(skeleton.const)
    if skeleton.is_object:
        return {}
    return [] if skeleton.kind == "array" else None


def _expandable(skeleton: Any) -> bool:
    """Whether a path may build the fields of this fragment before the data has it: an object,
    a tuple, or a type switch that can hold an object."""
    return (
        skeleton.object_composite
        or skeleton.tuple_items
        or skeleton.accepts_anything
        or any(branch.object_composite for branch in skeleton.branches)
    )


def _has_empty_value(skeleton: Any) -> bool:
    """Whether a new item of this schema has a value to start from (see ``_empty_value``)."""
    return skeleton is not None and (
        skeleton.has_default or skeleton.has_const or skeleton.is_object or skeleton.kind == "array"
    )


def _outermost(paths_: list[str]) -> list[str]:
    out: list[str] = []
    for path in paths_:
        if any(path.startswith(other + "/") for other in out):
            continue
        out.append(path)
    return out


def _variant_index(value: Any, count: int) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        index = value
    elif isinstance(value, float) and value.is_integer():
        index = int(value)
    elif isinstance(value, str) and value.strip().isdigit():
        index = int(value.strip())
    else:
        return None
    return index if 0 <= index < count else None


def _is_index(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


def _show(value: Any) -> str:
    import json

    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _set_in(data: Any, pointer: str, value: Any) -> Any:
    """``data`` with ``value`` at ``pointer`` (UNSET removes), creating objects on the way."""
    tokens = jsonpointer.split(pointer)
    if not isinstance(data, (dict, list)):
        data = {}
    node = data
    for depth, token in enumerate(tokens[:-1]):
        if isinstance(node, dict):
            nxt = node.get(token)
            if not isinstance(nxt, (dict, list)):
                if nxt is not None and nxt is not UNSET:
                    where = jsonpointer.join(tokens[: depth + 1])
                    raise FormError(
                        f'cannot write {pointer}: {where} holds {type(nxt).__name__} "{nxt}", not an object; '
                        f"set {where} first.",
                        code="notAContainer",
                    )
                nxt = {}
                node[token] = nxt
            node = nxt
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                raise FormError(f"cannot write {pointer}: the list has no item {token}.", code="noSuchItem")
            if not isinstance(node[int(token)], (dict, list)):
                node[int(token)] = {}
            node = node[int(token)]
    last = tokens[-1]
    if isinstance(node, dict):
        if value is UNSET:
            node.pop(last, None)
        else:
            node[last] = value
    elif isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = None if value is UNSET else value
    return data


def _deep_merge(target: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            target[key] = _deep_merge(target[key], value)
        else:
            target[key] = deep_copy(value)
    return target


def check_structural_keys(value: Any, what: str) -> None:
    """Refuse ``$oneOf``-like keys in a written value: they are path segments, not data keys."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, current = stack.pop()
        if isinstance(current, dict):
            for key, child in current.items():
                here = jsonpointer.append(where, key)
                if isinstance(key, str) and _STRUCTURAL_KEY.match(key):
                    advice = (
                        " To choose a variant, write its number to the path that ends in /$oneOf (add a list item "
                        "first when the variant is inside one)."
                        if key == "$oneOf"
                        else ""
                    )
                    raise FormError(
                        f'{what} contains the key "{key}" (at {here or "/"}): that is a segment of form paths, '
                        f"not a data key, so nothing was written.{advice}",
                        code="structuralKey",
                    )
                stack.append((here, child))
        elif isinstance(current, list):
            stack.extend((jsonpointer.append(where, i), child) for i, child in enumerate(current))
