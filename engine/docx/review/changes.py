"""Reading pending tracked changes of every story, in document order.

The main story comes first, then headers, footers, footnotes and endnotes in the order
``stories.list_stories`` gives. Each change is ``{id, type, author, date, text, blockId}``, and
a change outside the main story also carries ``story``, the story's handle (as list_stories,
read_story and find_text spell it); ``type`` is one of:

- inline: ``insertion`` / ``deletion`` (``w:ins`` / ``w:del`` around runs), ``movedFrom`` /
  ``movedTo`` (``w:moveFrom`` / ``w:moveTo``), ``formatting`` (``w:rPrChange``);
- paragraph: ``paragraphMarkInserted`` / ``paragraphMarkDeleted`` (the mark itself, so the
  paragraph splits or joins on accept), ``paragraphPropertiesChanged`` (``w:pPrChange``),
  ``sectionPropertiesChanged`` (``w:sectPrChange``);
- table: ``rowInserted`` / ``rowDeleted`` (``w:trPr/w:ins|w:del``), ``cellInserted`` /
  ``cellDeleted`` / ``cellMerged``, ``tablePropertiesChanged``, ``rowPropertiesChanged``,
  ``cellPropertiesChanged``.

``text`` is the text the change covers (for a deletion, the deleted text; for a row, the row's
cell texts concatenated; for a cell's change, its paragraphs' texts concatenated; for a property
change, the text of the paragraph or run it applies to).
Consecutive inline pieces of one revision (same type and id) in one block are merged. ``blockId``
is the block the change sits in (for a row or cell, its first block); null when that paragraph is not a
block (hidden rows), and always null outside the main story: blocks are main-story paragraphs, and
read_story gives another story as one text without block ids.

Revision ids are meant to be unique in a document, but a header or note may reuse an id the main
text has (Word does so): ``(story, id)`` names a change, ``id`` alone may not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model.scan import DEL, DROP_ACCEPTED, MARK, MOVE_FROM
from ..model.walk import walk_story
from ..wml.ns import (
    MC_FALLBACK,
    W_DEL,
    W_ID,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_P,
    W_PPR,
    W_R,
    W_RPR,
    W_TBL,
    W_TC,
    W_TR,
    W_TRPR,
    qn,
)
from ..wml.revisions import W_RPRCHANGE

if TYPE_CHECKING:
    from ..model.document import DocxDocument
    from ..model.stories import Story

_INLINE = {W_INS: "insertion", W_DEL: "deletion", W_MOVEFROM: "movedFrom", W_MOVETO: "movedTo"}
_MARK = {W_INS: "paragraphMarkInserted", W_DEL: "paragraphMarkDeleted", W_MOVEFROM: "paragraphMarkDeleted",
         W_MOVETO: "paragraphMarkInserted"}  # fmt: skip
_ROW = {W_INS: "rowInserted", W_DEL: "rowDeleted"}
_PROPERTY = {
    qn("w:pPrChange"): "paragraphPropertiesChanged",
    qn("w:sectPrChange"): "sectionPropertiesChanged",
    qn("w:tblPrChange"): "tablePropertiesChanged",
    qn("w:tblGridChange"): "tablePropertiesChanged",
    qn("w:trPrChange"): "rowPropertiesChanged",
    qn("w:tcPrChange"): "cellPropertiesChanged",
    qn("w:cellIns"): "cellInserted",
    qn("w:cellDel"): "cellDeleted",
    qn("w:cellMerge"): "cellMerged",
}
_TAGS = (*_INLINE, W_RPRCHANGE, *_PROPERTY)


def read_changes(doc: DocxDocument) -> list[dict[str, Any]]:
    """The pending changes of every story: the main story's, then each other story's."""
    from ..model.stories import list_stories

    changes = main_changes(doc)
    seen = set()
    for story in list_stories(doc):
        if id(story.container) not in seen:  # two relationships to one header part: list it once
            seen.add(id(story.container))
            changes.extend(story_changes(doc, story))
    return changes


def main_changes(doc: DocxDocument) -> list[dict[str, Any]]:
    return _changes_in(doc.body, doc.walk_main(markers=True), {block.element: block.id for block in doc.blocks})


def story_changes(doc: DocxDocument, story: Story) -> list[dict[str, Any]]:
    """The pending changes of one header, footer or note, each tagged with the story's handle."""
    if next(story.container.iter(*_TAGS), None) is None:
        return []  # most headers and notes have no change: skip walking them
    walked = walk_story(story.container, doc.scan_context(story.part or "", markers=True))
    changes = _changes_in(story.container, walked, {})
    for change in changes:
        change["story"] = dict(story.handle)
    return changes


def _changes_in(container: Any, walked: list, block_ids: dict[Any, str]) -> list[dict[str, Any]]:
    """The changes under ``container`` (a body, header root or note), ``walked`` being its
    paragraphs and ``block_ids`` the block id of each paragraph that is a block."""
    walked_paragraphs = {w.element for w in walked}
    # Text of every revision wrapper, from the scanned pieces (outer wrappers included).
    wrapper_text: dict[Any, list[str]] = {}
    paragraph_text: dict[Any, str] = {}
    first_block_of_row: dict[Any, str | None] = {}
    row_text: dict[Any, list[str]] = {}
    first_block_of_cell: dict[Any, str | None] = {}
    cell_text: dict[Any, list[str]] = {}
    for w in walked:
        p = w.element
        paragraph_text[p] = "".join([t for t, flags, _ in w.pieces if not flags & DROP_ACCEPTED])
        if w.row is not None:
            shown = "".join([t for t, flags, _ in w.pieces if not flags & MARK])
            first_block_of_row.setdefault(w.row, block_ids.get(p))
            row_text.setdefault(w.row, []).append(shown)
            tc = _ancestor(p, W_TC)
            first_block_of_cell.setdefault(tc, block_ids.get(p))
            cell_text.setdefault(tc, []).append(shown)
        for text, flags, rev in w.pieces:
            if flags & MARK or rev is None or not text:
                continue
            deleted = bool(flags & (DEL | MOVE_FROM))
            element = rev
            while element is not None and element is not p:
                # An insertion's text is what survives accepting it: text deleted inside it is
                # reported by the deletion, not by the insertion.
                if element.tag in _INLINE and not (deleted and element.tag in (W_INS, W_MOVETO)):
                    wrapper_text.setdefault(element, []).append(text)
                element = element.getparent()

    changes: list[dict[str, Any]] = []
    last_key = None
    for element in container.iter(*_TAGS):
        parent = element.getparent()
        tag = element.tag
        owner = _owner_paragraph(element)
        if tag in _INLINE and parent is not None and parent.tag == W_RPR:
            grand = parent.getparent()
            if grand is None or grand.tag != W_PPR or owner not in walked_paragraphs:
                continue
            change_type, text, block_id = _MARK[tag], "", block_ids.get(owner)
        elif tag in _INLINE and parent is not None and parent.tag == W_TRPR:
            row = parent.getparent()
            if row not in first_block_of_row:
                continue
            change_type, text, block_id = _ROW[tag], "".join(row_text.get(row, [])), first_block_of_row[row]
        elif tag in _INLINE:
            if owner not in walked_paragraphs or (parent is not None and str(parent.tag).endswith("Pr")):
                continue
            change_type = _INLINE[tag]
            text = "".join(wrapper_text.get(element, []))
            block_id = block_ids.get(owner)
        elif tag == W_RPRCHANGE:
            if owner not in walked_paragraphs:
                continue
            run = parent.getparent() if parent is not None else None
            change_type = "formatting"
            text = _run_text(run) if run is not None and run.tag == W_R else ""
            block_id = block_ids.get(owner)
        else:
            change_type = _PROPERTY[tag]
            if owner is not None:
                if owner not in walked_paragraphs:
                    continue
                text, block_id = paragraph_text.get(owner, ""), block_ids.get(owner)
            else:
                holder = _ancestor(element, W_TC, W_TR, W_TBL)
                if holder is None:
                    text, block_id = "", None
                elif holder.tag == W_TC:  # a cell's own change: that cell's text
                    text, block_id = "".join(cell_text.get(holder, [])), first_block_of_cell.get(holder)
                elif holder.tag == W_TR:
                    text, block_id = "".join(row_text.get(holder, [])), first_block_of_row.get(holder)
                else:
                    text, block_id = "", _first_block_in(holder, block_ids)
        if _in_fallback(element):
            continue
        entry = {
            "id": element.get(W_ID) or "",
            "type": change_type,
            "author": element.get(qn("w:author")) or "",
            "date": element.get(qn("w:date")),
            "text": text,
            "blockId": block_id,
        }
        key = (entry["type"], entry["id"], entry["author"], block_id, owner)
        if key == last_key and change_type in ("insertion", "deletion", "movedFrom", "movedTo", "formatting"):
            changes[-1]["text"] += text
            continue
        last_key = key
        changes.append(entry)
    return changes


def _owner_paragraph(element: Any) -> Any | None:
    """The nearest enclosing paragraph, unless a table row or cell comes first."""
    node = element.getparent()
    while node is not None:
        tag = node.tag
        if tag == W_P:
            return node
        if tag in (W_TR, W_TBL) or tag == qn("w:tc"):
            return None
        node = node.getparent()
    return None


def _ancestor(element: Any, *tags: str) -> Any | None:
    """The nearest enclosing element with one of ``tags``."""
    node = element.getparent()
    while node is not None and node.tag not in tags:
        node = node.getparent()
    return node


def _in_fallback(element: Any) -> bool:
    node = element.getparent()
    while node is not None:
        if node.tag == MC_FALLBACK:
            return True
        node = node.getparent()
    return False


def _run_text(run: Any) -> str:
    return "".join(t.text or "" for t in run if t.tag in (qn("w:t"), qn("w:delText")))


def _first_block_in(table: Any, block_ids: dict[Any, str]) -> str | None:
    for p in table.iter(W_P):
        if p in block_ids:
            return block_ids[p]
    return None
