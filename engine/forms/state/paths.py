"""Finding a field by the path a caller gives.

A path may be a layout path (``/shape/$oneOf/1/w``, ``/$comp-1/theme/primary``), a data path
(``/theme/primary``, the JSON pointer of the value), or a data path followed by layout segments
(``/menu/children/2/$oneOf``). Only fields that are shown can be found; a path that leads to a
hidden field, or to nothing, gets a message saying which, with the paths to try instead.
"""

from __future__ import annotations

from ... import jsonpointer
from ...errors import DeskcheckError
from ..schema.values import UNSET
from .tree import Node, Tree, lookup

# How many top-level fields a "not found" message names.
LISTED_FIELDS = 12


class FieldNotFound(DeskcheckError):
    pass


def normalise(path: object) -> str:
    if not isinstance(path, str):
        raise DeskcheckError(f'path must be a string such as "/name", not {type(path).__name__}.', code="badPath")
    text = path.strip()
    if text in ("", "/"):
        return ""
    if not text.startswith("/"):
        text = "/" + text
    return text.rstrip("/")


def resolve(tree: Tree, path: str) -> Node | None:
    """The shown node a normalised path names, or None."""
    if path == "":
        return tree.root
    node = tree.by_full_key.get(path)
    if node is not None and _shown(node):
        return node
    node = tree.by_data_path.get(path)
    if node is not None and _shown(node):
        return node
    return _mixed(tree, path) or value_item(tree, path)


def holds_values(node: Node) -> bool:
    """Whether ``node`` is a list of plain values shown as one field (a combobox, a multiple
    select): its items are addressable by index, though not listed as fields of their own."""
    skeleton = node.skeleton
    return (
        skeleton is not None
        and not node.wrapper
        and not node.children
        and skeleton.kind == "array"
        and not skeleton.tuple_items
        and node.comp not in ("list", "json", "none")
    )


def value_item(tree: Tree, path: str) -> Node | None:
    """The field of one item of a list of plain values (``/presets/0``), made when a path names
    it: such lists are one field in the tree, and their items are fields only on demand."""
    if not path.startswith("/"):
        return None
    tokens = jsonpointer.split(path)
    index = tokens[-1]
    if not index.isdigit() or (len(index) > 1 and index.startswith("0")):
        return None
    holder = resolve(tree, jsonpointer.join(tokens[:-1])) if len(tokens) > 1 else tree.root
    if holder is None or not holder.shown or not holds_values(holder):
        return None
    if not isinstance(holder.data, list) or int(index) >= len(holder.data):
        return None
    assert holder.skeleton is not None
    item = holder.skeleton.item or holder.skeleton.form.any_skeleton
    node = Node(
        key=index,
        full_key=f"{holder.full_key}/{index}",
        data_path=f"{holder.data_path}/{index}",
        parent=holder,
        skeleton=item,
        comp=item.comp if item.comp != "none" else "json",
        data=holder.data[int(index)],
        read_only=holder.read_only or item.read_only,
        title=item.title,
        item_index=int(index),
    )
    node.shown = True
    if item.items is not None and item.items.kind == "static":
        node.items_state, node.items = "static", list(item.items.items)
        node.items_key = "static:" + item.pointer
    return node


def _shown(node: Node) -> bool:
    return node.shown


def _mixed(tree: Tree, path: str) -> Node | None:
    tokens = path[1:].split("/")
    for cut in range(len(tokens) - 1, 0, -1):
        if not tokens[cut].startswith("$"):
            continue
        prefix = "/" + "/".join(tokens[:cut])
        start = tree.by_data_path.get(prefix) or tree.by_full_key.get(prefix)
        if start is None:
            continue
        node: Node | None = start
        for token in tokens[cut:]:
            node = next((c for c in node.children if c.key == token), None) if node is not None else None
        if node is not None and _shown(node):
            return node
    return None


def not_found(tree: Tree, path: str) -> FieldNotFound:
    shown = path or "/"
    holder = _value_holder(tree, path)
    if holder is not None and holds_values(holder):
        count = len(holder.data) if isinstance(holder.data, list) else 0
        last = jsonpointer.split(path)[-1]
        if holder.data_path == path.rsplit("/", 1)[0] and last.isdigit():
            span = f"items 0 to {count - 1}" if count else "no items yet"
            return FieldNotFound(
                f'no item at "{shown}": {holder.path} has {span}. Add an item with editArray on {holder.path} '
                '(action "add"), then write it by its index.',
                code="indexOutOfRange",
            )
    if holder is not None:
        return FieldNotFound(
            f'no field at "{shown}": it is inside {holder.path}, a {holder.comp} field whose value is written '
            f"whole. Read it with getData on {holder.path}, change it, and write it back with setFieldValue.",
            code="insideValue",
        )
    if path and lookup(tree.data, path) is not UNSET:
        return FieldNotFound(
            f'no field at "{shown}": the document has a value there, but {_why_hidden(tree, path)}. describeState '
            "lists the fields the form offers instead.",
            code="fieldHidden",
        )
    listed = []
    for node in _top_level(tree.root):
        label = node.skeleton.title if node.skeleton is not None and node.skeleton.title else node.title
        listed.append(f'{node.path} ("{label}")' if label else node.path)
    more = len(listed) - LISTED_FIELDS
    names = ", ".join(listed[:LISTED_FIELDS]) + (f" and {more} more" if more > 0 else "")
    start = f" The form's top-level fields are {names}." if names else ""
    hint = _close_paths(tree, path)
    return FieldNotFound(
        f'no field at "{shown}".{hint}{start} Use a path that describeState lists, or the data path of a value '
        "as getData shows it.",
        code="fieldNotFound",
    )


def _why_hidden(tree: Tree, path: str) -> str:
    """Why the value at ``path`` has no field that can be found, as precisely as the tree says."""
    node = tree.by_data_path.get(path)
    tokens = jsonpointer.split(path)
    while node is None and tokens:
        tokens.pop()
        node = tree.by_data_path.get(jsonpointer.join(tokens))
    if node is None:
        return "the form has no field for it"
    at = "its field" if node.data_path == path else f"the field {node.path} it is under"
    current: Node | None = node
    while current is not None:
        if not current.shown:
            where = at if current is node else f"{at} is under {current.path}, which"
            skeleton = current.skeleton
            if skeleton is not None and skeleton.comp == "none":
                return f"{where} is drawn as nothing by the schema (layout none)"
            if skeleton is not None and skeleton.if_expression is not None:
                return f"{where} is hidden by its condition (layout.if) for the current data"
        current = current.parent
    return f"{at} does not hold it as a field of its own (a {node.comp} field)"


# A typo is looked for among this many shown fields at most: a huge generated form must not make
# a wrong path cost a comparison with each of its fields.
MAX_COMPARED_PATHS = 5000


def _close_paths(tree: Tree, path: str) -> str:
    """`` Did you mean "/email"?`` for a path one typo away from a shown field's data path."""
    from itertools import islice

    from ...close_matches import did_you_mean

    shown = (key for key, node in tree.by_data_path.items() if key and node.shown)
    return did_you_mean(path, islice(shown, MAX_COMPARED_PATHS), quote='"')


def _value_holder(tree: Tree, path: str) -> Node | None:
    """The shown field, above ``path``, that holds its value as one piece (a JSON value, a
    combobox list, an object picked from options)."""
    tokens = jsonpointer.split(path) if path.startswith("/") else []
    while len(tokens) > 1:
        tokens.pop()
        node = tree.by_data_path.get(jsonpointer.join(tokens))
        if node is not None:
            return node if node.shown and not node.children else None
    return None


def _top_level(root: Node) -> list[Node]:
    out = []
    for child in root.children:
        if not child.shown or child.comp == "slot":
            continue
        out.append(child)
    return out


def data_descendants(node: Node, limit: int) -> tuple[list[str], int]:
    """Paths of the data-owning fields below a wrapper (through nested wrappers)."""
    found: list[str] = []
    total = 0
    stack = list(reversed(node.visible_children))
    while stack:
        child = stack.pop()
        if child.wrapper:
            stack.extend(reversed(child.visible_children))
            continue
        total += 1
        if len(found) < limit:
            found.append(child.path)
    return found, total


def item_list_of(node: Node) -> tuple[Node, int] | None:
    """The list and index of the list item ``node`` is in (the nearest one)."""
    current: Node | None = node
    while current is not None and current.parent is not None:
        if current.parent.is_list and current.item_index is not None:
            return current.parent, current.item_index
        current = current.parent
    return None


def split_pointer(pointer: str) -> list[str]:
    return jsonpointer.split(pointer) if pointer else []
