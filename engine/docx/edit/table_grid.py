"""The table around a block, for the table operations: its grid (``table_layout``: rows, cells,
grid columns, regions), finding the anchor's table at resolve and apply time, and the plan of a
structure operation. Rows marked hidden are part of the grid; their paragraphs are not blocks,
so no operation is anchored in them.

Nothing here changes the document.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..model.table_layout import (
    DEFAULT_COLUMN_WIDTH,
    W_GRIDAFTER,
    W_GRIDCOL,
    W_TBLGRID,
    W_TBLHEADER,
    Cell,
    Grid,
    Region,
    Row,
    cell_width,
)
from ..model.walk import table_children as children
from ..wml.ns import W14_PARAID, W_BODY, W_P, W_R, W_RPR, W_TBL, W_TC, W_TCPR, W_TR, W_TXBXCONTENT
from .spec import STRUCTURE, Plan, Skip

# The grid itself lives in ``table_layout`` (accepting and rejecting cell revisions use it too);
# the operations import it from here.
__all__ = [
    "DEFAULT_COLUMN_WIDTH",
    "W_GRIDAFTER",
    "W_GRIDCOL",
    "W_TBLGRID",
    "W_TBLHEADER",
    "Cell",
    "Grid",
    "Region",
    "Row",
    "Spot",
    "block_ids_in",
    "cell_is_empty",
    "cell_width",
    "children",
    "enclosing",
    "first_block_index",
    "live_paragraph",
    "live_spot",
    "locate",
    "paragraphs",
    "spot_or_skip",
    "structure_plan",
]


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


def cell_is_empty(tc: Any, *, accepted: bool = False) -> bool:
    """The cell shows nothing: only paragraphs without content (no text, picture, field, ...).
    ``accepted``: as it reads once its pending changes are accepted (deleted runs count nothing;
    for row replacements, whose new rows are read that way)."""
    from ..wml.revisions import is_deleted

    for child in tc:
        if child.tag == W_TCPR:
            continue
        if child.tag != W_P:
            return False
        for run in child.iter(W_R):
            if accepted and is_deleted(run, child):
                continue
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
