"""Reading JSON that someone else wrote (tool arguments, batch lines, REPL values), within bounds.

Tool arguments come from a model or a script, so their JSON is untrusted. Python's ``json`` reads
100,000 nested arrays by recursing until ``RecursionError``, turns a 5,000-digit number into a
``ValueError`` about "integer string conversion", and accepts ``NaN`` and ``1e999`` (infinity),
which no JSON reader downstream accepts, and ``"\\ud800"``, a lone surrogate: no character, so no
UTF-8 output (the JSON envelope, a data file, the session store) can hold it. ``parse_json``
refuses all of these with an ``InputError`` that says what is wrong, and ``check_shape`` bounds
the depth and the number of values of a value built elsewhere (an embedding host's arguments, a
YAML file), so that no tool recurses deeper than it can or builds state for millions of values (a
30 MB record of empty arrays took a form session 8 GB and 174 s).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .errors import InputError

# Tool arguments, records and operation batches nest a few levels; a JSON Schema record rarely
# goes past 20. Deeper values are refused before anything recurses into them.
MAX_NESTING = 100
# Values in one input (every object, array, string, number...): a form record or a batch of
# operations holds a few thousand; each costs up to about 1 KB and 20 us in a form session.
MAX_VALUES = 200_000
# Digits of an integer: far beyond any count, id or amount (a 64-bit integer has 20), far below
# the 4,300 at which Python refuses to convert.
MAX_INTEGER_DIGITS = 300


# A lone surrogate in text, or its JSON escape: either may make a string that cannot be written out.
_SURROGATE_TEXT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class _Refused(Exception):
    """Raised by a parse hook; carries the reason."""


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise _Refused(f"holds an integer of {digits:,} digits, more than the {MAX_INTEGER_DIGITS} allowed")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"holds the number {text[:40]}, too large for a JSON number")
    return value


def _constant(name: str) -> Any:
    raise _Refused(f"holds {name}, which is not JSON (write null or a number)")


def parse_json(text: str, origin: str, *, values: int = MAX_VALUES) -> Any:
    """The value of ``text``; an ``InputError`` naming ``origin`` ("ARGS", "line 3") when it is
    not JSON, is nested more than ``MAX_NESTING`` levels, holds more than ``values`` values, a
    number no JSON reader takes, or a lone surrogate."""
    check_json_size(text, origin, values)
    try:
        value = json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{origin} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}).", code="badJson"
        ) from None
    except _Refused as exc:
        raise InputError(f"{origin} {exc}.", code="badNumber") from None
    except RecursionError:
        raise _too_deep(origin) from None
    # Strings are looked at one by one only when the text may hold a surrogate at all.
    check_shape(value, origin, values=values, text=_SURROGATE_TEXT.search(text) is not None)
    return value


# Strings, spelled so that the expression does not backtrack.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
# Below this size parsing is cheap whatever the text holds (1 MiB of "[]," is 50 MB of lists).
_SCAN_FROM = 1024 * 1024


def check_json_size(text: str, origin: str, values: int = MAX_VALUES) -> None:
    """Refuse, before parsing it, JSON text that surely holds more than ``values`` values:
    parsing 30 MB of ``[],`` builds 10 million lists (1.5 GB) before any check could run. Outside
    strings, a text of N values has at least N / 2 of ``[``, ``{`` and ``,`` (every value but the
    first of a container follows a comma); one with more than twice ``values`` of them is
    refused, and what passes is checked exactly once parsed (``check_shape``)."""
    if len(text) <= _SCAN_FROM:
        return
    bare = _STRING.sub("", text)
    if bare.count("[") + bare.count("{") + bare.count(",") > 2 * values:
        raise _too_many(origin, values)


def check_shape(
    value: Any,
    origin: str,
    *,
    depth: int | None = MAX_NESTING,
    values: int | None = MAX_VALUES,
    text: bool = False,
    numbers: bool = False,
) -> int:
    """Refuse ``value`` when its arrays and objects nest more than ``depth`` levels, or when it
    holds more than ``values`` values (counting every array, object and scalar, and a shared one
    each time it is reached, as a YAML alias is); with ``text``, when a string or a key holds a
    lone surrogate; with ``numbers``, when it holds a number ``parse_json`` refuses (for values
    parsed elsewhere: a YAML file's ``.inf`` is a number of its own, an MCP client's ``NaN`` is
    not). Walked without recursion, stopping at the first bound crossed, so any input is
    measured safely. Returns how many values it holds."""
    stack = [(value, 1)]
    count = 0
    while stack:
        item, level = stack.pop()
        count += 1
        if values is not None and count > values:
            raise _too_many(origin, values)
        if isinstance(item, str):
            if text:
                _check_text(item, origin)
            continue
        if isinstance(item, dict):
            children = item.values()
            if text:
                for key in item:
                    _check_text(key, origin)
        elif isinstance(item, list | tuple):
            children = item
        else:
            if numbers:
                _check_number(item, origin)
            continue
        if depth is not None and level > depth:
            raise _too_deep(origin, depth)
        stack.extend((child, level + 1) for child in children)
    return count


_LARGEST_INTEGER = 10**MAX_INTEGER_DIGITS


def _check_number(item: Any, origin: str) -> None:
    """The numbers ``parse_json`` refuses, refused in a value parsed elsewhere (an MCP client's
    arguments, parsed by the SDK, may hold NaN, Infinity or a 400-digit integer)."""
    if isinstance(item, float) and not math.isfinite(item):
        raise InputError(
            f"{origin} holds the number {item}, which is not JSON (write null or a number).", code="badNumber"
        )
    if isinstance(item, int) and not isinstance(item, bool) and not -_LARGEST_INTEGER < item < _LARGEST_INTEGER:
        raise InputError(
            f"{origin} holds an integer of more than {MAX_INTEGER_DIGITS} digits; no count, id or amount needs "
            "that many.",
            code="badNumber",
        )


def _too_many(origin: str, values: int) -> InputError:
    return InputError(
        f"{origin} holds more than {values:,} values (objects, arrays, strings, numbers); deskcheck refuses "
        "more, so that a crafted input cannot exhaust memory or time.",
        code="tooLarge",
    )


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate of ``text``, spelled ``\\udcff``, or None when it has none. A
    command-line argument holding bytes that are not UTF-8 has them as such surrogates."""
    found = _SURROGATE.search(text)
    return f"\\u{ord(found.group()):04x}" if found else None


def _check_text(text: Any, origin: str) -> None:
    found = lone_surrogate(text) if isinstance(text, str) else None
    if found:
        raise InputError(
            f"{origin} holds the lone surrogate {found}, which is not a character (half of a pair whose other half "
            "is missing, or a byte that is not UTF-8); no UTF-8 output can hold it. Give the character itself, or "
            "both halves of the pair.",
            code="badText",
        )


def _too_deep(origin: str, limit: int = MAX_NESTING) -> InputError:
    return InputError(
        f"{origin} nests arrays and objects more than {limit} levels deep; no argument, record or answer needs "
        "that many.",
        code="tooDeep",
    )
