"""Small text helpers: localized strings and tool-name casing of the x-agent vocabulary, and
document text made safe to print."""

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


def short_json(value: Any) -> str:
    """A value as JSON, cut to 40 characters: to quote it in a message."""
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


# Characters a terminal, a CI log or GitHub's workflow-command parser would act on rather than
# show: controls (ESC starts an escape sequence, a line break starts a new workflow command),
# format characters (bidirectional overrides hide text), line and paragraph separators, and lone
# surrogates (which UTF-8 cannot even encode).
_UNSAFE_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    """``text`` on one line with nothing a reader's terminal or CI would act on: every control,
    format or separator character is written as its escape (``\\n``, ``\\x1b``, ``\\u202e``),
    as Python writes it. For strings from a document that reach a person: findings, errors."""
    if text.isprintable():
        return text
    import unicodedata

    return "".join(_escape(ch) if unicodedata.category(ch) in _UNSAFE_CATEGORIES else ch for ch in text)


def _escape(ch: str) -> str:
    named = _NAMED_ESCAPES.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
