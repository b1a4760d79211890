"""Options of choice fields: listing them for ``getFieldSuggestions`` (from the schema, from an
expression, or from a URL through the host's fetcher) and remembering what was listed, so that
``setFieldValue`` can apply one by its index.

The store is plain data (it travels in a state snapshot). Indices are absolute per field: a
second listing of the same field continues the numbering, so an index the agent read earlier
keeps meaning the same option. A write that may have changed a field's options drops what was
remembered for it (the field's options key changed, or the field is gone); ``setData`` and
``editArray`` drop everything, because paths may have shifted. Asking for a dropped index says so.

Fetching is the host's job: ``Fetcher`` takes an ``ItemsRequest`` (URL, headers) and returns
the parsed response body, raising ``DeskcheckError`` with a plain message when it cannot.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ...errors import DeskcheckError
from ...urls import dot_segment
from ..schema.expressions import URL_TEMPLATE, ExpressionError, evaluate
from ..schema.layout import ItemsSource
from ..schema.record import FrozenRecord, Record
from .tree import Node, prepare_item


class ItemsRequest(FrozenRecord):
    """A request for a field's options: ``url`` with the search text applied, and ``headers``."""

    __slots__ = ("field_path", "headers", "query", "url")

    def __init__(
        self, url: str, headers: dict[str, str] | None = None, field_path: str = "", query: str | None = None
    ) -> None:
        self._set(url=url, headers={} if headers is None else headers, field_path=field_path, query=query)


Fetcher = Callable[[ItemsRequest], Any]


class SuggestionError(DeskcheckError):
    pass


class SuggestionStore:
    """``entries``: field path -> ``{"key": options key, "values": [full values]}``;
    ``dropped``: fields whose remembered options a write discarded."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        data = data or {}
        self.entries: dict[str, dict[str, Any]] = {
            path: {"key": entry.get("key"), "values": list(entry.get("values", []))}
            for path, entry in (data.get("entries") or {}).items()
        }
        self.dropped: set[str] = set(data.get("dropped") or [])

    def as_json(self) -> dict[str, Any]:
        return {"entries": self.entries, "dropped": sorted(self.dropped)}

    def add(self, path: str, values: list[Any], key: str | None) -> int:
        entry = self.entries.get(path)
        if entry is None or entry["key"] != key:
            entry = self.entries[path] = {"key": key, "values": []}
        base = len(entry["values"])
        entry["values"].extend(values)
        self.dropped.discard(path)
        return base

    def value(self, path: str, index: Any) -> Any:
        entry = self.entries.get(path)
        if entry is None:
            if path in self.dropped:
                raise SuggestionError(
                    f'the options listed for "{path}" were discarded by a write that may have changed them: '
                    "call getFieldSuggestions on this path again.",
                    code="suggestionsDropped",
                )
            raise SuggestionError(
                f'no options were listed for "{path}" yet: call getFieldSuggestions on this path first.',
                code="noSuggestions",
            )
        values = entry["values"]
        if isinstance(index, bool) or not isinstance(index, (int, float)) or int(index) != index:
            raise SuggestionError(
                f'suggestionIndex {json.dumps(index)} is not an index for "{path}" '
                f"({len(values)} option(s) listed: 0 to {len(values) - 1}).",
                code="badSuggestionIndex",
            )
        index = int(index)
        if not 0 <= index < len(values):
            raise SuggestionError(
                f'suggestionIndex {index} is out of range for "{path}" ({len(values)} option(s) listed'
                + (f": 0 to {len(values) - 1})." if values else ")."),
                code="badSuggestionIndex",
            )
        return values[index]

    def retain_fresh(self, node_key: Callable[[str], tuple[bool, str | None]]) -> None:
        """Keep the fields that still exist with the same options key (``node_key(path)``
        returns ``(exists, key)``)."""
        for path in list(self.entries):
            exists, key = node_key(path)
            if not exists or key != self.entries[path]["key"]:
                del self.entries[path]
                self.dropped.add(path)

    def clear(self) -> None:
        self.dropped |= set(self.entries)
        self.entries.clear()


# -- listing ------------------------------------------------------------------------------------


class Listing(Record):
    """``blocked_by``: the expression that cannot be resolved yet."""

    __slots__ = ("blocked_by", "options")

    def __init__(self, options: list[dict[str, Any]], blocked_by: str | None = None) -> None:
        self.options = options
        self.blocked_by = blocked_by


def list_options(node: Node, query: str | None, context: Any, root_data: Any, fetcher: Fetcher | None) -> Listing:
    """The options of a choice field, headers removed, filtered by ``query``."""
    skeleton = node.skeleton
    source: ItemsSource | None = skeleton.items if skeleton is not None else None
    if source is None:
        raise SuggestionError("this field has no options.")
    if node.items_state == "blocked":
        return Listing([], blocked_by=node.items_source_text)
    if node.items_state == "failed":
        reasons = "; ".join(node.notes) or "its list of options could not be computed"
        raise SuggestionError(f"{node.path}: {reasons}.", code="itemsFailed")
    if node.items_state in ("static", "resolved"):
        options = [item for item in node.items or [] if not item.get("header")]
        return Listing(_filter(options, query))
    if node.items_state == "url":
        return Listing(_fetch(node, source, query, context, root_data, fetcher))
    raise SuggestionError(f"{node.path} has no list of options right now.")


def _filter(options: list[dict[str, Any]], query: str | None) -> list[dict[str, Any]]:
    if not query:
        return options
    needle = query.casefold()
    return [
        o for o in options if needle in str(o.get("title", "")).casefold() or needle in str(o.get("key", "")).casefold()
    ]


def _fetch(
    node: Node, source: ItemsSource, query: str | None, context: Any, root_data: Any, fetcher: Fetcher | None
) -> list[dict[str, Any]]:
    assert node.items_key is not None and node.items_key.startswith("url:")
    url = node.items_key[len("url:") :]
    if fetcher is None:
        raise SuggestionError(
            f"{node.path} takes its options from {url}, and this form has no way to fetch them: "
            "give the field a value with setFieldValue.",
            code="noFetcher",
        )
    scope = {
        "data": None if node.data is None else node.data,
        "parent": {"data": node.parent.data if node.parent is not None else None},
        "rootData": root_data,
        "context": context,
        "options": {"context": context},
    }
    parts = urlsplit(url)
    if source.url is not None and source.url.kind != URL_TEMPLATE and dot_segment(parts.path):
        # An expression that computes the whole URL: no part of it is known to be the schema's
        # own text, so no "." or ".." segment is taken from it (a template's are checked per value).
        raise SuggestionError(
            f'{node.path} takes its options from {parts.path}, which holds a "." or ".." segment; deskcheck '
            "does not request such a path. Write a value with setFieldValue.",
            code="dotSegment",
        )
    params = parse_qsl(parts.query, keep_blank_values=True)
    for name, expression in source.search_params:
        try:
            value = evaluate(expression, scope)
        except ExpressionError:
            value = None
        if value:
            params.append((name, str(value)))
    headers: dict[str, str] = {}
    for name, expression in source.headers:
        try:
            value = evaluate(expression, scope)
        except ExpressionError:
            value = None
        if value:
            headers[name] = str(value)
    q_param = source.q_param
    if q_param is None:
        q_param = next((name for name, value in params if "{q}" in value), None)
    applied = q_param is not None
    if applied:
        rewritten = []
        for name, value in params:
            if name != q_param:
                rewritten.append((name, value))
            elif query:
                rewritten.append((name, value.replace("{q}", query) if "{q}" in value else query))
        if query and not any(name == q_param for name, _ in params):
            rewritten.append((q_param, query))
        params = rewritten
    address = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(params, safe="{},:/"), parts.fragment))
    body = fetcher(ItemsRequest(address, headers, node.path, query))
    raw = body
    if source.results is not None:
        try:
            raw = evaluate(source.results, {"data": body, "body": body})
        except ExpressionError as exc:
            raise SuggestionError(f"the options response of {node.path} could not be read: {exc.message}") from None
    if not isinstance(raw, list):
        raise SuggestionError(
            f"the options response of {node.path} is not a list"
            + ("" if source.results else " (the field declares no itemsResults to find the list in it)")
            + ".",
            code="itemsNotAList",
        )
    try:
        options = [prepare_item(source, entry) for entry in raw]
    except ExpressionError as exc:
        raise SuggestionError(f"the options of {node.path} could not be read: {exc.message}") from None
    options = [o for o in options if not o.get("header")]
    return options if applied else _filter(options, query)
