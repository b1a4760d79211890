"""JSON Schema ``pattern`` values from untrusted schemas: which need a backtracking engine, and a
bounded test of one value against one pattern.

A pattern without back-references or look-around runs on a linear-time engine (jsonschema-rs
hands it to the Rust ``regex`` crate), whatever the value: ``^(a+)+$`` is decided at once. One
with them needs backtracking, which can take exponential time (``^(a+)\\1*b$`` on a long run of
``a``): such a pattern is tested one value at a time by ``pattern_verdict``, with at most
``BACKTRACK_LIMIT`` steps on at most ``MAX_BACKTRACKING_CHARS`` characters, within the call's
total for patterns (``engine.budget``), and a value that needs more is "could not be checked"
rather than a hang. One value at a time, because jsonschema-rs (0.61) drops the "backtrack
limit exceeded" error of a second field (and sometimes of the first) when it validates a whole
document: a field that could not be checked must always say so.

A pattern jsonschema-rs does not accept although it is valid JavaScript (named groups with
``\\k<name>``, ``[^]``, Annex B forms) is tested in the sandboxed JavaScript engine instead
(``expressions.regex_test``, with its time limit).
"""

from __future__ import annotations

from typing import Any

from ... import budget

# Backtracking steps one match may take. Form values need a few thousand at most; 100,000 is a
# few milliseconds at worst, paid at every validation of the value.
BACKTRACK_LIMIT = 100_000
# Patterns whose compiled tester is kept (a schema has a few; a hostile one many).
MAX_CACHED_PATTERNS = 512
# Characters of a value tested against a pattern that needs backtracking. The step limit does not
# bound every shape (a look-around tried at each position costs the square of the length: 0.3 s
# at 10,000 characters, 5 s at 40,000), so longer values are "could not be checked".
MAX_BACKTRACKING_CHARS = 10_000

_LOOK_AROUND = ("(?=", "(?!", "(?<=", "(?<!")
_REFERENCE_ESCAPES = frozenset("123456789k")
_testers: dict[str, Any] = {}


def needs_backtracking(pattern: str) -> bool:
    """Whether ``pattern`` (ECMA-262) has a back-reference (``\\1``, ``\\k<name>``) or a
    look-around outside a character class: what the linear-time engine cannot run."""
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            if not in_class and pattern[index + 1 : index + 2] in _REFERENCE_ESCAPES:
                return True
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(" and pattern.startswith(_LOOK_AROUND, index):
            return True
        index += 1
    return False


def pattern_verdict(pattern: str, text: str) -> bool | None:
    """Whether ``text`` matches ``pattern``: True, False, or None when that could not be decided
    within the limits (too much backtracking, a value longer than ``MAX_BACKTRACKING_CHARS``,
    the call's total for patterns spent, or the pattern is not a regular expression)."""
    if len(text) > MAX_BACKTRACKING_CHARS or budget.exhausted(budget.PATTERNS):
        return None
    with budget.spending(budget.PATTERNS):
        tester = _tester(pattern)
        if tester is None:
            from .expressions import regex_test

            return regex_test(pattern, text)
        errors = list(tester.iter_errors(text))
    if not errors:
        return True
    return False if type(errors[0].kind).__name__ == "Pattern" else None


def _tester(pattern: str) -> Any:
    """A validator of ``{"pattern": pattern}`` alone (None when jsonschema-rs refuses it)."""
    if pattern in _testers:
        return _testers[pattern]
    import jsonschema_rs

    try:
        tester = jsonschema_rs.Draft202012Validator(
            {"pattern": pattern}, pattern_options=jsonschema_rs.FancyRegexOptions(backtrack_limit=BACKTRACK_LIMIT)
        )
    except (jsonschema_rs.ValidationError, ValueError):
        tester = None
    if len(_testers) >= MAX_CACHED_PATTERNS:
        _testers.pop(next(iter(_testers)))
    _testers[pattern] = tester
    return tester
