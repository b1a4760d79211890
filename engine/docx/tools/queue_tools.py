"""``deskcheck docx queue apply`` / ``queue list``: applying what a person approved from a review
queue of suggest_changes batches (see ``edit.queue``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...tools import ToolResult, fail
from ..edit import registry
from ..edit.decode import decode_operation
from ..edit.fields import DecodeError, Decoding
from ..edit.limits import MAX_OPERATIONS
from ..edit.options import TABLE_REVISIONS, SuggestOptions
from ..edit.queue import STATUS_QUEUED, pending_operations, read_queue, record_results, write_queue
from ..wml.text import unstorable_character


class _Session:
    """The minimal session ``edit_tools.run_batch`` needs."""

    def __init__(self, path: Path, output: Path | None, dry_run: bool, author: str | None) -> None:
        from .toolset import DocxOptions

        self.path = path
        self.options = DocxOptions(author=author, output=output, dry_run=dry_run)
        self.written_version: str | None = None


def apply_queue(
    queue: Path, docx: Path, only: tuple[str, ...] = (), *, output: Path | None = None, dry_run: bool = False
) -> dict[str, Any] | ToolResult:
    import contextlib

    from ...file_lock import updating

    with contextlib.ExitStack() as held:
        if not dry_run:
            held.enter_context(updating(queue))
            if output is None and Path(docx).resolve() != Path(queue).resolve():
                held.enter_context(updating(docx))
        return _apply_queue(queue, docx, only, output=output, dry_run=dry_run)


def _apply_queue(
    queue: Path, docx: Path, only: tuple[str, ...], *, output: Path | None, dry_run: bool
) -> dict[str, Any] | ToolResult:
    from .edit_tools import run_batch

    entries = read_queue(Path(queue))
    found, missing = pending_operations(entries, docx, only)
    if missing:
        return fail(
            f"the queue holds no pending operation {', '.join(map(repr, missing))} for {docx}; "
            "`deskcheck docx queue list` shows what it holds.",
            code="notQueued",
        )
    if not found:
        return fail(f"the queue holds no pending operations for {docx}.", code="nothingQueued")
    tampered = _unsealed([entry for entry, _ in found])
    if tampered:
        return fail(
            f"the queue {queue} holds {', '.join(map(repr, tampered))} for {docx}, changed since it was queued (its "
            "mode, author, file or operations are not what suggest_changes --queue parked), or queued by another "
            "user or state directory; nothing was applied. Queue that batch again with suggest-changes --queue, "
            "or leave it out with --only.",
            code="badQueue",
        )
    modes = {(entry.get("mode", "tracked-changes"), entry.get("tableRevisions", "cells")) for entry, _ in found}
    authors = {entry.get("author") for entry, _ in found}
    if len(modes) > 1:
        return fail(
            "the pending operations were queued in different modes (or table revisions); apply them with --only, "
            "one mode at a time."
        )
    mode, table_revisions = modes.pop()
    if table_revisions not in TABLE_REVISIONS:
        return fail(f"a queued batch names an unknown tableRevisions {table_revisions!r}.", code="badQueue")
    options = SuggestOptions.build(registry.available_types(), max_operations=MAX_OPERATIONS)
    state = Decoding()
    operations = []
    for index, (_, item) in enumerate(found):
        raw = {key: value for key, value in item.items() if key != "stampedBlockTextHash"}
        try:
            op = decode_operation(raw, index, options, state)
        except DecodeError as exc:
            return fail(f"a queued operation is malformed: {exc}", code="badQueue")
        op.stamped_hash = item.get("stampedBlockTextHash")
        operations.append(op)
    author = authors.pop() if len(authors) == 1 else None
    if author is not None and (not isinstance(author, str) or unstorable_character(author)):
        return fail("a queued batch names an author a .docx cannot store.", code="badQueue")
    session = _Session(Path(docx), output, dry_run, author)
    result = run_batch(
        session, operations, mode=mode, author=author or "deskcheck", normalizations=state.normalizations,
        document_version=None, table_revisions=table_revisions,
    )  # fmt: skip
    if isinstance(result, ToolResult) or dry_run:
        return result
    outcomes: dict[str, dict[str, Any]] = {}
    for item in result["applied"]:
        outcomes[item["id"]] = {"status": "applied"}
    for item in result["replayed"]:
        outcomes[item["id"]] = {"status": "replayed"}
    for item in result["skipped"]:
        outcomes[item["id"]] = {"status": "skipped", "code": item["code"], "reason": item["reason"]}
    record_results(entries, outcomes)
    write_queue(Path(queue), entries)
    result["queue"] = str(queue)
    return result


def _unsealed(entries: list[dict[str, Any]]) -> list[str]:
    """The ids of the batches among ``entries`` whose seal does not match (``queue_seal``)."""
    from ..edit.queue_seal import sealed

    out: dict[str, None] = {}
    for entry in entries:
        if not sealed(entry):
            out[str(entry.get("batchId"))] = None
    return list(out)


def list_queue(queue: Path) -> dict[str, Any]:
    from ..edit.queue_seal import sealed

    entries = read_queue(Path(queue))
    batches = []
    for entry in entries:
        results = entry.get("results") or {}
        batches.append(
            {
                "batchId": entry.get("batchId"),
                "status": entry.get("status", STATUS_QUEUED),
                # What `queue apply` will check: false for a batch changed since it was queued, or
                # queued under another state directory; apply refuses it.
                "sealed": sealed(entry),
                "file": entry.get("file"),
                "queuedAt": entry.get("queuedAt"),
                "mode": entry.get("mode"),
                "tableRevisions": entry.get("tableRevisions", "cells"),
                "operations": [
                    {
                        "id": item.get("id"),
                        "type": item.get("type"),
                        "status": (results.get(item.get("id")) or {}).get("status", "pending"),
                    }
                    for item in entry["operations"]
                ],
            }
        )
    return {"queue": str(queue), "batches": batches}
