"""Readable views of the docx family's results, shared by the CLI (``deskcheck docx ...`` on a
terminal), the REPL's review commands and ``deskcheck demo``.

Every view takes the result (the tool's JSON value) and the call's arguments, and returns a
``draw.View``. Views read the fields they know and show any other field of a block as a flag,
so a result that grew a field still reads well.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .draw import Column, Line, Table, View, Wrapped, note, plural
from .values import fold, scalar_text

TEXT_CHARS = 90

# Block fields the kind column already says (or that only a program needs).
_BLOCK_FIELDS = frozenset(
    {"blockId", "kind", "text", "blockTextHash", "headingLevel", "displayLabel", "numId", "ilvl", "styleId", "table",
     "placeholderRanges", "boundRanges"}
)  # fmt: skip
# Other block fields, as the kind column names them.
_BLOCK_FLAGS = {"inTextBox": "text box", "pendingDeletion": "pending deletion", "joinsNext": "joins next",
                "bound": "data-bound"}  # fmt: skip
_WARN_FLAGS = frozenset({"pendingDeletion"})
# The flags find_text copies from the block onto a match.
_MATCH_FLAGS = ("pendingDeletion", "joinsNext", "placeholder", "imported", "bound")

# A tracked change's kind as people say it (singular, plural); a kind not listed is split into words.
CHANGE_WORDS = {
    "insertion": ("insertion", "insertions"),
    "deletion": ("deletion", "deletions"),
    "movedFrom": ("moved passage (from)", "moved passages (from)"),
    "movedTo": ("moved passage (to)", "moved passages (to)"),
    "formatting": ("formatting change", "formatting changes"),
    "propertyChange": ("formatting change", "formatting changes"),
    "paragraphMark": ("paragraph mark", "paragraph marks"),
    "paragraphMarkInserted": ("new paragraph", "new paragraphs"),
    "paragraphMarkDeleted": ("paragraph join", "paragraph joins"),
    "paragraphPropertiesChanged": ("paragraph formatting change", "paragraph formatting changes"),
    "sectionPropertiesChanged": ("page layout change", "page layout changes"),
    "row": ("table row", "table rows"),
    "rowInserted": ("row inserted", "rows inserted"),
    "rowDeleted": ("row deleted", "rows deleted"),
    "rowPropertiesChanged": ("row formatting change", "row formatting changes"),
    "tablePropertiesChanged": ("table formatting change", "table formatting changes"),
    "cellInserted": ("cell inserted", "cells inserted"),
    "cellDeleted": ("cell deleted", "cells deleted"),
    "cellMerged": ("cell merge", "cell merges"),
    "cellPropertiesChanged": ("cell formatting change", "cell formatting changes"),
}


def change_kind(kind: str, count: int | None = None) -> str:
    """``3 deletions``, ``1 paragraph join``; without ``count`` the singular (``deletion``)."""
    import re

    words = CHANGE_WORDS.get(kind)
    if words is None:
        spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", kind).lower()
        words = (spaced, spaced)
    if count is None:
        return words[0]
    return f"{count:,} {words[0] if count == 1 else words[1]}"


def kinds_text(kinds: dict[str, int]) -> str:
    """``3 deletions, 1 insertion``."""
    return ", ".join(change_kind(kind, int(count)) for kind, count in kinds.items())


CHANGE_STYLES = {
    "insertion": "green",
    "deletion": "red",
    "movedFrom": "magenta",
    "movedTo": "magenta",
    "paragraphMarkInserted": "green",
    "paragraphMarkDeleted": "red",
    "rowInserted": "green",
    "rowDeleted": "red",
    "cellInserted": "green",
    "cellDeleted": "red",
}


# -- blocks ---------------------------------------------------------------------------------------


def block_kind(block: dict[str, Any]) -> str:
    """``heading 2``, ``list item``, ``paragraph``; a table cell's place is added (``table 1
    r2c3``, counted from 1)."""
    kind = str(block.get("kind", ""))
    if kind == "heading" and block.get("headingLevel"):
        kind = f"heading {block['headingLevel']}"
    elif kind == "listItem":
        kind = "list item"
    table = block.get("table")
    if isinstance(table, dict):
        index, row, column = (_one_based(table.get(key)) for key in ("index", "row", "column"))
        kind += f" · table {index} r{row}c{column}"
    return kind


def _one_based(value: Any) -> str:
    return str(value + 1) if isinstance(value, int) and not isinstance(value, bool) else "?"


def block_flags(block: dict[str, Any]) -> list[str]:
    """The block's other fields, as words: ``pending deletion``, ``placeholder="Name"``..."""
    flags = []
    for key, value in block.items():
        if key in _BLOCK_FIELDS or value is False or value is None:
            continue
        if key == "imported" and isinstance(value, dict):
            flags.append(f"imported from {value.get('part')} ({value.get('format')})")
            continue
        name = _BLOCK_FLAGS.get(key, key)
        flags.append(name if value is True else f"{name}={fold(scalar_text(value), 30)}")
    return flags


def block_text(block: dict[str, Any], limit: int | None = TEXT_CHARS) -> str:
    """The block's text after its list label; ``(blank)`` for an empty paragraph."""
    text = str(block.get("text", ""))
    label = block.get("displayLabel")  # a list marker, or a numbered heading's number
    if label:
        text = f"{label} {text}"
    if not text:
        return "(blank)"
    return fold(text, limit) if limit else text


def _kind_cell(block: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    kind = block_kind(block)
    style = "bold" if block.get("kind") == "heading" else ""
    spans = [(kind, style)]
    flags = block_flags(block)
    if flags:
        warn = any(key in block and block[key] for key in _WARN_FLAGS)
        spans.append((" · " + ", ".join(flags), "red" if warn else "yellow"))
    return tuple(spans)


def _text_cell(block: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    text = str(block.get("text", ""))
    label = block.get("displayLabel")
    spans = []
    if label:
        spans.append((f"{label} ", "dim"))
    style = "bold" if block.get("kind") == "heading" else ("strike" if block.get("pendingDeletion") else "")
    spans.append((text, style) if text or label else ("(blank)", "dim"))
    return tuple(spans)


def blocks_table(blocks: Sequence[dict[str, Any]], first_number: int | None = None) -> Table:
    """Blocks as rows: (#, when numbered,) id, kind and text cut to the width."""
    columns = [Column("id", style="cyan"), Column("kind", max_width=34), Column("text", flex=True)]
    rows: list[list[Any]] = [[str(b.get("blockId", "")), _kind_cell(b), _text_cell(b)] for b in blocks]
    if first_number is not None:
        columns.insert(0, Column("#", style="dim", align="right"))
        for number, row in enumerate(rows, start=first_number):
            row.insert(0, str(number))
    return Table(columns, rows)


def read_document(value: dict[str, Any], args: dict[str, Any]) -> View:
    blocks = value.get("blocks", [])
    total = value.get("totalBlocks")
    shown = plural(len(blocks), "block")
    if isinstance(total, int) and total != len(blocks):
        shown += f" of {total:,}"
    view: View = [_summary(shown, value)]
    if blocks:
        view.append(blocks_table(blocks))
    if value.get("nextAfterBlockId"):
        view.append(note(f"More: the next page starts after block {value['nextAfterBlockId']} (afterBlockId)."))
    return view + unread_lines(value)


def unread_lines(value: dict[str, Any], prefix: str = "! left unread: ") -> View:
    """A warning line for each piece of content the reading left unread (``unread``)."""
    from deskcheck.engine.docx.versions.diff_report import unread_line

    entries = [entry for entry in value.get("unread") or [] if isinstance(entry, dict)]
    view: View = [Wrapped(((prefix, "bold yellow"), (unread_line(entry), "yellow")), indent=4) for entry in entries]
    total = value.get("totalUnread")
    if isinstance(total, int) and total > len(entries):
        view.append(note(f"    … and {total - len(entries):,} more left unread (totalUnread {total:,})."))
    return view


def _summary(text: str, value: dict[str, Any]) -> Wrapped:
    spans: list[Any] = [(text, "bold")]
    if value.get("documentVersion"):
        spans.append((f"  documentVersion {value['documentVersion']}", "dim"))
    return Wrapped(tuple(spans), indent=2)


def read_section(value: dict[str, Any], args: dict[str, Any]) -> View:
    section = value.get("heading") or {}
    title = block_text(section, None) if section else "section"
    view: View = [_summary(f"Section {title}: {plural(len(value.get('blocks', [])), 'block')}", value)]
    if value.get("blocks"):
        view.append(blocks_table(value["blocks"]))
    return view + unread_lines(value)


def outline(value: dict[str, Any], args: dict[str, Any]) -> View:
    sections = value.get("sections", [])
    rows = []
    for section in sections:
        level = section.get("level") if isinstance(section.get("level"), int) else 1
        label = f"{section['displayLabel']} " if section.get("displayLabel") else ""
        title = str(section.get("text", ""))
        indented = (("  " * max(0, level - 1), ""), (label, "dim"), (title, "bold" if level == 1 else ""))
        rows.append([str(section.get("headingBlockId", "")), str(level), indented])
    view: View = [_summary(plural(len(sections), "heading"), value)]
    if rows:
        columns = [
            Column("id", style="cyan"),
            Column("level", style="dim", align="right"),
            Column("heading", flex=True),
        ]
        view.append(Table(columns, rows))
    return view + unread_lines(value)


def story_name(handle: dict[str, Any] | None) -> str:
    """A story as a person names it: ``main text``, ``header rId7``, ``footnote 1``."""
    if not isinstance(handle, dict):
        return "none"
    kind = handle.get("type", "")
    if kind == "main":
        return "main text"
    if kind in ("header", "footer"):
        return f"{kind} {handle.get('relationshipId')}"
    if kind in ("footnote", "endnote"):
        return f"{kind} {handle.get('noteId')}"
    return str(kind)


def story_label(handle: dict[str, Any]) -> str:
    """A header, footer or note as the REPL names it: ``footnote:1``, ``header:rId7``."""
    kind = handle.get("type", "")
    if kind in ("footnote", "endnote"):
        return f"{kind}:{handle.get('noteId')}"
    if kind in ("header", "footer"):
        return f"{kind}:{handle.get('relationshipId')}"
    return "main"


def stories(value: dict[str, Any], args: dict[str, Any]) -> View:
    rows = []
    for story in value.get("stories", []):
        handle = story.get("handle") or {}
        text = str(story.get("text", ""))
        if handle.get("type") == "main":
            count = text.count("\n") + 1 if text else 0
            text_cell: Any = (f"{plural(count, 'block')} (read-document reads them)", "dim")
        else:
            text_cell = text.replace("\n", " ") or ("(empty)", "dim")
        rows.append([story_name(handle), text_cell])
    return [
        _summary(plural(len(rows), "story", "stories"), value),
        Table([Column("story", style="cyan"), Column("text", flex=True)], rows),
        *unread_lines(value),
    ]


def read_story(value: dict[str, Any], args: dict[str, Any]) -> View:
    view: View = [_summary(story_name(value.get("handle")), value)]
    text = str(value.get("text", ""))
    view += [Wrapped(((line, ""),), indent=2) for line in text.split("\n")] if text else [note("(empty)")]
    return view + unread_lines(value)


def matches_table(matches: Sequence[dict[str, Any]], query: str, numbers: dict[str, int] | None = None) -> Table:
    """find_text's matches: (# when ``numbers`` gives block numbers,) block, offsets, context with
    the query highlighted."""
    rows = []
    for found in matches:
        where = found.get("range") or {}
        story = found.get("story") or {}
        place = str(found.get("blockId") or "")
        if story.get("type") not in (None, "main"):
            place = story_name(story) + (f" {place}" if place else "")
        span = f"{where.get('startOffset', '?')}-{where.get('endOffset', '?')}"
        context = highlight(str(found.get("context", "")), query)
        flags = [_BLOCK_FLAGS.get(key, key) for key in _MATCH_FLAGS if found.get(key)]
        if flags:  # what accepting would do to the block, or a placeholder's prompt
            context = (*context, (" · " + ", ".join(flags), "yellow"))
        row = [place, span, context]
        if numbers is not None:
            row.insert(0, f"#{numbers[found['blockId']]}" if found.get("blockId") in numbers else "")
        rows.append(row)
    columns = [Column("block", style="cyan"), Column("at", style="dim", align="right"), Column("context", flex=True)]
    if numbers is not None:
        columns.insert(0, Column("#", style="dim", align="right"))
    return Table(columns, rows)


def find(value: dict[str, Any], args: dict[str, Any], numbers: dict[str, int] | None = None) -> View:
    matches = value.get("matches", [])
    query = str(args.get("query", ""))
    total = value.get("totalMatches", len(matches))
    line = plural(total, "match", "matches") + (f" of {query!r}" if query else "")
    if value.get("truncated") or (isinstance(total, int) and total > len(matches)):
        line += f", the first {len(matches):,} shown"
    view: View = [_summary(line, value)]
    if matches:
        view.append(matches_table(matches, query, numbers))
    return view + unread_lines(value)


def highlight(text: str, query: str, style: str = "bold reverse") -> tuple[tuple[str, str], ...]:
    """``text`` with each occurrence of ``query`` (any case) styled."""
    if not query:
        return ((text, ""),)
    spans: list[tuple[str, str]] = []
    lower, wanted, start = text.casefold(), query.casefold(), 0
    if len(lower) != len(text):  # case folding changed lengths (ß): offsets would not match
        return ((text, ""),)
    while (found := lower.find(wanted, start)) >= 0:
        spans += [(text[start:found], ""), (text[found : found + len(query)], style)]
        start = found + len(query)
    spans.append((text[start:], ""))
    return tuple(span for span in spans if span[0])


# -- comments and changes -------------------------------------------------------------------------------


def _where(item: dict[str, Any]) -> str:
    if item.get("story"):
        return story_label(item["story"])  # as the REPL's change ids name it: footnote:1/7
    return str(item.get("blockId") or "(not in the text)")


def comments_view(comments: Sequence[dict[str, Any]]) -> View:
    """Comment threads grouped by the author who opened them: id, state, where, quote, text,
    and each reply under its thread."""
    if not comments:
        return [note("No comments.")]
    view: View = []
    for author, threads in _by_author(comments):
        open_count = sum(1 for t in threads if not t.get("resolved"))
        view.append(Line((author, "bold"), (f"  {plural(len(threads), 'thread')}, {open_count:,} open", "dim")))
        rows = []
        for thread in threads:
            state = ("resolved", "dim") if thread.get("resolved") else ("open", "yellow")
            quote = thread.get("quote")
            rows.append([str(thread.get("id", "")), state, _where(thread), _quote(quote), str(thread.get("text", ""))])
            for reply in thread.get("replies", []):
                rows.append(
                    [
                        ("  ↳ " + str(reply.get("id", "")), "dim"),
                        ("resolved", "dim") if reply.get("resolved") else "",
                        "",
                        "",
                        ((f"{reply.get('author', '')}: ", "bold"), (str(reply.get("text", "")), "")),
                    ]
                )
        view.append(
            Table(
                [
                    Column("id", style="cyan"),
                    Column("state"),
                    Column("where", max_width=24),
                    Column("on", style="italic", max_width=30),
                    Column("comment", flex=True, wrap=True),
                ],
                rows,
                indent=2,
            )
        )
    return view


def _quote(quote: Any) -> Any:
    return f"“{quote}”" if quote else ("whole block", "dim")


def _by_author(items: Iterable[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        groups.setdefault(str(item.get("author") or "unknown author"), []).append(item)
    return list(groups.items())


def read_comments(value: dict[str, Any], args: dict[str, Any]) -> View:
    comments = value.get("comments", [])
    which = args.get("filter", "all")
    title = plural(len(comments), "comment thread") + ("" if which == "all" else f" ({which})")
    return [_summary(title, value), *comments_view(comments), *unread_lines(value)]


def change_ref(change: dict[str, Any]) -> str:
    """How the REPL names a change: its id in the main text, ``STORY/ID`` in another story (a
    header or note may reuse an id of the main text)."""
    story = change.get("story")
    return f"{story_label(story)}/{change.get('id')}" if story else str(change.get("id"))


def changes_view(changes: Sequence[dict[str, Any]]) -> View:
    """Tracked changes grouped by author: id (as accept/reject take it), type, where, date, text."""
    if not changes:
        return [note("No pending tracked changes.")]
    view: View = []
    for author, group in _by_author(changes):
        kinds: dict[str, int] = {}
        for change in group:
            kinds[str(change.get("type"))] = kinds.get(str(change.get("type")), 0) + 1
        counts = kinds_text(kinds)
        view.append(Wrapped(((author, "bold"), (f"  {plural(len(group), 'change')}: {counts}", "dim")), indent=2))
        rows = [
            [
                change_ref(change),
                (change_kind(str(change.get("type", ""))), CHANGE_STYLES.get(str(change.get("type")), "yellow")),
                _where(change),
                (str(change.get("date") or "")[:16].replace("T", " "), "dim"),
                (str(change.get("text") or ""), _text_style(change)) if change.get("text") else ("(no text)", "dim"),
            ]
            for change in group
        ]
        view.append(
            Table(
                [
                    Column("id", style="cyan"),
                    Column("type"),
                    Column("where", max_width=24),
                    Column("date"),
                    Column("text", flex=True),
                ],
                rows,
                indent=2,
            )
        )
    return view


def _text_style(change: dict[str, Any]) -> str:
    kind = str(change.get("type", ""))
    if kind in ("deletion", "movedFrom", "paragraphMarkDeleted", "rowDeleted", "cellDeleted"):
        return "red strike"
    if kind in ("insertion", "movedTo", "paragraphMarkInserted", "rowInserted", "cellInserted"):
        return "green"
    return ""


def read_changes(value: dict[str, Any], args: dict[str, Any]) -> View:
    changes = value.get("changes", [])
    return [
        _summary(plural(len(changes), "pending tracked change"), value),
        *changes_view(changes),
        *unread_lines(value),
    ]


# -- edits ----------------------------------------------------------------------------------------


def describe_op(op: dict[str, Any]) -> str:
    """One operation of a suggest_changes batch in a line (with the comment it carries)."""
    kind = str(op.get("type", ""))
    line = _op_words(kind, op)
    if op.get("comment") and kind not in ("commentOnBlock", "commentOnRange"):
        line += f"  + comment {fold(str(op['comment']), 50)!r}"
    return line


def _op_words(kind: str, op: dict[str, Any]) -> str:
    block = op.get("blockId", "")
    if kind == "replaceInBlock":
        return f"replace in {block}: {fold(str(op.get('find', '')), 40)!r} => {fold(str(op.get('replace', '')), 40)!r}"
    if kind in ("insertAfterBlock", "insertBeforeBlock"):
        where = "after" if kind == "insertAfterBlock" else "before"
        return f"insert {where} {block}: {fold(str(op.get('text', '')), 60)!r}"
    if kind == "deleteBlock":
        return f"delete {block}"
    if kind == "commentOnBlock":
        on = f" on {fold(str(op['quote']), 30)!r}" if op.get("quote") else ""
        return f"comment {block}{on}: {fold(str(op.get('comment', '')), 60)!r}"
    where = op.get("range") if isinstance(op.get("range"), dict) else None
    if where is not None:
        span = f"{where.get('blockId')} [{where.get('startOffset')}-{where.get('endOffset')}]"
        if kind == "replaceRange":
            return f"replace range {span} => {fold(str(op.get('replace', '')), 40)!r}"
        if kind == "commentOnRange":
            return f"comment on range {span}: {fold(str(op.get('comment', '')), 60)!r}"
        return f"{kind} {span}"
    return f"{kind} {block}".rstrip()


def edit_result(
    value: dict[str, Any], args: dict[str, Any], names: dict[str, str] | None = None, *, written: bool = True
) -> View:
    """What a suggest_changes batch did (also add_comment and queue apply): one line per
    operation, applied ✓, replayed ↺ (applied by an earlier call), queued ⋯ or skipped ✗ with its
    reason and code; then the normalizations, the version and where it was written (unless not
    ``written``: the REPL's working copy is its own business). ``names`` gives each operation id
    the words to show it by (the REPL's numbered batch)."""
    names = dict(names or {})
    sent = args.get("operations") if isinstance(args.get("operations"), list) else []
    for op in sent:
        if isinstance(op, dict) and isinstance(op.get("id"), str):
            names.setdefault(op["id"], describe_op(op))
    for receipt in value.get("receipts", []):
        op_id, index = receipt.get("operationId"), receipt.get("operationIndex")
        if not isinstance(op_id, str) or op_id in names:
            continue
        if isinstance(index, int) and 0 <= index < len(sent) and isinstance(sent[index], dict):
            names[op_id] = describe_op(sent[index])  # an operation sent without an id: it got one
        else:
            blocks = [a.get("blockId") for a in receipt.get("affected", []) if a.get("blockId")]
            names[op_id] = f"{receipt.get('type', '')} {', '.join(map(str, blocks))}".strip()
    counts = [
        f"{len(value.get(key, [])):,} {key}" for key in ("applied", "queued", "replayed", "skipped") if value.get(key)
    ]
    style = "bold green" if not value.get("skipped") else ("bold yellow" if counts[:-1] else "bold red")
    status = {"queued": " (parked in the queue, not applied)", "previewed": " (dry run: nothing written)"}
    view: View = [
        Wrapped(((", ".join(counts) or "nothing to do", style), (status.get(str(value.get("status")), ""), "dim")), 2)
    ]
    marks = {"applied": ("✓", "green"), "queued": ("⋯", "cyan"), "replayed": ("↺", "blue")}
    comments = {
        receipt.get("operationId"): [a["commentId"] for a in receipt.get("affected", []) if a.get("commentId")]
        for receipt in value.get("receipts", [])
    }
    for key, (mark, mark_style) in marks.items():
        for entry in value.get(key, []):
            op_id = str(entry.get("id", ""))
            made = comments.get(op_id) if key == "applied" else None
            view.append(
                Line(
                    (f"  {mark} ", mark_style),
                    (op_id, "cyan"),
                    (f"  {names.get(op_id, '')}", ""),
                    (f"  → comment {', '.join(map(str, made))}" if made else "", "green"),
                )
            )
            if key == "replayed":
                view.append(note("      already applied by an earlier call with the same id"))
    for entry in value.get("skipped", []):
        op_id = str(entry.get("id", ""))
        view.append(Line(("  ✗ ", "red"), (op_id, "cyan"), (f"  {names.get(op_id, '')}", "")))
        reason = entry.get("reason") or ""
        view.append(Wrapped(((f"      {reason}", "red"), (f" [{entry.get('code')}]", "dim")), indent=6))
    for item in value.get("normalizations", []):
        view.append(Wrapped(((f"  note: {item.get('path', '')}: {item.get('message', '')}", "dim"),), indent=8))
    return view + _written(value) if written else view


def _written(value: dict[str, Any]) -> View:
    """Where the result went: the file written, the queue, or nothing (a dry run)."""
    parts = []
    if value.get("status") == "previewed" or value.get("dryRun"):
        parts.append("dry run: nothing was written")
    elif value.get("output"):
        parts.append(f"written to {value['output']}")
    if value.get("queue"):
        parts.append(f"queued in {value['queue']}" + (f" as {value['batchId']}" if value.get("batchId") else ""))
    if value.get("documentVersion"):
        parts.append(f"documentVersion {value['documentVersion']}")
    return [note("; ".join(parts))] if parts else []


def reply_comment(value: dict[str, Any], args: dict[str, Any]) -> View:
    return [
        Line(
            ("✓ ", "green"),
            f"Replied to thread {value.get('threadId')}: the reply is comment {value.get('commentId')}.",
        ),
        *_written(value),
    ]


def resolve_comment(value: dict[str, Any], args: dict[str, Any]) -> View:
    state = "resolved" if value.get("resolved") else "open again"
    still = "" if value.get("changed", True) else " (it already was)"
    return [Line(("✓ ", "green"), f"Comment {value.get('commentId')} is {state}{still}."), *_written(value)]


def change_resolution(value: dict[str, Any], args: dict[str, Any], *, written: bool = True) -> View:
    """accept_change / reject_change: the changes resolved, then what is left."""
    verb = "Accepted" if value.get("mode") == "accept" else "Rejected"
    resolved = value.get("resolved", [])
    view: View = [Wrapped(((f"{verb} {plural(len(resolved), 'tracked change')}", "bold green"), _by_kind(value)), 2)]
    view.extend(changes_view(resolved) if resolved else [])
    if "remaining" in value:
        view.append(note(f"{plural(int(value['remaining']), 'tracked change')} still pending."))
    return view + _written(value) if written else view


def _by_kind(value: dict[str, Any]) -> tuple[str, str]:
    kinds = value.get("byKind") or {}
    if not kinds:
        return ("", "")
    return (": " + kinds_text(kinds), "")


def resolve_all(value: dict[str, Any], args: dict[str, Any]) -> View:
    """accept-all / reject-all."""
    verb = "Accepted" if value.get("mode") == "accept" else "Rejected"
    count = value.get("resolved", 0)
    who = f" by {value['author']}" if value.get("author") else ""
    would = "Would have " + verb.lower() if value.get("dryRun") else verb
    return [
        Wrapped(((f"{would} {plural(int(count), 'tracked change')}{who}", "bold green"), _by_kind(value)), 2),
        *_written(value),
    ]


# -- compare and redline ----------------------------------------------------------------------------

_COMPARE_MARKS = {
    "added": ("+", "green", "added"),
    "deleted": ("-", "red", "deleted"),
    "modified": ("~", "yellow", "modified"),
    "formatChanged": ("~", "blue", "format changed"),
    "movedFrom": ("<", "magenta", "moved away"),
    "movedTo": (">", "magenta", "moved here"),
}
_COUNT_STYLES = {"added": "green", "deleted": "red", "modified": "yellow", "formatChanged": "blue", "moved": "magenta"}


# What a comparison's counts count (compare.compare_documents sums the stories into them).
COUNTED = "Paragraphs of the main text, its tables, headers, footers and notes"


def counts_line(counts: dict[str, Any]) -> Wrapped:
    """``Paragraphs of ...: 1 added, 0 deleted, ..., 97 unchanged``, wrapped on a narrow screen."""
    names = {"formatChanged": "format-changed", "metadataChanged": "metadata-changed"}
    spans: list[tuple[str, str]] = [(f"{COUNTED}: ", "dim")]
    for key, count in counts.items():
        if key == "metadataChanged":  # not paragraphs: the core properties (title, author...)
            spans.append(("; document properties: ", "dim"))
        elif len(spans) > 1:
            spans.append((", ", ""))
        style = _COUNT_STYLES.get(key, "") if count else "dim"
        spans.append((f"{count:,} {names.get(key, key)}", style))
    return Wrapped(tuple(spans), indent=2)


def compare(value: dict[str, Any], args: dict[str, Any]) -> View:
    """A comparison: the files, the counts, then each change with its word diff."""
    from deskcheck.engine.docx.versions.diff_report import shorten, story_line

    previous, current = value.get("previous") or {}, value.get("current") or {}
    view: View = [
        Line(
            ("Compared ", "bold"),
            (str(previous.get("file", "?")), "cyan"),
            (" with ", "bold"),
            (str(current.get("file", "?")), "cyan"),
        ),
        counts_line(value.get("summaryCounts") or {}),
    ]
    accepted = [side for side in (previous, current) if side.get("acceptedPendingChanges")]
    for side in accepted:
        view.append(
            note(
                f"{side['file']} was read with its {plural(side['acceptedPendingChanges'], 'pending change')} accepted."
            )
        )
    view += _unread_sides(value)
    for change in value.get("changes", []):
        view.append(_compare_line(change, shorten))
    for story in value.get("stories", []):
        if not story.get("changes"):
            continue
        view.append(Line((story_line(story), "bold")))
        view.extend(_compare_line(change, shorten) for change in story["changes"])
    for item in value.get("metadataChanges", []):
        view.append(
            Line(
                ("~ ", "yellow"),
                (f"metadata {item.get('property', item.get('item', ''))}: ", "bold"),
                scalar_text(item),
            )
        )
    return view


def _unread_sides(value: dict[str, Any]) -> View:
    """What each compared version left unread, and which of it differs between them."""
    view: View = []
    for side in ("previous", "current"):
        view += unread_lines(value.get(side) or {}, f"! left unread in the {side} version: ")
    for change in value.get("unreadChanges") or []:
        what = f"{change.get('part')} differs between the versions; it was not compared."
        view.append(Line(("! ", "bold yellow"), (what, "yellow")))
    return view


def _compare_line(change: dict[str, Any], shorten: Callable[[str], str]) -> Wrapped:
    kind = str(change.get("type", ""))
    mark, style, words = _COMPARE_MARKS.get(kind, ("?", "yellow", kind))
    label = f"[{change['blockId']}]" if "blockId" in change else f"[¶{change.get('paragraph')}]"
    table = change.get("currentTable") if kind not in ("deleted", "movedFrom") else None
    table = table or change.get("previousTable")
    if table:
        index, row, column = (_one_based(table.get(key)) for key in ("index", "row", "column"))
        label += f" (table {index}, row {row}, column {column})"
    if change.get("moveGroupId") is not None:
        words += f" (move {change['moveGroupId']})"
    if change.get("changedProperties"):
        words += f" ({', '.join(map(str, change['changedProperties']))})"
    spans: list[tuple[str, str]] = [(f"{mark} ", f"bold {style}"), (label, "cyan"), (f" {words}: ", style)]
    if "segments" in change:
        for segment in change["segments"]:
            text = str(segment.get("text", ""))
            if segment.get("type") == "del":
                spans.append((text, "deleted"))
            elif segment.get("type") == "ins":
                spans.append((text, "inserted"))
            else:
                spans.append((shorten(text), ""))
    else:
        text = str(change.get("text", ""))
        spans.append(
            (
                text if kind in ("added", "deleted") else shorten(text),
                "green" if kind == "added" else ("red" if kind == "deleted" else ""),
            )
        )
    return Wrapped(tuple(spans), indent=4)


def compare_versions(value: dict[str, Any], args: dict[str, Any]) -> View:
    """The compare_versions tool answers the comparison, or its text (``diff``) for a model."""
    if "changes" in value:
        return compare(value, args)
    view: View = [counts_line(value.get("summaryCounts") or {})] if value.get("summaryCounts") else []
    lines = str(value.get("diff", "")).splitlines()
    return view + [Wrapped(((line, _diff_style(line)),), indent=4) for line in lines[1:] if line]


def _diff_style(line: str) -> str:
    return {"+": "green", "-": "red", "~": "yellow", "<": "magenta", ">": "magenta"}.get(line[:1], "")


def redline(value: dict[str, Any], args: dict[str, Any]) -> View:
    view: View = [
        Line(("✓ ", "green"), ("Redline written to ", "bold"), (str(value.get("output", "")), "cyan")),
        note(f"{value.get('previous')} → {value.get('current')}, tracked changes by {value.get('author')}"),
        counts_line(value.get("summaryCounts") or {}),
    ]
    view += _unread_sides({"previous": {"unread": (value.get("unread") or {}).get("previous")},
                           "current": {"unread": (value.get("unread") or {}).get("current")}})  # fmt: skip
    for story in value.get("unmatchedStories", []):
        missing = story.get("currentStory") is None
        which = story_name(story.get("previousStory") if missing else story.get("currentStory"))
        where = "the current version" if missing else "the previous version"
        view.append(Line(("! ", "yellow"), f"{which} has no counterpart in {where}; it was left as it is."))
    report = value.get("privacyReport") or {}
    removed, kept = report.get("removed", []), report.get("kept", [])
    if removed:
        view.append(Line((f"Removed from the package ({len(removed):,}):", "bold")))
        view.append(_privacy_table(removed))
    if kept:
        view.append(Line((f"Kept in the package ({len(kept):,}):", "bold"), (" --scrub-metadata removes them", "dim")))
        view.append(_privacy_table(kept))
    return view


def _privacy_table(items: Sequence[dict[str, Any]]) -> Table:
    rows = [
        [str(item.get("item", "")), (str(item.get("part", "")), "dim"), scalar_text(item.get("value", ""))]
        for item in items
    ]
    return Table([Column("item"), Column("part"), Column("value", flex=True)], rows, indent=2)


# -- queues -----------------------------------------------------------------------------------------

_QUEUE_STYLES = {"queued": "cyan", "applied": "green", "pending": "yellow", "replayed": "blue", "skipped": "red"}


_UNSEALED = "changed since it was queued (or queued by another user): queue apply refuses it"


def queue_list(value: dict[str, Any], args: dict[str, Any]) -> View:
    batches = value.get("batches", [])
    view: View = [Line((plural(len(batches), "batch", "batches"), "bold"), (f" in {value.get('queue')}", "dim"))]
    for batch in batches:
        status = str(batch.get("status", ""))
        view.append(
            Line(
                (str(batch.get("batchId", "")), "bold cyan"),
                ("  ", ""),
                (status, _QUEUE_STYLES.get(status, "")),
                (f"  {batch.get('file')}  queued {str(batch.get('queuedAt') or '')[:16].replace('T', ' ')}", "dim"),
                (f"  {batch.get('mode')}", "dim"),
            )
        )
        if not batch.get("sealed", True):
            view.append(Line((f"  {_UNSEALED}", "bold red")))
        rows = [
            [
                str(op.get("id", "")),
                str(op.get("type", "")),
                (str(op.get("status", "")), _QUEUE_STYLES.get(str(op.get("status")), "")),
            ]
            for op in batch.get("operations", [])
        ]
        view.append(Table([Column("operation", style="cyan"), Column("type"), Column("status")], rows, indent=2))
    if not batches:
        view.append(note("The queue is empty."))
    return view


# The view of each docx tool by name, and of the docx commands that are not tools.
VIEWS: dict[str, Callable[[dict[str, Any], dict[str, Any]], View]] = {
    "read_document": read_document,
    "read_section": read_section,
    "get_document_outline": outline,
    "list_stories": stories,
    "read_story": read_story,
    "find_text": find,
    "read_comments": read_comments,
    "read_changes": read_changes,
    "compare_versions": compare_versions,
    "suggest_changes": edit_result,
    "add_comment": edit_result,
    "reply_comment": reply_comment,
    "resolve_comment": resolve_comment,
    "accept_change": change_resolution,
    "reject_change": change_resolution,
    "resolve_all": resolve_all,
    "compare": compare,
    "redline": redline,
    "queue_list": queue_list,
    "queue_apply": edit_result,
}
