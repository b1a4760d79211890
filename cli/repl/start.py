"""From the command line to a running REPL: which mode (a form session or a review), the record's
path parameters (``KEY=VALUE`` after an editor group's name), and whether lines come from a
prompt or a script."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..context import ContextOptions, open_form_group, preflight
from ..env import Env, state_dir
from ..errors import UsageError
from ..exit import ExitCode
from .render import Printer


def parse_params(group, pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` words as the group's path parameters, each value read by the type its
    parameter declares (a number for an integer parameter, text otherwise)."""
    declared = dict(group.parameters)
    params: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"expected KEY=VALUE after the editor group's name, not {pair!r}.")
        if name not in declared:
            accepted = ", ".join(declared) or "none"
            raise UsageError(f"{group.name} has no parameter {name!r}; its parameters: {accepted}.")
        params[name] = _typed(raw, declared[name])
    missing = [name for name in group.required_parameters if name not in params]
    if missing:
        raise UsageError(
            f"the editor group {group.name} needs {', '.join(f'{m}=VALUE' for m in missing)} to pick the record."
        )
    return params


def _typed(raw: str, schema: dict[str, Any]) -> Any:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind in ("integer", "number", "boolean"):
        from deskcheck.engine.errors import InputError
        from deskcheck.engine.json_text import parse_json

        try:
            value = parse_json(raw, "the parameter")
        except InputError:
            return raw
        return value if not isinstance(value, (dict, list, str)) else raw
    return raw


def build_mode(context: ContextOptions, positionals: Sequence[str], printer: Printer, *, allow_invalid: bool):
    family = context.family
    if family == "docx":
        if positionals:
            raise UsageError(f"--docx takes no other argument; remove {positionals[0]!r}.")
        from .review_mode import ReviewMode

        return ReviewMode(context, printer, state_dir())
    from .form_mode import FormMode

    name = None
    pairs = list(positionals)
    if family == "openapi":
        if not pairs:
            # open_form_group lists the document's editor groups in its answer.
            open_form_group(context, None)
        name, pairs = pairs[0], pairs[1:]
    elif pairs:
        raise UsageError(f"--schema/--data take no other argument; remove {pairs[0]!r}.")
    group = open_form_group(context, name, allow_invalid=allow_invalid)
    return FormMode(context, group, parse_params(group, pairs), printer, allow_invalid=allow_invalid)


# A script of REPL commands, one per line: a few hundred lines is a long one.
MAX_SCRIPT_BYTES = 16 * 1024 * 1024


def script_lines(script: str | None, env: Env) -> list[str] | None:
    """The script's lines (``--script FILE``, ``--script -``, or stdin when it is not a
    terminal), or None for an interactive prompt."""
    if script is None and env.stdin_is_tty:
        return None
    if script is None or script == "-":
        text = env.stdin.read(MAX_SCRIPT_BYTES + 1)
        if len(text) > MAX_SCRIPT_BYTES:
            raise UsageError(f"the script on stdin is longer than {MAX_SCRIPT_BYTES // (1024 * 1024)} MiB.")
        return text.splitlines()
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.files import read_regular_file

    path = Path(script)
    try:
        data = read_regular_file(path, MAX_SCRIPT_BYTES, subject=f"the script {path}", wanted="a text file of commands")
        return data.decode("utf-8").splitlines()
    except InputError as exc:
        raise UsageError(exc.message) from None
    except UnicodeDecodeError:
        raise UsageError(f"the script {path} is not UTF-8 text.") from None


def run(
    context: ContextOptions,
    positionals: Sequence[str],
    env: Env,
    *,
    script: str | None = None,
    allow_invalid: bool = False,
    prompt_input: Any = None,
    prompt_output: Any = None,
    interactive_out: TextIO | None = None,
) -> ExitCode:
    """Run the REPL for ``context``; ``prompt_input`` / ``prompt_output`` drive the prompt
    without a terminal (tests), which also makes it interactive."""
    from .loop import Shell, run_interactive, run_script

    preflight(context)
    lines = None if prompt_input is not None else script_lines(script, env)
    interactive = lines is None
    out = interactive_out or env.stdout
    printer = Printer(
        out,
        out if interactive else env.stderr,
        color=env.color,
        interactive=interactive,
        pager=env.pager and interactive and interactive_out is None and prompt_input is None,
    )
    mode = build_mode(context, positionals, printer, allow_invalid=allow_invalid)
    try:
        code = mode.start()
        if code != ExitCode.OK:
            return code
        shell = Shell(mode, printer)
        if lines is not None:
            return run_script(shell, lines)
        history = state_dir() / f"repl-history-{mode.kind}"
        return run_interactive(shell, history_path=history, color=env.color, input=prompt_input, output=prompt_output)
    finally:
        close = getattr(mode, "close", None)
        if close is not None:
            close()
