"""The block model: what a reader sees and what edits target.

A block is one paragraph of the main story, in document order (see ``walk``): body paragraphs,
table-cell paragraphs at any depth, text-box paragraphs, paragraphs inside content controls.
A blank paragraph is a block like any other. Paragraphs of hidden table rows are not blocks.

Each block has:

- ``id``: the paragraph's ``w14:paraId`` when it has one not already used earlier in the
  document; otherwise an id minted from the paragraph's raw text (deleted text included) and
  its 1-based position among all paragraphs, ``deterministic_hex_id(f"{raw}:{ordinal}")``, salted
  (``:1``, ``:2``, ...) while it equals a stored id (of any paragraph) or an id minted before it.
  Reading the same bytes twice gives the same ids; minted ids are written into the file on the
  next save (``DocxDocument.stamp_minted_ids``).
- ``text``: the as-accepted text (see ``scan``); ``original_text``: the reject-all text.
- ``kind``: ``heading`` when the paragraph has a heading level (numbered or not: a numbered
  heading's number is its ``display_label``), else ``listItem`` when it is numbered or shows a
  list marker, else ``paragraph``.
- ``heading_level``: 1-9 from the paragraph's outline level, its style's (through ``basedOn``),
  a style id ``HeadingN`` or a built-in style name ``heading N``.
- ``display_label``: the list marker Word would draw (see ``numbering``), trimmed; None when it
  draws none (an unnumbered heading has no label: its style is in ``style_id``).
- ``num_id`` / ``ilvl``: the numbering instance (``w:numId``, from the paragraph or its style) and
  level of a list paragraph, None for a paragraph in no list (numId 0, or an instance
  numbering.xml does not define).
- ``style_id``; ``cell``: ``(table, row, column)`` for a table-cell paragraph; ``in_text_box``.
- ``mark``: the tracked state of the paragraph mark (``scan.INS``/``DEL``/... or 0);
  ``row_flags``: the tracked state of its table row or cell (see ``walk``). A paragraph whose
  row or cell is deleted reads as blank: accepting leaves nothing of it.
- ``pending_deletion``: accepting every change removes the paragraph; ``joins_next``: accepting
  runs its text into the next block (its mark is deleted, the text stays).
- ``placeholders``: (start, end) code-point offsets of the text that is an empty content
  control's placeholder ("Choose an item."), shown like text but not content (see
  ``scan.shows_placeholder``).
- ``bound``: (start, end, flag) code-point offsets of the text a data-bound content control
  shows (``scan.BOUND``: the data store's value; ``scan.BOUND_CACHED``: its stored text, the
  binding finding nothing); ``bound_block``: the flag when the whole paragraph is such content.
- ``imported``: ``{"format", "part"}`` of the ``w:altChunk`` the paragraph is read from (its
  ``element`` is then not in the document's tree: nothing can edit it).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..wml.attrs import int_attr
from ..wml.ns import (
    W14_PARAID,
    W_DEL,
    W_ILVL,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_NUMID,
    W_NUMPR,
    W_OUTLINELVL,
    W_P,
    W_PPR,
    W_PSTYLE,
    W_RPR,
    W_SECTPR,
    W_VAL,
)
from .hashing import block_text_hash, deterministic_hex_id, deterministic_hex_ids
from .numbering import Numbering
from .scan import (
    BOUND,
    BOUND_CACHED,
    DEL,
    DROP_ACCEPTED,
    DROP_ORIGINAL,
    INS,
    MARK,
    MOVE_FROM,
    MOVE_TO,
    PLACEHOLDER,
    marker_flags,
)
from .styles import Styles, heading_level_from_style_id
from .walk import WalkedParagraph, next_block_sibling

_MARK_FLAGS = {W_INS: INS, W_DEL: DEL, W_MOVEFROM: MOVE_FROM, W_MOVETO: MOVE_TO}


class Block:
    """One block (see the module docstring). A plain class with slots: documents have tens of
    thousands of these, and a dataclass would cost import time on every call."""

    __slots__ = (
        "_hash", "bound", "bound_block", "cell", "display_label", "element", "heading_level", "id", "ilvl",
        "imported", "in_text_box", "index", "kind", "mark", "num_id", "original_text", "placeholders", "row_flags",
        "style_id", "text",
    )  # fmt: skip

    def __init__(
        self,
        *,
        id: str,
        index: int,
        element: Any,
        text: str,
        original_text: str,
        kind: str,
        heading_level: int | None,
        display_label: str | None,
        style_id: str | None,
        cell: tuple[int, int, int] | None,
        in_text_box: bool,
        mark: int,
        row_flags: int,
        num_id: str | None,
        ilvl: int | None,
        placeholders: tuple[tuple[int, int], ...] = (),
        bound: tuple[tuple[int, int, int], ...] = (),
        bound_block: int = 0,
        imported: dict | None = None,
    ) -> None:
        self.id = id
        self.index = index
        self.element = element
        self.text = text
        self.original_text = original_text
        self.kind = kind
        self.heading_level = heading_level
        self.display_label = display_label
        self.style_id = style_id
        self.cell = cell
        self.in_text_box = in_text_box
        self.mark = mark
        self.row_flags = row_flags
        self.num_id = num_id
        self.ilvl = ilvl
        self.placeholders = placeholders
        self.bound = bound
        self.bound_block = bound_block
        self.imported = imported
        self._hash: str | None = None

    def __repr__(self) -> str:
        return f"Block({self.id!r}, {self.kind}, {self.text[:40]!r})"

    @property
    def hash(self) -> str:
        """``blockTextHash``: the hash of the whitespace-normalised as-accepted text."""
        if self._hash is None:
            self._hash = block_text_hash(self.text)
        return self._hash

    @property
    def pending_deletion(self) -> bool:
        """The paragraph disappears on accept-all: its mark is deleted and no text of it
        survives, or its table row or cell is deleted."""
        return bool((self.mark & (DEL | MOVE_FROM)) or (self.row_flags & DEL)) and not self.text

    @property
    def joins_next(self) -> bool:
        """Accepting every change runs this paragraph into the next block: its mark is deleted
        (or moved away), it carries no section break and a paragraph follows it in the same
        place. (A paragraph whose row or cell is deleted goes whole instead.)"""
        if not self.mark & (DEL | MOVE_FROM) or self.row_flags & DEL:
            return False
        ppr = self.element[0] if len(self.element) and self.element[0].tag == W_PPR else None
        if ppr is not None and ppr.find(W_SECTPR) is not None:
            return False
        following = next_block_sibling(self.element)
        return following is not None and following.tag == W_P


class ParagraphIds(NamedTuple):
    """Ids of every walked paragraph, and which of them were minted (to write on save)."""

    ids: list[str]
    minted: dict[Any, str]


def assign_ids(paragraphs: list[WalkedParagraph]) -> ParagraphIds:
    existing = [walked.element.get(W14_PARAID) for walked in paragraphs]
    # A minted id must differ from every stored id, a later paragraph's included (a file we
    # stamped before, or a copy of paragraphs from another file, can hold one that equals it).
    taken = {para_id for para_id in existing if para_id}
    # Seeds of every paragraph that needs a minted id (no stored id, or one an earlier paragraph
    # already has), hashed in one batch.
    seen: set[str] = set()
    needs: dict[int, str] = {}
    for ordinal, (walked, para_id) in enumerate(zip(paragraphs, existing, strict=True), start=1):
        if para_id and para_id not in seen:
            seen.add(para_id)
            continue
        raw = "".join([text for text, flags, _ in walked.pieces if not flags & MARK])
        # An imported paragraph cannot be stamped with its id: its seed keeps the id still.
        needs[ordinal] = f"{raw}:{walked.origin.seed}" if walked.origin is not None else f"{raw}:{ordinal}"
    base_ids = dict(zip(needs, deterministic_hex_ids(list(needs.values())), strict=True))
    ids: list[str] = []
    minted: dict[Any, str] = {}
    for ordinal, (walked, para_id) in enumerate(zip(paragraphs, existing, strict=True), start=1):
        seed = needs.get(ordinal)
        if seed is None:
            ids.append(para_id)
            continue
        new_id = base_ids[ordinal]
        salt = 0
        while new_id in taken:
            salt += 1
            new_id = deterministic_hex_id(f"{seed}:{salt}")
        taken.add(new_id)
        ids.append(new_id)
        minted[walked.element] = new_id
    return ParagraphIds(ids, minted)


def paragraph_mark(p: Any) -> int:
    """The tracked state of a paragraph's mark (``w:pPr/w:rPr/w:ins|del|moveFrom|moveTo``)."""
    if len(p) == 0 or p[0].tag != W_PPR:
        return 0
    return marker_flags(p[0].find(W_RPR), _MARK_FLAGS)


def build_blocks(
    paragraphs: list[WalkedParagraph], ids: list[str], styles: Styles, numbering: Numbering
) -> list[Block]:
    blocks: list[Block] = []
    for walked, block_id in zip(paragraphs, ids, strict=True):
        p = walked.element
        pieces = walked.pieces
        flagged = any(flags for _, flags, _ in pieces)
        if flagged:
            text = "".join([t for t, flags, _ in pieces if not flags & DROP_ACCEPTED])
            original = "".join([t for t, flags, _ in pieces if not flags & DROP_ORIGINAL])
        else:
            text = original = "".join([t for t, _, _ in pieces])
        if walked.row_flags & DEL:
            # Its table row or cell is deleted: once accepted, none of it is left.
            text = ""
        if walked.placeholder:
            placeholders = ((0, len(text)),) if text else ()
        else:
            placeholders = placeholder_spans(pieces) if flagged and text else ()
        if walked.bound:
            bound = ((0, len(text), walked.bound),) if text else ()
        else:
            bound = flagged_spans(pieces, BOUND | BOUND_CACHED) if flagged and text else ()
        ppr = p[0] if len(p) and p[0].tag == W_PPR else None
        style_id = num_id = None
        ilvl = outline = None
        has_outline = False
        mark = 0
        if ppr is not None:
            for child in ppr:
                tag = child.tag
                if tag == W_PSTYLE:
                    style_id = child.get(W_VAL) or None
                elif tag == W_NUMPR:
                    for prop in child:
                        if prop.tag == W_NUMID:
                            num_id = prop.get(W_VAL)
                        elif prop.tag == W_ILVL:
                            ilvl = int_attr(prop, W_VAL, 0)
                elif tag == W_OUTLINELVL:
                    has_outline = True
                    outline = int_attr(child, W_VAL)
                elif tag == W_RPR:
                    mark = marker_flags(child, _MARK_FLAGS)
        effective_style = style_id or styles.default_paragraph
        pstyle = styles.paragraph(effective_style) if effective_style else None
        if num_id is None and pstyle is not None:
            num_id = pstyle.num_id
        if num_id == "0" or (num_id is not None and not numbering.has_instance(num_id)):
            # numId 0 switches numbering off; an instance numbering.xml lacks numbers nothing.
            num_id = None
        if num_id is not None and ilvl is None:
            if pstyle is not None and pstyle.ilvl is not None:
                ilvl = pstyle.ilvl
            elif effective_style:
                ilvl = numbering.level_for_style(num_id, effective_style)
            ilvl = ilvl or 0
        # Heading level: the paragraph's own outline level, its style's, then the style's name.
        heading = None
        if has_outline:
            heading = outline + 1 if outline is not None and 0 <= outline <= 8 else None
        elif pstyle is not None and pstyle.outline_level is not None:
            heading = pstyle.outline_level + 1
        else:
            heading = heading_level_from_style_id(style_id) or (pstyle.name_heading_level if pstyle else None)
        if walked.hidden_row:
            continue
        label = None
        vanishes = (mark & (DEL | MOVE_FROM) or walked.row_flags & DEL) and not text
        if num_id is not None and not vanishes:
            label = numbering.next_label(num_id, ilvl or 0)
        label = label.strip() if label else None
        # A list level may draw nothing (format "none", empty level text): still a list paragraph.
        numbered = num_id is not None
        # A heading level wins over numbering: a numbered heading is a heading whose number is
        # its label (how a reader finds "clause 2").
        kind = "heading" if heading else ("listItem" if numbered else "paragraph")
        blocks.append(
            Block(
                id=block_id,
                index=len(blocks),
                element=p,
                text=text,
                original_text=original,
                kind=kind,
                heading_level=heading,
                display_label=label,
                style_id=style_id,
                cell=walked.cell,
                in_text_box=walked.in_text_box,
                mark=mark,
                row_flags=walked.row_flags,
                num_id=num_id,
                ilvl=ilvl if num_id is not None else None,
                placeholders=placeholders,
                bound=bound,
                bound_block=walked.bound,
                imported={"format": walked.origin.format, "part": walked.origin.part} if walked.origin else None,
            )
        )
    return blocks


def placeholder_spans(pieces: list) -> tuple[tuple[int, int], ...]:
    """Where the as-accepted text of ``pieces`` shows a content control's placeholder, as
    (start, end) code-point offsets."""
    return tuple((start, end) for start, end, _ in flagged_spans(pieces, PLACEHOLDER))


def flagged_spans(pieces: list, mask: int) -> tuple[tuple[int, int, int], ...]:
    """Where the as-accepted text of ``pieces`` has any of the flags of ``mask``, as (start,
    end, flags) code-point offsets, neighbours with the same flags merged."""
    spans: list[tuple[int, int, int]] = []
    position = 0
    for text, flags, _ in pieces:
        if flags & DROP_ACCEPTED:
            continue
        end = position + len(text)
        wanted = flags & mask
        if wanted and text:
            if spans and spans[-1][1] == position and spans[-1][2] == wanted:
                spans[-1] = (spans[-1][0], end, wanted)
            else:
                spans.append((position, end, wanted))
        position = end
    return tuple(spans)
