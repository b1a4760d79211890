"""Values a file writes once and uses in several places (a YAML anchor and its aliases), kept
shared while a session edits them, as yq does.

The data a session edits has a copy of such a value at each place (``Loaded.shared`` lists the
places). ``follow_shared`` makes a change made inside one copy in all of them, so that the
document keeps reading as one value used several times and the save writes the change once,
where the anchor is. The rule:

- a change inside a shared value (below the anchored value or below any alias of it) is made
  in every copy;
- writing the anchored value itself changes it for every alias too;
- writing a new value in place of an alias replaces that alias only (it stops being a copy).

A place whose value no longer matches the anchored one (an earlier write replaced it) is not a
copy any more and is left alone.
"""

from __future__ import annotations

import copy
from typing import Any

from ... import jsonpointer
from ..schema.values import UNSET, json_equal
from .tree import lookup


def follow_shared(
    before: Any, after: Any, groups: list[list[str]], *, replaced: str | None = None
) -> tuple[Any, dict[str, list[str]]]:
    """``after`` with each change to a shared value of ``before`` made in its other copies,
    and the copies changed, by the place whose change they follow. ``replaced``: the data path
    the call wrote a whole value at, if any (in place of an alias, it replaces that alias)."""
    result = after
    followed: dict[str, list[str]] = {}
    for _ in range(len(groups) + 1):  # a value shared inside another shared one: follow again
        changed = False
        for group in groups:
            anchor_before = lookup(before, group[0])
            copies = [place for place in group if json_equal(lookup(before, place), anchor_before)]
            source = _leading_change(before, result, copies, group[0], replaced)
            if source is None:
                continue
            value = lookup(result, source)
            for place in copies:
                if place != source and json_equal(lookup(result, place), anchor_before):
                    result = _put(result, place, copy.deepcopy(value))
                    followed.setdefault(source, []).append(place)
                    changed = True
        if not changed:
            break
    return result, followed


def _leading_change(before: Any, after: Any, copies: list[str], anchor: str, replaced: str | None) -> str | None:
    """The copy whose change the others follow: the anchored value when it changed, else the
    first alias changed inside (an alias replaced whole is a new value, not a change)."""
    for place in copies:
        old, new = lookup(before, place), lookup(after, place)
        if json_equal(old, new) or new is UNSET:
            continue
        if place == anchor:
            return place
        if place == replaced:
            continue
        if (isinstance(old, dict) and isinstance(new, dict)) or (isinstance(old, list) and isinstance(new, list)):
            return place
    return None


def _put(document: Any, pointer: str, value: Any) -> Any:
    tokens = jsonpointer.split(pointer)
    if not tokens:
        return value
    parent = lookup(document, jsonpointer.join(tokens[:-1]))
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list) and last.isdigit() and int(last) < len(parent):
        parent[int(last)] = value
    return document
