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
    if text.isascii() and text.isprintable():
        # Printable ASCII has no whitespace but the space, where str.split agrees with \s.
        return " ".join(text.split()) if "  " in text or text[:1] == " " or text[-1:] == " " else text
    return _RUNS.sub(" ", text).strip(" ")


_BASE33 = "0123456789abcdefghijklmnopqrstuvw"
# int(str, 33) refuses more than 4300 digits and is quadratic in the length: chunks of 500 digits
# cost a quarter of chunks of 4,000 per character (0.027 against 0.117 us), and no more on short text.
_CHUNK = 500


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
# The same split for Latin-1 text, as bytes.translate tables (code points below 256 need two digits).
_BYTE_LOW = bytes(ord(_BASE33[code % 33]) for code in range(256))
_BYTE_HIGH = bytes(ord(_BASE33[code // 33]) for code in range(256))


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
    if len(text) <= _CHUNK:
        try:
            data = text.encode("latin-1")
        except UnicodeEncodeError:
            pass
        else:
            value = int(data.translate(_BYTE_LOW), 33) + int(data.translate(_BYTE_HIGH), 33) * 33
            return "h" + _base36((h * _power(len(text)) + value) % _HASH_MOD)
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


_FNV_OFFSET = 2166136261
_FNV_PRIME = 16777619
_SCALAR_BELOW = 16  # strings shorter than this are hashed one by one
_MAX_LANE_STEPS = 1 << 21  # lanes x steps per group: bounds the transposed buffer (16 MiB)
# A step over lanes costs about four plain steps (0.49 against 0.12 us per character here), so
# fewer seeds than this are hashed one by one: a paragraph of 10 million characters, alone in its
# group, took 4.9 s instead of 1.2 s.
_MIN_LANES = 8


def deterministic_hex_ids(seeds: list[str]) -> list[str]:
    """``deterministic_hex_id`` of many seeds at once.

    FNV-1a is a sequential loop per character, which costs about a quarter of a microsecond per
    character in CPython. Here the seeds are hashed side by side: each seed gets a 64-bit lane
    of one big integer (a 32-bit state times the 25-bit prime stays below 2**57, so lanes never
    carry), and every step XORs the next code point of all seeds (packed into one integer) into
    the state, multiplies by the FNV prime and masks each lane back to 32 bits: three
    big-integer operations done in C. Seeds of similar length are grouped so that short ones do
    not wait for long ones."""
    from array import array

    out: list[str | None] = [None] * len(seeds)
    order = sorted(range(len(seeds)), key=lambda i: len(seeds[i]))
    start = 0
    while start < len(order):
        length = len(seeds[order[start]])
        if length < _SCALAR_BELOW:
            out[order[start]] = deterministic_hex_id(seeds[order[start]])
            start += 1
            continue
        end = start + 1
        while end < len(order):
            longest = len(seeds[order[end]])
            if longest > 2 * length or (end - start + 1) * longest > _MAX_LANE_STEPS:
                break
            end += 1
        group = order[start:end]
        if len(group) < _MIN_LANES:
            # Too few seeds side by side: the big-integer steps cost more than the plain loop.
            for index in group:
                out[index] = deterministic_hex_id(seeds[index])
            start = end
            continue
        steps = len(seeds[group[-1]])
        lanes = len(group)
        # Transposed code points: step k holds the k-th code point of every seed, 2 x 32 bits a lane.
        columns = array("I", bytes(8 * lanes * steps))
        for lane, index in enumerate(group):
            codes = array("I")
            codes.frombytes(seeds[index].encode("utf-32-le"))
            columns[2 * lane : 2 * lane + 2 * lanes * len(codes) : 2 * lanes] = codes
        raw = memoryview(columns).cast("B")
        width = 8 * lanes
        mask = int.from_bytes(b"\xff\xff\xff\xff\0\0\0\0" * lanes, "little")
        state = int.from_bytes(_FNV_OFFSET.to_bytes(8, "little") * lanes, "little")
        finishing: dict[int, list[int]] = {}
        for lane, index in enumerate(group):
            finishing.setdefault(len(seeds[index]) - 1, []).append(lane)
        for step in range(steps):
            state = ((state ^ int.from_bytes(raw[step * width : (step + 1) * width], "little")) * _FNV_PRIME) & mask
            done = finishing.get(step)
            if done:
                snapshot = state.to_bytes(width, "little")
                for lane in done:
                    value = int.from_bytes(snapshot[8 * lane : 8 * lane + 4], "little")
                    out[group[lane]] = f"{value % 0x7FFFFFFF or 1:08X}"
        start = end
    return out  # type: ignore[return-value]
