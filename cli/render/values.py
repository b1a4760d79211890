"""Any JSON value as readable lines (``key: value``, nested keys indented, lists as ``-`` items),
for results no family view knows, and the small text helpers the views share."""

from __future__ import annotations

import json
from typing import Any

from .draw import Line, Verbatim, View, Wrapped

# Values printed on one line are folded past this many characters.
FOLD_CHARS = 72
# A list longer than this shows its first items and how many more there are.
MAX_ITEMS = 50
MAX_DEPTH = 8


def fold(text: str, limit: int = FOLD_CHARS) -> str:
    """``text`` cut to ``limit`` characters with a note of its full size."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text):,} chars)"


def scalar_text(value: Any) -> str:
    """A value in a few words: strings as they are, other scalars as JSON, containers on one line."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def one_line(value: Any) -> str:
    """A JSON value on one line, folded."""
    return fold(json.dumps(value, ensure_ascii=False, default=str))


def json_view(value: Any) -> View:
    """``value`` as indented JSON, for output a person asked for as JSON (an export format)."""
    return [Verbatim(line) for line in json.dumps(value, ensure_ascii=False, indent=2, default=str).split("\n")]


def value_view(value: Any) -> View:
    """``value`` as indented ``key: value`` lines (no braces, no quotes around keys)."""
    if value is None:
        return [Line(("ok", "green"))]
    if isinstance(value, str):
        return [Wrapped(((line, ""),)) for line in value.split("\n")]
    view: View = []
    _walk(value, 0, view)
    return view or [Line(("(empty)", "dim"))]


def _walk(value: Any, depth: int, view: View, bullet: bool = False) -> None:
    """``value``'s lines at ``depth``; ``bullet``: it is a list's item, whose first line takes the
    ``-`` (as YAML writes a list of objects)."""
    margin = "  " * depth
    first = margin[:-2] + "- " if bullet else margin
    if isinstance(value, dict):
        if not value:
            view.append(Line((f"{first}(empty)", "dim")))
        for index, (key, item) in enumerate(value.items()):
            lead = first if index == 0 else margin
            if _is_scalar(item) or depth >= MAX_DEPTH:
                spans = ((f"{lead}{key}: ", "bold"), (_scalar(item), _style(item)))
                view.append(Wrapped(spans, indent=len(margin) + 2))
            else:
                view.append(Line((f"{lead}{key}:", "bold"), (_size(item), "dim")))
                _walk(item, depth + 1, view)
    elif isinstance(value, list):
        if not value:
            view.append(Line((f"{first}(none)", "dim")))
        for item in value[:MAX_ITEMS]:
            if _is_scalar(item) or depth >= MAX_DEPTH:
                view.append(Wrapped(((f"{margin}- ", "dim"), (_scalar(item), _style(item))), indent=len(margin) + 2))
            elif isinstance(item, dict):
                _walk(item, depth + 1, view, bullet=True)
            else:
                view.append(Line((f"{margin}-", "dim")))
                _walk(item, depth + 1, view)
        if len(value) > MAX_ITEMS:
            view.append(Line((f"{margin}… {len(value) - MAX_ITEMS:,} more (--json prints them all)", "dim")))
    else:
        view.append(Wrapped(((margin + _scalar(value), _style(value)),), indent=len(margin)))


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list)) or not value


def _scalar(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "(empty)"
    return scalar_text(value)


def _style(value: Any) -> str:
    if value is None or isinstance(value, (dict, list)):
        return "dim"
    if isinstance(value, bool):
        return "green" if value else "red"
    if isinstance(value, (int, float)):
        return "cyan"
    return ""


def _size(value: Any) -> str:
    return f" ({len(value):,} items)" if isinstance(value, list) else ""
