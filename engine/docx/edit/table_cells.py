"""mergeTableCells and splitTableCell.

**mergeTableCells** merges a rectangle of cells into one: from the anchor's cell to the cell of
``endBlockId`` (the smallest rectangle holding both), or the anchor's cell and the cells below it
over ``rowCount`` rows. The rectangle must hold whole cells (it may enclose a merged cell, not cut
through one), every grid position in it must have a cell, and it may not cross a hidden row.
Direct mode: the top-left cell spans the rectangle (``w:gridSpan``, ``w:vMerge``) and receives
the paragraphs of every other non-empty cell in reading order (an empty top-left cell gives its
place to them); each lower row keeps one continuation cell.

**splitTableCell** turns the anchor's merged cell back into one cell per grid position. Direct
mode: the content stays in the top-left cell, the other cells are empty (a continuation cell
keeps what it held, which Word never showed), and each new cell is as wide as its grid column.

Tracked mode can record a vertical merge or split only (OOXML's ``w:cellMerge``), so it takes
cells stacked in one column: a merge of cells that each span the rectangle's columns, with the
cells below the first empty (tracked mode cannot move text between cells), and a split of a cell
merged vertically only. Anything else is refused with unsupportedBlock and a reason. The first
cell keeps its earlier properties in ``w:tcPrChange``; the cells below carry ``w:cellMerge``
(``vMerge="cont" vMergeOrig="rest"`` for a merge, ``vMergeOrig="cont"`` for a split), so
rejecting restores the cells as they were. LibreOffice 7.4 does not read ``w:cellMerge``: it shows
the merged (split) state in every view. With ``tableRevisions: "rows"`` tracked mode merges and
splits as direct mode does and records the rows that change as row replacements
(``row_replacement``), so none of these restrictions apply; there a cell whose text the call
deletes counts as empty, as it does in direct mode.
"""

from __future__ import annotations

from typing import Any

from ..wml.ns import W14_PARAID, W14_TEXTID, W_P, W_TCPR
from ..wml.properties import cell_properties
from ..wml.table_revisions import record_cell_properties
from .context import ApplyContext, ResolveContext
from .fields import COMMENT_FIELD, DecodeError, block_id_field, integer_field
from .spec import Applied, Operation, OperationSpec, Plan, Skip
from .table_grid import Grid, Spot, cell_is_empty, locate, spot_or_skip, structure_plan
from .table_markup import (
    DuplicateClaim,
    axis_claim,
    cell_marker,
    content_span,
    deletion_claims,
    first_paragraph,
    mark_cell_merge,
    new_cell,
    rect_claim,
    set_merge,
    set_span,
    set_width,
    with_comment,
)


def _check(fields: dict[str, Any], path: str) -> None:
    if ("endBlockId" in fields) == ("rowCount" in fields):
        raise DecodeError(
            f"{path} (mergeTableCells) needs exactly one of `endBlockId` (the block in the cell where the merge ends) "
            "or `rowCount` (how many rows the merged cell covers)."
        )


# -- the rectangle ---------------------------------------------------------------------------


def _rectangle(ctx: ResolveContext, op: Operation, block, spot: Spot) -> tuple[int, int, int, int]:
    region = spot.region
    if "endBlockId" in op.fields:
        end_block = ctx.block(op.get("endBlockId"))
        end_spot = locate(end_block)
        if end_spot.tbl is not spot.tbl:
            raise Skip(
                "unsupportedBlock",
                what=(
                    f"blocks {block.id} and {end_block.id} are not in the same table; both ends of a merge must be "
                    "cells of one table."
                ),
            )
        other = end_spot.region
        return (
            min(region.top, other.top),
            max(region.bottom, other.bottom),
            min(region.start, other.start),
            max(region.end, other.end),
        )
    count = op.get("rowCount")
    bottom = region.top + count - 1
    if bottom >= len(spot.grid.rows):
        raise Skip(
            "unsupportedBlock",
            what=(
                f"rowCount {count} reaches past the table: from the row of block {block.id} the table has "
                f"{len(spot.grid.rows) - region.top} rows; use a smaller rowCount."
            ),
        )
    return region.top, max(bottom, region.bottom), region.start, region.end


def _check_rectangle(grid: Grid, rect: tuple[int, int, int, int], block_id: str) -> list:
    top, bottom, start, end = rect
    regions = grid.regions_in(top, bottom, start, end)
    for region in regions:
        if region.top < top or region.bottom > bottom or region.start < start or region.end > end:
            raise Skip(
                "unsupportedBlock",
                what=(
                    f"the cells to merge from block {block_id} cut through a merged cell that reaches outside them; "
                    "extend the merge to cover that cell, or split it first."
                ),
            )
    for row in grid.rows[top : bottom + 1]:
        if row.hidden:
            raise Skip("unsupportedBlock", what="the cells to merge cross a hidden table row; merge fewer rows.")
        covered = sum(cell.span for cell in row.cells if start <= cell.start and cell.end <= end)
        if covered != end - start:
            raise Skip(
                "unsupportedBlock",
                what=(
                    f"row {row.index + 1} of the table has no cell at some of the grid columns to merge (the row is "
                    "shorter than the others there); merge fewer columns."
                ),
            )
    return regions


# -- mergeTableCells ---------------------------------------------------------------------------


def _resolve_merge(ctx: ResolveContext, op: Operation, block) -> Plan:
    spot = locate(block)
    rect = _rectangle(ctx, op, block, spot)
    grid = spot.grid
    regions = _check_rectangle(grid, rect, block.id)
    if len(regions) <= 1:
        raise Skip("noopOperation", why="the cells named are already a single cell")
    top, bottom, start, end = rect
    claims = [
        DuplicateClaim(("duplicate", "merge", spot.tbl, rect)),
        axis_claim(spot.tbl, "cells"),
        rect_claim(spot.tbl, top, bottom, start, end),
    ]
    if ctx.tracked:
        rows = grid.rows[top : bottom + 1]
        for row in rows:
            cells = [cell for cell in row.cells if start <= cell.start and cell.end <= end]
            if len(cells) != 1:
                raise Skip(
                    "unsupportedBlock",
                    what=(
                        "a tracked change can record cells merged one above the other, not side by side; in tracked "
                        "mode merge the cells of one column at a time (each row's part must be one cell), or merge "
                        "in direct mode."
                    ),
                )
            cell = cells[0]
            if cell.merge is not None or cell_marker(cell.tc) is not None or row.tracked is not None:
                raise Skip(
                    "unsupportedBlock",
                    what=(
                        f"the cell in row {row.index + 1} of the table is already merged or carries a pending tracked "
                        "change; in tracked mode only plain cells can be merged (accept or reject the change first)."
                    ),
                )
            if row.index > top and not cell_is_empty(cell.tc):
                raise Skip(
                    "unsupportedBlock",
                    what=(
                        f"the cell in row {row.index + 1} holds content; in tracked mode the cells below the first "
                        "must be empty, because a tracked change cannot move text into the merged cell (move or "
                        "delete that text first, or merge in direct mode)."
                    ),
                )
            if row.index > top:
                claims += deletion_claims(cell.tc)
    return structure_plan(ctx, op, block, spot, -3, claims, rect=rect)


def _apply_merge(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    op = plan.op
    spot = spot_or_skip(ctx, plan)
    grid = spot.grid
    top, bottom, start, end = plan.data["rect"]
    origin = grid.rows[top].cell_starting(start)
    if origin is None:
        raise Skip("invalidResult", what="the cells to merge changed shape while the call was applied")
    target: dict[str, Any] = {"type": "tableCells", "story": "main", "anchorBlockId": block.id, "effect": "merged"}
    if "endBlockId" in op.fields:
        target["endAnchorBlockId"] = op.get("endBlockId")
    else:
        target["rowCount"] = op.get("rowCount")
    if ctx.tracked:
        tcpr = record_cell_properties(origin.tc, ctx.revisions)
        set_merge(tcpr, "restart")
        for row in grid.rows[top + 1 : bottom + 1]:
            cell = row.cell_starting(start)
            below = cell_properties(cell.tc, create=True)
            set_merge(below, "continue")
            mark_cell_merge(ctx.revisions, below, "cont", "rest")
        return with_comment(ctx, op, [target], content_span(list(origin.tc.iter(W_P))))
    widths = grid.column_widths()
    width = sum(widths[start:end])
    # The content of every other visible cell, in reading order, moves into the top-left cell.
    movers = []
    for row in grid.rows[top : bottom + 1]:
        for cell in row.cells:
            if start <= cell.start and cell.end <= end and cell is not origin:
                region = grid.region_of(cell.tc)
                if region.origin is cell and not cell_is_empty(cell.tc, accepted=ctx.replacing_rows):
                    movers.append(cell.tc)
    if movers and cell_is_empty(origin.tc, accepted=ctx.replacing_rows):
        for child in [c for c in origin.tc if c.tag != W_TCPR]:
            origin.tc.remove(child)
    for tc in movers:
        for child in [c for c in tc if c.tag != W_TCPR]:
            origin.tc.append(child)
    tcpr = cell_properties(origin.tc, create=True)
    set_span(tcpr, end - start)
    set_merge(tcpr, "restart" if bottom > top else None)
    set_width(tcpr, width)
    like_p = first_paragraph(origin.tc)
    for row in grid.rows[top : bottom + 1]:
        inside = [cell for cell in row.cells if start <= cell.start and cell.end <= end and cell is not origin]
        if row.index > top:
            continuation = new_cell(origin.tc, width, span=end - start, merge="continue")
            continuation.append(ctx.new_paragraph(like_p, f"merge:{op.id}:{row.index}"))
            inside[0].tc.addprevious(continuation)
        for cell in inside:
            cell.tc.getparent().remove(cell.tc)
    return with_comment(ctx, op, [target], content_span(list(origin.tc.iter(W_P))))


# -- splitTableCell ---------------------------------------------------------------------------


def _resolve_split(ctx: ResolveContext, op: Operation, block) -> Plan:
    spot = locate(block)
    region = spot.region
    if region.height == 1 and region.width == 1:
        raise Skip("noopOperation", why=f"the cell of block {block.id} is not merged, so there is nothing to split")
    if ctx.tracked:
        if region.width > 1:
            raise Skip(
                "unsupportedBlock",
                what=(
                    f"the cell of block {block.id} spans several columns; a tracked change can record splitting a "
                    "cell merged one above the other only, so split this one in direct mode."
                ),
            )
        if any(cell_marker(cell.tc) is not None for cell in region.cells):
            raise Skip(
                "unsupportedBlock",
                what=f"the merged cell of block {block.id} carries a pending tracked change; accept or reject it "
                "first.",
            )
    claims = [
        DuplicateClaim(("duplicate", "split", spot.tbl, region.origin.tc)),
        axis_claim(spot.tbl, "cells"),
        rect_claim(spot.tbl, region.top, region.bottom, region.start, region.end),
    ]
    return structure_plan(ctx, op, block, spot, -3, claims)


def _apply_split(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    op = plan.op
    spot = spot_or_skip(ctx, plan)
    region = spot.region
    widths = spot.grid.column_widths()
    target: dict[str, Any] = {"type": "tableCell", "story": "main", "anchorBlockId": block.id, "effect": "split"}
    shown: list[Any] = []
    if ctx.tracked:
        tcpr = record_cell_properties(region.origin.tc, ctx.revisions)
        set_merge(tcpr, None)
        for cell in region.cells[1:]:
            below = cell_properties(cell.tc, create=True)
            set_merge(below, None)
            mark_cell_merge(ctx.revisions, below, None, "cont")
            shown += _visible(ctx, cell.tc, f"split:{op.id}:{cell.row}")
        target["blockIds"] = [p.get(W14_PARAID) for p in shown]
        return with_comment(ctx, op, [target], content_span(list(region.origin.tc.iter(W_P))))
    for cell in region.cells:
        tcpr = cell_properties(cell.tc, create=True)
        set_span(tcpr, 1)
        set_merge(tcpr, None)
        set_width(tcpr, widths[cell.start])
        if cell is not region.origin:
            shown += _visible(ctx, cell.tc, f"split:{op.id}:{cell.row}")
        like_p = first_paragraph(cell.tc)
        previous = cell.tc
        for column in range(cell.start + 1, cell.end):
            tc = new_cell(cell.tc, widths[column])
            p = ctx.new_paragraph(like_p, f"split:{op.id}:{cell.row}:{column}")
            tc.append(p)
            shown.append(p)
            previous.addnext(tc)
            previous = tc
    target["blockIds"] = [p.get(W14_PARAID) for p in shown]
    return with_comment(ctx, op, [target], content_span(list(region.origin.tc.iter(W_P))))


def _visible(ctx: ApplyContext, tc: Any, seed: str) -> list[Any]:
    """The paragraphs of a continuation cell that a split makes visible, each given an id (they
    were not blocks before)."""
    ps = [child for child in tc if child.tag == W_P]
    if not ps:
        p = ctx.new_paragraph(None, seed)
        tc.append(p)
        ps = [p]
    for p in ps:
        if p.get(W14_PARAID) is None:
            para_id = ctx.new_para_id(seed)
            p.set(W14_PARAID, para_id)
            p.set(W14_TEXTID, para_id)
    return ps


SPECS = (
    OperationSpec(
        name="mergeTableCells",
        summary=(
            "Merge table cells into one: from the cell of `blockId` to the cell of `endBlockId` (the rectangle "
            "between them), or `rowCount` rows down from it. Their text is kept, in reading order. Tracked mode "
            "merges only cells stacked in one column whose cells below the first are empty."
        ),
        fields=(
            block_id_field(description="A blockId in the first (top-left) cell to merge."),
            block_id_field("endBlockId", "A blockId in the cell where the merge ends (same table).", required=False),
            integer_field(
                "rowCount", "How many rows the merged cell covers, counting the first one.", minimum=2, maximum=1000
            ),
            COMMENT_FIELD,
        ),
        resolve=_resolve_merge,
        apply=_apply_merge,
        check=_check,
        comment=False,  # placed by the handler (see table_markup.with_comment)
    ),
    OperationSpec(
        name="splitTableCell",
        summary=(
            "Split a merged table cell back into one cell per grid position; its text stays in the first one. "
            "Tracked mode splits only a cell merged vertically (one column wide)."
        ),
        fields=(block_id_field(description="A blockId in the merged cell to split."), COMMENT_FIELD),
        resolve=_resolve_split,
        apply=_apply_split,
        comment=False,
    ),
)
