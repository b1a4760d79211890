"""What handlers get: ``ResolveContext`` (the document as read, lookups that skip with the right
code) and ``ApplyContext`` (the live tree, the edit mode, fresh ids, new paragraphs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model.bindings import data_binding
from ..model.blocks import Block
from ..model.hashing import block_text_hash, text_hash
from ..model.offsets import from_utf16, splits_cluster, to_utf16
from ..model.para_ids import ParaIdAllocator
from ..model.scan import shows_placeholder
from ..wml.ns import (
    W14_PARAID,
    W14_TEXTID,
    W_DEL,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_P,
    W_RPR,
    W_SDTCONTENT,
    W_SECTPR,
    qn,
)
from ..wml.properties import paragraph_properties
from ..wml.revisions import restamp_copies, strip_annotations
from .spec import Skip
from .textmap import Edit, ParagraphText

if TYPE_CHECKING:
    from ..model.document import DocxDocument


class ResolveContext:
    def __init__(self, doc: DocxDocument, mode: str, table_revisions: str = "cells") -> None:
        self.doc = doc
        self.mode = mode
        self.tracked = mode == "tracked-changes"
        # How tracked column, merge and split changes are written (see row_replacement).
        self.table_revisions = table_revisions

    def block(self, block_id: str) -> Block:
        block = self.doc.block(block_id)
        if block is None:
            raise Skip("missingBlock", blockId=block_id)
        check_not_imported(block)
        return block

    def next_block(self, block: Block) -> Block | None:
        blocks = self.doc.blocks
        following = blocks[block.index + 1] if block.index + 1 < len(blocks) else None
        if following is not None:
            check_not_imported(following)
        return following

    def find_once(self, block: Block, find: str) -> tuple[int, int]:
        """UTF-16 offsets of the one occurrence of ``find`` in the block's text (occurrences may
        overlap: "aa" occurs twice in "aaa")."""
        text = block.text
        first = text.find(find)
        if first < 0:
            raise Skip("missingFind", blockId=block.id)
        count, position = 0, first
        while position >= 0:
            count += 1
            position = text.find(find, position + 1)
        if count > 1:
            raise Skip("ambiguousFind", blockId=block.id, count=count)
        return to_utf16(text, first), to_utf16(text, first + len(find))

    def check_offset(self, block: Block, offset: int, *, text_change: bool) -> int:
        """The code-point index of UTF-16 ``offset`` in the block's text. An offset inside a
        surrogate pair, or (for text changes and splits) between a character and its combining
        mark, skips with splitsCharacter and the nearest valid offsets."""
        text = block.text
        index = from_utf16(text, offset)
        if index is None:
            total = to_utf16(text, len(text))
            if offset > total:
                raise Skip("staleRange", blockId=block.id)
            # Inside a surrogate pair: the character starts one unit earlier.
            before = offset - 1
            start = from_utf16(text, before)
            raise Skip(
                "splitsCharacter", offset=offset, before=before, after=offset + 1,
                between=f"the two halves of {text[start]!r}" if start is not None else "two code units",
            )  # fmt: skip
        if text_change and splits_cluster(text, index):
            start = index
            while start > 0 and splits_cluster(text, start):
                start -= 1
            end = index
            while end < len(text) and splits_cluster(text, end):
                end += 1
            raise Skip(
                "splitsCharacter", offset=offset, before=to_utf16(text, start), after=to_utf16(text, end),
                between=f"{text[start:index]!r} and the mark {text[index]!r} that belongs to it",
            )  # fmt: skip
        return index

    def range_offsets(self, block: Block, rng: dict[str, Any], *, text_change: bool) -> tuple[int, int]:
        """Check a find_text range against the block: offsets inside the text, between whole
        characters, selecting text with the range's hash. Returns the UTF-16 offsets."""
        start, end = rng["startOffset"], rng["endOffset"]
        length = to_utf16(block.text, len(block.text))
        if end > length:
            raise Skip("staleRange", blockId=block.id)
        first = self.check_offset(block, start, text_change=text_change)
        last = self.check_offset(block, end, text_change=text_change)
        if text_hash(block.text[first:last]) != rng["selectedTextHash"]:
            raise Skip("staleRange", blockId=block.id)
        return start, end

    def paragraph_styles(self) -> list[tuple[str, str]]:
        """(styleId, name) of every paragraph style the document defines."""
        from ..package.docx_package import RT

        package = self.doc.package
        root = package.xml_if_present(package.related_part(self.doc.main_part, RT.STYLES))
        if root is None:
            return []
        out = []
        for style in root.iter(qn("w:style")):
            style_id = style.get(qn("w:styleId"))
            if style_id and (style.get(qn("w:type")) or "paragraph") == "paragraph":
                name = style.find(qn("w:name"))
                out.append((style_id, (name.get(qn("w:val")) if name is not None else None) or style_id))
        return out


def check_not_imported(block: Block) -> None:
    """Skip with importedContent for a block read from a ``w:altChunk``: its text lives in an
    embedded file of another format, which Word imports when it opens the document."""
    if block.imported is not None:
        raise Skip(
            "importedContent", blockId=block.id, part=block.imported.get("part"), format=block.imported.get("format")
        )


def check_placeholder(block: Block, start: int | None = None, end: int | None = None) -> None:
    """Skip with placeholderText when the change touches text an empty content control shows
    as its placeholder: the UTF-16 range ``start``..``end`` overlaps it, or (an insertion point,
    ``start == end``) sits in it or at its edge, where new text would land inside the control.
    Without offsets, the whole block is the change."""
    for first, last in block.placeholders:
        if _touches(block, first, last, start, end):
            raise Skip("placeholderText", blockId=block.id, placeholder=repr(block.text[first:last]))


def check_bound(block: Block, start: int | None = None, end: int | None = None) -> None:
    """Skip with boundContent when the change touches text a data-bound content control shows
    (as ``check_placeholder`` decides for a placeholder; a paragraph the control holds whole is
    touched by any change): Word replaces that text with the data store's value on opening, so
    an edit there would not be what the person sees."""
    if block.bound_block:
        raise Skip("boundContent", blockId=block.id, value=repr(block.text[:60]))
    for first, last, _ in block.bound:
        if _touches(block, first, last, start, end):
            raise Skip("boundContent", blockId=block.id, value=repr(block.text[first:last][:60]))


def check_editable(block: Block, start: int | None = None, end: int | None = None) -> None:
    """Both checks a change of text makes: no placeholder, no data-bound text in the way."""
    check_placeholder(block, start, end)
    check_bound(block, start, end)


def _touches(block: Block, first: int, last: int, start: int | None, end: int | None) -> bool:
    """Whether UTF-16 range ``start``..``end`` (an insertion point when equal, the whole block
    when None) touches the code points ``first``..``last`` of the block's text."""
    if start is None or end is None:
        return True
    first16, last16 = to_utf16(block.text, first), to_utf16(block.text, last)
    if start == end:
        return first16 <= start <= last16
    return start < last16 and first16 < end


def in_placeholder_control(p: Any) -> bool:
    """Whether paragraph ``p`` sits in a block-level content control showing its placeholder."""
    return any(
        ancestor.tag == W_SDTCONTENT and shows_placeholder(ancestor.getparent()) for ancestor in p.iterancestors()
    )


def outside_placeholder_controls(anchor: Any) -> Any:
    """What new content placed next to ``anchor`` goes next to: the anchor, or the outermost
    block-level content control around it that shows its placeholder or is bound to the data
    store. Content put inside such a control would become part of the placeholder (the control
    is empty: all it holds is the prompt), or be replaced by the stored value when Word opens
    the file."""
    place = anchor
    for ancestor in anchor.iterancestors(qn("w:sdt")):
        if shows_placeholder(ancestor) or data_binding(ancestor) is not None:
            place = ancestor
    return place


def check_precondition(op, block: Block) -> None:
    """The caller's precondition, then the hash stamped when the batch was resolved earlier."""
    precondition = op.get("precondition")
    if precondition is not None and precondition["blockTextHash"] != block.hash:
        raise Skip("preconditionFailed", blockId=block.id)
    if op.stamped_hash is not None and op.stamped_hash != block.hash:
        raise Skip("changedBlock", blockId=block.id, since=" (it was resolved when the batch was queued)")


def stamp_hash(block: Block) -> str:
    return block_text_hash(block.text)


class ApplyContext:
    def __init__(self, doc: DocxDocument, edit: Edit, author: str, table_revisions: str = "cells") -> None:
        self.doc = doc
        self.edit = edit
        self.author = author
        self.table_revisions = table_revisions
        # Tables whose rows this call replaces, with their rows as they were (row_replacement).
        self.replacements: dict[Any, Any] = {}
        # True in row_replacement's direct view: table operations write the rows they change as
        # direct mode does, read cells as they are once accepted, and comment on a point.
        self.replacing_rows = False
        self.para_ids = ParaIdAllocator(doc.package)
        self.comments = None  # a CommentWriter, created on the first comment
        # Paragraphs whose mark an operation of this call deletes (see insert_block.mark_new_paragraph).
        self.marks_deleted: frozenset = frozenset()
        # Table rows (w:tr) a deleteTableRow of this call deletes (see table_rows.row_layout).
        self.rows_deleted: frozenset = frozenset()
        self._hidden_by_style: dict[str | None, bool] = {}

    @property
    def tracked(self) -> bool:
        return self.edit.tracked

    @property
    def revisions(self):
        return self.edit.revisions

    @property
    def ids(self):
        return self.edit.ids

    @property
    def styles(self):
        return self.doc.styles

    def paragraph_text(self, p: Any) -> ParagraphText:
        return ParagraphText(p, self.doc.styles, self._hidden_by_style, self.doc.display)

    # -- paragraph ids ---------------------------------------------------------------------

    def new_para_id(self, seed: str) -> str:
        """A fresh paragraph id: 8 hex digits, below 0x80000000, unused in the document."""
        return self.para_ids.new(seed)

    def new_paragraph(self, like: Any | None, seed: str, *, history: bool = False) -> Any:
        """An empty paragraph with a fresh id and, when ``like`` is given, a copy of its
        paragraph properties without its section break. The copy's mark is new: it carries no
        revision mark (inserted, deleted, moved). Other revision records (a property change,
        a formatting change of the mark, numbering changes) are dropped, so the new paragraph
        starts clean; with ``history`` (a part split off ``like``, which shares its past) they
        are kept with fresh ids, so rejecting them restores both parts alike."""
        from copy import deepcopy

        p = like.makeelement(W_P, {}) if like is not None else _element(W_P)
        para_id = self.new_para_id(seed)
        p.set(W14_PARAID, para_id)
        p.set(W14_TEXTID, para_id)
        ppr = paragraph_properties(like) if like is not None else None
        if ppr is not None:
            copy = deepcopy(ppr)
            for child in copy.findall(W_SECTPR):
                copy.remove(child)
            mark = copy.find(W_RPR)
            if mark is not None:
                for child in list(mark):
                    if child.tag in (W_INS, W_DEL, W_MOVEFROM, W_MOVETO):
                        mark.remove(child)
            if history:
                restamp_copies(copy, self.ids)
            else:
                strip_annotations(copy)
            if mark is not None and len(mark) == 0:
                copy.remove(mark)
            if len(copy):
                p.append(copy)
        return p

    def declare_w14(self) -> None:
        """New paragraphs carry w14 ids: make sure the main part declares (and ignores) w14."""
        from ..wml.edit import ensure_root_namespaces

        main = self.doc.main_part
        root = self.doc.package.xml(main)
        new_root = ensure_root_namespaces(root, ("w14",), ignorable=("w14",))
        if new_root is not root:
            self.doc.package.set_xml(main, new_root)


def _element(tag: str) -> Any:
    from lxml import etree

    return etree.Element(tag)


def block_json_target(block: Block, effect: str) -> dict[str, Any]:
    return {"type": "block", "story": "main", "blockId": block.id, "effect": effect}
