"""Values a document can spell that nothing downstream can carry, refused where they are written.

JSON and YAML text can hold numbers and strings that parse but that no output can hold: an
integer past Python's int-to-text limit (4,300 digits: printing it, even in an error message,
raises), a number beyond a 64-bit float (``1e999`` parses as infinity, ``NaN`` and ``Infinity``
are accepted by Python's JSON reader, ``.inf`` and ``.nan`` are YAML floats), and a lone
surrogate (``"\\ud800"``: not Unicode, so no UTF-8 output can encode it). Each one would surface
later as a traceback in a report or as invalid JSON in ``openapi tools``; a document holding one
is refused as unreadable instead, at its line and column.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

# A JSON string escape that decodes to a surrogate; text read as UTF-8 cannot hold one raw.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Bits past which an integer may have more decimal digits than Python converts to text.
_INT_BITS = int(sys.get_int_max_str_digits() * math.log2(10)) if sys.get_int_max_str_digits() else None


class Unrepresentable(Exception):
    """A value no output can carry: what it is (``reason``) and what to write instead
    (``advice``). ``literal`` is how it may be spelled in the text (to find its place),
    ``pointer`` where it is in the data (when known)."""

    def __init__(self, reason: str, advice: str, *, literal: str | None = None, pointer: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.advice = advice
        self.literal = literal
        self.pointer = pointer

    def message(self, location: str, line: int | None, column: int | None) -> str:
        where = f" at line {line}, column {column}" if line is not None else ""
        return f"{location} {self.reason}{where}; {self.advice}."


def load_json(text: str) -> Any:
    """``json.loads`` refusing what ``Unrepresentable`` describes (``json.JSONDecodeError`` and
    ``RecursionError`` pass through)."""
    try:
        data = json.loads(text, parse_float=_finite_float, parse_constant=_constant)
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # the integer conversion limit; the hooks raise Unrepresentable
        digits = re.search(rf"(?<![\w.\"])-?\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        literal = digits.group() if digits else None
        raise too_many_digits(len(literal.lstrip("-")) if literal else None, literal) from exc
    if _SURROGATE_ESCAPE.search(text):  # rare (an escaped emoji): only then is the data walked
        check_strings(data)
    return data


def check_scalar(value: Any) -> None:
    """Refuse a YAML scalar no output can carry: an integer too long to print (a long hexadecimal
    one converts without complaint), a float that is not finite."""
    if isinstance(value, float) and not math.isfinite(value):
        raise Unrepresentable(
            f"holds the number {value} (YAML .inf or .nan), which JSON cannot hold",
            "write a finite number or leave the keyword out",
        )
    if isinstance(value, int) and _INT_BITS is not None and value.bit_length() > _INT_BITS:
        try:
            str(value)
        except ValueError:
            raise too_many_digits(None) from None


def check_strings(data: Any) -> None:
    """Refuse a lone surrogate in any key or string of ``data`` (walked without recursion)."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                where = pointer + "/" + key.replace("~", "~0").replace("/", "~1")
                if _LONE_SURROGATE.search(key):
                    raise _surrogate(key, pointer)
                stack.append((where, item))
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{index}", item) for index, item in enumerate(value))
        elif isinstance(value, str) and _LONE_SURROGATE.search(value):
            raise _surrogate(value, pointer)


def literal_offset(text: str, literal: str) -> int | None:
    """Where ``literal`` first stands as a value in JSON ``text`` (after ``:``, ``[``, ``,`` or
    white space, not inside a longer token): a place to show, found without a second parse."""
    for match in re.finditer(re.escape(literal), text):
        before = text[match.start() - 1] if match.start() else " "
        after = text[match.end()] if match.end() < len(text) else " "
        if before in ":[, \t\r\n" and after in ",]} \t\r\n":
            return match.start()
    return None


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Unrepresentable(
            f"holds the number {text[:40]}, beyond what a 64-bit float holds (it would read as infinity)",
            "write a smaller number",
            literal=text,
        )
    return value


def _constant(name: str) -> Any:
    raise Unrepresentable(f"holds {name}, which is not JSON", "write a number or null", literal=name)


def too_many_digits(digits: int | None, literal: str | None = None) -> Unrepresentable:
    count = f"of {digits:,} digits" if digits is not None else "too long to write out"
    return Unrepresentable(
        f"holds an integer {count}",
        f"deskcheck reads integers of at most {sys.get_int_max_str_digits():,} digits (Python's limit for turning "
        "text into numbers, which bounds the cost of reading one)",
        literal=literal,
    )


def _surrogate(text: str, pointer: str) -> Unrepresentable:
    lone = _LONE_SURROGATE.search(text)
    code = f"\\u{ord(lone.group()):04x}" if lone else "a surrogate"
    return Unrepresentable(
        f"holds a lone surrogate ({code}) at {pointer or '/'}: half of a character pair, which is not Unicode text "
        "and which no output can print",
        "write the whole character",
        pointer=pointer,
    )
