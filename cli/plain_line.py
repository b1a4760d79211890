"""Reading a tool verb's plain command line without Typer (``form_line``, ``docx_line``).

Scripts run tool verbs once per edit, many times in a row, and importing Typer and building the
verb's click command is a large part of such a short process. These readers take only the plain
spellings of a verb's line: its options as ``--option VALUE`` or ``--option=VALUE`` (a short
spelling such as ``-o VALUE`` too), its on/off flags in their positive spelling, and positional
arguments (not starting with ``-``, or exactly ``-``). Anything else (help, an unknown or
repeated option, a missing, empty or dash-leading value, ``--``, a value Typer would convert
differently, shell completion) is left to Typer, which answers it as it always has. A line a
reader accepts reaches the same code with the same values as through Typer; the tests of each
reader check that against Typer itself.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

# Set by a shell asking Typer for completions (Typer's rule: "_<PROG NAME>_COMPLETE").
COMPLETION_VARIABLE = "_DESKCHECK_COMPLETE"


class Option(NamedTuple):
    keyword: str  # the ``build_context`` keyword
    repeatable: bool = False


class PlainLine(NamedTuple):
    positionals: list[str]
    options: dict[str, Any]  # keyword -> converted value (a list when repeatable)
    flags: frozenset[str]  # keywords of the flags given


def read_plain_line(
    tokens: list[str],
    options: dict[str, Option],
    flags: dict[str, str],
    convert: Callable[[str, str], Any],
) -> PlainLine | None:
    """``tokens`` read with ``options`` (spelling -> Option), ``flags`` (spelling -> keyword)
    and ``convert(keyword, value)`` (the value as Typer passes it, or None to leave the line to
    Typer); None when the line is not plain."""
    if COMPLETION_VARIABLE in os.environ:
        return None
    values: dict[str, Any] = {}
    given: set[str] = set()
    positionals: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token == "-" or not token.startswith("-"):
            positionals.append(token)
            continue
        if token in flags:
            if flags[token] in given:
                return None
            given.add(flags[token])
            continue
        spelling, equals, attached = token.partition("=") if token.startswith("--") else (token, "", "")
        option = options.get(spelling)
        if option is None:
            return None
        if equals:
            value = attached
        elif index < len(tokens):
            value = tokens[index]
            index += 1
        else:
            return None
        if not value or value.startswith("-"):
            return None
        converted = convert(option.keyword, value)
        if converted is None:
            return None
        if option.repeatable:
            values.setdefault(option.keyword, []).append(converted)
        elif option.keyword in values:
            return None
        else:
            values[option.keyword] = converted
    return PlainLine(positionals, values, frozenset(given))


def run_guarded(run: Callable[[], int]) -> int:
    """Run a verb read by a plain reader and return the exit code. Interruptions, end of input and
    a reader that went away end the process as Typer ends a command (130; "Aborted!" and 1; 1)."""
    try:
        return int(run())
    except EOFError:
        print(file=sys.stderr)
        print("Aborted!", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout = _QuietFlush(sys.stdout)  # type: ignore[assignment]
        sys.stderr = _QuietFlush(sys.stderr)  # type: ignore[assignment]
        return 1


class _QuietFlush:
    """A stream whose reader went away: flushing it again at exit raises nothing."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
