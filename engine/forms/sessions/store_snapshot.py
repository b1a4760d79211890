"""How a session's snapshot is kept in the store's ``snapshot`` column.

A snapshot holds the document twice: ``data`` (as edited) and ``base`` (as loaded or last saved),
which are the same after an open or a save and differ in a few values after an edit. Written
whole, a 25 MB record made 50 MB of text per write, which the database copied again. The column
keeps ``data`` whole and ``base`` as the values where it differs (``baseFromData``: a list of
``[path, value]``, the path a list of keys and indexes); reading rebuilds ``base`` as a copy of
``data`` with those values. When the two differ in shape (a list grew, keys were added) the
differing member is kept whole; past ``MAX_PATCHED`` places, ``base`` is kept whole.
"""

from __future__ import annotations

import json
from typing import Any

from ..schema.values import deep_copy

PATCH_KEY = "baseFromData"
MAX_PATCHED = 1000
_CHUNK = 500


def snapshot_text(snapshot: Any) -> str:
    """The column's text for ``snapshot``."""
    if isinstance(snapshot, dict) and "data" in snapshot and "base" in snapshot:
        patch = _patch(snapshot["data"], snapshot["base"])
        if patch is not None:
            snapshot = {name: value for name, value in snapshot.items() if name != "base"}
            snapshot[PATCH_KEY] = patch
    return _text(snapshot)


def snapshot_value(decoded: Any) -> Any:
    """The snapshot that the column's decoded text holds (``base`` rebuilt)."""
    if not isinstance(decoded, dict) or PATCH_KEY not in decoded:
        return decoded
    patch = decoded.pop(PATCH_KEY)
    base = deep_copy(decoded.get("data"))
    for path, value in patch:
        if not path:
            base = value
            continue
        holder = base
        for token in path[:-1]:
            holder = holder[token]
        holder[path[-1]] = value
    decoded["base"] = base
    return decoded


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _patch(data: Any, base: Any) -> list[list[Any]] | None:
    """``[path, value]`` pairs that turn a copy of ``data`` into ``base`` (None: too many).
    Equality is JSON's, exactly: ``1``, ``1.0`` and ``true`` differ, and so does key order."""
    out: list[list[Any]] = []
    stack: list[tuple[tuple[Any, ...], Any, Any]] = [((), data, base)]
    while stack:
        path, mine, theirs = stack.pop()
        if mine is theirs:
            continue
        if type(mine) is dict and type(theirs) is dict and list(mine) == list(theirs):
            children = [((*path, name), value, theirs[name]) for name, value in mine.items()]
        elif type(mine) is list and type(theirs) is list and len(mine) == len(theirs):
            children = [((*path, index), value, theirs[index]) for index, value in enumerate(mine)]
        elif type(mine) is type(theirs) and mine == theirs and _text(mine) == _text(theirs):
            continue
        else:
            out.append([list(path), theirs])
            if len(out) > MAX_PATCHED:
                return None
            continue
        # Children compared a chunk at a time: Python's == (in C) says where they surely differ,
        # their text whether equal is exact; no text of a whole large document is made.
        for start in range(0, len(children), _CHUNK):
            chunk = children[start : start + _CHUNK]
            mine_values, their_values = [child[1] for child in chunk], [child[2] for child in chunk]
            if not (mine_values == their_values and _text(mine_values) == _text(their_values)):
                stack.extend(chunk)
    return out
