"""A ``deskcheck form <tool verb>`` command line read without Typer (see ``plain_line``).

The plain spellings of a tool verb's line: the verb, then in any order its context options as
``--option VALUE`` or ``--option=VALUE`` (``-H VALUE`` for a header), ``--fill-defaults``,
``--allow-invalid`` on ``save-form``, and the positional NAME / ARGS. ``tests/cli/test_form_line.py`` checks the reading
against Typer itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from .option_values import option_problem
from .plain_line import Option, read_plain_line, run_guarded

# Spelling -> (``build_context`` keyword, repeatable): the form verbs' options as ``cli.options``
# declares them (the test compares the two).
SPELLINGS: dict[str, Option] = {
    "--spec": Option("spec"),
    "--schema": Option("schema"),
    "--data": Option("data"),
    "--format": Option("data_format"),
    "--yaml-version": Option("yaml_version"),
    "--document": Option("document"),
    "--profile": Option("profile", repeatable=True),
    "--base-url": Option("base_url"),
    "--header": Option("header", repeatable=True),
    "-H": Option("header", repeatable=True),
    "--token": Option("token"),
    "--allow-host": Option("allow_host", repeatable=True),
    "--identity": Option("identity"),
    "--store": Option("store"),
    "--timeout": Option("timeout"),
}
# On/off context flags of every form verb (``build_context`` keywords).
FLAGS = {"--fill-defaults": "fill_defaults"}
_PATHS = frozenset({"schema", "data"})
_MIN_TIMEOUT = 0.1  # the floor cli.options gives --timeout


class FormLine(NamedTuple):
    tool_verb: str  # "setFieldValue"
    positionals: list[str]
    options: dict[str, Any]  # build_context keywords
    allow_invalid: bool


def read_form_line(argv: list[str]) -> FormLine | None:
    """The line ``argv`` (global flags already lifted out) when it is a plain form tool verb's
    line, else None (Typer reads it)."""
    if len(argv) < 3 or argv[0] != "form":
        return None
    from .commands.form_verbs import tool_verbs

    found = tool_verbs().get(argv[1])
    if found is None:
        return None
    tool_verb = found[0]
    flags = dict(FLAGS)
    if tool_verb == "saveForm":
        flags["--allow-invalid"] = "allow_invalid"
    line = read_plain_line(argv[2:], SPELLINGS, flags, _convert)
    if line is None:
        return None
    options = {**line.options, **{keyword: True for keyword in FLAGS.values() if keyword in line.flags}}
    return FormLine(tool_verb, line.positionals, options, "allow_invalid" in line.flags)


def _convert(keyword: str, value: str) -> Any:
    """The option's value as Typer would pass it, or None to leave the line to Typer (which
    also reports a bad value)."""
    if keyword in _PATHS:
        return Path(value)
    if keyword == "document":
        # A whole number from 1; anything else is Typer's to report.
        return int(value) if value.isdigit() and int(value) >= 1 else None
    if option_problem(keyword, value) is not None:
        return None
    if keyword == "timeout":
        try:
            seconds = float(value)
        except ValueError:
            return None
        # NaN and infinities fail these comparisons or the finite check: Typer decides.
        return seconds if _MIN_TIMEOUT <= seconds < float("inf") else None
    return value


def run_form_line(line: FormLine) -> int:
    """Run the line's tool and return the exit code (see ``plain_line.run_guarded``)."""
    from .commands.form_verbs import run_tool_verb
    from .context import build_context

    return run_guarded(
        lambda: run_tool_verb(line.tool_verb, line.positionals, build_context(**line.options), line.allow_invalid)
    )
