"""insertTableColumn and deleteTableColumn.

Columns are grid columns: the anchor's cell covers one or more of them (``w:gridSpan``).

**insertTableColumn** adds a grid column at the anchor cell's left edge (``before``) or right
edge (``after``, the default), as wide as the anchor-side column. Row by row: where a cell
starts or ends at that edge, a new cell goes in; where a horizontally merged cell runs across the
edge, that cell grows through the new column instead (so that row has no new cell to fill); a
row that leaves that part of the grid empty (``w:gridBefore`` / ``w:gridAfter``) leaves the new
column empty as well. ``cellTexts`` fills the new cells top to bottom (hidden rows get empty
cells and take no text); more texts than new cells skips with payloadDoesNotFit, naming the
texts that do not fit. ``w:tblGrid`` gains the column (when it lists the table's columns) and a
table of fixed width grows by it.

**deleteTableColumn** removes the grid columns of the anchor cell from every row: cells inside
them go, cells reaching into them get narrower, empty grid space shrinks, a row left with no
cell goes too, and deleting every column deletes the table (``tableDeleted``).

Tracked mode records cells as cell revisions, which OOXML provides: ``w:cellIns`` on every new
cell (its text and paragraph mark inserted as well) and ``w:cellDel`` on every deleted cell (its
text and paragraph marks deleted); a cell that grows, and a row whose empty grid space grows, keep
their earlier properties in ``w:tcPrChange`` / ``w:trPrChange``, the grid its earlier columns in
``w:tblGridChange``. A tracked deletion keeps the deleted cells in the table until it is accepted,
so it cannot shrink a merged cell or empty grid space reaching into the column at the same time
(the rows would no longer line up): such a column is refused with unsupportedBlock, as in the
reference system. Rejecting (Word, deskcheck) gives the table back as it was. A tracked
deletion leaves ``w:tblGrid`` as it is, since the deleted cells stay in the table until the
change is accepted; accepting it (``revisions``) removes the grid column with the cells.
LibreOffice 7.4 does not read cell revisions: it shows the text changes but keeps the inserted
(rejected) or deleted (accepted) cells, empty. With ``tableRevisions: "rows"`` tracked mode
applies these operations as direct mode does and records the rows they change as row
replacements instead (``row_replacement``), which LibreOffice reads, without the restriction
above.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..wml.ns import W_GRIDBEFORE, W_P, qn
from ..wml.properties import cell_properties
from ..wml.revisions import mark_cell, mark_row
from ..wml.table_revisions import record_cell_properties, record_grid, record_row_properties
from .context import ApplyContext, ResolveContext
from .fields import COMMENT_FIELD, block_id_field
from .spec import Applied, Claim, Operation, OperationSpec, Plan, Skip
from .table_grid import W_GRIDAFTER, W_GRIDCOL, Cell, Grid, Row, cell_width, locate, spot_or_skip, structure_plan
from .table_insert import POSITION_FIELD, keep_a_paragraph, remove_table
from .table_markup import (
    DuplicateClaim,
    axis_claim,
    cell_marker,
    change_table_width,
    content_span,
    delete_content,
    deletion_claims,
    fill_cell,
    first_paragraph,
    inserted_table_content,
    new_cell,
    set_grid_count,
    set_span,
    set_width,
    too_many_texts,
    with_comment,
)
from .table_rows import CELL_TEXTS_FIELD

# -- where a new column goes -------------------------------------------------------------------


class RowChange(NamedTuple):
    """What one row gets: ``kind`` is "insert" (a new cell before ``cell``, or after the last
    cell when ``cell`` is None), "widen" (``cell`` grows), "before" / "after" (its empty grid
    space grows) or "none"."""

    row: Row
    kind: str
    cell: Cell | None


def insertion_changes(grid: Grid, boundary: int) -> list[RowChange]:
    changes = []
    for row in grid.rows:
        if not row.cells or boundary < row.before:
            changes.append(RowChange(row, "before", None))
            continue
        covering = row.cell_covering(boundary)
        if covering is not None and covering.start < boundary:
            changes.append(RowChange(row, "widen", covering))
        elif covering is not None:
            changes.append(RowChange(row, "insert", covering))
        elif boundary == row.end:
            changes.append(RowChange(row, "insert", None))
        elif row.after > 0:
            changes.append(RowChange(row, "after", None))
        else:  # a row that ends before the grid does and says nothing about the rest
            changes.append(RowChange(row, "none", None))
    return changes


def _new_cell_count(changes: list[RowChange]) -> tuple[int, bool]:
    fillable = sum(1 for change in changes if change.kind == "insert" and not change.row.hidden)
    widened = any(change.kind == "widen" for change in changes)
    return fillable, widened


def _boundary(spot, position: str) -> int:
    return spot.region.start if position == "before" else spot.region.end


_WIDENED = " (a horizontally merged cell runs across the new column and grows instead)"


# -- insertTableColumn ------------------------------------------------------------------------


def _resolve_insert(ctx: ResolveContext, op: Operation, block) -> Plan:
    spot = locate(block)
    boundary = _boundary(spot, op.get("position", "after"))
    texts = op.get("cellTexts") or []
    fillable, widened = _new_cell_count(insertion_changes(spot.grid, boundary))
    if len(texts) > fillable:
        raise too_many_texts(texts, fillable, "the new column", _WIDENED if widened else "")
    claims = [
        axis_claim(spot.tbl, "columns"),
        Claim(("columns", spot.tbl), boundary, boundary, exclusive=False),
    ]
    return structure_plan(ctx, op, block, spot, -2, claims)


def _apply_insert(ctx: ApplyContext, plan: Plan) -> Applied:
    op = plan.op
    spot = spot_or_skip(ctx, plan)
    position = op.get("position", "after")
    grid = spot.grid
    boundary = _boundary(spot, position)
    changes = insertion_changes(grid, boundary)
    texts = list(op.get("cellTexts") or [])
    fillable, widened = _new_cell_count(changes)
    if len(texts) > fillable:
        raise too_many_texts(texts, fillable, "the new column", _WIDENED if widened else "")
    widths = grid.column_widths()
    side = boundary - 1 if position == "after" else boundary
    width = widths[side] if 0 <= side < len(widths) else widths[-1]
    revisions = ctx.revisions
    filled: list[Any] = []
    for number, change in enumerate(changes):
        row, kind, cell = change
        if kind in ("before", "after"):
            tag = W_GRIDBEFORE if kind == "before" else W_GRIDAFTER
            if ctx.tracked:
                record_row_properties(row.tr, revisions)
            set_grid_count(row.tr, tag, (row.before if kind == "before" else row.after) + 1)
        elif kind == "widen":
            tcpr = record_cell_properties(cell.tc, revisions) if ctx.tracked else _tcpr(cell.tc)
            set_span(tcpr, cell.span + 1)
            current = cell_width(cell.tc)
            if current is not None:
                set_width(tcpr, current + width)
        elif kind == "insert":
            neighbour = _neighbour(row, cell, position)
            tc = new_cell(neighbour.tc if neighbour is not None else None, width)
            if ctx.tracked:
                mark_cell(tc, "ins", revisions)
            text = texts.pop(0) if texts and not row.hidden else ""
            like_p = first_paragraph(neighbour.tc) if neighbour is not None else None
            p = fill_cell(ctx, tc, like_p, text, f"column:{op.id}:{number}")
            if not row.hidden:
                filled.append(p)
            if cell is not None:
                cell.tc.addprevious(tc)
            else:
                row.cells[-1].tc.addnext(tc)
    grid_element = grid.grid_element()
    if grid.grid_matches():
        if ctx.tracked:
            record_grid(grid_element, ctx.ids)
        column = grid_element.makeelement(W_GRIDCOL, {qn("w:w"): str(width)})
        columns = grid.grid_columns()
        if boundary < len(columns):
            columns[boundary].addprevious(column)
        else:
            columns[-1].addnext(column)
    change_table_width(spot.tbl, width, revisions)
    span = content_span(filled) if filled else first_paragraph(spot.cell.tc)
    return inserted_table_content(ctx, op, plan.data["block"].id, position, "tableColumn", filled, span)


def _tcpr(tc: Any) -> Any:
    return cell_properties(tc, create=True)


def _neighbour(row: Row, before: Cell | None, position: str) -> Cell | None:
    """The existing cell a new cell copies: the one on the anchor's side of the new column."""
    if before is None:
        return row.cells[-1] if row.cells else None
    index = row.cells.index(before)
    if position == "after" and index > 0:
        return row.cells[index - 1]
    return before


# -- deleteTableColumn ------------------------------------------------------------------------


class ColumnCut(NamedTuple):
    deleted: list[Cell]  # cells entirely inside the columns
    narrowed: list[tuple[Cell, int, int]]  # cells reaching into them, with the columns they lose
    spaces: list[tuple[Row, int, int]]  # rows whose empty grid space shrinks: (row, new before, new after)
    emptied: list[Row]  # rows left without a cell


def column_cut(grid: Grid, start: int, end: int) -> ColumnCut:
    cut = ColumnCut([], [], [], [])
    for row in grid.rows:
        gone = [cell for cell in row.cells if start <= cell.start and cell.end <= end]
        cut.deleted.extend(gone)
        for cell in row.cells:
            low, high = max(cell.start, start), min(cell.end, end)
            if high > low and cell not in gone:
                cut.narrowed.append((cell, low, high))
        before = row.before - max(0, min(row.before, end) - start) if start < row.before else row.before
        tail_start = row.end
        tail_end = row.end + row.after
        after = row.after - max(0, min(tail_end, end) - max(tail_start, start))
        if (before, after) != (row.before, row.after):
            cut.spaces.append((row, before, after))
        if row.cells and len(gone) == len(row.cells):
            cut.emptied.append(row)
    return cut


def _resolve_delete(ctx: ResolveContext, op: Operation, block) -> Plan:
    spot = locate(block)
    start, end = spot.region.start, spot.region.end
    cut = column_cut(spot.grid, start, end)
    if ctx.tracked:
        markers = {cell_marker(cell.tc) for cell in cut.deleted}
        if markers == {"cellDel"}:
            raise Skip("noopOperation", why="every cell of this column is already pending deletion")
        if markers - {None, "cellDel"}:
            raise Skip(
                "unsupportedBlock",
                what=(
                    f"a cell in the column of block {block.id} carries a pending tracked cell insertion or merge; "
                    "accept or reject that change first."
                ),
            )
        if cut.narrowed or cut.spaces:
            raise _reaches_across(block.id)
    claims = [
        DuplicateClaim(("duplicate", "column", spot.tbl, start, end)),
        axis_claim(spot.tbl, "columns"),
        Claim(("columns", spot.tbl), start, end, exclusive=True),
    ]
    for cell in cut.deleted:
        claims += deletion_claims(cell.tc)
    return structure_plan(ctx, op, block, spot, -2, claims)


def _apply_delete(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    spot = spot_or_skip(ctx, plan)
    grid = spot.grid
    start, end = spot.region.start, spot.region.end
    cut = column_cut(grid, start, end)
    target: dict[str, Any] = {"type": "tableColumn", "story": "main", "anchorBlockId": block.id, "effect": "deleted"}
    every_row = len(cut.emptied) == len([row for row in grid.rows if row.cells])
    if every_row:
        target["tableDeleted"] = True
    widths = grid.column_widths()
    removed_width = sum(widths[start:end])
    revisions = ctx.revisions
    if ctx.tracked:
        if cut.narrowed or cut.spaces:
            raise _reaches_across(block.id)
        inside = [p for cell in cut.deleted for p in cell.tc.iter(W_P)]
        for cell in cut.deleted:
            mark_cell(cell.tc, "del", revisions)
            delete_content(cell.tc, revisions)
        for row in cut.emptied:
            mark_row(row.tr, "del", revisions)
        if every_row:
            keep_a_paragraph(ctx, spot.tbl, f"deleted:{plan.op.id}")
        return with_comment(ctx, plan.op, [target], content_span(inside), "del")
    if every_row:
        return with_comment(ctx, plan.op, [target], remove_table(ctx, spot.tbl, f"deleted:{plan.op.id}"))
    anchor_row = spot.row
    survivor = next((cell for cell in anchor_row.cells if cell not in cut.deleted), None)
    for cell, low, high in cut.narrowed:
        _narrow(_tcpr(cell.tc), cell, low, high, widths)
    for row, before, after in cut.spaces:
        set_grid_count(row.tr, W_GRIDBEFORE, before)
        set_grid_count(row.tr, W_GRIDAFTER, after)
    for cell in cut.deleted:
        cell.tc.getparent().remove(cell.tc)
    for row in cut.emptied:
        row.tr.getparent().remove(row.tr)
    if grid.grid_matches():
        for column in grid.grid_columns()[start:end]:
            column.getparent().remove(column)
    change_table_width(spot.tbl, -removed_width, None)
    anchor = first_paragraph(survivor.tc) if survivor is not None else None
    if anchor is None:
        anchor = next((first_paragraph(row.cells[0].tc) for row in grid.rows if row not in cut.emptied), None)
    return with_comment(ctx, plan.op, [target], anchor)


def _reaches_across(block_id: str) -> Skip:
    return Skip(
        "unsupportedBlock",
        what=(
            f"a merged cell (or a row's empty grid space) reaches into the column of block {block_id} from beside "
            "it; a tracked deletion keeps the deleted cells until it is accepted, so that cell cannot shrink yet. "
            "Split the merged cell first (splitTableCell) or delete the column in direct mode."
        ),
    )


def _narrow(tcpr: Any, cell: Cell, low: int, high: int, widths: list[int]) -> None:
    """A cell loses grid columns ``low``..``high`` (and their width)."""
    set_span(tcpr, cell.span - (high - low))
    current = cell_width(cell.tc)
    if current is not None:
        set_width(tcpr, max(current - sum(widths[low:high]), 0))


SPECS = (
    OperationSpec(
        name="insertTableColumn",
        summary=(
            "Insert a table column before or after the cell of a block (default after); `cellTexts` fills the new "
            "cells top to bottom. A horizontally merged cell crossing the new column grows through it, so that "
            "row has no new cell; more texts than cells is refused, never cut."
        ),
        fields=(
            block_id_field(description="A blockId inside the cell next to which the new column goes."),
            POSITION_FIELD,
            CELL_TEXTS_FIELD,
            COMMENT_FIELD,
        ),
        resolve=_resolve_insert,
        apply=_apply_insert,
        comment=False,  # placed by the handler (see table_markup.with_comment)
    ),
    OperationSpec(
        name="deleteTableColumn",
        summary=(
            "Delete the table column(s) a block's cell covers (deleting every column deletes the table). Tracked "
            "mode cannot delete a column a merged cell reaches into from beside it."
        ),
        fields=(block_id_field(description="A blockId inside a cell of the column to delete."), COMMENT_FIELD),
        resolve=_resolve_delete,
        apply=_apply_delete,
        comment=False,
    ),
)
