"""One function decides how a result reaches the user, from the Env and the result alone."""

from __future__ import annotations

from typing import Any

from deskcheck.engine.tools import ToolResult

from ..env import Env
from ..exit import ExitCode
from .envelope import error_envelope, write_json_line


def emit_result(env: Env, result: ToolResult, view: str | None = None, args: dict[str, Any] | None = None) -> ExitCode:
    """Print ``result`` (a JSON envelope, or on a terminal the readable ``view`` of it, given the
    call's ``args``: see ``cli.render``) and return the exit code."""
    code = exit_code_for(result)
    if env.json_output:
        if not (env.quiet and result.ok):
            write_json_line(env.stdout, result.envelope())
        return code
    if result.ok:
        if not env.quiet:
            from .pretty import print_value

            print_value(env, result.value, view, args)
    else:
        from .pretty import print_error

        print_error(env, result.error or "the tool failed without a message")
    return code


def emit_usage_error(env: Env, message: str) -> ExitCode:
    if env.json_output:
        write_json_line(env.stdout, error_envelope(message))
    else:
        from .pretty import print_error

        print_error(env, message)
    return ExitCode.USAGE


def emit_value(env: Env, value: Any, view: str | None = None) -> ExitCode:
    """For commands whose output is not a tool call (lists, reports): same rules as a success."""
    from deskcheck.engine.tools import ok

    return emit_result(env, ok(value), view)


def exit_code_for(result: ToolResult) -> ExitCode:
    if result.ok:
        return ExitCode.OK
    return ExitCode.USAGE if result.input_error else ExitCode.TOOL_ERROR
