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


_BASE33 = "0123456789abcdefghijklmnopqrstuvw"
_CHUNK = 4000  # int(str, 33) refuses more than 4300 digits, and is quadratic in the length


class _Base33Digit(dict):
    """str.translate table: code point -> its base-33 digit of weight 33**power."""

    def __init__(self, power: int) -> None:
        super().__init__()
        self.divisor = 33**power

    def __missing__(self, code: int) -> str:
        digit = _BASE33[code // self.divisor % 33]
        self[code] = digit
        return digit


_DIGIT_TABLES = tuple(_Base33Digit(power) for power in range(4))  # 33**4 > 0x10FFFF


_POWER_CACHE: dict[int, int] = {}


def _power(exponent: int) -> int:
    value = _POWER_CACHE.get(exponent)
    if value is None:
        value = _POWER_CACHE[exponent] = pow(33, exponent, _HASH_MOD)
    return value


def text_hash(text: str) -> str:
    """h = 5381; for each code point c: h = (h * 33 + c) mod 2147483647.

    Computed without a Python loop per character: the loop's result is
    5381 * 33**n + sum(c_i * 33**(n-1-i)) mod p, and that sum is the number whose base-33 digits
    are the code points. Each code point is split into four base-33 digits (33**4 covers all of
    Unicode), so the sum is four ``int(digits, 33)`` conversions done in C."""
    h = 5381
    if not text:
        return "h45h"
    for start in range(0, len(text), _CHUNK):
        chunk = text[start : start + _CHUNK]
        # ASCII code points need two base-33 digits; others up to four.
        top = 127 if chunk.isascii() else ord(max(chunk))
        value = int(chunk.translate(_DIGIT_TABLES[0]), 33) + int(chunk.translate(_DIGIT_TABLES[1]), 33) * 33
        if top >= 33**2:
            value += int(chunk.translate(_DIGIT_TABLES[2]), 33) * 33**2
            if top >= 33**3:
                value += int(chunk.translate(_DIGIT_TABLES[3]), 33) * 33**3
        h = (h * _power(len(chunk)) + value) % _HASH_MOD
    return "h" + _base36(h)


def block_text_hash(text: str) -> str:
    return text_hash(normalize_text(text))


def deterministic_hex_id(seed: str) -> str:
    h = 2166136261
    for code in memoryview(seed.encode("utf-32-le")).cast("I"):
        h = ((h ^ code) * 16777619) & 0xFFFFFFFF
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
