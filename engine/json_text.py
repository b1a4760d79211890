"""Reading JSON that someone else wrote (tool arguments, batch lines, REPL values), within bounds.

Tool arguments come from a model or a script, so their JSON is untrusted. Python's ``json`` reads
100,000 nested arrays by recursing until ``RecursionError``, turns a 5,000-digit number into a
``ValueError`` about "integer string conversion", and accepts ``NaN`` and ``1e999`` (infinity),
which no JSON reader downstream accepts. ``parse_json`` refuses all of these with an
``InputError`` that says what is wrong, and ``check_nesting`` bounds the depth of a value built
elsewhere (an embedding host's arguments), so that no tool recurses deeper than it can.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import InputError

# Tool arguments, records and operation batches nest a few levels; a JSON Schema record rarely
# goes past 20. Deeper values are refused before anything recurses into them.
MAX_NESTING = 100
# Digits of an integer: far beyond any count, id or amount (a 64-bit integer has 20), far below
# the 4,300 at which Python refuses to convert.
MAX_INTEGER_DIGITS = 300


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


def parse_json(text: str, origin: str) -> Any:
    """The value of ``text``; an ``InputError`` naming ``origin`` ("ARGS", "line 3") when it is
    not JSON, is nested more than ``MAX_NESTING`` levels, or holds a number no JSON reader
    takes."""
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
    check_nesting(value, origin)
    return value


def check_nesting(value: Any, origin: str, limit: int = MAX_NESTING) -> None:
    """Refuse ``value`` when its arrays and objects nest more than ``limit`` levels (walked
    without recursion, so any depth is measured safely)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth > limit:
            raise _too_deep(origin, limit)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list | tuple))


def _too_deep(origin: str, limit: int = MAX_NESTING) -> InputError:
    return InputError(
        f"{origin} nests arrays and objects more than {limit} levels deep; no tool argument needs that many.",
        code="tooDeep",
    )
