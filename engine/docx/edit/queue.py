"""A host-managed review queue of suggest_changes batches, in a JSON Lines file.

``suggest_changes --queue QUEUE.jsonl`` validates and resolves a batch against the document
and, instead of applying it, appends one line to the queue: the batch id, the document's path and
version, mode, ``tableRevisions`` and author, and the operations (as decoded, each with the hash
its target block had, ``stampedBlockTextHash``). A person reviews the queue; ``queue apply QUEUE.jsonl FILE
[--only ID ...]`` then applies the approved operations. An operation whose block changed since
it was queued is skipped with ``changedBlock``; one already applied comes back as ``replayed``.
Each applied, skipped or replayed operation is recorded in its batch's line (``results``), and
a batch is ``applied`` once none of its operations is left pending.

The queue file is rewritten atomically; a malformed line is reported with its line number. Each
batch is sealed when it is parked (``queue_seal``): ``queue apply`` refuses one edited since.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...files import read_regular_file, write_atomically
from ...json_text import parse_json
from .spec import Operation

# A queue holds batches of at most 200 operations each; thousands of them fit well within this.
MAX_QUEUE_BYTES = 64 * 1024 * 1024

STATUS_QUEUED = "queued"
STATUS_APPLIED = "applied"


def read_queue(path: Path) -> list[dict[str, Any]]:
    try:
        data = read_regular_file(path, MAX_QUEUE_BYTES, subject=f"the queue {path}", wanted="a queue file (JSON Lines)")
    except InputError as exc:
        if exc.code == "missingFile":
            return []
        raise InputError(exc.message, code="badQueue") from None
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InputError(
            f"cannot read the queue {path}: it is not UTF-8 text (byte {exc.start:,}).", code="badQueue"
        ) from None
    entries = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = parse_json(line, f"line {number} of the queue {path}")
        except InputError as exc:
            raise InputError(exc.message, code="badQueue") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("operations"), list):
            raise InputError(
                f"line {number} of the queue {path} is not a queued batch (no `operations` list).", code="badQueue"
            )
        entries.append(entry)
    return entries


def write_queue(path: Path, entries: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
    write_atomically(path, text.encode("utf-8"))


def park(
    queue: Path, docx: Path, operations: list[Operation], outcome, *, mode: str, author: str, table_revisions: str
) -> dict[str, Any]:
    """Append a batch of resolved operations to the queue; returns its entry."""
    import os

    queue = Path(queue)
    entries = read_queue(queue)
    skipped = {op.index for op, _, _ in outcome.skipped}
    parked = []
    for op in operations:
        if op.index in skipped:
            continue
        item = op.as_json()
        stamped = outcome.stamped.get(op.index)
        if stamped is not None:
            item["stampedBlockTextHash"] = stamped
        parked.append(item)
    entry = {
        "batchId": "batch-" + os.urandom(6).hex(),
        "status": STATUS_QUEUED,
        "file": str(Path(docx).resolve()),
        "documentVersion": outcome.version_before,
        "queuedAt": outcome.date,
        "mode": mode,
        "tableRevisions": table_revisions,
        "author": author,
        "operations": parked,
        "receipts": [outcome.receipts[index] for index in sorted(outcome.receipts)],
        "results": {},
    }
    from .queue_seal import seal

    entry["seal"] = seal(entry)
    entries.append(entry)
    write_queue(queue, entries)
    return entry


def pending_operations(
    entries: list[dict[str, Any]], docx: Path, only: tuple[str, ...]
) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], list[str]]:
    """(entry, operation) pairs still to apply to ``docx`` (only the ``only`` ids when given),
    and the ids in ``only`` the queue does not hold for this file."""
    target = str(Path(docx).resolve())
    found: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seen: set[str] = set()
    for entry in entries:
        if entry.get("file") != target or entry.get("status") != STATUS_QUEUED:
            continue
        results = entry.get("results") or {}
        for item in entry["operations"]:
            op_id = item.get("id")
            if not isinstance(op_id, str) or results.get(op_id, {}).get("status") in ("applied", "replayed"):
                continue
            if only and op_id not in only:
                continue
            seen.add(op_id)
            found.append((entry, item))
    missing = [op_id for op_id in only if op_id not in seen]
    return found, missing


def record_results(entries: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> None:
    """Store per-operation outcomes and close batches with nothing left pending."""
    for entry in entries:
        stored = entry.setdefault("results", {})
        for item in entry["operations"]:
            outcome = results.get(item.get("id"))
            if outcome is not None and (
                outcome["status"] != "skipped"
                or stored.get(item["id"], {}).get("status") not in ("applied", "replayed")
            ):
                stored[item["id"]] = outcome
        if entry["operations"] and all(
            stored.get(item.get("id"), {}).get("status") in ("applied", "replayed") for item in entry["operations"]
        ):
            entry["status"] = STATUS_APPLIED
