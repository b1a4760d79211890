"""Text normalisation, block text hashes and deterministic paragraph ids.

These match the reference system exactly, so hashes and minted ids agree with it:

- ``normalize_text``: every run of whitespace becomes one space, then the ends are trimmed.
  "Whitespace" is JavaScript's ``\\s`` set (it includes NBSP, U+FEFF, U+2028/9, U+3000, ...),
  which is not Python's.
- ``text_hash``: h = 5381; for each code point c, h = (h * 33 + c) mod 2147483647; the result is
  ``"h" + base36(h)``. ``blockTextHash`` is the hash of the normalised block text;
  ``selectedTextHash`` of a range is the hash of the raw selected text.
- ``deterministic_hex_id``: FNV-1a over code points, reduced mod 0x7FFFFFFF (0 becomes 1), as 8
  uppercase hex digits: always a valid ``w14:paraId`` (below 0x80000000, never 00000000).
"""

from __future__ import annotations

import re

JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_RUNS = re.compile(f"[{JS_WHITESPACE}]+")
_HASH_MOD = 2147483647
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
HASH_PATTERN = re.compile(r"^h[0-9a-z]+$")


def normalize_text(text: str) -> str:
    return _RUNS.sub(" ", text).strip(" ")


def text_hash(text: str) -> str:
    h = 5381
    for char in text:
        h = (h * 33 + ord(char)) % _HASH_MOD
    return "h" + _base36(h)


def block_text_hash(text: str) -> str:
    return text_hash(normalize_text(text))


def deterministic_hex_id(seed: str) -> str:
    h = 2166136261
    for char in seed:
        h = ((h ^ ord(char)) * 16777619) & 0xFFFFFFFF
    value = h % 0x7FFFFFFF
    return f"{value or 1:08X}"


def _base36(value: int) -> str:
    if value == 0:
        return "0"
    digits = []
    while value:
        value, rest = divmod(value, 36)
        digits.append(_DIGITS[rest])
    return "".join(reversed(digits))
