"""Handlers of the read tools (see ``tooldefs`` for their descriptions and schemas).

Each handler takes a ``DocxSession`` and the arguments, validates them itself (the JSON Schema is
for providers; messages here say what to fix), and returns a JSON object that always carries
``documentVersion``. Expected failures come back as ``fail(...)``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ...tools import ToolResult, fail
from ..model.blocks import Block
from ..model.display import unread_fields
from ..model.hashing import HASH_PATTERN, text_hash
from ..model.offsets import to_utf16, utf16_length
from ..model.scan import BOUND_CACHED
from .tooldefs import MAX_BLOCKS_PER_PAGE, MAX_FIND_MATCHES, MAX_QUERY_LENGTH, MAX_SECTION_BLOCKS

CONTEXT_UNITS = 40  # UTF-16 units of context on each side of a find_text match


class _ArgError(Exception):
    pass


def _int(args: dict, name: str, tool: str, low: int, high: int, default: int | None) -> int | None:
    value = args.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _ArgError(f"{tool}'s `{name}` must be a whole number from {low} to {high}, not {value!r}.")
    return value


def _str(args: dict, name: str, tool: str) -> str | None:
    value = args.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise _ArgError(f"{tool}'s `{name}` must be a non-empty string when given.")
    return value


def _bool(args: dict, name: str, tool: str) -> bool:
    value = args.get(name, False)
    if not isinstance(value, bool):
        raise _ArgError(f"{tool}'s `{name}` must be true or false when given.")
    return value


def _guard(function):
    """Turn an argument problem into a tool error (exit 1), before the document is even read."""

    def wrapper(session, args):
        try:
            return function(session, args)
        except _ArgError as exc:
            return fail(str(exc), code="invalidArguments")

    wrapper.__name__ = function.__name__
    wrapper.__doc__ = function.__doc__
    return wrapper


def block_json(block: Block) -> dict[str, Any]:
    out: dict[str, Any] = {
        "blockId": block.id,
        "kind": block.kind,
        "text": block.text,
        "blockTextHash": block.hash,
    }
    if block.heading_level is not None:
        out["headingLevel"] = block.heading_level
    if block.display_label:
        out["displayLabel"] = block.display_label
    if block.num_id is not None and block.num_id.isdigit():
        # The list instance and level, for setBlockParagraphProperties' numbering reference.
        out["numId"] = int(block.num_id)
        out["ilvl"] = block.ilvl or 0
    if block.style_id:
        out["styleId"] = block.style_id
    if block.cell is not None:
        table, row, column = block.cell
        out["table"] = {"index": table, "row": row, "column": column}
    if block.in_text_box:
        out["inTextBox"] = True
    out.update(_block_flags(block))
    if block.imported is not None:
        out["imported"] = dict(block.imported)
    if block.bound or block.bound_block:
        out["bound"] = True
        out["boundRanges"] = [
            {
                "startOffset": to_utf16(block.text, start),
                "endOffset": to_utf16(block.text, end),
                "source": "storedText" if flag & BOUND_CACHED else "dataStore",
            }
            for start, end, flag in block.bound
        ]
    if block.placeholders:
        out["placeholder"] = True
        out["placeholderRanges"] = [
            {"startOffset": to_utf16(block.text, start), "endOffset": to_utf16(block.text, end)}
            for start, end in block.placeholders
        ]
    return out


def with_unread(doc, result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with the document's ``unread`` list when reading left content unread (an
    imported part deskcheck cannot read): every read result says so."""
    result.update(unread_fields(doc.unread()))
    return result


def _block_flags(block: Block) -> dict[str, bool]:
    """How accepting every change treats the block (see block_json)."""
    flags = {}
    if block.pending_deletion:
        flags["pendingDeletion"] = True
    if block.joins_next:
        flags["joinsNext"] = True
    return flags


def _page(blocks: list[Block], after: str | None, limit: int | None, tool: str, where: str):
    start = 0
    if after is not None:
        for index, block in enumerate(blocks):
            if block.id == after:
                start = index + 1
                break
        else:
            raise _ArgError(
                f"{tool}'s afterBlockId {after!r} is not a block of {where}; pass the nextAfterBlockId "
                "of the previous page, or re-read from the start."
            )
    end = len(blocks) if limit is None else min(len(blocks), start + limit)
    page = blocks[start:end]
    more = end < len(blocks)
    return page, more


# -- read_document ---------------------------------------------------------------------------


@_guard
def read_document(session, args: dict) -> dict[str, Any]:
    after = _str(args, "afterBlockId", "read_document")
    limit = _int(args, "maxBlocks", "read_document", 1, MAX_BLOCKS_PER_PAGE, None)
    doc = session.document()
    blocks = doc.blocks
    page, more = _page(blocks, after, limit, "read_document", "this document")
    return with_unread(
        doc,
        {
            "documentVersion": doc.version,
            "blocks": [block_json(block) for block in page],
            "totalBlocks": len(blocks),
            "nextAfterBlockId": page[-1].id if more and page else None,
        },
    )


# -- outline and sections --------------------------------------------------------------------


def _handle(block: Block) -> dict[str, Any]:
    return {
        "type": "headingSection",
        "story": "main",
        "headingBlockId": block.id,
        "headingTextHash": block.hash,
        "headingLevel": block.heading_level,
    }


def _outline(blocks: list[Block]) -> list[dict[str, Any]]:
    entries = []
    stack: list[Block] = []
    for block in blocks:
        level = block.heading_level
        if level is None:
            continue
        while stack and stack[-1].heading_level >= level:
            stack.pop()
        entry = {"handle": _handle(block), "headingBlockId": block.id, "text": block.text, "level": level}
        if block.display_label:
            entry["displayLabel"] = block.display_label
        if stack:
            entry["parentHandle"] = _handle(stack[-1])
        entries.append(entry)
        stack.append(block)
    return entries


@_guard
def get_document_outline(session, args: dict) -> dict[str, Any]:
    depth = _int(args, "maxDepth", "get_document_outline", 1, 9, 3)
    doc = session.document()
    entries = _outline(doc.blocks)
    shown = [entry for entry in entries if entry["level"] <= depth]
    return with_unread(
        doc,
        {
            "documentVersion": doc.version,
            "sections": shown,
            "totalSections": len(entries),
            "truncated": len(shown) < len(entries),
        },
    )


def _section_blocks(doc, handle: Any, tool: str) -> tuple[Block, list[Block]] | ToolResult:
    if not isinstance(handle, dict) or handle.get("type") != "headingSection" or handle.get("story", "main") != "main":
        raise _ArgError(f"{tool} needs a section `handle` exactly as get_document_outline returned it.")
    heading_id = handle.get("headingBlockId")
    level = handle.get("headingLevel")
    if not isinstance(heading_id, str) or not heading_id or isinstance(level, bool) or not isinstance(level, int):
        raise _ArgError(f"{tool} needs a section `handle` exactly as get_document_outline returned it.")
    heading = doc.block(heading_id)
    if heading is None:
        return fail(
            "That section no longer exists (its heading is gone); run get_document_outline again.",
            code="missingSection",
        )
    if heading.heading_level != level or heading.hash != handle.get("headingTextHash"):
        return fail(
            "That section's heading has changed since the outline was read; run get_document_outline "
            "again for a fresh handle.",
            code="staleSection",
        )
    blocks = doc.blocks
    start = heading.index
    end = start + 1
    while end < len(blocks) and not (blocks[end].heading_level is not None and blocks[end].heading_level <= level):
        end += 1
    return heading, blocks[start:end]


def _heading_handle(doc, block_id: str) -> dict[str, Any] | ToolResult:
    """The section handle of the heading ``block_id`` (what get_document_outline would give)."""
    block = doc.block(block_id)
    if block is None:
        return fail(
            f"there is no block {block_id} in this document; get_document_outline lists the headings.",
            code="missingSection",
        )
    if block.heading_level is None:
        return fail(
            f"block {block_id} is not a heading, so it starts no section; get_document_outline lists the headings.",
            code="notAHeading",
        )
    return _handle(block)


@_guard
def read_section(session, args: dict) -> dict[str, Any] | ToolResult:
    if ("handle" in args) == ("headingBlockId" in args):
        raise _ArgError(
            "read_section needs either a section `handle` from get_document_outline or the "
            "`headingBlockId` of the section's heading (not both)."
        )
    heading_id = _str(args, "headingBlockId", "read_section")
    limit = _int(args, "maxBlocks", "read_section", 1, MAX_SECTION_BLOCKS, 100)
    after = _str(args, "afterBlockId", "read_section")
    doc = session.document()
    handle = args.get("handle") if heading_id is None else _heading_handle(doc, heading_id)
    if isinstance(handle, ToolResult):
        return handle
    found = _section_blocks(doc, handle, "read_section")
    if isinstance(found, ToolResult):
        return found
    heading, blocks = found
    page, more = _page(blocks, after, limit, "read_section", "this section")
    outline_entry = next(e for e in _outline(doc.blocks) if e["headingBlockId"] == heading.id)
    result = {
        "documentVersion": doc.version,
        "handle": _handle(heading),
        "heading": outline_entry,
        "blocks": [block_json(block) for block in page],
        "totalBlocks": len(blocks),
        "truncated": more,
    }
    if more and page:
        result["nextAfterBlockId"] = page[-1].id
    return with_unread(doc, result)


# -- stories ---------------------------------------------------------------------------------


STORY_TYPES = ("main", "header", "footer", "footnote", "endnote")


@_guard
def list_stories(session, args: dict) -> dict[str, Any]:
    from ..model.stories import list_stories as secondary_stories
    from ..model.stories import main_story_text, story_text

    doc = session.document()
    stories = [{"handle": {"type": "main"}, "text": main_story_text(doc)}]
    stories.extend({"handle": story.handle, "text": story_text(doc, story)} for story in secondary_stories(doc))
    return with_unread(doc, {"documentVersion": doc.version, "stories": stories})


def _check_story_handle(handle: Any, tool: str) -> dict[str, Any]:
    problem = f"{tool} needs a story `handle` exactly as list_stories returned it"
    if not isinstance(handle, dict) or handle.get("type") not in STORY_TYPES:
        raise _ArgError(problem + f" (type is one of {', '.join(STORY_TYPES)}).")
    kind = handle["type"]
    if kind in ("header", "footer"):
        rel = handle.get("relationshipId")
        if not isinstance(rel, str) or not rel:
            raise _ArgError(problem + f"; a {kind} handle has a relationshipId.")
    if kind in ("footnote", "endnote"):
        note = handle.get("noteId")
        if isinstance(note, bool) or not isinstance(note, int):
            raise _ArgError(problem + f"; a {kind} handle has an integer noteId.")
    return handle


def missing_story() -> ToolResult:
    return fail("No such story in this document; run list_stories again for current handles.", code="missingStory")


def story_handle_argument(handle: Any, tool: str) -> dict[str, Any] | ToolResult:
    """``handle`` checked as a story handle, or the failure saying what to fix (for tools
    outside this module that take one)."""
    try:
        return _check_story_handle(handle, tool)
    except _ArgError as exc:
        return fail(str(exc), code="invalidArguments")


@_guard
def read_story(session, args: dict) -> dict[str, Any] | ToolResult:
    from ..model.stories import find_story, main_story_text, story_text

    handle = _check_story_handle(args.get("handle"), "read_story")
    doc = session.document()
    if handle["type"] == "main":
        return with_unread(
            doc, {"documentVersion": doc.version, "handle": {"type": "main"}, "text": main_story_text(doc)}
        )
    story = find_story(doc, handle)
    if story is None:
        return missing_story()
    return with_unread(doc, {"documentVersion": doc.version, "handle": story.handle, "text": story_text(doc, story)})


# -- find_text -------------------------------------------------------------------------------


def _is_word_char(char: str) -> bool:
    return char == "_" or unicodedata.category(char)[0] in "LMN"


def _matches(text: str, pattern: re.Pattern, whole_word: bool):
    for match in pattern.finditer(text):
        start, end = match.span()
        if start == end:
            continue
        if whole_word and (
            (start > 0 and _is_word_char(text[start - 1])) or (end < len(text) and _is_word_char(text[end]))
        ):
            continue
        yield start, end


def _context(text: str, start: int, end: int) -> str:
    """Up to 40 UTF-16 units of text on either side of a match, never cutting a character."""
    left = start
    units = 0
    while left > 0 and units + utf16_length(text[left - 1]) <= CONTEXT_UNITS:
        left -= 1
        units += utf16_length(text[left])
    right = end
    units = 0
    while right < len(text) and units + utf16_length(text[right]) <= CONTEXT_UNITS:
        units += utf16_length(text[right])
        right += 1
    return text[left:right]


@_guard
def find_text(session, args: dict) -> dict[str, Any] | ToolResult:
    query = args.get("query")
    if not isinstance(query, str) or not query:
        raise _ArgError("find_text needs a non-empty string `query` (the literal text to look for).")
    if len(query) > MAX_QUERY_LENGTH:
        raise _ArgError(
            f"find_text's `query` is {len(query):,} characters, over the {MAX_QUERY_LENGTH:,}-character "
            "limit; search for a shorter, distinctive part of it."
        )
    match_case = _bool(args, "matchCase", "find_text")
    whole_word = _bool(args, "wholeWord", "find_text")
    scope = args.get("scope") or {"type": "document"}
    if not isinstance(scope, dict) or scope.get("type") not in ("document", "section", "story", "page"):
        raise _ArgError("find_text's `scope` must be an object whose type is document, section or story.")
    if scope["type"] == "page":
        return fail(
            "find_text cannot search by page: a .docx file has no pages until a word processor lays it "
            "out. Search the document, a section (from get_document_outline) or a story instead.",
            code="unsupportedScope",
        )
    pattern = re.compile(re.escape(query), 0 if match_case else re.IGNORECASE)
    doc = session.document()
    if scope["type"] == "story":
        handle = scope.get("handle")
        if handle is None:
            raise _ArgError("find_text's story scope needs a `handle` from list_stories.")
        handle = _check_story_handle(handle, "find_text")
        if handle["type"] != "main":
            return _find_in_story(doc, handle, pattern, whole_word)
        blocks = doc.blocks
    elif scope["type"] == "section":
        if scope.get("handle") is None:
            raise _ArgError("find_text's section scope needs a `handle` from get_document_outline.")
        found = _section_blocks(doc, scope["handle"], "find_text")
        if isinstance(found, ToolResult):
            return found
        blocks = found[1]
    else:
        blocks = doc.blocks
    matches = []
    total = 0
    for block in blocks:
        text = block.text
        if not text:
            continue
        for occurrence, (start, end) in enumerate(_matches(text, pattern, whole_word)):
            total += 1
            if len(matches) < MAX_FIND_MATCHES:
                start16, end16 = to_utf16(text, start), to_utf16(text, end)
                matches.append(
                    {
                        "type": "main",
                        "story": {"type": "main"},
                        "blockId": block.id,
                        "blockTextHash": block.hash,
                        "range": {
                            "type": "textRange",
                            "story": "main",
                            "blockId": block.id,
                            "startOffset": start16,
                            "endOffset": end16,
                            "selectedTextHash": text_hash(text[start:end]),
                        },
                        "occurrenceInBlock": occurrence,
                        "context": _context(text, start, end),
                        **_block_flags(block),
                    }
                )
                if any(start < last and first < end for first, last in block.placeholders):
                    matches[-1]["placeholder"] = True
                if block.imported is not None:
                    matches[-1]["imported"] = dict(block.imported)
                if block.bound_block or any(start < last and first < end for first, last, _ in block.bound):
                    matches[-1]["bound"] = True
    return with_unread(
        doc,
        {"documentVersion": doc.version, "matches": matches, "truncated": total > len(matches), "totalMatches": total},
    )


def _find_in_story(doc, handle: dict, pattern: re.Pattern, whole_word: bool) -> dict[str, Any] | ToolResult:
    from ..model.stories import find_story, story_text

    story = find_story(doc, handle)
    if story is None:
        return missing_story()
    text = story_text(doc, story)
    matches = []
    total = 0
    for start, end in _matches(text, pattern, whole_word):
        if len(matches) < MAX_FIND_MATCHES:
            matches.append(
                {
                    "type": "story",
                    "story": story.handle,
                    "startOffset": to_utf16(text, start),
                    "endOffset": to_utf16(text, end),
                    "occurrenceInStory": total,
                    "context": _context(text, start, end),
                }
            )
        total += 1
    return with_unread(
        doc,
        {"documentVersion": doc.version, "matches": matches, "truncated": total > len(matches), "totalMatches": total},
    )


# -- comments and changes --------------------------------------------------------------------

COMMENT_FILTERS = ("all", "open", "resolved")


def _comment_json(comment, *, thread: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": comment.id, "author": comment.author}
    if comment.initials:
        out["initials"] = comment.initials
    out["date"] = comment.date
    if comment.date_utc:
        out["dateUtc"] = comment.date_utc
    out["text"] = comment.text
    out["resolved"] = comment.done
    if thread:
        out["blockId"] = comment.block_id
        if comment.story is not None:
            out["story"] = comment.story
        out["quote"] = comment.quote
        if comment.original_quote != comment.quote:
            out["originalQuote"] = comment.original_quote
        out["replies"] = [_comment_json(reply, thread=False) for reply in comment.replies]
    return out


@_guard
def read_comments(session, args: dict) -> dict[str, Any]:
    wanted = args.get("filter", "all")
    if wanted not in COMMENT_FILTERS:
        raise _ArgError(f"read_comments' `filter` must be one of {', '.join(COMMENT_FILTERS)}, not {wanted!r}.")
    from ..review.comments import load_comments, threads

    doc = session.document()
    roots = threads(load_comments(doc))
    if wanted == "open":
        roots = [c for c in roots if not c.done]
    elif wanted == "resolved":
        roots = [c for c in roots if c.done]
    return with_unread(
        doc, {"documentVersion": doc.version, "comments": [_comment_json(c, thread=True) for c in roots]}
    )


@_guard
def read_changes(session, args: dict) -> dict[str, Any] | ToolResult:
    from ..model.stories import find_story
    from ..review.changes import main_changes, story_changes
    from ..review.changes import read_changes as every_change

    handle = args.get("story")
    if handle is not None:
        handle = _check_story_handle(handle, "read_changes")
    doc = session.document()
    if handle is None:
        changes = every_change(doc)
    elif handle["type"] == "main":
        changes = main_changes(doc)
    else:
        story = find_story(doc, handle)
        if story is None:
            return missing_story()
        changes = story_changes(doc, story)
    return with_unread(doc, {"documentVersion": doc.version, "changes": changes})


__all__ = [
    "HASH_PATTERN",
    "find_text",
    "get_document_outline",
    "list_stories",
    "read_changes",
    "read_comments",
    "read_document",
    "read_section",
    "read_story",
]
