"""Handlers of accept_change and reject_change: resolve chosen tracked changes of the main text by
the ids read_changes reports, leaving the others pending (see ``revisions.resolve_changes``).

The ids are checked against the document before anything changes: when one is unknown nothing is
resolved and nothing is written, and the answer names the ids the document has.
"""

from __future__ import annotations

from typing import Any

from deskcheck.engine.tools import ToolResult, fail

from .edit_tools import _open, _write

# One call resolves at most this many changes: enough for a reviewer's selection, and an
# answer that lists every resolved change stays readable.
MAX_CHANGE_IDS = 200
# Ids quoted when a call names an unknown one.
MAX_QUOTED_IDS = 30


def _change_ids(args: dict[str, Any], tool: str) -> list[str] | ToolResult:
    value = args.get("changeIds")
    if not isinstance(value, list) or not value:
        return fail(
            f"{tool} needs `changeIds`: a non-empty list of change ids from read_changes, "
            'for example {"changeIds": ["7"]}.',
            code="invalidArguments",
        )
    if len(value) > MAX_CHANGE_IDS:
        return fail(
            f"{tool} takes at most {MAX_CHANGE_IDS} change ids per call (got {len(value)}); "
            "send the rest in another call.",
            code="invalidArguments",
        )
    ids: list[str] = []
    for index, item in enumerate(value):
        if isinstance(item, int) and not isinstance(item, bool):
            item = str(item)
        if not isinstance(item, str) or not item.strip():
            return fail(
                f'{tool}\'s changeIds[{index}] must be a change id (a string such as "7") from read_changes.',
                code="invalidArguments",
            )
        if item not in ids:
            ids.append(item)
    return ids


def _resolve(session, args: dict[str, Any], mode: str) -> dict[str, Any] | ToolResult:
    from .changes import read_changes
    from .revisions import resolve_changes

    tool = f"{mode}_change"
    ids = _change_ids(args, tool)
    if isinstance(ids, ToolResult):
        return ids
    doc = _open(session)
    pending = read_changes(doc)
    known = {change["id"] for change in pending}
    unknown = [change_id for change_id in ids if change_id not in known]
    if unknown:
        listed = sorted(known, key=lambda c: (len(c), c))
        quoted = ", ".join(listed[:MAX_QUOTED_IDS]) + (" ..." if len(listed) > MAX_QUOTED_IDS else "")
        return fail(
            f"no pending tracked change of the main text has the id {', '.join(map(repr, unknown))} "
            f"(its change ids: {quoted or 'none'}); read_changes lists them. Nothing was changed.",
            code="missingChange",
        )
    resolved = [
        {key: change[key] for key in ("id", "type", "author", "text", "blockId")}
        for change in pending
        if change["id"] in ids
    ]
    counts = resolve_changes(doc, ids, mode)
    doc.stamp_minted_ids()  # ids the reads after this one mint, so documentVersion is what is written
    written = _write(session, doc, bool(counts))
    return {
        "mode": mode,
        "resolved": resolved,
        "byKind": counts,
        "remaining": len(pending) - len(resolved),
        "documentVersion": doc.version,
        "output": written,
    }


def accept_change(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    return _resolve(session, args, "accept")


def reject_change(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    return _resolve(session, args, "reject")
