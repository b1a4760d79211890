"""How ``deskcheck demo`` narrates its steps on a terminal: a heading per part, then per step its
title, what it shows, each tool call with a readable view of its result, and what it proved.

Pure functions from ``Step`` data to (style, text) lines and, for tool results, the views the CLI
and the REPL show (``cli.render``); the command decides where they go.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..render import docx as docx_views
from ..render.draw import Line, View, plural
from ..render.values import fold, value_view

# A result longer than this many lines is cut (--json prints everything).
MAX_RESULT_LINES = 12
ARGS_CHARS = 110
# Editor tools take the record's path parameters on every call; the step's story says which, so
# the calls show only their own arguments.
EDITOR_TOOLS_PREFIX = "sample_dataset_line_"
PATH_PARAMETERS = ("id", "lineId")
PART_TITLES = {
    "forms": "Form sessions over the sample API",
    "docx": "A docx review of the sample contract",
    "openapi": "Checking the x-agent annotations",
}


def part_heading(part: str, number: int) -> str:
    return f"{number}. {PART_TITLES.get(part, part)}"


def step_lines(step) -> list[tuple[str, str] | View]:
    """(style, text) lines for one finished step, and the view of each tool call's result (drawn
    by the caller, indented and cut to ``MAX_RESULT_LINES``)."""
    lines: list[tuple[str, str] | View] = []
    if step.skipped:
        lines.append(("dim", f"– {step.title}  (skipped: {step.error})"))
        return lines
    mark, style = ("✓", "bold green") if step.ok else ("✗", "bold red")
    lines.append((style, f"{mark} {step.title}"))
    lines.append(("italic", f"  {step.story}"))
    for call in step.calls:
        lines.extend(call_lines(call))
    for note in step.notes:
        lines.append(("cyan", f"  → {note}"))
    if not step.ok:
        lines.append(("red", f"  ✗ {step.name} failed: {step.error}"))
    return lines


def call_lines(call) -> list[tuple[str, str] | View]:
    if call.tool is None:
        head = ("bold", f"  $ {call.action}")
        body = action_result_view(call.result)
    else:
        head = ("bold", f"  › {call.tool} {shown_args(call.tool, call.args or {})}")
        body = tool_result_view(call.tool, call.args or {}, call.result) if call.ok else []
    if not call.ok:
        return [head, ("yellow", f"    ok: false — {call.error}")]
    return [head, body] if body else [head]


def shown_args(tool: str, args: dict[str, Any]) -> str:
    if tool == "suggest_changes":
        return f"({len(args.get('operations', []))} operations)"
    if tool.startswith(EDITOR_TOOLS_PREFIX):
        args = {k: v for k, v in args.items() if k not in PATH_PARAMETERS}
    return fold(json.dumps(args, ensure_ascii=False), ARGS_CHARS) if args else ""


def cut(lines: Sequence[str], limit: int = MAX_RESULT_LINES) -> list[str]:
    if len(lines) <= limit:
        return list(lines)
    return [*lines[: limit - 1], f"… {len(lines) - limit + 1} more lines (deskcheck demo --json prints everything)"]


def tool_result_view(tool: str, args: dict[str, Any], result: Any) -> View:
    """A readable view of a tool's result: form and plain API tools answer text, shown as it is;
    docx tools answer JSON, shown as the CLI and the REPL show it."""
    if isinstance(result, str):
        return [Line(line) for line in result.splitlines()]
    view = DEMO_VIEWS.get(tool) or docx_views.VIEWS.get(tool)
    if view is None or not isinstance(result, dict):
        return value_view(result)
    return view(result, args)


def _comments(result: dict[str, Any], args: dict[str, Any]) -> View:
    # The last thread is the one the step just started; the others came with the edits (their
    # quotes include the pending deletions, as a reviewer sees them), and --json lists them all.
    threads = result.get("comments", [])
    return [Line(f"{plural(len(threads), 'thread')}; the last one:"), *docx_views.comments_view(threads[-1:])]


def _comment_added(result: dict[str, Any], args: dict[str, Any]) -> View:
    ids = [
        t["commentId"] for r in result.get("receipts", []) for t in r.get("affected", []) if t.get("type") == "comment"
    ]
    return [Line(f"comment {', '.join(ids)} added" if ids else str(result.get("status", "done")))]


DEMO_VIEWS = {"read_comments": _comments, "add_comment": _comment_added}


def action_result_view(result: Any) -> View:
    """An action's result when it reads well (a check report); records read on the server and
    tool listings are summed up by the step's notes instead (--json has them whole)."""
    if isinstance(result, dict) and "report" in result:
        return [Line(line) for line in str(result["report"]).splitlines()]
    return []


def summary_lines(steps: Sequence[Any], seconds: float, reviewed: str | None) -> list[tuple[str, str]]:
    ran = [step for step in steps if step.name != "demo.setup"]
    failed = [step for step in steps if not step.ok and not step.skipped]
    skipped = [step for step in steps if step.skipped]
    lines: list[tuple[str, str]] = []
    if not failed and not skipped:
        lines.append(("bold green", f"All {len(ran)} steps worked, in {seconds:.1f} s. The sample API is stopped."))
    else:
        lines.append(("bold red", f"{plural(len(failed), 'step')} failed, {len(skipped)} skipped, in {seconds:.1f} s:"))
        lines += [("red", f"  {step.name}: {step.error}") for step in failed]
        lines.append(("", "The sample API is stopped."))
    if reviewed:
        lines.append(("", f"Open {reviewed} in Word or LibreOffice to see the tracked changes and comments."))
    lines.append(("bold", "Try next:"))
    if reviewed:
        lines.append(("", f"  deskcheck docx read-changes {reviewed}"))
        lines.append(("", f"  deskcheck repl --docx {reviewed}"))
    lines.append(("", "  deskcheck sample-api        # then the README's Tour, command by command"))
    return lines
