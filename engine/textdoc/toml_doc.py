"""TOML files (``pyproject.toml``, ``Cargo.toml``, ``ruff.toml``) read as data and saved in place
with tomlkit, which keeps every comment, blank line, quoting and number spelling of what a save
does not change.

Reading: tables are objects, arrays lists, and a date, time or date-time is its text as written
(``1979-05-27T07:32:00Z``), as a YAML date is: JSON has no date type, and a ``format: date``
field checks the text. A key defined twice is refused, as TOML itself and every reader refuse it.

Saving (``edit_toml``): the parsed document is changed where the new data differs, value by
value: a changed value is replaced where it stands (a string keeps its literal or multi-line
quoting when that can hold the new text, a date stays a date while the new text is one), a
removed key goes with its line, a new key is added at the end of its table, lists change item by
item. The result is read back (by tomlkit as the session reads it, and by Python's own
``tomllib``) and must read as the new data, or nothing is written. TOML has no null: a ``null``
in the data cannot be written.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from .nodes import MAX_DEPTH, same_value


class TomlEditError(Exception):
    """The new data cannot be written as TOML (a null, a top level that is not a table)."""


def read_toml(text: str, what: str) -> Any:
    return _data(_parse(text, what), 0, what)


def render_toml(data: Any) -> str:
    """A new file's text for ``data``."""
    import tomlkit

    _check_writable(data, "")
    document = tomlkit.document()
    for key, value in data.items():
        document[key] = _new_item(value, None)
    return tomlkit.dumps(document)


def edit_toml(text: str, data: Any, what: str) -> str:
    """``text`` changed to read as ``data``; ``TomlEditError`` when TOML cannot hold it."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    _check_writable(data, "")
    document = _parse(text, what)
    try:
        _apply(document, data)
        new = tomlkit.dumps(document)
    except (TOMLKitError, AttributeError, TypeError, ValueError, KeyError, IndexError) as exc:
        # A shape tomlkit does not change in place (it says so in its own words).
        raise TomlEditError(f"tomlkit could not make this change ({type(exc).__name__}: {exc})") from None
    _check_reads_back(new, data, what)
    return new


def _parse(text: str, what: str) -> Any:
    import tomlkit
    from tomlkit.exceptions import ParseError

    try:
        return tomlkit.parse(text)
    except ParseError as exc:
        line, column = getattr(exc, "line", 0), getattr(exc, "col", 0)
        problem = str(exc).split(" at line ")[0].rstrip(".")
        raise InputError(f"{what} is not valid TOML at line {line}, column {column}: {problem}.") from None
    except RecursionError:
        raise InputError(f"{what} nests too deeply to read.") from None


def _data(item: Any, depth: int, what: str) -> Any:
    """A tomlkit item as plain JSON data."""
    from tomlkit import items

    if depth > MAX_DEPTH:
        raise InputError(f"{what} nests deeper than {MAX_DEPTH} levels.")
    if isinstance(item, dict):  # the document, tables, inline tables
        return {str(key): _data(value, depth + 1, what) for key, value in item.items()}
    if isinstance(item, list):  # arrays and arrays of tables
        return [_data(value, depth + 1, what) for value in item]
    if isinstance(item, items.Date | items.DateTime | items.Time):
        return item.as_string().strip()
    if isinstance(item, items.Bool):
        return bool(item)
    if isinstance(item, items.String):
        return str(item)
    if isinstance(item, items.Integer):
        return int(item)
    if isinstance(item, items.Float):
        return float(item)
    return item


def _check_writable(data: Any, path: str) -> None:
    if path == "" and not isinstance(data, dict):
        raise TomlEditError("a TOML file holds a table of keys at its top, not " + _kind(data))
    stack = [(data, path)]
    while stack:
        value, where = stack.pop()
        if value is None:
            raise TomlEditError(
                f"TOML has no null value, so {where or 'the document'} cannot be written as null: remove the key "
                "instead (setFieldValue with null removes a field)"
            )
        if isinstance(value, dict):
            stack.extend((v, f"{where}/{k}") for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{where}/{i}") for i, v in enumerate(value))


def _kind(value: Any) -> str:
    return "a list" if isinstance(value, list) else f"a {type(value).__name__}"


def _apply(container: Any, new: dict[str, Any]) -> None:
    """Change the table ``container`` (tomlkit) to read as ``new``."""
    for key in [k for k in container if k not in new]:
        del container[key]
    for key, value in new.items():
        if key not in container:
            container[key] = _new_item(value, None)
            continue
        item = container[key]
        if same_value(_data(item, 0, "the document"), value):
            continue
        if isinstance(value, dict) and isinstance(item, dict):
            _apply(item, value)
        elif isinstance(value, list) and isinstance(item, list) and item and value and _fits(item, value):
            _apply_list(item, value)
        else:
            container[key] = _new_item(value, item)


def _fits(array: Any, new: list[Any]) -> bool:
    """Whether ``new`` can be written into ``array`` item by item: an array of tables holds
    tables only."""
    from tomlkit import items

    return not isinstance(array, items.AoT) or all(isinstance(value, dict) for value in new)


def _apply_list(array: Any, new: list[Any]) -> None:
    """Change an array (or an array of tables) to read as ``new``: the items both ends share
    stay, the ones between are changed in place pairwise, and the rest removed or inserted."""
    old = [_data(item, 0, "the document") for item in array]
    head = 0
    while head < min(len(old), len(new)) and same_value(old[head], new[head]):
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and same_value(old[-1 - tail], new[-1 - tail]):
        tail += 1
    old_end, new_end = len(old) - tail, len(new) - tail
    paired = min(old_end, new_end) - head
    for offset in range(paired):
        index = head + offset
        item, value = array[index], new[index]
        if isinstance(value, dict) and isinstance(item, dict):
            _apply(item, value)
        elif isinstance(value, list) and isinstance(item, list) and item and value and _fits(item, value):
            _apply_list(item, value)
        else:
            array[index] = _in_array(value, item, array)
    for index in range(old_end - 1, head + paired - 1, -1):
        del array[index]
    for index in range(head + paired, new_end):
        array.insert(index, _in_array(new[index], None, array))


def _in_array(value: Any, old: Any, array: Any) -> Any:
    """An item for ``array``: a table for an array of tables, else an inline value."""
    from tomlkit import items

    if isinstance(array, items.AoT):
        return _new_item(value, old)
    if isinstance(value, str) and isinstance(old, items.String | items.Date | items.DateTime | items.Time):
        return _new_item(value, old)  # in the old value's quoting, or still a date
    return _inline(value)


def _new_item(value: Any, old: Any) -> Any:
    """``value`` as a tomlkit item, in the style of the item it replaces (None: a new one)."""
    import tomlkit
    from tomlkit import items

    if isinstance(value, str) and isinstance(old, items.Date | items.DateTime | items.Time):
        kept = _as_date(value, type(old))
        if kept is not None:
            return kept
    if isinstance(value, str) and isinstance(old, items.String):
        return _string(value, literal=old.type.is_literal(), multiline=old.type.is_multiline())
    if isinstance(value, dict) and not isinstance(old, items.InlineTable):
        return _filled(tomlkit.table(), value, lambda entry: _new_item(entry, None))
    if isinstance(value, list) and value and all(isinstance(entry, dict) for entry in value) and old is None:
        array_of_tables = tomlkit.aot()
        for entry in value:
            array_of_tables.append(_new_item(entry, None))
        return array_of_tables
    return _inline(value)


def _inline(value: Any) -> Any:
    """A value written on one line: tables are inline tables, and so are the ones in arrays."""
    import tomlkit

    if isinstance(value, dict):
        return _filled(tomlkit.inline_table(), value, _inline)
    if isinstance(value, list):
        array = tomlkit.array()
        for entry in value:
            array.append(_inline(entry))
        return array
    return tomlkit.item(value)


def _filled(table: Any, value: dict[str, Any], item: Any) -> Any:
    for key, entry in value.items():
        table[key] = item(entry)
    return table


def _string(value: str, *, literal: bool, multiline: bool) -> Any:
    import tomlkit
    from tomlkit.exceptions import InvalidStringError

    multiline = multiline and "\n" in value
    if literal:
        try:
            return tomlkit.string(value, literal=True, multiline=multiline)
        except InvalidStringError:
            pass  # a quote or a control character: a basic string escapes it
    return tomlkit.string(value, multiline=multiline)


def _as_date(text: str, kind: type) -> Any:
    """``text`` as a TOML date, time or date-time of the same kind, spelled as given; None
    when it is not one."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        item = tomlkit.value(text)
    except (TOMLKitError, ValueError):
        return None
    return item if isinstance(item, kind) else None


def _check_reads_back(text: str, data: Any, what: str) -> None:
    import tomllib

    try:
        tomllib.loads(text)
        back = read_toml(text, what)
    except (tomllib.TOMLDecodeError, InputError) as exc:
        raise TomlEditError(f"the text it would make is not valid TOML ({exc})") from None
    if not same_value(back, data):
        raise TomlEditError("the text it would make does not read back as the new data")
