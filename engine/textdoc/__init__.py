"""JSON and YAML documents kept as text: read them as data, and write a changed document back
by changing only the bytes of the values that changed.

``read_document`` gives a file's data (YAML 1.2, see ``yaml_tree``; JSON as Python's ``json``
reads it, comments and trailing commas accepted). ``write_document`` takes the file's bytes and
the new data and returns the new bytes: the file is parsed with positions, compared with the
new data (``plan``), the changed values are spliced in, and the result is parsed again and
compared once more, so what is written always reads back as the new data; when some change
cannot be expressed that way, ``DocumentEditError`` says so and nothing is written. A byte
order mark, CRLF line ends and a missing final newline are kept; a text with no change comes
back byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import DeskcheckError, InputError
from .nodes import MAX_DEPTH, MAX_VALUES, Budget, Node, node_equals, same_value, to_data

BOM = "\ufeff"
# Rounds of edits: the first makes the changes; a second repairs what an anchor's change did to
# its aliases or merges.
MAX_ROUNDS = 3


class DocumentEditError(DeskcheckError):
    """The new document cannot be written into the old text without touching what did not
    change; nothing was written."""


def decode(raw: bytes, what: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text.") from None


def read_document(text: str, kind: str, what: str) -> Any:
    """The data of a JSON or YAML text (without its byte order mark)."""
    if kind == "yaml":
        from .yaml_tree import parse_yaml

        root = parse_yaml(text, what)
        return None if root is None else to_data(root, Budget(MAX_VALUES, what))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        data = _lenient_json(text, what, exc)
    except RecursionError:
        raise InputError(f"{what} nests deeper than {MAX_DEPTH} levels.") from None
    except ValueError as exc:  # an integer longer than Python converts
        raise InputError(f"{what} has a number too long to read ({exc}).") from None
    _check_depth(data, what)
    return data


def _lenient_json(text: str, what: str, strict: Exception) -> Any:
    from .json_tree import JsonSyntaxError, parse_json

    try:
        root = parse_json(text, lenient=True)
    except JsonSyntaxError:
        line, column = getattr(strict, "lineno", 0), getattr(strict, "colno", 0)
        message = getattr(strict, "msg", str(strict))
        raise InputError(
            f"{what} is not valid JSON ({message} at line {line}, column {column}); fix it and try again "
            "(a .yaml or .yml file is read as YAML)."
        ) from None
    return to_data(root, Budget(MAX_VALUES, what))


def _check_depth(data: Any, what: str) -> None:
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(f"{what} nests deeper than {MAX_DEPTH} levels.")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def parse_tree(text: str, kind: str, what: str) -> Node | None:
    if kind == "yaml":
        from .yaml_tree import parse_yaml

        return parse_yaml(text, what)
    from .json_tree import JsonSyntaxError, parse_json

    try:
        return parse_json(text, lenient=True)
    except JsonSyntaxError as exc:
        raise InputError(f"{what} is not valid JSON ({exc.message.rstrip('.')}).") from None


def render_document(data: Any, kind: str) -> str:
    """A new file's text for ``data`` (two-space indentation, a final newline)."""
    from .layout import Layout

    if kind == "yaml":
        from .render import is_block, yaml_block, yaml_flow

        return (yaml_block(data, Layout(), 0) if is_block(data) else yaml_flow(data, Layout())) + "\n"
    from .render import json_value

    return json_value(data, Layout(), base="", multiline=True) + "\n"


def edit_text(text: str, data: Any, kind: str, what: str = "the document") -> str:
    """``text`` changed to read as ``data``, only where the two differ."""
    from .splices import OverlapError, apply_splices

    for _ in range(MAX_ROUNDS):
        if kind == "json" and _reads_as(text, data, kind, what):
            return text  # (the C parser answers this quickly)
        root = _tree_of_own_text(text, kind, what)
        if kind == "yaml" and (node_equals(root, data) if root is not None else data is None):
            return text
        if root is None:
            joint = "" if not text or text.endswith("\n") else "\n"
            text = text + joint + render_document(data, kind).replace("\n", _newline(text))
            continue
        splices = _planner(text, root, kind).run(root, data)
        if not splices:
            break
        try:
            text = apply_splices(text, splices)
        except OverlapError:
            break
    if _reads_as(text, data, kind, what):
        return text
    raise DocumentEditError(
        f"the changes cannot be written into {what} without rewriting parts that did not change; "
        "nothing was written. Make this change in the file by hand, or save to a new file."
    )


def _reads_as(text: str, data: Any, kind: str, what: str) -> bool:
    """Whether ``text`` reads as ``data`` (for JSON through the C parser, which is quick)."""
    if kind == "json":
        try:
            read = read_document(text, kind, what)
        except InputError:
            return False
        return _same_json(read, data) or same_value(read, data)
    root = _tree_of_own_text(text, kind, what)
    return node_equals(root, data) if root is not None else data is None


def _same_json(a: Any, b: Any) -> bool:
    """A quick sufficient test of ``same_value`` (the C encoder keeps 1 and true apart)."""
    try:
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return False


def _tree_of_own_text(text: str, kind: str, what: str) -> Node | None:
    try:
        return parse_tree(text, kind, what)
    except InputError as exc:
        raise DocumentEditError(
            f"the changes cannot be written into {what}: the text they would make does not read back "
            f"({exc.message.rstrip('.')}); nothing was written. Make this change in the file by hand."
        ) from None


def _newline(text: str) -> str:
    from .layout import newline_of

    return newline_of(text)


def _planner(text: str, root: Node, kind: str) -> Any:
    from .plan import Planner

    if kind == "yaml":
        from .yaml_edit import YamlEditor

        return Planner(YamlEditor(text, root), root)
    from .json_edit import JsonEditor

    return Planner(JsonEditor(text, root), root)


def write_document(previous: bytes | None, data: Any, kind: str, what: str = "the document") -> bytes:
    """The bytes to write for ``data``: ``previous`` edited in place, or a new file's text."""
    if previous is None:
        return render_document(data, kind).encode("utf-8")
    text = decode(previous, what)
    bom = previous.startswith(BOM.encode("utf-8"))
    new = edit_text(text, data, kind, what)
    if new == text:
        return previous
    try:
        return ((BOM if bom else "") + new).encode("utf-8")
    except UnicodeEncodeError:
        raise DocumentEditError(
            f"the new data for {what} holds text that UTF-8 cannot encode; nothing was written."
        ) from None
