"""Searching records: full-text ``q``, column filters (``<column>_<operator>``), sorting,
column selection and pagination, in the spirit of a data platform's lines API. Datasets here
are small, so records are filtered in Python after one SELECT.

Text comparisons ignore case and accents ("finistere" finds "Finistère").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from .messages import ApiError, Request
from .store import Dataset, Line

# Query parameters of the lines endpoint that are not column filters.
RESERVED_PARAMS = ("q", "size", "page", "sort", "select", "hint")
OPERATORS = ("eq", "neq", "in", "nin", "gt", "gte", "lt", "lte", "search", "exists", "nexists")
DEFAULT_PAGE_SIZE = 12
MAX_PAGE_SIZE = 100
# Pages deeper than this are refused: a client walking that far should filter instead.
MAX_PAGE = 10_000


def normalize(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.replace("œ", "oe").replace("Œ", "OE").replace("æ", "ae"))
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def words(text: str) -> list[str]:
    return [word for word in "".join(c if c.isalnum() else " " for c in normalize(text)).split() if word]


@dataclass(frozen=True)
class Column:
    key: str
    type: str
    item_key: str | None  # for a lookup object (x-fromUrl), the property that identifies the item


def columns_of(dataset: Dataset) -> dict[str, Column]:
    found = {}
    for key, spec in (dataset.schema.get("properties") or {}).items():
        spec = spec if isinstance(spec, dict) else {}
        kind = spec.get("type", "string")
        found[key] = Column(key, kind if isinstance(kind, str) else "string", spec.get("x-itemKey"))
    return found


def scalars(column: Column | None, value: Any) -> list[Any]:
    """The comparable values a record holds in a column: a lookup object gives its key, an array
    its items (an array matches when any item does)."""
    if value is None:
        return []
    if isinstance(value, list):
        return [item for element in value for item in scalars(column, element)]
    if isinstance(value, dict):
        if column is not None and column.item_key and column.item_key in value:
            return [value[column.item_key]]
        return [" ".join(str(v) for v in value.values() if isinstance(v, (str, int, float)))]
    return [value]


def full_text(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(full_text(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(full_text(v) for v in value)
    if value is None or isinstance(value, bool):
        return ""
    return str(value)


@dataclass(frozen=True)
class LinePage:
    total: int
    results: list[dict[str, Any]]
    next_url: str | None
    hints: list[str]


def search_lines(dataset: Dataset, lines: list[Line], request: Request) -> LinePage:
    columns = columns_of(dataset)
    size = request.int_param("size", default=DEFAULT_PAGE_SIZE, minimum=0, maximum=MAX_PAGE_SIZE)
    page = request.int_param("page", default=1, minimum=1, maximum=MAX_PAGE)
    matches = [_filter(name, values, columns) for name, values in request.query.items() if name not in RESERVED_PARAMS]
    query_words = words(request.param("q") or "")
    selected = _selection(request.list_param("select"), columns)

    kept = []
    for line in lines:
        if query_words and not all(word in normalize(full_text(line.data)) for word in query_words):
            continue
        if all(match(line.data) for match in matches):
            kept.append(line)
    kept = _sorted(kept, request.list_param("sort"), columns)

    start = (page - 1) * size
    window = kept[start : start + size]
    results = [_project(line, selected) for line in window]
    next_url = None
    if start + size < len(kept) and size > 0:
        next_url = page_url(request, page + 1)
    hints = _hints(dataset, columns, query_words, len(kept)) if request.bool_param("hint", default=False) else []
    return LinePage(len(kept), results, next_url, hints)


def _filter(name: str, values: list[str], columns: dict[str, Column]) -> Callable[[dict[str, Any]], bool]:
    column_key, _, operator = name.rpartition("_")
    if not column_key or operator not in OPERATORS:
        raise ApiError(
            400,
            f'Unknown query parameter "{name}". Filter a column with <column>_<operator> where the operator is one '
            f"of {', '.join(OPERATORS)}; other parameters: {', '.join(RESERVED_PARAMS)}.",
        )
    column = columns.get(column_key)
    if column is None:
        raise ApiError(
            400, f'"{name}" filters on "{column_key}", which is not a column; columns: {", ".join(columns)}.'
        )
    raw = ",".join(values)
    if operator in ("exists", "nexists"):
        wanted = operator == "exists"
        return lambda data: (bool(scalars(column, data.get(column.key))) and data.get(column.key) != "") == wanted
    if operator == "search":
        terms = words(raw)
        return lambda data: all(term in normalize(full_text(data.get(column.key))) for term in terms)
    if column.type == "boolean" and operator not in ("eq", "neq"):
        raise ApiError(400, f'"{name}": a true/false column can only be filtered with _eq or _neq.')
    items = raw.split(",") if operator in ("in", "nin") else [raw]
    targets = [_coerce(name, column, item) for item in items]
    compare = _COMPARATORS[operator]
    return lambda data: compare([_comparable(column, v) for v in scalars(column, data.get(column.key))], targets)


def _coerce(name: str, column: Column, raw: str) -> Any:
    if column.type in ("number", "integer"):
        try:
            return float(raw)
        except ValueError:
            raise ApiError(400, f'"{name}" compares numbers; "{raw}" is not a number.') from None
    if column.type == "boolean":
        if raw.lower() not in ("true", "false"):
            raise ApiError(400, f'"{name}" compares true/false values; use true or false, not "{raw}".')
        return raw.lower() == "true"
    return normalize(raw)


def _comparable(column: Column, value: Any) -> Any:
    if column.type in ("number", "integer") and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        return normalize(value)
    return value


_COMPARATORS: dict[str, Callable[[list[Any], list[Any]], bool]] = {
    "eq": lambda have, want: want[0] in have,
    "neq": lambda have, want: want[0] not in have,
    "in": lambda have, want: any(value in want for value in have),
    "nin": lambda have, want: not any(value in want for value in have),
    "gt": lambda have, want: any(_ordered(value, want[0], lambda a, b: a > b) for value in have),
    "gte": lambda have, want: any(_ordered(value, want[0], lambda a, b: a >= b) for value in have),
    "lt": lambda have, want: any(_ordered(value, want[0], lambda a, b: a < b) for value in have),
    "lte": lambda have, want: any(_ordered(value, want[0], lambda a, b: a <= b) for value in have),
}


def _ordered(value: Any, target: Any, relation: Callable[[Any, Any], bool]) -> bool:
    try:
        return relation(value, target)
    except TypeError:
        return False


def _selection(keys: list[str], columns: dict[str, Column]) -> list[str] | None:
    if not keys:
        return None
    unknown = [key for key in keys if key not in columns and key not in ("_id", "_updatedAt")]
    if unknown:
        raise ApiError(400, f"select names unknown columns ({', '.join(unknown)}); columns: {', '.join(columns)}.")
    return keys


def _project(line: Line, selected: list[str] | None) -> dict[str, Any]:
    shown = line.to_json()
    if selected is None:
        return shown
    # The id always comes along: it is what a client needs to read or edit the record.
    return {key: shown[key] for key in shown if key in selected or key == "_id"}


def _sorted(lines: list[Line], keys: list[str], columns: dict[str, Column]) -> list[Line]:
    for spec in reversed(keys):
        descending = spec.startswith("-")
        key = spec.lstrip("-+")
        if key not in columns and key not in ("_id", "_updatedAt"):
            raise ApiError(400, f'Cannot sort on "{key}": it is not a column; columns: {", ".join(columns)}.')
        column = columns.get(key)

        def sort_value(line: Line, key: str = key, column: Column | None = column) -> Any:
            if key == "_id":
                return (1, line.id)
            if key == "_updatedAt":
                return (1, line.updated_at_text)
            values = [_comparable(column, v) for v in scalars(column, line.data.get(key))] if column else []
            if not values:
                return None
            first = values[0]
            return (0, first) if isinstance(first, (int, float)) and not isinstance(first, bool) else (1, str(first))

        present = [line for line in lines if sort_value(line) is not None]
        missing = [line for line in lines if sort_value(line) is None]
        present.sort(key=sort_value, reverse=descending)
        lines = present + missing  # records without a value come last either way
    return lines


def page_url(request: Request, page: int) -> str:
    pairs = [(name, value) for name, values in request.query.items() if name != "page" for value in values]
    pairs.append(("page", str(page)))
    return f"{request.origin}{request.path}?{urlencode(pairs)}"


def _hints(dataset: Dataset, columns: dict[str, Column], query_words: list[str], total: int) -> list[str]:
    text_columns = [column.key for column in columns.values() if column.type == "string"]
    example = text_columns[0] if text_columns else next(iter(columns), "column")
    hints = [
        f"Filter on a column with <column>_eq, _in, _search, _gte, _lte or _exists (e.g. {example}_search=...); "
        f"columns of {dataset.id}: {', '.join(columns)}."
    ]
    if total == 0 and query_words:
        hints.append("No record contains every word of the query; try fewer or shorter words, or a column filter.")
    return hints


def search_referential(
    items: list[dict[str, Any]], *, key: str, title: str, query: str, size: int
) -> tuple[int, list[dict[str, Any]]]:
    """Items whose key starts with the query, or whose title has a word starting with each word
    of the query; every item when the query is empty. Returns the number found and the first
    ``size`` of them, each reduced to its key and title."""
    wanted = words(query)
    prefix = normalize(query.strip())
    found = []
    for item in items:
        if wanted:
            title_words = words(str(item.get(title, "")))
            by_key = normalize(str(item[key])).startswith(prefix)
            by_title = all(any(word.startswith(term) for word in title_words) for term in wanted)
            if not (by_key or by_title):
                continue
        found.append({key: item[key], title: item.get(title)})
    return len(found), found[:size]
