"""Readable views of docx tool results for the REPL: blocks, matches, comment threads, tracked
changes, the pending batch and what `apply` did; and the completion candidates (block ids with
their text, comment ids, change ids). Pure functions from result dicts to lines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .render import fold
from .suggest import Candidate

TEXT_CHARS = 90


def block_kind(block: dict[str, Any]) -> str:
    kind = block.get("kind", "")
    if kind == "heading" and block.get("headingLevel"):
        kind = f"heading {block['headingLevel']}"
    table = block.get("table")
    if isinstance(table, dict):
        kind += f" [table {table.get('index')} row {table.get('row')} col {table.get('column')}]"
    return kind


def block_text(block: dict[str, Any], limit: int = TEXT_CHARS) -> str:
    text = block.get("text", "")
    label = block.get("displayLabel")  # a list marker, or a numbered heading's number
    if label:
        text = f"{label} {text}"
    shown = fold(text, limit) if text else "(blank)"
    return shown + pending_note(block)


def pending_note(found: dict[str, Any]) -> str:
    """What the reads flag on a block (or a match in it): what accepting every change does to it,
    and text that is only an empty content control's placeholder."""
    notes = []
    if found.get("pendingDeletion"):
        notes.append("[pending deletion]")
    elif found.get("joinsNext"):
        notes.append("[joins the next block]")
    if found.get("placeholder"):
        notes.append("[placeholder]")
    return "".join("  " + note for note in notes)


def block_lines(blocks: Sequence[dict[str, Any]], first_number: int) -> list[str]:
    """``#N  ID  kind  text``, numbered from ``first_number`` (1 is the first block)."""
    return [
        f"#{number:<4} {block['blockId']}  {block_kind(block)}  {block_text(block)}"
        for number, block in enumerate(blocks, start=first_number)
    ]


def match_lines(result: dict[str, Any], numbers: dict[str, int]) -> list[str]:
    lines = []
    for found in result.get("matches", []):
        block_id = found.get("blockId", "")
        where = f"#{numbers[block_id]} " if block_id in numbers else ""
        lines.append(f"{where}{block_id}  {fold(found.get('context', ''), TEXT_CHARS)}{pending_note(found)}")
    total, shown = result.get("totalMatches", len(lines)), len(lines)
    lines.append(
        f"{total} match(es)" + (f", the first {shown} shown" if result.get("truncated") or total > shown else "")
    )
    return lines


def comment_lines(comments: Iterable[dict[str, Any]]) -> list[str]:
    lines = []
    for thread in comments:
        state = "resolved" if thread.get("resolved") else "open"
        quote = thread.get("quote")
        anchor = f' on "{fold(quote, 40)}"' if quote else ""
        where = f"in {thread['blockId']}" if thread.get("blockId") else "not anchored in the text"
        if thread.get("story"):
            where = f"in {story_label(thread['story'])}"
        lines.append(
            f"[{thread['id']}] {thread.get('author', '')} ({state}) {where}{anchor}: "
            f"{fold(thread.get('text', ''), TEXT_CHARS)}"
        )
        for reply in thread.get("replies", []):
            lines.append(f"    [{reply['id']}] {reply.get('author', '')}: {fold(reply.get('text', ''), TEXT_CHARS)}")
    if not lines:
        lines.append("No comments.")
    return lines


def story_label(handle: dict[str, Any]) -> str:
    """A header, footer or note as the REPL names it: ``footnote:1``, ``header:rId7``."""
    kind = handle.get("type", "")
    if kind in ("footnote", "endnote"):
        return f"{kind}:{handle.get('noteId')}"
    if kind in ("header", "footer"):
        return f"{kind}:{handle.get('relationshipId')}"
    return "main"


def change_ref(change: dict[str, Any]) -> str:
    """How the REPL names a change: its id in the main text, ``STORY/ID`` in another story (a
    header or note may reuse an id of the main text)."""
    story = change.get("story")
    return f"{story_label(story)}/{change['id']}" if story else str(change["id"])


def parse_change_ref(ref: str) -> tuple[dict[str, Any] | None, str]:
    """(the story handle, the id) of a ``change_ref``; no handle for a plain id."""
    label, slash, change_id = ref.rpartition("/")
    kind, _, key = label.partition(":")
    if not slash or not change_id:
        return None, ref
    if label == "main":
        return {"type": "main"}, change_id
    if kind in ("footnote", "endnote") and key.lstrip("-").isdigit():
        return {"type": kind, "noteId": int(key)}, change_id
    if kind in ("header", "footer") and key:
        return {"type": kind, "relationshipId": key}, change_id
    return None, ref


def change_lines(changes: Iterable[dict[str, Any]]) -> list[str]:
    lines = [
        f"[{change_ref(change)}] {change.get('type')} by {change.get('author') or 'unknown'} in "
        f"{story_label(change['story']) if change.get('story') else change.get('blockId')}: "
        f"{fold(change.get('text') or '', TEXT_CHARS) or '(no text)'}"
        for change in changes
    ]
    return lines or ["No pending tracked changes."]


def describe_op(op: dict[str, Any]) -> str:
    kind = op["type"]
    block = op.get("blockId", "")
    if kind == "replaceInBlock":
        return f"replace in {block}: {fold(op['find'], 40)!r} => {fold(op['replace'], 40)!r}"
    if kind in ("insertAfterBlock", "insertBeforeBlock"):
        where = "after" if kind == "insertAfterBlock" else "before"
        return f"insert {where} {block}: {fold(op['text'], 60)!r}"
    if kind == "deleteBlock":
        return f"delete {block}"
    if kind == "commentOnBlock":
        on = f" on {fold(op['quote'], 30)!r}" if op.get("quote") else ""
        return f"comment {block}{on}: {fold(op['comment'], 60)!r}"
    return f"{kind} {block}"


def op_lines(ops: Sequence[dict[str, Any]]) -> list[str]:
    if not ops:
        return ["No pending operations."]
    return [f"{number}. {describe_op(op)}" for number, op in enumerate(ops, start=1)]


def apply_lines(result: dict[str, Any], ops: Sequence[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(lines for applied and replayed operations, lines for skipped ones) of a suggest_changes
    result, naming each operation as `ops` showed it."""
    by_id = {op["id"]: (number, op) for number, op in enumerate(ops, start=1)}

    def name(op_id: str) -> str:
        if op_id in by_id:
            number, op = by_id[op_id]
            return f"{number}. {describe_op(op)}"
        return op_id

    applied = [f"applied  {name(entry['id'])}" for entry in result.get("applied", [])]
    applied += [f"already applied earlier  {name(entry['id'])}" for entry in result.get("replayed", [])]
    skipped = [
        f"skipped  {name(entry['id'])}: {entry.get('reason') or entry.get('code')} [{entry.get('code')}]"
        for entry in result.get("skipped", [])
    ]
    return applied, skipped


# -- completion candidates --------------------------------------------------------------------------


def block_candidates(blocks: Sequence[dict[str, Any]]) -> list[Candidate]:
    return [
        Candidate(block["blockId"], f"#{number} {block_text(block, 60)}")
        for number, block in enumerate(blocks, start=1)
    ]


def comment_candidates(comments: Sequence[dict[str, Any]]) -> list[Candidate]:
    out = []
    for thread in comments:
        out.append(Candidate(str(thread["id"]), f"{thread.get('author', '')}: {fold(thread.get('text', ''), 50)}"))
        for reply in thread.get("replies", []):
            out.append(
                Candidate(str(reply["id"]), f"reply by {reply.get('author', '')}: {fold(reply.get('text', ''), 40)}")
            )
    return out


def change_candidates(changes: Sequence[dict[str, Any]]) -> list[Candidate]:
    out = [Candidate("all", "every pending change")]
    out += [Candidate(change_ref(c), f"{c.get('type')}: {fold(c.get('text') or '', 50)}") for c in changes]
    return out
