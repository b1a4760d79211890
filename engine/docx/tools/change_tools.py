"""Handlers of accept_change and reject_change: resolve chosen tracked changes by the ids
read_changes reports, in whichever story they sit (main text, header, footer, footnote, endnote),
leaving the others pending (see ``revisions.resolve_changes``).

An id names a change in one story. Without a ``story`` argument each id must be pending in exactly
one story (a header or note may reuse an id of the main text: such an id is refused as ambiguous
and the answer names the stories); with ``story`` (a handle as read_changes gives it) every id is
looked up in that story only. The ids are checked before anything changes: when one is unknown or
ambiguous nothing is resolved and nothing is written, and the answer says what the document has.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...tools import ToolResult, fail
from .edit_tools import _open, _write

# One call resolves at most this many changes: enough for a reviewer's selection, and an
# answer that lists every resolved change stays readable.
MAX_CHANGE_IDS = 200
# Ids quoted when a call names an unknown one.
MAX_QUOTED_IDS = 30
MAIN = {"type": "main"}


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


def _quoted(ids: list[str]) -> str:
    listed = sorted(set(ids), key=lambda c: (len(c), c))
    return ", ".join(listed[:MAX_QUOTED_IDS]) + (" ..." if len(listed) > MAX_QUOTED_IDS else "") or "none"


def _targets(
    doc, args: dict[str, Any], ids: list[str], pending: list[dict[str, Any]], tool: str
) -> tuple[dict[tuple, tuple[Any, list[str]]], list[dict[str, Any]]] | ToolResult:
    """The stories to resolve in, keyed by story key: (the Story, or None for the main text; the
    ids to resolve there), after checking that every id names a pending change of exactly one
    story; and the changes the answer lists resolved ones from (``pending``, or with ``story`` that
    story's changes). ``pending`` is what read_changes gives for the whole document."""
    from ..model.stories import describe_story, find_story, handle_key
    from ..review.changes import story_changes
    from .read_tools import missing_story, story_handle_argument

    if args.get("story") is not None:
        handle = story_handle_argument(args["story"], tool)
        if isinstance(handle, ToolResult):
            return handle
        story = None if handle["type"] == "main" else find_story(doc, handle)
        if handle["type"] != "main" and story is None:
            return missing_story()
        # The main text's changes are those of ``pending`` without a story; a header part two
        # relationships share is listed in ``pending`` under the first only, so a story is read
        # again under the handle the call gave.
        listed = [c for c in pending if "story" not in c] if story is None else story_changes(doc, story)
        known = {c["id"] for c in listed}
        unknown = [change_id for change_id in ids if change_id not in known]
        if unknown:
            where = describe_story(handle)
            return fail(
                f"no pending tracked change of {where} has the id {', '.join(map(repr, unknown))} "
                f"(its change ids: {_quoted(list(known))}); read_changes lists them. Nothing was changed.",
                code="missingChange",
            )
        return {handle_key(handle): (story, ids)}, listed
    stories: dict[str, dict[tuple, dict[str, Any]]] = {}  # id -> the stories it is pending in
    for change in pending:
        handle = change.get("story", MAIN)
        stories.setdefault(change["id"], {})[handle_key(handle)] = handle
    unknown = [change_id for change_id in ids if change_id not in stories]
    if unknown:
        return fail(
            f"no pending tracked change has the id {', '.join(map(repr, unknown))} "
            f"(the document's change ids: {_quoted(list(stories))}); read_changes lists them. Nothing was changed.",
            code="missingChange",
        )
    ambiguous = {change_id: stories[change_id] for change_id in ids if len(stories[change_id]) > 1}
    if ambiguous:
        change_id, places = next(iter(ambiguous.items()))
        named = ", ".join(describe_story(handle) for handle in places.values())
        return fail(
            f"the change id {change_id!r} is pending in more than one story ({named}): a header or note "
            "reuses an id of another story. Pass `story` with the handle read_changes gives the change you "
            "mean, and only ids of that story. Nothing was changed.",
            code="ambiguousChange",
        )
    targets: dict[tuple, tuple[Any, list[str]]] = {}
    for change_id in ids:
        [(key, handle)] = stories[change_id].items()
        story = None if key == handle_key(MAIN) else find_story(doc, handle)
        targets.setdefault(key, (story, []))[1].append(change_id)
    return targets, pending


def _resolve(session, args: dict[str, Any], mode: str) -> dict[str, Any] | ToolResult:
    from ..model.stories import handle_key
    from ..review.changes import read_changes
    from ..review.revisions import resolve_changes

    tool = f"{mode}_change"
    ids = _change_ids(args, tool)
    if isinstance(ids, ToolResult):
        return ids
    doc = _open(session)
    pending = read_changes(doc)
    found = _targets(doc, args, ids, pending, tool)
    if isinstance(found, ToolResult):
        return found
    targets, listed = found
    resolved = [
        {key: change[key] for key in ("id", "type", "author", "text", "blockId", "story") if key in change}
        for change in listed
        if change["id"] in targets.get(handle_key(change.get("story", MAIN)), (None, ()))[1]
    ]
    counts: Counter[str] = Counter()
    for story, story_ids in targets.values():
        counts.update(resolve_changes(doc, story_ids, mode, story))
    doc.stamp_minted_ids()  # ids the reads after this one mint, so documentVersion is what is written
    written = _write(session, doc, bool(counts))
    return {
        "mode": mode,
        "resolved": resolved,
        "byKind": dict(sorted(counts.items())),
        "remaining": len(pending) - len(resolved),
        "documentVersion": doc.version,
        "output": written,
    }


def accept_change(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    return _resolve(session, args, "accept")


def reject_change(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    return _resolve(session, args, "reject")
