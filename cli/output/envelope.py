"""The contract's JSON output: one object per tool call, one line per batch entry."""

from __future__ import annotations

import json
from typing import Any, TextIO


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "), default=_fallback)


def write_json_line(stream: TextIO, obj: Any) -> None:
    try:
        stream.write(dumps(obj) + "\n")
    except UnicodeEncodeError:
        # Text that no UTF-8 stream can take (a lone surrogate from somewhere): written as JSON
        # escapes, which every reader takes, rather than a traceback halfway through a batch.
        stream.write(json.dumps(obj, ensure_ascii=True, separators=(", ", ": "), default=_fallback) + "\n")
    stream.flush()


def error_envelope(message: str) -> dict[str, Any]:
    return {"ok": False, "error": message}


def _fallback(value: Any) -> Any:
    # Paths, tuples of dataclasses and the like: results are meant to be JSON already, so a
    # readable string beats a crash halfway through an envelope.
    if hasattr(value, "__fspath__"):
        return str(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)
