"""How ``deskcheck demo`` narrates its steps on a terminal: a heading per part, then per step its
title, what it shows, each tool call with a readable view of its result, and what it proved.

Pure functions from ``Step`` data to rich renderables or lines; the command decides where they go.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..repl.render import fold
from ..repl.review_view import block_lines, change_lines, comment_lines, describe_op

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


def step_lines(step) -> list[tuple[str, str]]:
    """(style, text) lines for one finished step."""
    lines: list[tuple[str, str]] = []
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


def call_lines(call) -> list[tuple[str, str]]:
    if call.tool is None:
        head = [("bold", f"  $ {call.action}")]
        body = action_result_lines(call.result)
    else:
        head = [("bold", f"  › {call.tool} {shown_args(call.tool, call.args or {})}")]
        body = tool_result_lines(call.tool, call.args or {}, call.result) if call.ok else []
    if not call.ok:
        return [*head, ("yellow", f"    ok: false — {call.error}")]
    return [*head, *[("", f"    {line}") for line in cut(body)]]


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


def tool_result_lines(tool: str, args: dict[str, Any], result: Any) -> list[str]:
    """A readable view of a tool's result: form and plain API tools answer text, printed as it is;
    docx tools answer JSON, shown the way the REPL shows it."""
    if isinstance(result, str):
        return result.splitlines()
    if not isinstance(result, dict):
        return [fold(json.dumps(result, ensure_ascii=False), 160)]
    view = DOCX_VIEWS.get(tool)
    return view(args, result) if view else [fold(json.dumps(result, ensure_ascii=False), 160)]


def _read_document(args: dict[str, Any], result: dict[str, Any]) -> list[str]:
    lines = block_lines(result.get("blocks", []), 1)
    if result.get("nextAfterBlockId"):
        lines.append(f"(next page: afterBlockId {result['nextAfterBlockId']})")
    return lines


def _outline(args: dict[str, Any], result: dict[str, Any]) -> list[str]:
    lines = []
    for section in result.get("sections", []):
        number = f"{section['displayLabel']} " if section.get("displayLabel") else ""
        indent = "  " * (section.get("level", 1) - 1)
        lines.append(f"{indent}{section['headingBlockId']}  {number}{section['text']}")
    return lines


def _stories(args: dict[str, Any], result: dict[str, Any]) -> list[str]:
    lines = []
    for story in result.get("stories", []):
        handle = story["handle"]
        name = handle["type"] + (f" {handle['noteId']}" if "noteId" in handle else "")
        text = "(the body: read_document)" if handle["type"] == "main" else fold(story.get("text", ""), 90)
        lines.append(f"{name}: {text}")
    return lines


def _find(args: dict[str, Any], result: dict[str, Any]) -> list[str]:
    return [
        f"{m['blockId']} [{m['range']['startOffset']}-{m['range']['endOffset']}]  …{fold(m.get('context', ''), 90)}"
        for m in result.get("matches", [])
    ] or ["no match"]


def _suggest(args: dict[str, Any], result: dict[str, Any]) -> list[str]:
    operations = args.get("operations", [])
    lines = [f"{number}. {describe(op)}" for number, op in enumerate(operations, start=1)]
    lines.append(
        f"{result.get('status')}: {len(result.get('applied', []))} applied, {len(result.get('skipped', []))} skipped"
    )
    lines += [
        f"skipped {entry.get('id')}: {entry.get('reason')} [{entry.get('code')}]" for entry in result.get("skipped", [])
    ]
    return lines


def describe(op: dict[str, Any]) -> str:
    """One operation in a line (range operations name their block and text range)."""
    kind = op.get("type", "")
    if kind in ("replaceRange", "commentOnRange"):
        where = op.get("range", {})
        span = f"{where.get('blockId')} [{where.get('startOffset')}-{where.get('endOffset')}]"
        if kind == "replaceRange":
            return f"replace range {span} => {fold(op.get('replace', ''), 40)!r}"
        return f"comment on range {span}: {fold(op.get('comment', ''), 60)!r}"
    line = describe_op(op)
    if op.get("comment") and kind != "commentOnBlock":
        line += f"  + comment {fold(op['comment'], 50)!r}"
    return line


def _comments(args: dict[str, Any], result: dict[str, Any]) -> list[str]:
    # The last thread is the one the step just started; the others came with the edits (their
    # quotes include the pending deletions, as a reviewer sees them), and --json lists them all.
    threads = result.get("comments", [])
    return [f"{len(threads)} thread(s); the last one:", *comment_lines(threads[-1:])]


def _comment_added(args: dict[str, Any], result: dict[str, Any]) -> list[str]:
    ids = [
        t["commentId"] for r in result.get("receipts", []) for t in r.get("affected", []) if t.get("type") == "comment"
    ]
    return [f"comment {', '.join(ids)} added" if ids else str(result.get("status", "done"))]


DOCX_VIEWS = {
    "read_document": _read_document,
    "get_document_outline": _outline,
    "list_stories": _stories,
    "find_text": _find,
    "suggest_changes": _suggest,
    "read_changes": lambda args, result: change_lines(result.get("changes", [])),
    "read_comments": _comments,
    "add_comment": _comment_added,
    "reply_comment": lambda args, result: [f"reply added to comment {args.get('commentId')}"],
    "compare_versions": lambda args, result: str(result.get("diff", "")).splitlines(),
}


def action_result_lines(result: Any) -> list[str]:
    """An action's result when it reads well (a check report); records read on the server and
    tool listings are summed up by the step's notes instead (--json has them whole)."""
    if isinstance(result, dict) and "report" in result:
        return str(result["report"]).splitlines()
    return []


def summary_lines(steps: Sequence[Any], seconds: float, reviewed: str | None) -> list[tuple[str, str]]:
    ran = [step for step in steps if step.name != "demo.setup"]
    failed = [step for step in steps if not step.ok and not step.skipped]
    skipped = [step for step in steps if step.skipped]
    lines: list[tuple[str, str]] = []
    if not failed and not skipped:
        lines.append(("bold green", f"All {len(ran)} steps worked, in {seconds:.1f} s. The sample API is stopped."))
    else:
        lines.append(("bold red", f"{len(failed)} step(s) failed, {len(skipped)} skipped, in {seconds:.1f} s:"))
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
