"""Results bounded for the transport and the model: a long result is answered a page at a time.

The SDK's HTTP client refuses a server-sent event over 1 MiB (a protocol failure the model never
sees), and a model gains nothing from 7 MB of text in one answer. Every result is therefore held
to ``cap`` characters of JSON text (``--max-result-chars``). One that is longer is answered as its
first page, and the whole result is kept, for the client that asked, until a newer one pushes it
out (at most ``MAX_KEPT`` results and ``MAX_KEPT_CHARS`` characters):

- an object keeps its shape, its longest list cut to the items that fit (or its longest string,
  a text diff, cut at a line break), and says so in ``paged``: ``{"path": "/blocks", "from": 0,
  "returned": 312, "total": 2563, "continuation": "r1:312", "next": "call continue_result {...}"}``.
  The next page is the same object with the next items (a consistent snapshot: the document may have changed since);
- text (a form's state, an API's answer) is cut at a line break, with a last line saying how
  to read on;
- the continuation tool (``continue_result``) answers the page a ``continuation`` names.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

DEFAULT_CAP = 50_000
MIN_CAP, MAX_CAP = 2_000, 200_000
MAX_KEPT = 16
MAX_KEPT_CHARS = 64 * 1024 * 1024
CONTINUE_TOOL = "continue_result"
# Room left for the ``paged`` note itself.
_NOTE_ROOM = 400
_WALK_DEPTH = 3
# A place in a result: object keys and list indices.
Where = tuple[str | int, ...]


def continue_definition(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "title": "Continue a long result",
        "description": (
            "Read the next page of a result that was too long for one answer. A long result says so in "
            'paged (an object) or in its last line (text), with a continuation such as "r3:400"; '
            "pass it here. Each page says where the next one starts, until the result is whole."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "continuation": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 40,
                    "description": "The continuation the previous page gave.",
                }
            },
            "required": ["continuation"],
            "additionalProperties": False,
        },
        "outputSchema": {"type": "object", "description": "The next page, in the shape of the first one."},
        "annotations": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    }


@dataclass
class _Kept:
    owner: str | None
    tool: str
    value: Any
    path: Where  # the list cut (empty for a text result)
    size: int


class PageError(ValueError):
    pass


class Pager:
    """Bounds results to ``cap`` characters and keeps the rest for ``continue_result``."""

    def __init__(self, cap: int = DEFAULT_CAP, continue_tool: str = CONTINUE_TOOL) -> None:
        self.cap = cap
        self.continue_tool = continue_tool
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._next_id = 0
        self._lock = threading.Lock()

    def bound(self, tool: str, value: Any, owner: str | None) -> Any:
        """``value`` itself when it fits, else its first page."""
        if isinstance(value, str):
            if len(value) <= self.cap:
                return value
            return self._page(self._keep(owner, tool, value, (), len(value)), 0)
        if not isinstance(value, dict):
            return value
        text = json.dumps(value, ensure_ascii=False)
        if len(text) <= self.cap:
            return value
        path = _longest_list(value)
        return self._page(self._keep(owner, tool, value, path, len(text)), 0)

    def next_page(self, continuation: Any, owner: str | None) -> Any:
        """The page ``continuation`` names; ``PageError`` saying why when it names none."""
        if not isinstance(continuation, str):
            raise PageError("continuation must be the string a long result gave (such as r3:400).")
        key, _, start = continuation.partition(":")
        with self._lock:
            kept = self._kept.get(key)
        if kept is None or kept.owner != owner or not start.isdigit():
            raise PageError(
                f"{continuation!r} names no result kept for you: results are kept for the {MAX_KEPT} latest long "
                "answers only. Call the tool again."
            )
        return self._page((key, kept), int(start))

    def _keep(self, owner: str | None, tool: str, value: Any, path: Where, size: int) -> tuple[str, _Kept]:
        with self._lock:
            self._next_id += 1
            key = f"r{self._next_id}"
            kept = _Kept(owner, tool, value, path, size)
            self._kept[key] = kept
            while len(self._kept) > MAX_KEPT or (
                len(self._kept) > 1 and sum(k.size for k in self._kept.values()) > MAX_KEPT_CHARS
            ):
                self._kept.popitem(last=False)
        return key, kept

    def _page(self, entry: tuple[str, _Kept], start: int) -> Any:
        key, kept = entry
        if isinstance(kept.value, str):
            return self._text_page(key, kept.value, start)
        if not kept.path:  # nothing to cut: the object's JSON text, a page at a time
            text = json.dumps(kept.value, ensure_ascii=False)
            return {"text": self._text_page(key, text, start)}
        items = _get(kept.value, kept.path)
        if isinstance(items, str):
            return self._string_in_object(key, kept, items, start)
        total = len(items)
        if start > total:
            raise PageError(f"{key}:{start} is past the end of that result ({total} items).")
        shell = _with(kept.value, kept.path, [])
        room = self.cap - len(json.dumps(shell, ensure_ascii=False)) - _NOTE_ROOM
        count, used = 0, 0
        for item in items[start:]:
            size = len(json.dumps(item, ensure_ascii=False)) + 2
            if used + size > room and count:
                break
            used += size
            count += 1
        end = start + count
        page = _with(kept.value, kept.path, items[start:end])
        if "nextAfterBlockId" in page and end < total and isinstance(items[end - 1], dict):
            # A page's native continuation (read_document's) must not skip what this page left out.
            page["nextAfterBlockId"] = items[end - 1].get("blockId", page["nextAfterBlockId"])
        note: dict[str, Any] = {"path": _pointer(kept.path), "from": start, "returned": count, "total": total}
        if end < total:
            token = f"{key}:{end}"
            note["continuation"] = token
            note["next"] = f'call {self.continue_tool} {{"continuation": "{token}"}} for the next page'
        page["paged"] = note
        return page

    def _text_page(self, key: str, text: str, start: int) -> str:
        if start > len(text):
            raise PageError(f"{key}:{start} is past the end of that result ({len(text):,} characters).")
        end = _cut(text, start, self.cap - 200)
        part = text[start:end]
        if end < len(text):
            part += (
                f"\n[characters {start:,} to {end:,} of {len(text):,}: call {self.continue_tool} "
                f'{{"continuation": "{key}:{end}"}} for the rest]'
            )
        return part

    def _string_in_object(self, key: str, kept: _Kept, text: str, start: int) -> dict[str, Any]:
        """An object whose bulk is one string (a text diff, a story's text): that string cut at a
        line break, the rest of the object as it is."""
        if start > len(text):
            raise PageError(f"{key}:{start} is past the end of that result ({len(text):,} characters).")
        shell = _with(kept.value, kept.path, "")
        room = max(1000, self.cap - len(json.dumps(shell, ensure_ascii=False)) - _NOTE_ROOM)
        end = _cut(text, start, room)
        # The JSON text of the part (escapes) may be longer than the part: shrink until it fits.
        while end > start + 1 and len(json.dumps(text[start:end], ensure_ascii=False)) > room:
            end = start + (end - start) * 3 // 4
        page = _with(kept.value, kept.path, text[start:end])
        note: dict[str, Any] = {"path": _pointer(kept.path), "from": start, "returned": end - start, "total": len(text)}
        if end < len(text):
            note["continuation"] = f"{key}:{end}"
            note["next"] = f'call {self.continue_tool} {{"continuation": "{key}:{end}"}} for the next page'
        page["paged"] = note
        return page


def _cut(text: str, start: int, room: int) -> int:
    """Where a page of ``text`` from ``start`` ends: after at most ``room`` characters, at a line
    break in its second half when there is one."""
    end = min(len(text), start + room)
    if end < len(text):
        cut = text.rfind("\n", start + room // 2, end)
        end = cut + 1 if cut > 0 else end
    return end


def _pointer(path: Where) -> str:
    return "/" + "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in path)


def _longest_list(value: Any) -> Where:
    """The path of the list (or string) holding most of ``value``'s text, a few levels down
    (through objects, and through lists of one item, as a story list of one long story), or
    ``()`` when no one part holds at least half of it: then the JSON text is what is paged."""
    size, path = _bulkiest(value, (), 0)
    return path if size * 2 >= len(json.dumps(value, ensure_ascii=False)) else ()


def _bulkiest(value: Any, path: Where, depth: int) -> tuple[int, Where]:
    best: tuple[int, Where] = (0, ())
    if depth > _WALK_DEPTH:
        return best
    children = value.items() if isinstance(value, dict) else enumerate(value) if len(value) == 1 else ()
    for name, item in children:
        if (isinstance(item, list) and len(item) > 1) or isinstance(item, str):
            candidate = (len(json.dumps(item, ensure_ascii=False)), (*path, name))
        elif isinstance(item, dict | list):
            candidate = _bulkiest(item, (*path, name), depth + 1)
        else:
            continue
        best = max(best, candidate, key=lambda entry: entry[0])
    return best


def _get(value: Any, path: Where) -> Any:
    for name in path:
        value = value[name]
    return value


def _with(value: Any, path: Where, items: Any) -> Any:
    """A shallow copy of ``value`` with the list (or string) at ``path`` replaced by ``items``."""
    out = list(value) if isinstance(value, list) else dict(value)
    out[path[0]] = items if len(path) == 1 else _with(value[path[0]], path[1:], items)
    return out
