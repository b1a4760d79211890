"""Paragraph streams for comparing our reading of a document with LibreOffice's.

LibreOffice lists a document's paragraphs differently from our block model in a few known ways;
``paragraph_stream`` renders our model the way LibreOffice lays the same content out, and
``normalise`` removes what only differs in presentation. The normalisation, documented:

1. Characters that are layout, not text, are removed from both sides: tabs, line and carriage
   breaks, vertical tabs, zero-width spaces, U+FFFC object anchors and private-use symbol-font
   glyphs. Whitespace at both ends of a paragraph is trimmed.
2. List labels are not compared (LibreOffice's paragraph text has none, and ours has none either;
   labels are checked separately in test_numbering).
3. Footnote and endnote reference marks are rendered the way LibreOffice shows them (1, 2, ... and
   i, ii, ...) because LibreOffice puts them into the paragraph text.
4. Paragraphs LibreOffice does not list in the body are left out: text boxes and floating tables
   (frames in LibreOffice), and an empty paragraph that only carries a section break (LibreOffice
   turns it into a page style) unless it follows a table.
5. A drop-cap paragraph is joined to the paragraph it belongs to, as LibreOffice shows it.
6. Views: for "accept", a paragraph whose mark is deleted joins the next paragraph and rows deleted
   as a whole disappear; for "reject", the same with inserted marks and rows.
7. Empty grid space at the start or end of a table row (``w:gridBefore`` / ``w:gridAfter``) is
   shown by LibreOffice as one empty cell per grid column: so it is listed here, one empty
   paragraph each.
8. A body without any paragraph is listed as one empty paragraph: a LibreOffice text always has
   one.
"""

from __future__ import annotations

import re

from deskcheck.engine.docx.model.blocks import paragraph_mark
from deskcheck.engine.docx.model.numfmt import roman
from deskcheck.engine.docx.model.scan import DEL, DROP_ACCEPTED, DROP_ORIGINAL, INS, MARK, MOVE_FROM, MOVE_TO
from deskcheck.engine.docx.model.walk import next_block_sibling
from deskcheck.engine.docx.wml.attrs import int_attr
from deskcheck.engine.docx.wml.ns import W_PPR, qn

_FOOTNOTE = qn("w:footnoteReference")
_ENDNOTE = qn("w:endnoteReference")
_CUSTOM_MARK = qn("w:customMarkFollows")
_TR = qn("w:tr")
_TRPR = qn("w:trPr")
_GRID_BEFORE = qn("w:gridBefore")
_GRID_AFTER = qn("w:gridAfter")
_LAYOUT = re.compile("[\t\n\r\x0b\u200b\ufffc\ue000-\uf8ff]")


def normalise(text: str) -> str:
    return _LAYOUT.sub("", text).strip()


def _in_floating_table(element) -> bool:
    return any(
        ancestor.tag == qn("w:tbl") and ancestor.find(f"{qn('w:tblPr')}/{qn('w:tblpPr')}") is not None
        for ancestor in element.iterancestors()
    )


def paragraph_stream(doc, view: str) -> list[str]:
    """Our paragraphs of ``doc`` in ``view`` ("accept" or "reject"), laid out as LibreOffice
    lists them (see the module docstring)."""
    drop = DROP_ACCEPTED if view == "accept" else DROP_ORIGINAL
    gone = (DEL | MOVE_FROM) if view == "accept" else (INS | MOVE_TO)
    out: list[str] = []
    pending: str | None = None
    notes = {"footnote": 0, "endnote": 0}
    rows = _OpenRows(out)
    for walked in doc.walk_main(markers=True):
        if walked.in_text_box or (walked.cell is not None and _in_floating_table(walked.element)):
            continue
        if walked.row_flags & gone:
            continue
        rows.enter(walked.element)
        parts = []
        for text, flags, element in walked.pieces:
            if flags & MARK:
                if flags & gone or element.get(_CUSTOM_MARK) is not None:
                    continue
                if element.tag == _FOOTNOTE:
                    notes["footnote"] += 1
                    parts.append(str(notes["footnote"]))
                elif element.tag == _ENDNOTE:
                    notes["endnote"] += 1
                    parts.append(roman(notes["endnote"]))
                continue
            if not flags & drop:
                parts.append(text)
        text = "".join(parts)
        p = walked.element
        if pending is not None:
            text, pending = pending + text, None
        ppr = p[0] if len(p) and p[0].tag == W_PPR else None
        frame = ppr.find(qn("w:framePr")) if ppr is not None else None
        joins = bool(paragraph_mark(p) & gone) or (
            frame is not None and frame.get(qn("w:dropCap")) in ("drop", "margin")
        )
        following = next_block_sibling(p)
        if joins and following is not None and following.tag == p.tag:
            pending = text
            continue
        if ppr is not None and ppr.find(qn("w:sectPr")) is not None and not text:
            previous = p.getprevious()
            if previous is None or previous.tag != qn("w:tbl"):
                continue
        out.append(text)
    if pending is not None:
        out.append(pending)
    rows.enter(None)
    return out or [""]


class _OpenRows:
    """The table rows around the paragraph being listed, outermost first: entering a row with
    empty grid space before its cells, or leaving one with space after them, lists the empty cell
    LibreOffice shows there."""

    def __init__(self, out: list[str]) -> None:
        self.out = out
        self.open: list = []

    def enter(self, p) -> None:
        chain = [] if p is None else list(reversed(list(p.iterancestors(_TR))))
        common = 0
        while common < min(len(chain), len(self.open)) and chain[common] is self.open[common]:
            common += 1
        for tr in reversed(self.open[common:]):
            self.out.extend([""] * _grid_space(tr, _GRID_AFTER))
        for tr in chain[common:]:
            self.out.extend([""] * _grid_space(tr, _GRID_BEFORE))
        self.open = chain


def _grid_space(tr, tag: str) -> int:
    """How many grid columns ``tr`` leaves empty before (after) its cells."""
    trpr = tr.find(_TRPR)
    return max(int_attr(trpr.find(tag) if trpr is not None else None, qn("w:val"), 0) or 0, 0)
