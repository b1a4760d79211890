"""What changed between two JSON documents, and re-applying local changes onto a newer copy.

``changed_pointers(base, data)`` lists the JSON pointers where ``data`` differs from ``base``
(objects are compared key by key; any other value, a list included, is one value).
``rebase(base, mine, theirs)`` applies the changes that turn ``base`` into ``mine`` onto
``theirs`` (the source's current copy): restoring a draft onto a record that moved on keeps the
other side's changes to fields the draft did not touch. Fields both sides changed take the
draft's value and are reported as conflicts.
"""

from __future__ import annotations

from typing import Any

from ... import jsonpointer
from ..schema.values import UNSET as _ABSENT
from ..schema.values import json_equal as _same


def changed_pointers(base: Any, data: Any, pointer: str = "") -> list[str]:
    if isinstance(base, dict) and isinstance(data, dict):
        out: list[str] = []
        for key in [*base, *(k for k in data if k not in base)]:
            out += changed_pointers(base.get(key, _ABSENT), data.get(key, _ABSENT), jsonpointer.append(pointer, key))
        return out
    return [] if _same(base, data) else [pointer or "/"]


def rebase(base: Any, mine: Any, theirs: Any) -> tuple[Any, list[str]]:
    """``(merged, conflicts)``: ``theirs`` with the changes from ``base`` to ``mine``."""
    conflicts: list[str] = []
    merged = _rebase(base, mine, theirs, "", conflicts)
    return (None if merged is _ABSENT else merged), conflicts


def _rebase(base: Any, mine: Any, theirs: Any, pointer: str, conflicts: list[str]) -> Any:
    if _same(base, mine):
        return theirs
    if isinstance(base, dict) and isinstance(mine, dict) and isinstance(theirs, dict):
        out = dict(theirs)
        for key in [*base, *(k for k in mine if k not in base)]:
            value = _rebase(
                base.get(key, _ABSENT),
                mine.get(key, _ABSENT),
                theirs.get(key, _ABSENT),
                jsonpointer.append(pointer, key),
                conflicts,
            )
            if value is _ABSENT:
                out.pop(key, None)
            else:
                out[key] = value
        return out
    if not _same(base, theirs) and not _same(mine, theirs):
        conflicts.append(pointer or "/")
    return mine
