"""Copying sessions from one store to another (``deskcheck form copy-store``): what a person
moving from the embedded SQLite store to a shared PostgreSQL one runs once, and may run again.

Every session, draft, prepared schema and schema tag of the source that the target lacks is
written into the target, in one transaction (all or nothing). What the target has already is
left as it is, so a second run copies nothing and a session edited in the target since the
first run keeps its edits: a session by its key, a draft by its session and the time it
expired (the target numbers drafts itself), a schema by its version. Rows of the source that do
not decode are counted and skipped. Counters (statistics) are not copied.
"""

from __future__ import annotations

import json
from typing import Any

from .store_base import BaseStore, draft_of, record_of

# Tables copied, in order (a session needs its schema), with how a row is checked first.
_CHECKS: dict[str, Any] = {
    "schemas": lambda row: json.loads(row[1]),
    "schema_tags": None,
    "sessions": record_of,
    "drafts": draft_of,
}


def copy_store(source: BaseStore, target: BaseStore) -> dict[str, Any]:
    """Copy what ``target`` lacks from ``source``; the report counts per table."""
    report: dict[str, dict[str, int]] = {}
    with target.transaction():
        for table, check in _CHECKS.items():
            counts = {"copied": 0, "alreadyThere": 0, "unreadable": 0}
            for row in source.rows(table):
                try:
                    if check is not None:
                        check(row)
                except (ValueError, TypeError, KeyError):
                    counts["unreadable"] += 1
                    continue
                added = target.insert_draft_row(row) if table == "drafts" else target.insert_missing(table, row)
                counts["copied" if added else "alreadyThere"] += 1
            report[table] = counts
    sessions, drafts = report["sessions"], report["drafts"]
    skipped = sum(counts["unreadable"] for counts in report.values())
    message = (
        f"Copied {sessions['copied']} session(s) and {drafts['copied']} draft(s) from {source.location} to "
        f"{target.location}; {sessions['alreadyThere']} session(s) and {drafts['alreadyThere']} draft(s) were there "
        "already and were left as they are"
        + (f"; {skipped} unreadable row(s) of the source were skipped" if skipped else "")
        + "."
    )
    return {"from": source.location, "to": target.location, **report, "message": message}
