"""Small text helpers of the x-agent vocabulary: localized strings and tool-name casing."""

from __future__ import annotations

import re
from typing import Any

DEFAULT_LOCALE = "en"


def localize(value: Any, locale: str = DEFAULT_LOCALE) -> str | None:
    """A localized text (a string, or ``{locale: string}``) in ``locale``: the exact locale, then
    English, then the first one given. Anything else is None."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and value:
        for key in (locale, DEFAULT_LOCALE):
            if isinstance(value.get(key), str):
                return value[key]
        first = next(iter(value.values()))
        return first if isinstance(first, str) else None
    return None


_LOWER_UPPER = re.compile(r"([a-z0-9])([A-Z])")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")


def snake_case(name: str) -> str:
    """``getValuesAgg`` → ``get_values_agg``; ``masterData_singleSearch_{id}`` →
    ``master_data_single_search_id``."""
    text = _LOWER_UPPER.sub(r"\1_\2", name)
    text = _NON_ALNUM.sub("_", text)
    return re.sub("_+", "_", text).strip("_").lower()


def collapse_whitespace(text: str) -> str:
    return " ".join(text.split())


def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
