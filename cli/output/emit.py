"""One function decides how a result reaches the user, from the Env and the result alone.

The contract's rule for results that carry operations (``suggest_changes``, ``docx queue
apply``): a call that did everything it was asked is ``ok``; one that skipped some operations
is not, whether it applied the others (exit 3, the file changed) or none (exit 1, the file is as
it was), and its envelope keeps the whole result beside the error so that a script sees what was
applied and why the rest was skipped. The CLI, ``batch`` and the REPL all decide it here.
"""

from __future__ import annotations

import json
from typing import Any

from deskcheck.engine.tools import ToolResult

from ..env import Env, global_flags
from ..exit import ExitCode
from .envelope import error_envelope, write_json_line


def outcome(result: ToolResult, *, decode_text: bool | None = None) -> tuple[dict[str, Any], ExitCode]:
    """The envelope of ``result`` and its exit code. ``decode_text`` (default: --json was given)
    gives a text result that holds a JSON object or array (a form tool's getData) as data."""
    if not result.ok:
        return result.envelope(), ExitCode.USAGE if result.input_error else ExitCode.TOOL_ERROR
    value = result.value
    if decode_text if decode_text is not None else global_flags().json:
        value = _decoded(value)
    skipped = _skipped(value)
    if skipped is None:
        return {"ok": True, "result": value}, ExitCode.OK
    done, message = skipped
    return {"ok": False, "error": message, "result": value}, ExitCode.PARTIAL if done else ExitCode.TOOL_ERROR


def emit_result(env: Env, result: ToolResult, view: str | None = None, args: dict[str, Any] | None = None) -> ExitCode:
    """Print ``result`` (a JSON envelope, or on a terminal the readable ``view`` of it, given the
    call's ``args``: see ``cli.render``) and return the exit code."""
    envelope, code = outcome(result)
    if env.json_output:
        if not (env.quiet and code == ExitCode.OK):
            write_json_line(env.stdout, envelope)
        if code != ExitCode.OK:  # the envelope is for the script; the person running it reads stderr
            print_plain_error(env, envelope["error"])
        return code
    if "result" in envelope and not (env.quiet and code == ExitCode.OK):
        from .pretty import print_value

        print_value(env, envelope["result"], view, args)
    if code != ExitCode.OK:
        from .pretty import print_error

        print_error(env, envelope.get("error") or "the tool failed without a message")
    return code


def emit_usage_error(env: Env, message: str) -> ExitCode:
    if env.json_output:
        write_json_line(env.stdout, error_envelope(message))
        print_plain_error(env, message)
    else:
        from .pretty import print_error

        print_error(env, message)
    return ExitCode.USAGE


def emit_export_error(env: Env, message: str, code: ExitCode = ExitCode.USAGE) -> ExitCode:
    """A failure of a command whose stdout holds a format of its own (tool definitions, a text
    comparison): that format or nothing, so the message goes to stderr only."""
    print_plain_error(env, message)
    return code


def print_plain_error(env: Env, message: str) -> None:
    """``error: MESSAGE`` on stderr, without colour or markup (what a log or a script's reader
    sees beside the JSON on stdout), control characters shown as symbols: it may quote a
    document, and an escape sequence must not reach the terminal."""
    from ..render.draw import safe_text

    print(f"error: {safe_text(message)}", file=env.stderr, flush=True)


def emit_value(env: Env, value: Any, view: str | None = None) -> ExitCode:
    """For commands whose output is not a tool call (lists, reports): same rules as a success."""
    from deskcheck.engine.tools import ok

    return emit_result(env, ok(value), view)


def exit_code_for(result: ToolResult) -> ExitCode:
    return outcome(result, decode_text=False)[1]


def _skipped(value: Any) -> tuple[bool, str] | None:
    """(whether anything was done, a sentence) for a result that skipped operations; None for
    any other result."""
    if not isinstance(value, dict) or not isinstance(value.get("skipped"), list) or not value["skipped"]:
        return None
    done = sum(len(value.get(key) or []) for key in ("applied", "replayed", "queued"))
    skipped = value["skipped"]
    total = done + len(skipped)
    listed = "; ".join(
        f"{entry.get('id')}: {entry.get('code')}" for entry in skipped[:3] if isinstance(entry, dict)
    ) + ("; …" if len(skipped) > 3 else "")
    if value.get("status") == "previewed" or value.get("dryRun"):  # --dry-run: nothing was written
        if done:
            return True, (
                f"{len(skipped)} of {total} operations would be skipped ({listed}); the "
                f"{'other' if done == 1 else f'other {done}'} would be applied. Nothing was written "
                "(--dry-run). result.skipped says why."
            )
        return False, (
            f"nothing would be applied: every operation would be skipped ({listed}). Nothing was written "
            "(--dry-run). result.skipped says why."
        )
    verb = "queued" if value.get("queued") else "applied"
    if done:
        return True, (
            f"{len(skipped)} of {total} operations were skipped ({listed}); "
            f"the {'other was' if done == 1 else f'other {done} were'} {verb}. result.skipped says why."
        )
    return False, f"nothing was {verb}: every operation was skipped ({listed}). result.skipped says why."


def _decoded(value: Any) -> Any:
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
