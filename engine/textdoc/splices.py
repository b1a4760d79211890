"""Splices: ``(start, end, text)`` replacements of a text, applied together."""

from __future__ import annotations

from typing import NamedTuple


class Splice(NamedTuple):
    start: int
    end: int
    text: str


class OverlapError(Exception):
    """Two splices claim the same characters (an edit this module does not know how to make)."""


def apply_splices(text: str, splices: list[Splice], start: int = 0, end: int | None = None) -> str:
    """``text[start:end]`` with ``splices`` (all inside it) applied. Splices at one position
    keep their order (an insertion before a deletion that starts there)."""
    end = len(text) if end is None else end
    out, pos = [], start
    for splice in sorted(splices, key=lambda s: (s.start, s.end)):
        if splice.start < pos or splice.end > end:
            raise OverlapError(splice)
        out.append(text[pos : splice.start])
        out.append(splice.text)
        pos = splice.end
    out.append(text[pos:end])
    return "".join(out)
