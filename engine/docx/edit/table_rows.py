"""insertTableRow and deleteTableRow.

**insertTableRow** adds a row before or after the anchor's row (for an anchor in a merged cell:
the row where that cell starts). The new row copies the cell layout and look of a neighbouring
row (the row above; the row below when inserting at the top or right under a header row) and
builds one cell per cell of that layout. Where a vertically merged cell crosses the insertion
point, the merge grows through the new row: the row gets a continuation cell there, which shows
nothing of its own, so the row has fewer cells to fill. ``cellTexts`` fills the fillable cells
in order, the rest stay empty; more texts than cells skips the operation with
payloadDoesNotFit, naming the texts that do not fit (nothing is truncated).

**deleteTableRow** removes the anchor's row. A merged cell that starts in that row and continues
below keeps its content: direct mode moves it into the next row's part of the merged cell; in
tracked mode that cannot be recorded, so such a row is refused (unsupportedBlock) until the cell
is split. Deleting the only row of a table deletes the table (``tableDeleted`` in the receipt).

Tracked mode marks an inserted row ``w:trPr/w:ins`` with its runs and paragraph marks inserted,
and a deleted row ``w:trPr/w:del`` with its runs and paragraph marks deleted, which is what Word
writes and what LibreOffice needs to accept and reject rows.
"""

from __future__ import annotations

from typing import Any

from ..wml.ns import W14_PARAID, W14_TEXTID, W_P, W_TCPR, W_TRPR
from ..wml.revisions import mark_row
from .context import ApplyContext, ResolveContext
from .fields import COMMENT_FIELD, block_id_field, string_list_field
from .spec import Applied, Claim, Operation, OperationSpec, Plan, Skip
from .table_grid import W_TBLHEADER, Grid, Region, Row, cell_width, locate, spot_or_skip, structure_plan
from .table_insert import POSITION_FIELD, keep_a_paragraph, remove_table
from .table_markup import (
    DuplicateClaim,
    axis_claim,
    content_span,
    delete_content,
    deletion_claims,
    fill_cell,
    first_paragraph,
    inserted_table_content,
    mark_inserted_paragraph,
    new_cell,
    new_row,
    set_merge,
    too_many_texts,
    with_comment,
)

MAX_CELL_TEXTS = 256

CELL_TEXTS_FIELD = string_list_field(
    "cellTexts",
    "Texts for the new cells, in order (cells not named stay empty).",
    max_items=MAX_CELL_TEXTS,
)


# -- the layout of a new row ---------------------------------------------------------------------


class NewCell:
    __slots__ = ("continues", "like")

    def __init__(self, like: Any, continues: bool) -> None:
        self.like = like  # the Cell it copies
        self.continues = continues  # a vertical merge grows through it


def _is_header(row: Row) -> bool:
    trpr = row.tr.find(W_TRPR)
    return trpr is not None and trpr.find(W_TBLHEADER) is not None


def row_layout(
    grid: Grid, gap: int, continuing: frozenset[int] = frozenset(), gone: frozenset = frozenset()
) -> tuple[Row, list[NewCell]]:
    """The row a new row at ``gap`` (before row ``gap``) copies, and its cells. ``continuing``:
    the grid columns where a vertical merge crossed the gap when the call read the document; such
    a merge still grows through the new row when another operation of the call has deleted the
    row below it since (a call's operations all address the document as it was read). ``gone``:
    the rows (``w:tr``) the call deletes: the new row copies a row that stays, whether the
    deletion applies first or not and whether it removes the row (direct) or marks it (tracked)."""
    kept = [row for row in grid.rows if row.tr not in gone]
    place = sum(1 for row in grid.rows[:gap] if row.tr not in gone)
    above = kept[place - 1] if place > 0 else None
    below = kept[place] if place < len(kept) else None
    like = above if above is not None else below
    if like is None:  # every row is going: copy the one the new row is placed against
        like = grid.rows[gap - 1] if gap > 0 else grid.rows[gap]
    if above is not None and below is not None and _is_header(above) and not _is_header(below):
        like = below
    cells = [
        NewCell(
            cell,
            grid.continues_across(gap, cell.start, cell.span)
            or (cell.start in continuing and _merged_above(above, cell.start, cell.span)),
        )
        for cell in like.cells
    ]
    return like, cells


def _merged_above(above: Row | None, start: int, span: int) -> bool:
    cell = above.cell_starting(start) if above is not None else None
    return cell is not None and cell.span == span and cell.merge is not None


def _gap(row_index: int, position: str) -> int:
    return row_index if position == "before" else row_index + 1


_MERGED_ROW = " (a vertically merged cell runs through the new row and takes the place of a cell)"


# -- insertTableRow ---------------------------------------------------------------------------


def _resolve_insert(ctx: ResolveContext, op: Operation, block) -> Plan:
    spot = locate(block)
    position = op.get("position", "after")
    texts = op.get("cellTexts") or []
    _like, cells = row_layout(spot.grid, _gap(spot.row.index, position))
    fillable = sum(1 for cell in cells if not cell.continues)
    if len(texts) > fillable:
        raise too_many_texts(texts, fillable, "the new row", _MERGED_ROW if fillable < len(cells) else "")
    claims = [axis_claim(spot.tbl, "rows"), Claim(("row", spot.row.tr), exclusive=False)]
    continuing = frozenset(cell.like.start for cell in cells if cell.continues)
    return structure_plan(ctx, op, block, spot, -1, claims, continuing=continuing)


def _apply_insert(ctx: ApplyContext, plan: Plan) -> Applied:
    op = plan.op
    spot = spot_or_skip(ctx, plan)
    position = op.get("position", "after")
    texts = list(op.get("cellTexts") or [])
    grid = spot.grid
    gap = _gap(spot.row.index, position)
    like, cells = row_layout(grid, gap, plan.data["continuing"], ctx.rows_deleted)
    fillable = sum(1 for cell in cells if not cell.continues)
    if len(texts) > fillable:
        raise too_many_texts(texts, fillable, "the new row", _MERGED_ROW if fillable < len(cells) else "")
    widths = grid.column_widths()
    tr = new_row(like.tr)
    if ctx.tracked:
        mark_row(tr, "ins", ctx.revisions)
    filled = []
    for number, cell in enumerate(cells):
        source = cell.like
        width = cell_width(source.tc) or sum(widths[source.start : source.end])
        tc = new_cell(source.tc, width, span=source.span, merge="continue" if cell.continues else None)
        like_p = first_paragraph(source.tc)
        seed = f"row:{op.id}:{number}"
        if cell.continues:
            p = ctx.new_paragraph(like_p, seed)
            mark_inserted_paragraph(ctx, p)
            tc.append(p)
        else:
            filled.append(fill_cell(ctx, tc, like_p, texts.pop(0) if texts else "", seed))
        tr.append(tc)
    if gap > 0:
        grid.rows[gap - 1].tr.addnext(tr)
    else:
        grid.rows[0].tr.addprevious(tr)
    span = content_span(filled or list(tr.iter(W_P)))
    return inserted_table_content(ctx, op, plan.data["block"].id, position, "tableRow", filled, span)


# -- deleteTableRow ---------------------------------------------------------------------------


def _continuing(grid: Grid, row: Row) -> list[Region]:
    """The merged cells that start in ``row`` and continue into the rows below."""
    out = []
    for cell in row.cells:
        region = grid.region_of(cell.tc)
        if region.origin is cell and region.height > 1:
            out.append(region)
    return out


def _resolve_delete(ctx: ResolveContext, op: Operation, block) -> Plan:
    spot = locate(block)
    row = spot.row
    if ctx.tracked and row.tracked == "del":
        raise Skip("noopOperation", why="this table row is already pending deletion")
    continuing = _continuing(spot.grid, row)
    if ctx.tracked and continuing:
        raise Skip(
            "unsupportedBlock",
            what=(
                f"the row of block {block.id} holds the top of a merged cell that continues into the rows below; a "
                "tracked change cannot move that cell's content down, so split the merged cell first "
                "(splitTableCell) or delete the row in direct mode."
            ),
        )
    kept = {region.origin.tc for region in continuing}
    claims = [
        DuplicateClaim(("duplicate", "row", row.tr)),
        axis_claim(spot.tbl, "rows"),
        Claim(("row", row.tr)),
    ]
    for cell in row.cells:
        if cell.tc not in kept:
            claims += deletion_claims(cell.tc)
    return structure_plan(ctx, op, block, spot, -1, claims, deletes_row=row.tr)


def _apply_delete(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    target = {"type": "tableRow", "story": "main", "anchorBlockId": block.id, "effect": "deleted"}
    spot = spot_or_skip(ctx, plan)
    grid = spot.grid
    row = spot.row
    tr = row.tr
    if len(grid.rows) == 1:
        target["tableDeleted"] = True
    if ctx.tracked:
        inside = list(tr.iter(W_P))
        mark_row(tr, "del", ctx.revisions)
        delete_content(tr, ctx.revisions)
        if len(grid.rows) == 1:
            keep_a_paragraph(ctx, spot.tbl, f"deleted:{plan.op.id}")
        return with_comment(ctx, plan.op, [target], content_span(inside), "del")
    if len(grid.rows) == 1:
        return with_comment(ctx, plan.op, [target], remove_table(ctx, spot.tbl, f"deleted:{plan.op.id}"))
    for region in _continuing(grid, row):
        _move_down(ctx, region, f"moved:{plan.op.id}:{region.start}")
    neighbour = grid.rows[row.index + 1] if row.index + 1 < len(grid.rows) else grid.rows[row.index - 1]
    tr.getparent().remove(tr)
    return with_comment(ctx, plan.op, [target], next(neighbour.tr.iter(W_P), None))


def _move_down(ctx: ApplyContext, region: Region, seed: str) -> None:
    """Before the top row of ``region`` goes: move the merged cell's content into its part in
    the next row, which becomes the top of what is left of the merge."""
    origin, below = region.cells[0].tc, region.cells[1].tc
    for child in [c for c in below if c.tag != W_TCPR]:
        below.remove(child)
    for child in [c for c in origin if c.tag != W_TCPR]:
        below.append(child)
    tcpr = below.find(W_TCPR)
    if tcpr is None:
        tcpr = below.makeelement(W_TCPR, {})
        below.insert(0, tcpr)
    set_merge(tcpr, "restart" if region.height > 2 else None)
    if below.find(W_P) is None:  # the origin held only a nested table: a cell ends with a paragraph
        p = ctx.new_paragraph(None, seed)
        below.append(p)
    for p in below.iter(W_P):
        if p.get(W14_PARAID) is None:
            para_id = ctx.new_para_id(seed)
            p.set(W14_PARAID, para_id)
            p.set(W14_TEXTID, para_id)


SPECS = (
    OperationSpec(
        name="insertTableRow",
        summary=(
            "Insert a table row before or after the row of a block in a table cell (default after); `cellTexts` "
            "fills its cells left to right. A vertically merged cell crossing the new row grows through it, so "
            "that row has fewer cells to fill; more texts than cells is refused, never cut."
        ),
        fields=(
            block_id_field(description="A blockId inside the row next to which the new row goes."),
            POSITION_FIELD,
            CELL_TEXTS_FIELD,
            COMMENT_FIELD,
        ),
        resolve=_resolve_insert,
        apply=_apply_insert,
        comment=False,  # placed by the handler (see table_markup.with_comment)
    ),
    OperationSpec(
        name="deleteTableRow",
        summary=(
            "Delete the table row of a block (deleting a table's only row deletes the table). Tracked mode cannot "
            "delete a row where a vertically merged cell starts and continues below (split that cell first)."
        ),
        fields=(block_id_field(description="A blockId inside the row to delete."), COMMENT_FIELD),
        resolve=_resolve_delete,
        apply=_apply_delete,
        comment=False,
    ),
)
