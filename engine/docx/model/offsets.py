"""UTF-16 offsets, as the tools use them on the wire.

Every offset a docx tool returns or accepts (find_text ranges, replaceRange, contexts) counts
UTF-16 code units into a block's as-accepted text, like JavaScript string indices: a character
outside the Basic Multilingual Plane (most emoji, many CJK extension characters) counts 2, every
other character 1. Python strings index by code point, so these helpers convert.

An offset is *valid* when it falls between two code points (never between the two halves of a
surrogate pair). ``splits_cluster`` additionally tells whether an offset falls between a base
character and a combining mark that belongs to it, which text edits should refuse.
"""

from __future__ import annotations

import unicodedata


def utf16_length(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def has_astral(text: str) -> bool:
    return not text.isascii() and any(ord(char) > 0xFFFF for char in text)


def to_utf16(text: str, index: int) -> int:
    """The UTF-16 offset of code-point index ``index`` (0 <= index <= len(text))."""
    if text.isascii():
        return index
    return index + sum(1 for char in text[:index] if ord(char) > 0xFFFF)


def utf16_map(text: str) -> list[int] | None:
    """For texts with astral characters, the UTF-16 offset of every code-point index
    (len(text) + 1 entries); None when offsets coincide."""
    if not has_astral(text):
        return None
    out = [0]
    position = 0
    for char in text:
        position += 2 if ord(char) > 0xFFFF else 1
        out.append(position)
    return out


def from_utf16(text: str, offset: int) -> int | None:
    """The code-point index at UTF-16 ``offset``, or None when the offset is out of range or
    falls inside a surrogate pair."""
    if offset < 0:
        return None
    if not has_astral(text):
        return offset if offset <= len(text) else None
    position = 0
    for index, char in enumerate(text):
        if position == offset:
            return index
        position += 2 if ord(char) > 0xFFFF else 1
        if position > offset:
            return None
    return len(text) if position == offset else None


def splits_cluster(text: str, index: int) -> bool:
    """True when code-point ``index`` falls between a character and the combining mark (or
    variation selector / zero-width joiner sequence) that follows it."""
    if index <= 0 or index >= len(text):
        return False
    after = text[index]
    before = text[index - 1]
    if unicodedata.category(after) in ("Mn", "Mc", "Me"):
        return True
    if "\ufe00" <= after <= "\ufe0f" or after == "\u200d" or before == "\u200d":
        return True
    return "\U0001f3fb" <= after <= "\U0001f3ff"  # emoji skin-tone modifiers
