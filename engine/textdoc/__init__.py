"""JSON, YAML and TOML documents kept as text: read them as data, and write a changed document
back by changing only the bytes of the values that changed.

A text's format is a ``TextFormat``: its kind (``json``, ``yaml`` or ``toml``; plain strings
name one), and for YAML the version plain scalars are read with when a document does not
declare one (1.2 by default, 1.1 as PyYAML reads it on request) and which document of a stream
to edit. ``read_document`` gives a text's data (YAML per ``yaml_tree``; JSON as Python's
``json`` reads it, comments and trailing commas accepted; TOML per ``toml_doc``); ``read_text``
also lists the keys written twice. ``write_document`` takes the file's bytes and the new data
and returns the new bytes: the file is parsed with positions, compared with the new data
(``plan``), the changed values are spliced in, and the result is parsed again and compared once
more, so what is written always reads back as the new data (for YAML whose changes replaced
values written on one line, the edited lines are read instead of the whole text, by the argument
in ``yaml_local``); the other documents of a YAML stream keep their bytes. When some change
cannot be expressed that way, ``DocumentEditError`` says so and nothing is written. A byte order
mark, CRLF line ends and a missing final newline are kept; a text with no change comes back byte
for byte.

Keys written twice: in every format that allows it (JSON, YAML) the last occurrence counts, in
the place of the first, as ``JSON.parse``, Python's ``json`` and PyYAML read them; a change is
written at the last occurrence and removing the key removes every occurrence. TOML forbids them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..errors import DeskcheckError, InputError
from .nodes import MAX_DEPTH, MAX_VALUES, Budget, Duplicate, Node, equal_data, node_equals, same_value, to_data

BOM = "\ufeff"
YAML_VERSIONS = ("1.1", "1.2")
# Rounds of edits: the first makes the changes; a second repairs what an anchor's change did to
# its aliases or merges.
MAX_ROUNDS = 3


class TextFormat(NamedTuple):
    """How a text is read and written. ``yaml_version`` ("1.1" or "1.2", None: 1.2) applies to
    YAML documents that do not declare one; ``document`` picks a document of a YAML stream
    (counted from 0; None: the only one with content)."""

    kind: str
    yaml_version: str | None = None
    document: int | None = None

    @property
    def version(self) -> tuple[int, int] | None:
        return (1, 1) if self.yaml_version == "1.1" else None


def as_format(kind: str | TextFormat) -> TextFormat:
    return kind if isinstance(kind, TextFormat) else TextFormat(kind)


class Reading(NamedTuple):
    """A text's data, the keys it writes twice, and the values it shares between places (see
    ``shared_values``)."""

    data: Any
    duplicates: list[Duplicate]
    shared: Sequence[list[str]] = ()


class DocumentEditError(DeskcheckError):
    """The new document cannot be written into the old text without touching what did not
    change; nothing was written."""


def decode(raw: bytes, what: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text.") from None


def read_document(text: str, kind: str | TextFormat, what: str) -> Any:
    """The data of a text (without its byte order mark)."""
    return read_text(text, kind, what).data


def read_text(text: str, kind: str | TextFormat, what: str) -> Reading:
    """The data of a text and the keys it writes twice (see the module docstring)."""
    fmt = as_format(kind)
    if fmt.kind == "yaml":
        from .nodes import duplicate_keys, shared_paths, value_of
        from .yaml_tree import choose, parse_stream, read_plain

        plain = read_plain(text, what, version=fmt.version)
        if plain is not None:
            index = choose([doc.content for doc in plain], fmt.document, what)
            return Reading(None if index is None else plain[index].data, [])
        stream = parse_stream(text, what, version=fmt.version)
        root = stream.select(fmt.document, what).root
        if root is None:
            return Reading(None, [])
        # Shared values (aliases, merges) are copied out, within a budget; otherwise the data
        # the parser decoded is the data.
        if not stream.aliased:
            return Reading(value_of(root), duplicate_keys(root, text))
        return Reading(to_data(root, Budget(MAX_VALUES, what)), duplicate_keys(root, text), shared_paths(root))
    if fmt.kind == "toml":
        from .toml_doc import read_toml

        return Reading(read_toml(text, what), [])
    repeated: list[bool] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        built = dict(items)
        if len(built) != len(items):
            repeated.append(True)
        return built

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        data = _lenient_json(text, what, exc)
        repeated.append(True)  # (known only from the tree)
    except RecursionError:
        raise InputError(f"{what} nests deeper than {MAX_DEPTH} levels.") from None
    except ValueError as exc:  # an integer longer than Python converts
        raise InputError(f"{what} has a number too long to read ({exc}).") from None
    _check_depth(data, what)
    if not repeated:
        return Reading(data, [])
    from .nodes import duplicate_keys

    return Reading(data, duplicate_keys(parse_tree(text, fmt, what), text))


def _lenient_json(text: str, what: str, strict: Exception) -> Any:
    from .json_tree import JsonSyntaxError, parse_json

    try:
        root = parse_json(text, lenient=True)
    except JsonSyntaxError:
        line, column = getattr(strict, "lineno", 0), getattr(strict, "colno", 0)
        message = getattr(strict, "msg", str(strict))
        raise InputError(
            f"{what} is not valid JSON ({message} at line {line}, column {column}); fix it and try again, "
            "or name its format (--format yaml or toml)."
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


def parse_tree(text: str, kind: str | TextFormat, what: str) -> Node | None:
    """The positioned tree of a JSON text or of a YAML text's document."""
    fmt = as_format(kind)
    if fmt.kind == "yaml":
        from .yaml_tree import parse_yaml

        return parse_yaml(text, what, version=fmt.version, document=fmt.document)
    from .json_tree import JsonSyntaxError, parse_json

    try:
        return parse_json(text, lenient=True)
    except JsonSyntaxError as exc:
        raise InputError(f"{what} is not valid JSON ({exc.message.rstrip('.')}).") from None


def render_document(data: Any, kind: str | TextFormat) -> str:
    """A new file's text for ``data`` (two-space indentation, a final newline)."""
    from .layout import Layout

    fmt = as_format(kind)
    if fmt.kind == "toml":
        from .toml_doc import TomlEditError, render_toml

        try:
            return render_toml(data)
        except TomlEditError as exc:
            raise DocumentEditError(f"the data cannot be written as TOML: {exc}; nothing was written.") from None
    if fmt.kind == "yaml":
        from .render import is_block, yaml_block, yaml_flow

        return (yaml_block(data, Layout(), 0) if is_block(data) else yaml_flow(data, Layout())) + "\n"
    from .render import json_value

    return json_value(data, Layout(), base="", multiline=True) + "\n"


def edit_text(text: str, data: Any, kind: str | TextFormat, what: str = "the document") -> str:
    """``text`` changed to read as ``data``, only where the two differ."""
    from .splices import OverlapError, apply_splices

    fmt = as_format(kind)
    if fmt.kind == "toml":
        return _edit_toml(text, data, what)
    original, stream = text, None
    if fmt.kind == "yaml":
        stream = _stream(text, fmt, what)
        if stream.documents:
            fmt = fmt._replace(document=stream.documents.index(stream.select(fmt.document, what)))
    parsed = stream
    for _ in range(MAX_ROUNDS):
        root, tail, aliased = _tree_of_own_text(text, fmt, what, parsed)
        parsed_first, parsed = parsed, None
        decoded = getattr(root, "decoded", None)
        if fmt.kind == "json" and (
            equal_data(decoded, data) if decoded is not None else _reads_as(text, data, fmt, what, exactly=False)
        ):
            return text  # (the C parser answers this quickly)
        if fmt.kind == "yaml" and (node_equals(root, data) if root is not None else data is None):
            if text is original or _others_kept(stream, original, text, fmt, what):
                return text
            break
        if root is None:
            at = len(text) if tail is None else tail
            joint = "" if at == 0 or text.endswith("\n", 0, at) else "\n"
            text = text[:at] + joint + render_document(data, fmt).replace("\n", _newline(text)) + text[at:]
            continue
        splices = _planner(text, root, fmt.kind, aliased).run(root, data)
        if not splices:
            break
        root = decoded = None  # (a large tree is not needed to check the new text)
        try:
            text = apply_splices(text, splices)
        except OverlapError:
            break
        if fmt.kind == "yaml" and _yaml_reads_as(text, data, fmt, what, stream, original, splices, parsed_first):
            return text
    if fmt.kind == "json" and _reads_as(text, data, fmt, what):
        return text
    raise DocumentEditError(
        f"the changes cannot be written into {what} without rewriting parts that did not change; "
        "nothing was written. Make this change in the file by hand, or save to a new file."
    )


def _edit_toml(text: str, data: Any, what: str) -> str:
    from .toml_doc import TomlEditError, edit_toml

    try:
        return edit_toml(text, data, what)
    except TomlEditError as exc:
        raise DocumentEditError(f"the changes cannot be written into {what}: {exc}; nothing was written.") from None


def _stream(text: str, fmt: TextFormat, what: str) -> Any:
    from .yaml_tree import parse_stream

    try:
        return parse_stream(text, what, version=fmt.version)
    except InputError as exc:
        raise _unreadable(exc, what) from None


def _yaml_reads_as(
    text: str,
    data: Any,
    fmt: TextFormat,
    what: str,
    before: Any,
    original: str,
    splices: list[Any],
    spliced: Any,
) -> bool:
    """Whether a YAML ``text`` reads as ``data`` with the other documents kept: from the edited
    lines alone when ``text`` is ``original`` with ``splices`` applied and ``spliced`` is the
    stream read from ``original`` (``yaml_local``), else by the quick reader
    (``yaml_tree.read_plain``); False when it cannot tell (the full reader then does)."""
    from .yaml_local import reads_as_after_splices
    from .yaml_tree import read_plain

    if spliced is not None and reads_as_after_splices(original, spliced, splices, data, fmt.version):
        return True

    try:
        plain = read_plain(text, what, version=fmt.version)
    except InputError:
        return False
    if plain is None or fmt.document is None or len(plain) != len(before.documents):
        return False
    if not equal_data(plain[fmt.document].data, data):
        return False
    return _others_kept(before, original, text, fmt, what, [doc.start for doc in plain])


def _others_kept(before: Any, old: str, new: str, fmt: TextFormat, what: str, starts: list[int] | None = None) -> bool:
    """Whether the other documents of a YAML stream kept their bytes: the text before the
    edited document and the text after it are what they were, and the documents still fall at
    the same places."""
    if len(before.documents) < 2 or fmt.document is None:
        return True
    if starts is None:
        starts = [doc.start for doc in _stream(new, fmt, what).documents]
    if len(starts) != len(before.documents):
        return False
    index = fmt.document
    start, end = before.documents[index].start, before.documents[index].end
    shift = len(new) - len(old)
    kept = [doc.start for doc in before.documents] == [
        begin - (shift if i > index else 0) for i, begin in enumerate(starts)
    ]
    return kept and new.startswith(old[:start]) and new.endswith(old[end:])


def _reads_as(text: str, data: Any, fmt: TextFormat, what: str, *, exactly: bool = True) -> bool:
    """Whether a JSON ``text`` reads as ``data`` (through the C parser, which is quick).
    Without ``exactly``, a NaN in a list or an object may make it say no (a quick look)."""
    try:
        read = json.loads(text)
    except ValueError:
        try:
            read = read_document(text, fmt, what)
        except InputError:
            return False
    except RecursionError:
        return False
    return equal_data(read, data) or (exactly and same_value(read, data))


def _tree_of_own_text(
    text: str, fmt: TextFormat, what: str, stream: Any = None
) -> tuple[Node | None, int | None, bool]:
    """The tree of the text (of its document, for YAML: from ``stream`` when it was parsed
    already), for YAML where content added to an empty document goes, and whether values are
    shared between places (YAML aliases and merges)."""
    if fmt.kind == "yaml":
        stream = stream or _stream(text, fmt, what)
        if not stream.documents:
            return None, None, False
        try:
            document = stream.select(fmt.document, what)
        except InputError:
            return None, None, False
        return document.root, document.tail, stream.aliased
    from .json_tree import parse_json_lazy

    try:
        return parse_json_lazy(text), None, False
    except ValueError:
        pass  # comments or trailing commas (tsconfig style): read all of it
    try:
        return parse_tree(text, fmt, what), None, False
    except InputError as exc:
        raise _unreadable(exc, what) from None


def _unreadable(exc: InputError, what: str) -> DocumentEditError:
    return DocumentEditError(
        f"the changes cannot be written into {what}: the text they would make does not read back "
        f"({exc.message.rstrip('.')}); nothing was written. Make this change in the file by hand."
    )


def _newline(text: str) -> str:
    from .layout import newline_of

    return newline_of(text)


def _planner(text: str, root: Node, kind: str, aliased: bool) -> Any:
    from .plan import Planner

    if kind == "yaml":
        from .yaml_edit import YamlEditor

        return Planner(YamlEditor(text, root), root, aliases=aliased)
    from .json_edit import JsonEditor

    return Planner(JsonEditor(text, root), root, aliases=False)


def write_document(previous: bytes | None, data: Any, kind: str | TextFormat, what: str = "the document") -> bytes:
    """The bytes to write for ``data``: ``previous`` edited in place, or a new file's text."""
    if previous is None:
        return render_document(data, kind).encode("utf-8")
    text = decode(previous, what)
    bom = previous.startswith(BOM.encode("utf-8"))
    new = edit_text(text, data, kind, what)
    if new == text:
        return previous
    try:
        return (BOM + new).encode("utf-8") if bom else new.encode("utf-8")
    except UnicodeEncodeError:
        raise DocumentEditError(
            f"the new data for {what} holds text that UTF-8 cannot encode; nothing was written."
        ) from None


def detect_kind(text: str) -> str:
    """``json``, ``yaml`` or ``toml``, from a text's content (for a file whose name does not
    say: ``.prettierrc``, ``.clang-format``). JSON when it reads as JSON (comments and trailing
    commas allowed); TOML when it reads as TOML with at least one key (a YAML mapping is never
    valid TOML: TOML needs ``key = value``); YAML otherwise, the format that reads the most."""
    if text.lstrip()[:1] in ("{", "[", "/", '"'):
        from .json_tree import parse_json

        try:
            parse_json(text, lenient=True)
        except InputError:
            pass
        else:
            return "json"
    import tomllib

    try:
        if tomllib.loads(text):
            return "toml"
    except (tomllib.TOMLDecodeError, RecursionError):
        pass
    return "yaml"


def shared_values(text: str, kind: str | TextFormat, what: str) -> list[list[str]]:
    """The values a YAML document writes once and uses again through aliases or ``<<`` merges:
    for each, the data paths (JSON pointers) of its places, the written one first
    (``nodes.shared_paths``). Empty for JSON and TOML, which have no aliases."""
    return list(read_text(text, kind, what).shared)
