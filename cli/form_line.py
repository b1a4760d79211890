"""A ``deskcheck form <tool verb>`` command line read without Typer.

Scripts run the form verbs once per edit, hundreds of times in a row, and importing Typer and
building the verb's click command was about a third of such a process. This reader takes only
the plain spellings of a tool verb's line: the verb, then in any order its context options as
``--option VALUE`` or ``--option=VALUE`` (``-H VALUE`` for a header), ``--allow-invalid`` on
``save-form``, and the positional NAME / ARGS (not starting with ``-``, or exactly ``-``).
Anything else (help, no arguments, an unknown or repeated option, a missing, empty or
dash-leading value, ``--``, a timeout Typer would refuse, shell completion) is left to Typer,
which answers it as it always has. A line this reader accepts reaches the same code with the
same values as through Typer; ``tests/cli/test_form_line.py`` checks that against Typer itself.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

# Spelling -> (``build_context`` keyword, repeatable): the form verbs' options as ``cli.options``
# declares them (the test compares the two).
SPELLINGS: dict[str, tuple[str, bool]] = {
    "--spec": ("spec", False),
    "--schema": ("schema", False),
    "--data": ("data", False),
    "--profile": ("profile", True),
    "--base-url": ("base_url", False),
    "--header": ("header", True),
    "-H": ("header", True),
    "--token": ("token", False),
    "--allow-host": ("allow_host", True),
    "--identity": ("identity", False),
    "--timeout": ("timeout", False),
}
_PATHS = frozenset({"schema", "data"})
_MIN_TIMEOUT = 0.1  # the floor cli.options gives --timeout
# Set by a shell asking Typer for completions (Typer's rule: "_<PROG NAME>_COMPLETE").
_COMPLETION_VARIABLE = "_DESKCHECK_COMPLETE"


class FormLine(NamedTuple):
    tool_verb: str  # "setFieldValue"
    positionals: list[str]
    options: dict[str, Any]  # build_context keywords
    allow_invalid: bool


def read_form_line(argv: list[str]) -> FormLine | None:
    """The line ``argv`` (global flags already lifted out) when it is a plain form tool verb's
    line, else None (Typer reads it)."""
    if len(argv) < 3 or argv[0] != "form" or _COMPLETION_VARIABLE in os.environ:
        return None
    from .commands.form_verbs import tool_verbs

    found = tool_verbs().get(argv[1])
    if found is None:
        return None
    tool_verb = found[0]
    takes_allow_invalid = tool_verb == "saveForm"
    options: dict[str, Any] = {}
    positionals: list[str] = []
    allow_invalid = False
    rest = argv[2:]
    index = 0
    while index < len(rest):
        token = rest[index]
        index += 1
        if token == "-" or not token.startswith("-"):
            positionals.append(token)
            continue
        if takes_allow_invalid and token == "--allow-invalid":
            allow_invalid = True
            continue
        spelling, equals, attached = token.partition("=") if token.startswith("--") else (token, "", "")
        if spelling not in SPELLINGS:
            return None
        keyword, repeatable = SPELLINGS[spelling]
        if equals:
            value = attached
        elif index < len(rest):
            value = rest[index]
            index += 1
        else:
            return None
        converted = _convert(keyword, value)
        if converted is None:
            return None
        if repeatable:
            options.setdefault(keyword, []).append(converted)
        elif keyword in options:
            return None
        else:
            options[keyword] = converted
    return FormLine(tool_verb, positionals, options, allow_invalid)


def _convert(keyword: str, value: str) -> Any:
    """The option's value as Typer would pass it, or None to leave the line to Typer."""
    if not value or value.startswith("-"):
        return None
    if keyword in _PATHS:
        return Path(value)
    if keyword == "timeout":
        try:
            seconds = float(value)
        except ValueError:
            return None
        # NaN and infinities fail these comparisons or the finite check: Typer decides.
        return seconds if _MIN_TIMEOUT <= seconds < float("inf") else None
    return value


def run_form_line(line: FormLine) -> int:
    """Run the line's tool and return the exit code. Interruptions, end of input and a reader
    that went away end the process as Typer ends a command (130; "Aborted!" and 1; 1)."""
    from .commands.form_verbs import run_tool_verb
    from .context import build_context

    try:
        context = build_context(**line.options)
        return int(run_tool_verb(line.tool_verb, line.positionals, context, line.allow_invalid))
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
