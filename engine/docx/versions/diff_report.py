"""``format_diff_for_llm``: a comparison (``compare.compare_documents``) as plain text for a model.

The text is deterministic (the same comparison always gives the same text) and reads:

    Version diff: 1 added, 1 deleted, 1 modified, 1 format-changed, 1 moved, 2 unchanged
    ~ [0ABB71DF] modified: Beta [-paragraph.-]{+clause.+}
    - [0FDB462E] deleted: Gamma paragraph.
    + [636EC84A] added: Epsilon paragraph.
    ~ [7A6EF8DC] format changed (bold, color): Delta paragraph.
    < [1F063BFB] moved away (move 1): Zeta paragraph moved somewhere else.
    > [44B974EA] moved here (move 1): Zeta paragraph moved somewhere else.

A paragraph that moved and changed shows its word diff: ``> [id] moved here (move 2) and
modified: ...``.

The header counts every story; ``, K metadata-changed`` appears only when K > 0. A paragraph in
a table says where: ``(table 1, row 2, column 1)``, counted from 1. Changes in headers, footers and
notes follow under a line naming the story (``In footnote 2 (was footnote 1):``), their paragraphs
numbered within the story (``[¶3]``). Unchanged text of a modified paragraph is shortened when
longer than 61 characters (first 30, ``…``, last 30), as are the texts of format changes and
moves; added and deleted texts are shown whole. Metadata changes close the list
(``~ metadata.creator: "Ann" -> null``).

Past ``max_chars`` the list stops at a whole line and a last line says how many changes were
left out and of which kinds.

Content either version left unread (an imported part deskcheck cannot read) is named right after
the header, never cut: ``Left unread in the current version: altChunk word/chunk1.rtf (rtf)
after [6E64A067]: deskcheck does not read RTF``, and ``Unread content changed: word/chunk1.rtf``
when its bytes differ between the versions.
"""

from __future__ import annotations

import json
from typing import Any

DEFAULT_MAX_CHARS = 40_000
_KEEP = 30


def shorten(text: str) -> str:
    if len(text) <= 2 * _KEEP + 1:
        return text
    return text[:_KEEP] + "…" + text[-_KEEP:]


def header_line(counts: dict[str, int]) -> str:
    parts = [
        f"{counts.get('added', 0)} added",
        f"{counts.get('deleted', 0)} deleted",
        f"{counts.get('modified', 0)} modified",
        f"{counts.get('formatChanged', 0)} format-changed",
        f"{counts.get('moved', 0)} moved",
    ]
    if counts.get("metadataChanged", 0):
        parts.append(f"{counts['metadataChanged']} metadata-changed")
    parts.append(f"{counts.get('unchanged', 0)} unchanged")
    return "Version diff: " + ", ".join(parts)


def _segments(segments: list[dict[str, str]]) -> str:
    out = []
    for segment in segments:
        kind, text = segment["type"], segment["text"]
        if kind == "equal":
            out.append(shorten(text))
        elif kind == "del":
            out.append(f"[-{text}-]")
        else:
            out.append(f"{{+{text}+}}")
    return "".join(out)


def _where(change: dict[str, Any]) -> str:
    table = change.get("currentTable") if change["type"] not in ("deleted", "movedFrom") else None
    table = table or change.get("previousTable")
    if not table:
        return ""
    return f" (table {table['index'] + 1}, row {table['row'] + 1}, column {table['column'] + 1})"


def _label(change: dict[str, Any]) -> str:
    if "blockId" in change:
        return f"[{change['blockId']}]"
    return f"[¶{change['paragraph']}]"


def change_line(change: dict[str, Any]) -> str:
    kind = change["type"]
    label = _label(change) + _where(change)
    if kind == "added":
        return f"+ {label} added: {change['text']}"
    if kind == "deleted":
        return f"- {label} deleted: {change['text']}"
    if kind == "modified":
        also = (
            f" (format changed too: {', '.join(change['changedProperties'])})" if "changedProperties" in change else ""
        )
        return f"~ {label} modified{also}: {_segments(change['segments'])}"
    if kind == "formatChanged":
        return f"~ {label} format changed ({', '.join(change['changedProperties'])}): {shorten(change['text'])}"
    if kind == "movedFrom":
        return f"< {label} moved away (move {change['moveGroupId']}): {shorten(change['text'])}"
    if "segments" in change:
        return f"> {label} moved here (move {change['moveGroupId']}) and modified: {_segments(change['segments'])}"
    return f"> {label} moved here (move {change['moveGroupId']}): {shorten(change['text'])}"


def unread_line(entry: dict[str, Any]) -> str:
    """One entry of a ``unread`` list as a line: what, where, why."""
    story = entry.get("story") or {}
    if story.get("type", "main") == "main":
        after = entry.get("afterBlockId")
        where = f"after [{after}]" if after else "at the start of the main text"
        if entry.get("inBlockId"):
            where = f"in [{entry['inBlockId']}]"
    elif "inParagraph" in entry:
        where = f"in {_story_name(story)}, paragraph {entry['inParagraph']}"
    else:
        where = f"in {_story_name(story)} after paragraph {entry.get('afterParagraph', 0)}"
    what = f"{entry.get('kind')} {entry.get('part') or '(no part)'} ({entry.get('format')})"
    return f"{what} {where}: {entry.get('reason')}"


def _story_name(handle: dict[str, Any] | None) -> str:
    if handle is None:
        return "none"
    kind = handle.get("type")
    if kind in ("header", "footer"):
        return f"{kind} {handle.get('relationshipId')}"
    return f"{kind} {handle.get('noteId')}"


def story_line(story: dict[str, Any]) -> str:
    previous, current = story.get("previousStory"), story.get("currentStory")
    if previous is None:
        return f"In {_story_name(current)} (new in this version):"
    if current is None:
        return f"In {_story_name(previous)} (removed in this version):"
    if _story_name(previous) == _story_name(current):
        return f"In {_story_name(current)}:"
    return f"In {_story_name(current)} (was {_story_name(previous)}):"


def format_diff_for_llm(diff: dict[str, Any], max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """The comparison as text (see the module docstring)."""
    lines = [header_line(diff["summaryCounts"])]
    for side in ("previous", "current"):
        for entry in (diff.get(side) or {}).get("unread", []):
            lines.append(f"Left unread in the {side} version: {unread_line(entry)}")
    for change in diff.get("unreadChanges", []):
        lines.append(f"Unread content changed: {change['part']} (it differs between the versions; nobody compared it)")
    privacy = diff.get("privacyReport")
    if privacy and privacy.get("appliedTransforms"):
        lines.append("Privacy transforms: " + ", ".join(privacy["appliedTransforms"]))
        removed = [item["item"] for item in privacy.get("removed", [])]
        lines.append("Removed metadata fields: " + (", ".join(removed) if removed else "none"))
    body: list[tuple[str, str | None]] = [(change_line(change), change["type"]) for change in diff["changes"]]
    for story in diff.get("stories", []):
        if story["changes"]:
            body.append((story_line(story), None))
            body.extend((change_line(change), change["type"]) for change in story["changes"])
    for change in diff.get("metadataChanges", []):
        body.append(
            (
                f"~ metadata.{change['property']}: {json.dumps(change['previousValue'], ensure_ascii=False)} -> "
                f"{json.dumps(change['currentValue'], ensure_ascii=False)}",
                "metadata",
            )
        )
    used = len(lines[0]) + 1 + sum(len(line) + 1 for line in lines[1:])
    for index, (line, _) in enumerate(body):
        if used + len(line) + 1 > max_chars:
            lines.append(_omitted(body[index:]))
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


_NAMES = {
    "added": "added",
    "deleted": "deleted",
    "modified": "modified",
    "formatChanged": "format-changed",
    "movedFrom": "moved away",
    "movedTo": "moved here",
    "metadata": "metadata",
}


def _omitted(rest: list[tuple[str, str | None]]) -> str:
    counts: dict[str, int] = {}
    for _, kind in rest:
        if kind is not None:
            counts[kind] = counts.get(kind, 0) + 1
    total = sum(counts.values())
    detail = ", ".join(f"{counts[kind]} {_NAMES[kind]}" for kind in _NAMES if kind in counts)
    return (
        f"… {total} more change{'s' if total != 1 else ''} not shown ({detail}): the text stops at "
        "its size limit; read the structured comparison (format json) for all of them."
    )
