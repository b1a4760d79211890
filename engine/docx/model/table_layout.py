"""The grid of a table: which grid columns every cell covers, and which cells a reader sees as
one (vertical merges). Used by the table operations and by accepting or rejecting cell revisions.

WordprocessingML lays a table out on a grid of columns (``w:tblGrid``). A row may leave grid
columns empty at its start and end (``w:gridBefore`` / ``w:gridAfter`` in ``w:trPr``), a cell
covers ``w:gridSpan`` columns, and a cell that continues the merged cell above it carries
``w:vMerge`` without ``restart``. ``Grid(tbl)`` turns that into coordinates (row index, first
grid column, span) and *regions*: a region is what a reader sees as one cell, its first cell
and the continuation cells below it (same first column and span). A continuation cell with
nothing to continue (no cell above at the same columns) is a region of its own, as Word shows
it.

Rows and cells are found through the wrappers they may sit in (content controls, custom XML,
revision wrappers) with the block walker's own ``children``. Rows marked hidden are part of the
grid. Nothing here changes the document.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..wml.attrs import int_attr, is_on
from ..wml.ns import W_DEL, W_GRIDBEFORE, W_GRIDSPAN, W_HIDDEN, W_INS, W_TC, W_TCPR, W_TR, W_TRPR, W_VAL, W_VMERGE, qn
from .walk import table_children as children

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
