"""Walking a story (the body, a header, a note, a text box) in document order.

``walk_story`` yields every paragraph of a container: body paragraphs, paragraphs of table
cells at any depth (row by row, cell by cell), paragraphs of content controls and custom XML, and
the paragraphs of text boxes, which follow the paragraph that anchors them. Each walked paragraph
carries its scanned pieces (see ``scan``), its cell coordinates when it sits in a table (the
table's index in document order, counting nested tables; the row index; the grid column, which
counts ``w:gridBefore`` and the spans of earlier cells), and the tracked state of its row or
cell (``row_flags``): ``scan.DEL`` when its row (``w:trPr/w:del``) or cell (``w:cellDel``) is
deleted, ``scan.INS`` when inserted (``w:trPr/w:ins``, ``w:cellIns``), including the rows and
cells around the table it sits in: accepting the deletion of a row takes the tables nested in it
along.

Cells that continue a vertical merge (``w:vMerge`` without ``restart``) are skipped: Word shows
the merged cell's content from its first cell only.

Rows marked hidden (``w:trPr/w:hidden``) are walked but flagged: the block model leaves their
paragraphs out, a guard against text a human reviewer cannot see.

With a ``display`` in the scan context, the walk reads what Word shows where the stored markup
says something else: a ``w:altChunk``'s imported content stands where the element stands (its
paragraphs carry ``origin``: the format and part), or, when it cannot be read, an entry in the
context's ``unread`` list (with the number of paragraphs walked before it); a block-level content
control bound to the data store shows the value (its first paragraph holds it, any other is
blank) or, for a rich-text value, that value's paragraphs, its paragraphs flagged ``bound``.
Inside a control whose content the value replaces, nothing else is read (chunks and bindings in
it included): Word shows the value alone.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..wml.attrs import int_attr, is_on
from ..wml.ns import (
    MC_ALTERNATECONTENT,
    W_ALTCHUNK,
    W_CUSTOMXML,
    W_DEL,
    W_GRIDBEFORE,
    W_GRIDSPAN,
    W_HIDDEN,
    W_INS,
    W_P,
    W_PPR,
    W_PSTYLE,
    W_SDT,
    W_SDTCONTENT,
    W_SECTPR,
    W_TBL,
    W_TC,
    W_TCPR,
    W_TR,
    W_TRPR,
    W_VAL,
    W_VMERGE,
    qn,
)
from ..wml.text import choose_alternate
from .bindings import Bound, data_binding
from .scan import (
    DEL,
    HIDDEN,
    INS,
    ScanContext,
    bound_value_hidden,
    marker_flags,
    scan_paragraph,
    shows_placeholder,
    value_lines,
)

_BLOCK_WRAPPERS = frozenset({W_CUSTOMXML, W_INS, W_DEL})
_CELL_FLAGS = {qn("w:cellDel"): DEL, qn("w:cellIns"): INS}


class WalkedParagraph(NamedTuple):
    element: Any
    pieces: list
    cell: tuple[int, int, int] | None
    in_text_box: bool
    hidden_row: bool
    row: Any | None
    row_flags: int
    # Inside a block-level content control that shows its placeholder (see scan.shows_placeholder).
    placeholder: bool = False
    # scan.BOUND or scan.BOUND_CACHED: the paragraph shows a data-bound control's content.
    bound: int = 0
    # Where the paragraph is imported from (a w:altChunk), None for the document's own.
    origin: Origin | None = None


class Origin(NamedTuple):
    """An imported paragraph's source: the chunk's format and part, and ``seed``, which names the
    paragraph among every imported one (the part, which reference to it, the paragraph's place
    in it), so its minted id does not move when paragraphs come or go elsewhere."""

    format: str
    part: str | None
    seed: str


class _Walker:
    def __init__(self, ctx: ScanContext) -> None:
        self.ctx = ctx
        self.out: list[WalkedParagraph] = []
        self.tables = 0
        self.hidden_by_style: dict[str | None, bool] = {}
        self.placeholders = 0  # how many placeholder-showing controls enclose the current block
        self.display = ctx.display
        self.bound = 0  # the flag of the bound control around the current block
        self.value: list[str] | None = None  # a bound value replacing the content: [not yet shown]
        self.origin: Origin | None = None
        self.origin_start = 0
        self.references: dict[str | None, int] = {}  # chunk references walked, by part

    def container(self, parent: Any, cell, in_box: bool, hidden: bool, row: Any, row_flags: int) -> None:
        for child in parent:
            tag = child.tag
            if tag == W_P:
                self.paragraph(child, cell, in_box, hidden, row, row_flags)
            elif tag == W_TBL:
                self.table(child, in_box, hidden, row_flags)
            elif tag == W_SDT:
                bound = self.display.binding(child) if self.display is not None and self.value is None else None
                self.unread_binding(child, bound)
                content = child.find(W_SDTCONTENT)
                outer = self.bound
                if bound is not None:
                    self.bound = bound.flag
                if bound is not None and bound.paragraphs is not None:
                    self.container(self.display.bound_elements(child, bound), cell, in_box, hidden, row, row_flags)
                elif bound is not None and bound.text is not None:
                    if content is not None:
                        self.value = [bound.text]
                        self.container(content, cell, in_box, hidden, row, row_flags)
                        self.value = None
                elif content is not None:
                    showing = shows_placeholder(child)
                    self.placeholders += showing
                    self.container(content, cell, in_box, hidden, row, row_flags)
                    self.placeholders -= showing
                self.bound = outer
            elif tag == W_ALTCHUNK:
                if self.display is not None and self.value is None:
                    self.chunk(child, cell, in_box, hidden, row, row_flags)
            elif tag in _BLOCK_WRAPPERS:
                self.container(child, cell, in_box, hidden, row, row_flags)
            elif tag == MC_ALTERNATECONTENT:
                branch = choose_alternate(child)
                if branch is not None:
                    self.container(branch, cell, in_box, hidden, row, row_flags)

    def paragraph(self, p: Any, cell, in_box: bool, hidden: bool, row: Any, row_flags: int) -> None:
        style_id = None
        if len(p):
            first = p[0]
            if first.tag == W_PPR:
                style = first.find(W_PSTYLE)
                if style is not None:
                    style_id = style.get(W_VAL)
        style_hidden = self.hidden_by_style.get(style_id)
        if style_hidden is None:
            styles = self.ctx.styles
            effective = style_id or styles.default_paragraph
            flag = styles.paragraph(effective).hidden if effective else None
            style_hidden = self.hidden_by_style[style_id] = flag if flag is not None else styles.default_hidden
        if self.value is not None:
            # A bound control's value replaces its content: the first paragraph shows it.
            text = "".join(value_lines(self.value[0]))
            self.value[0] = ""
            flags = self.bound | (HIDDEN if bound_value_hidden(p, self.ctx.styles, style_hidden) else 0)
            pieces, boxes = ([(text, flags, None)] if text else []), []
        else:
            pieces, boxes = scan_paragraph(p, self.ctx, style_hidden)
        origin = self.origin
        if origin is not None:
            origin = origin._replace(seed=f"{origin.seed}:{len(self.out) - self.origin_start}")
        self.out.append(
            WalkedParagraph(p, pieces, cell, in_box, hidden, row, row_flags, self.placeholders > 0, self.bound, origin)
        )
        for box in boxes:
            self.container(box, None, True, hidden, None, 0)

    def chunk(self, element: Any, cell, in_box: bool, hidden: bool, row: Any, row_flags: int) -> None:
        view = self.display.chunk(self.ctx.part, element)
        position = len(self.out)
        self.ctx.unread.extend(entry._replace(position=position) for entry in view.unread)
        if view.elements is not None:
            part = view.chunk.part
            reference = self.references.get(part, 0)
            self.references[part] = reference + 1
            outer = self.origin, self.origin_start
            self.origin, self.origin_start = Origin(view.chunk.format, part, f"{part}#{reference}"), len(self.out)
            self.container(view.elements, cell, in_box, hidden, row, row_flags)
            self.origin, self.origin_start = outer

    def table(self, tbl: Any, in_box: bool, hidden: bool, outer_flags: int) -> None:
        index = self.tables
        self.tables += 1
        for row_index, tr in enumerate(table_children(tbl, W_TR)):
            trpr = tr.find(W_TRPR)
            row_hidden = hidden
            row_flags = outer_flags
            if trpr is not None:
                row_hidden = hidden or is_on(trpr.find(W_HIDDEN))
                if trpr.find(W_INS) is not None:
                    row_flags |= INS
                if trpr.find(W_DEL) is not None:
                    row_flags |= DEL
            column = grid_before(trpr)
            for tc, control in cells_of(tr):
                span, continued = cell_span(tc)
                if not continued:
                    # A cell continuing a vertical merge shows nothing of its own: Word draws the
                    # merged cell from the first one.
                    flags = row_flags | cell_revision(tc)
                    if control is None:
                        self.container(tc, (index, row_index, column), in_box, row_hidden, tr, flags)
                    else:
                        self.bound_cell(tc, control, (index, row_index, column), in_box, row_hidden, tr, flags)
                column += span

    def unread_binding(self, sdt: Any, bound: Bound | None) -> None:
        unread = self.display.binding_unread(sdt, bound) if self.display is not None else None
        if unread is not None:
            self.ctx.unread.append(unread)

    def bound_cell(self, tc: Any, control: Any, cell, in_box: bool, hidden: bool, row: Any, row_flags: int) -> None:
        """A cell inside a data-bound control (Word binds a document property to a whole cell
        this way): the value stands in the cell's first paragraph."""
        bound = None
        if self.display is not None and self.value is None:
            bound = self.display.binding(control)
            self.unread_binding(control, bound)
        outer = self.bound, self.value
        if bound is not None:
            self.bound = bound.flag
            if bound.text is not None:
                self.value = [bound.text]
        self.container(tc, cell, in_box, hidden, row, row_flags)
        self.bound, self.value = outer


def table_children(parent: Any, tag: str):
    """The ``tag`` children of a table or row, looking through content controls and custom XML
    wrapped around rows or cells."""
    for child in parent:
        child_tag = child.tag
        if child_tag == tag:
            yield child
        elif child_tag == W_SDT:
            content = child.find(W_SDTCONTENT)
            if content is not None:
                yield from table_children(content, tag)
        elif child_tag in _BLOCK_WRAPPERS:
            yield from table_children(child, tag)


def cells_of(row: Any, control: Any | None = None):
    """(cell, control) for each ``w:tc`` of a row, looking through content controls and custom
    XML around cells; ``control`` is the nearest data-bound content control around the cell."""
    for child in row:
        tag = child.tag
        if tag == W_TC:
            yield child, control
        elif tag == W_SDT:
            content = child.find(W_SDTCONTENT)
            if content is not None:
                yield from cells_of(content, child if data_binding(child) is not None else control)
        elif tag in _BLOCK_WRAPPERS:
            yield from cells_of(child, control)


# What sits side by side in a container, besides the markers between blocks.
BLOCK_LEVEL = frozenset({W_P, W_TBL, W_SECTPR, W_SDT, W_CUSTOMXML, qn("w:altChunk")})


def next_block_sibling(element: Any) -> Any | None:
    """The next paragraph, table or other block after ``element``, skipping the markers that sit
    between blocks (bookmarks, comment ranges, permission ranges, proofing marks)."""
    node = element.getnext()
    while node is not None and node.tag not in BLOCK_LEVEL:
        node = node.getnext()
    return node


def grid_before(trpr: Any | None) -> int:
    """The grid column a row's first cell starts at: the row's ``w:gridBefore`` (0 without one)."""
    return int_attr(trpr.find(W_GRIDBEFORE), W_VAL, 0) or 0 if trpr is not None else 0


def cell_revision(tc: Any) -> int:
    """``scan.DEL`` for a cell marked deleted (``w:tcPr/w:cellDel``), ``scan.INS`` for one marked
    inserted (``w:cellIns``), else 0."""
    return marker_flags(tc.find(W_TCPR), _CELL_FLAGS)


def cell_span(tc: Any) -> tuple[int, bool]:
    """How many grid columns a ``w:tc`` covers (its ``w:gridSpan``, at least 1) and whether it
    continues a vertical merge (``w:vMerge`` without ``restart``)."""
    tcpr = tc.find(W_TCPR)
    if tcpr is None:
        return 1, False
    span = int_attr(tcpr.find(W_GRIDSPAN), W_VAL, 1) or 1
    merge = tcpr.find(W_VMERGE)
    return max(span, 1), merge is not None and merge.get(W_VAL, "continue") == "continue"


def walk_story(container: Any, ctx: ScanContext) -> list[WalkedParagraph]:
    """Every paragraph of ``container`` (a ``w:body``, ``w:hdr``, ``w:footnote``, ...) in order."""
    walker = _Walker(ctx)
    walker.container(container, None, False, False, None, 0)
    if any(entry.inside for entry in ctx.unread):
        # Found by the scan inside a paragraph (a subdocument link): its place is that paragraph.
        number = {id(walked.element): index for index, walked in enumerate(walker.out, start=1)}
        ctx.unread[:] = [
            entry._replace(position=number.get(id(entry.paragraph), 0)) if entry.inside else entry
            for entry in ctx.unread
        ]
    return walker.out
