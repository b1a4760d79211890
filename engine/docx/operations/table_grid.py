"""The grid of a table, for the table operations: which grid columns every cell covers, which
cells a reader sees as one (vertical merges), and how to find the table around a block.

WordprocessingML lays a table out on a grid of columns (``w:tblGrid``). A row may leave grid
columns empty at its start and end (``w:gridBefore`` / ``w:gridAfter`` in ``w:trPr``), a cell
covers ``w:gridSpan`` columns, and a cell that continues the merged cell above it carries
``w:vMerge`` without ``restart``. ``Grid(tbl)`` turns that into coordinates (row index, first
grid column, span) and *regions*: a region is what a reader sees as one cell, its first cell
and the continuation cells below it (same first column and span). A continuation cell with
nothing to continue (no cell above at the same columns) is a region of its own, as Word shows
it.

Rows and cells are found through the wrappers they may sit in (content controls, custom XML,
revision wrappers) with the block walker's own ``children``. Rows marked hidden are part of the grid; their
paragraphs are not blocks, so no operation is anchored in them.

Nothing here changes the document.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..walk import _children as children
from ..wml.attrs import int_attr, is_on
from ..wml.ns import (
    W14_PARAID,
    W_BODY,
    W_DEL,
    W_GRIDBEFORE,
    W_GRIDSPAN,
    W_HIDDEN,
    W_INS,
    W_P,
    W_R,
    W_RPR,
    W_TBL,
    W_TC,
    W_TCPR,
    W_TR,
    W_TRPR,
    W_TXBXCONTENT,
    W_VAL,
    W_VMERGE,
    qn,
)
from .spec import STRUCTURE, Plan, Skip

W_GRIDAFTER = qn("w:gridAfter")
W_TBLGRID = qn("w:tblGrid")
W_GRIDCOL = qn("w:gridCol")
W_TBLHEADER = qn("w:tblHeader")
# Default width of a grid column whose width the table does not give (1 inch, in twips).
DEFAULT_COLUMN_WIDTH = 1440


class Cell:
    """One ``w:tc``: its row index, first grid column, span and vertical-merge state
    (``"restart"``, ``"continue"`` or None)."""

    __slots__ = ("merge", "row", "span", "start", "tc")

    def __init__(self, tc: Any, row: int, start: int, span: int, merge: str | None) -> None:
        self.tc = tc
        self.row = row
        self.start = start
        self.span = span
        self.merge = merge

    @property
    def end(self) -> int:
        return self.start + self.span

    def __repr__(self) -> str:
        return f"Cell(row={self.row}, start={self.start}, span={self.span}, merge={self.merge})"


class Row:
    """One ``w:tr``: its cells, the grid columns it leaves empty before and after them, whether
    it is hidden, and its tracked state (``"ins"``, ``"del"`` or None)."""

    __slots__ = ("after", "before", "cells", "hidden", "index", "tr", "tracked")

    def __init__(self, tr: Any, index: int) -> None:
        self.tr = tr
        self.index = index
        trpr = tr.find(W_TRPR)
        self.before = max(int_attr(trpr.find(W_GRIDBEFORE), W_VAL, 0) or 0, 0) if trpr is not None else 0
        self.after = max(int_attr(trpr.find(W_GRIDAFTER), W_VAL, 0) or 0, 0) if trpr is not None else 0
        self.hidden = trpr is not None and is_on(trpr.find(W_HIDDEN))
        self.tracked = None
        if trpr is not None:
            if trpr.find(W_INS) is not None:
                self.tracked = "ins"
            elif trpr.find(W_DEL) is not None:
                self.tracked = "del"
        self.cells: list[Cell] = []
        column = self.before
        for tc in children(tr, W_TC):
            tcpr = tc.find(W_TCPR)
            span, merge = 1, None
            if tcpr is not None:
                span = max(int_attr(tcpr.find(W_GRIDSPAN), W_VAL, 1) or 1, 1)
                vmerge = tcpr.find(W_VMERGE)
                if vmerge is not None:
                    merge = "restart" if vmerge.get(W_VAL) == "restart" else "continue"
            self.cells.append(Cell(tc, index, column, span, merge))
            column += span

    @property
    def end(self) -> int:
        """The grid column after the last cell."""
        return self.cells[-1].end if self.cells else self.before

    def cell_covering(self, column: int) -> Cell | None:
        for cell in self.cells:
            if cell.start <= column < cell.end:
                return cell
        return None

    def cell_starting(self, column: int) -> Cell | None:
        for cell in self.cells:
            if cell.start == column:
                return cell
        return None


class Region(NamedTuple):
    """What a reader sees as one cell: rows ``top``..``bottom`` (inclusive), grid columns
    ``start``..``end`` (exclusive); ``cells`` top to bottom, the first one holding the content."""

    cells: tuple[Cell, ...]
    top: int
    bottom: int
    start: int
    end: int

    @property
    def origin(self) -> Cell:
        return self.cells[0]

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    @property
    def width(self) -> int:
        return self.end - self.start


class Grid:
    """The rows, cells and regions of one ``w:tbl`` (see the module docstring)."""

    def __init__(self, tbl: Any) -> None:
        self.tbl = tbl
        self.rows = [Row(tr, index) for index, tr in enumerate(children(tbl, W_TR))]
        self.width = max([row.end + row.after for row in self.rows] + [len(self.grid_columns())], default=0)
        self.regions: list[Region] = []
        self._region_of: dict[Any, Region] = {}
        self._cell_of: dict[Any, Cell] = {}
        self._build_regions()

    def _build_regions(self) -> None:
        groups: list[list[Cell]] = []
        open_above: dict[tuple[int, int], int] = {}
        for row in self.rows:
            open_here: dict[tuple[int, int], int] = {}
            for cell in row.cells:
                self._cell_of[cell.tc] = cell
                key = (cell.start, cell.span)
                if cell.merge == "continue" and key in open_above:
                    number = open_above[key]
                    groups[number].append(cell)
                else:
                    number = len(groups)
                    groups.append([cell])
                open_here[key] = number
            open_above = open_here
        for group in groups:
            first = group[0]
            region = Region(tuple(group), first.row, group[-1].row, first.start, first.end)
            self.regions.append(region)
            for cell in group:
                self._region_of[cell.tc] = region

    # -- lookups -----------------------------------------------------------------------------

    def cell_of(self, tc: Any) -> Cell:
        return self._cell_of[tc]

    def region_of(self, tc: Any) -> Region:
        return self._region_of[tc]

    def has_cell(self, tc: Any) -> bool:
        return tc in self._cell_of

    def regions_in(self, top: int, bottom: int, start: int, end: int) -> list[Region]:
        """Every region that shares at least one grid position with the rectangle."""
        return [
            region
            for region in self.regions
            if region.top <= bottom and top <= region.bottom and region.start < end and start < region.end
        ]

    def continues_across(self, gap: int, start: int, span: int) -> bool:
        """A merged cell at grid columns ``start``..``start+span`` crosses the boundary between
        row ``gap - 1`` and row ``gap``."""
        if gap <= 0 or gap >= len(self.rows):
            return False
        above = self.rows[gap - 1].cell_starting(start)
        below = self.rows[gap].cell_starting(start)
        return (
            above is not None
            and below is not None
            and above.span == span
            and below.span == span
            and above.merge is not None
            and below.merge == "continue"
        )

    # -- the grid columns ----------------------------------------------------------------------

    def grid_element(self) -> Any | None:
        return self.tbl.find(W_TBLGRID)

    def grid_columns(self) -> list[Any]:
        grid = self.tbl.find(W_TBLGRID)
        return grid.findall(W_GRIDCOL) if grid is not None else []

    def column_widths(self) -> list[int]:
        """The width of every grid column in twips (a column the grid does not give gets the
        width of a cell that covers only it, else a default)."""
        widths: list[int | None] = [int_attr(col, qn("w:w")) for col in self.grid_columns()]
        widths += [None] * (self.width - len(widths))
        for row in self.rows:
            for cell in row.cells:
                if cell.span == 1 and cell.start < len(widths) and not widths[cell.start]:
                    widths[cell.start] = cell_width(cell.tc)
        return [w if w and w > 0 else DEFAULT_COLUMN_WIDTH for w in widths]

    def grid_matches(self) -> bool:
        """The table's ``w:tblGrid`` lists exactly one ``w:gridCol`` per grid column (only then
        do the operations keep it up to date; a table without one is left without)."""
        columns = self.grid_columns()
        return bool(columns) and len(columns) == self.width


def cell_width(tc: Any) -> int | None:
    """The cell's ``w:tcW`` in twips when given as such."""
    tcpr = tc.find(W_TCPR)
    width = tcpr.find(qn("w:tcW")) if tcpr is not None else None
    if width is None or width.get(qn("w:type"), "dxa") != "dxa":
        return None
    return int_attr(width, qn("w:w"))


def enclosing(element: Any, tag: str, stop: Any = None) -> Any | None:
    """The nearest ancestor of ``element`` with ``tag``, not looking past a text box, the body or
    ``stop``."""
    node = element.getparent()
    while node is not None and node is not stop:
        if node.tag == tag:
            return node
        if node.tag in (W_TXBXCONTENT, W_BODY):
            return None
        node = node.getparent()
    return None


class Spot(NamedTuple):
    """Where a block sits in its (nearest) table."""

    tbl: Any
    grid: Grid
    row: Row
    cell: Cell
    region: Region


def locate(block: Any) -> Spot:
    """The table, row, cell and region of ``block``'s paragraph; a block outside every table
    skips with unsupportedBlock."""
    tc = enclosing(block.element, W_TC)
    tr = enclosing(tc, W_TR) if tc is not None else None
    tbl = enclosing(tr, W_TBL) if tr is not None else None
    if tbl is None:
        raise Skip(
            "unsupportedBlock",
            what=(
                f"block {block.id} is not in a table, so there is no table to change; anchor the operation on a "
                "block inside a table cell (its `cell` in read_document)."
            ),
        )
    grid = Grid(tbl)
    if not grid.has_cell(tc):
        raise Skip(
            "unsupportedBlock", what=f"block {block.id} sits in a table cell deskcheck cannot place on the grid."
        )
    cell = grid.cell_of(tc)
    return Spot(tbl, grid, grid.rows[cell.row], cell, grid.region_of(tc))


def live_paragraph(ctx: Any, block: Any) -> Any | None:
    """The paragraph of ``block`` in the live tree at apply time. An operation rolled back
    earlier in the call puts back copies of what it touched, so an element read at resolve time
    may have left the tree; the copy is found by its paragraph id (every block's id is written
    into its paragraph before anything is applied)."""
    p = block.element
    body = ctx.doc.body
    if _attached(p, body):
        return p
    for candidate in body.iter(W_P):
        if candidate.get(W14_PARAID) == block.id:
            return candidate
    return None


def live_spot(ctx: Any, block: Any, tc: Any = None) -> Spot | None:
    """``locate`` at apply time, on the live tree: from the block's paragraph or, when another
    operation of the call removed it (a deleted or merged paragraph), from ``tc``, the cell it
    was in. None when the table is gone."""
    p = live_paragraph(ctx, block)
    cell = enclosing(p, W_TC) if p is not None else None
    if cell is None and tc is not None and _attached(tc, ctx.doc.body):
        cell = tc
    tr = enclosing(cell, W_TR) if cell is not None else None
    tbl = enclosing(tr, W_TBL) if tr is not None else None
    if tbl is None:
        return None
    grid = Grid(tbl)
    if not grid.has_cell(cell):
        return None
    found = grid.cell_of(cell)
    return Spot(tbl, grid, grid.rows[found.row], found, grid.region_of(cell))


def _attached(element: Any, body: Any) -> bool:
    node = element
    while node is not None and node is not body:
        node = node.getparent()
    return node is body


def cell_is_empty(tc: Any) -> bool:
    """The cell shows nothing: only paragraphs without content (no text, picture, field, ...)."""
    for child in tc:
        if child.tag == W_TCPR:
            continue
        if child.tag != W_P:
            return False
        for run in child.iter(W_R):
            if any(grand.tag != W_RPR for grand in run):
                return False
    return True


def paragraphs(element: Any) -> list[Any]:
    """Every paragraph inside ``element`` (nested tables and text boxes included)."""
    return list(element.iter(W_P))


def first_block_index(ctx: Any, element: Any) -> int:
    """The index of the first block inside ``element`` (for the apply order)."""
    inside = set(element.iter(W_P))
    for block in ctx.doc.blocks:
        if block.element in inside:
            return block.index
    return 0


def block_ids_in(ctx: Any, element: Any) -> list[str]:
    """The ids of the blocks inside ``element``, in document order."""
    inside = set(element.iter(W_P))
    return [block.id for block in ctx.doc.blocks if block.element in inside]


def structure_plan(ctx: Any, op: Any, block: Any, spot: Spot, rank: int, claims: list, **data: Any) -> Plan:
    """The plan of an operation that changes the shape of ``spot``'s table. It applies after
    every other edit inside the table (the table's first block, then ``STRUCTURE``, then
    ``rank``: rows -1, columns -2, merges and splits -3, the whole table -4), backs up the whole
    table and remembers the anchor's cell (see ``spot_or_skip``)."""
    order = (first_block_index(ctx, spot.tbl), STRUCTURE, rank)
    return Plan(op, order, claims, block=block, tc=spot.cell.tc, touches=[spot.tbl], **data)


def spot_or_skip(ctx: Any, plan: Plan) -> Spot:
    """``live_spot`` for a plan made by ``structure_plan``, skipping with invalidResult when the
    table is gone."""
    spot = live_spot(ctx, plan.data["block"], plan.data.get("tc"))
    if spot is None:
        raise Skip("invalidResult", what="the anchor's table was removed by another operation of this call")
    return spot
