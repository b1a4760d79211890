"""insertTable and deleteTable: a whole new table next to a block, or a whole table removed.

**insertTable** places a new table right after (or before) the anchor block, in the same place
(the body, a table cell: then the table is nested, a text box). ``rows`` gives the cell texts row
by row; the table has as many columns as its longest row (shorter rows get empty cells). The
table uses the document's "Table Grid" style when it defines one, otherwise plain single
borders; its columns share the width of the text column (of the cell, in a cell). With
``headerRow`` the first row repeats on every page and its text is bold.

Word needs a paragraph after a table, and two tables with nothing between them run together:
when the anchor is the last paragraph of its container, or a table comes right after (before)
it, an empty paragraph goes between, marked inserted in tracked mode like the rest. A table whose
rows are all pending deletion does not count as a neighbour (accepting removes it, and in direct
mode a table deleted by the same call is already gone), so both modes add the same paragraphs.
(LibreOffice 7.4 cannot take such a paragraph back when rejecting, because it cannot join a
paragraph to a table or to the end of the document; deskcheck's reject-all removes it.)

Tracked mode marks every row inserted (``w:trPr/w:ins``), every run inserted and every paragraph
mark inserted, so rejecting removes the table without a trace.

**deleteTable** removes the table around the anchor block (the nearest one, for nested tables).
Tracked mode marks every row (nested tables' rows too) deleted and every run and paragraph mark
inside deleted; direct mode removes the table. A cell left without a paragraph after the table
gets an empty one (a cell must end with a paragraph), and so does a document left without any
paragraph (in tracked mode that paragraph is marked inserted, so that accepting gives the same
document and rejecting removes it).
"""

from __future__ import annotations

from typing import Any

from ..wml.attrs import int_attr
from ..wml.ns import W_BODY, W_P, W_SECTPR, W_TBL, W_TC, W_TXBXCONTENT, qn
from ..wml.properties import paragraph_properties, row_properties
from ..wml.revisions import mark_paragraph, mark_row
from ..wml.table_revisions import TBLPR_ORDER, W_TBLPR
from ..wml.text import unstorable_character
from .context import ApplyContext, ResolveContext, outside_placeholder_controls
from .fields import COMMENT_FIELD, DecodeError, Decoding, Field, block_id_field, enum_field, kind_of
from .spec import AFTER_BLOCK, BEFORE_BLOCK, Applied, Claim, Operation, OperationSpec, Plan, Skip
from .table_grid import (
    W_GRIDCOL,
    W_TBLGRID,
    cell_width,
    children,
    live_paragraph,
    locate,
    paragraphs,
    spot_or_skip,
    structure_plan,
)
from .table_markup import (
    DuplicateClaim,
    axis_claim,
    content_span,
    delete_content,
    deletion_claims,
    fill_cell,
    inserted_table_content,
    new_cell,
    with_comment,
)

MAX_ROWS = 100
MAX_COLUMNS = 63  # Word's own limit
MAX_CELLS = 1000
# The text width of a US Letter page with one-inch margins, when the section does not say.
DEFAULT_TEXT_WIDTH = 9360
# Cell margins (left + right) Word uses by default, taken off a cell's width for a nested table.
CELL_MARGINS = 216

POSITION_FIELD = enum_field(
    "position", "Where the new content goes relative to the anchor: before or after (default after).",
    ("before", "after"),
)  # fmt: skip


def _decode_rows(value: Any, path: str, state: Decoding) -> list[list[str]]:
    if not isinstance(value, list) or not value:
        raise DecodeError(f'{path} must be a non-empty array of rows, each an array of cell texts (like [["A", "B"]]).')
    if len(value) > MAX_ROWS:
        raise DecodeError(f"{path} has {len(value)} rows; at most {MAX_ROWS} are allowed per table.")
    total = 0
    rows: list[list[str]] = []
    for index, row in enumerate(value):
        if not isinstance(row, list) or not row:
            raise DecodeError(f"{path}[{index}] must be a non-empty array of cell texts, not {kind_of(row)}.")
        if len(row) > MAX_COLUMNS:
            raise DecodeError(f"{path}[{index}] has {len(row)} cells; a table has at most {MAX_COLUMNS} columns.")
        total += len(row)
        if total > MAX_CELLS:
            raise DecodeError(f"{path} has more than {MAX_CELLS} cells; insert a smaller table.")
        for column, text in enumerate(row):
            if not isinstance(text, str):
                raise DecodeError(f"{path}[{index}][{column}] must be a string, not {kind_of(text)}.")
            state.count_text(f"{path}[{index}][{column}]", text)
        rows.append(list(row))
    return rows


ROWS_FIELD = Field(
    "rows",
    {
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_ROWS,
        "items": {"type": "array", "minItems": 1, "maxItems": MAX_COLUMNS, "items": {"type": "string"}},
        "description": "The new table's cell texts, row by row (an array of rows, each an array of strings).",
    },
    _decode_rows,
    True,
    'The cell texts row by row, e.g. [["Term", "Meaning"], ["Buyer", "ACME Ltd"]]; the longest row sets '
    "the number of columns.",
)


def _decode_flag(value: Any, path: str, state: Decoding) -> bool:
    if not isinstance(value, bool):
        raise DecodeError(f"{path} must be true or false, not {kind_of(value)}.")
    return value


HEADER_FIELD = Field(
    "headerRow",
    {"type": "boolean", "description": "The first row is a header row (bold, repeated on every page)."},
    _decode_flag,
    False,
    "true makes the first row a header row: bold and repeated at the top of every page.",
)


# -- placement, shared with insertSignatureTable ---------------------------------------------------


def unstorable_text(texts: list[tuple[str, str]]) -> None:
    """Skip with invalidResult when a text holds a character a .docx cannot store."""
    for where, text in texts:
        found = unstorable_character(text)
        if found is not None:
            raise Skip(
                "invalidResult",
                what=f"`{where}` holds the character {found[1]} at position {found[0]}, which a .docx cannot store",
            )


def insertion_plan(op: Operation, block, **data: Any) -> Plan:
    """The plan of an operation that puts a new table next to ``block`` (like a new paragraph)."""
    after = op.get("position", "after") == "after"
    p = block.element
    return Plan(
        op,
        (block.index, AFTER_BLOCK if after else BEFORE_BLOCK, 0),
        [Claim(("gap", p, "after" if after else "before"), exclusive=False), Claim(("para", p), exclusive=False)],
        reverse_ties=after,
        block=block,
        touches=[p],
        **data,
    )


def text_width(ctx: ApplyContext, anchor: Any) -> int:
    """The width available to a table placed next to ``anchor``: the text column of its section,
    or the cell it sits in."""
    container = anchor.getparent()
    while container is not None and container.tag not in (W_TC, W_BODY, W_TXBXCONTENT):
        container = container.getparent()
    if container is not None and container.tag == W_TC:
        width = cell_width(container)
        return max(width - CELL_MARGINS, 720) if width else DEFAULT_TEXT_WIDTH // 2
    if container is None or container.tag != W_BODY:
        return DEFAULT_TEXT_WIDTH // 2
    sectpr = _section_of(anchor, container)
    if sectpr is None:
        return DEFAULT_TEXT_WIDTH
    size = sectpr.find(qn("w:pgSz"))
    margins = sectpr.find(qn("w:pgMar"))
    page = int_attr(size, qn("w:w"))
    if not page:
        return DEFAULT_TEXT_WIDTH
    used = sum(int_attr(margins, qn(f"w:{side}"), 0) or 0 for side in ("left", "right", "gutter"))
    return max(page - used, 1440)


def _section_of(anchor: Any, body: Any) -> Any | None:
    """The ``w:sectPr`` that governs ``anchor``: the first section break at or after it."""
    node = anchor
    while node is not None and node.getparent() is not body:
        node = node.getparent()
    while node is not None:
        if node.tag == W_P:
            ppr = paragraph_properties(node)
            if ppr is not None and ppr.find(W_SECTPR) is not None:
                return ppr.find(W_SECTPR)
        elif node.tag == W_SECTPR:
            return node
        node = node.getnext()
    return body.find(W_SECTPR)


def new_table(ctx: ApplyContext, widths: list[int], *, style: str | None, borders: str | None) -> Any:
    """An empty ``w:tbl`` with its properties and grid (rows are added by the caller)."""
    from lxml import etree

    tbl = etree.Element(W_TBL)
    tblpr = etree.SubElement(tbl, W_TBLPR)
    if style:
        etree.SubElement(tblpr, qn("w:tblStyle"), {qn("w:val"): style})
    etree.SubElement(tblpr, qn("w:tblW"), {qn("w:w"): str(sum(widths)), qn("w:type"): "dxa"})
    if borders is not None:
        edges = etree.SubElement(tblpr, qn("w:tblBorders"))
        for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
            attrs = {qn("w:val"): borders}
            if borders != "nil":
                attrs.update({qn("w:sz"): "4", qn("w:space"): "0", qn("w:color"): "auto"})
            etree.SubElement(edges, qn(f"w:{side}"), attrs)
    etree.SubElement(tblpr, qn("w:tblLayout"), {qn("w:type"): "fixed"})
    tblpr[:] = sorted(tblpr, key=lambda child: TBLPR_ORDER.get(child.tag, 99))
    grid = etree.SubElement(tbl, W_TBLGRID)
    for width in widths:
        etree.SubElement(grid, W_GRIDCOL, {qn("w:w"): str(width)})
    return tbl


def column_widths(total: int, count: int) -> list[int]:
    share = max(total // max(count, 1), 360)
    return [share] * count


def place_table(ctx: ApplyContext, anchor: Any, tbl: Any, position: str, seed: str) -> list[Any]:
    """Put ``tbl`` after (or before) ``anchor``, with an empty paragraph between it and whatever
    would otherwise touch it (see the module docstring). Returns the new paragraphs."""
    if anchor.getparent() is None:
        raise Skip("invalidResult", what="the anchor block was removed by another operation of this call")
    anchor = outside_placeholder_controls(anchor)
    separators = []
    if position == "after":
        following = _block_sibling(anchor, forward=True)
        anchor.addnext(tbl)
        if following is None or following.tag != W_P:
            separators.append(_separator(ctx, tbl, "after", f"{seed}:after"))
    else:
        previous = _block_sibling(anchor, forward=False)
        anchor.addprevious(tbl)
        if previous is not None and previous.tag == W_TBL:
            separators.append(_separator(ctx, tbl, "before", f"{seed}:before"))
    return separators


_BLOCKS = (W_P, W_TBL, W_SECTPR, qn("w:sdt"), qn("w:customXml"))


def _block_sibling(element: Any, *, forward: bool) -> Any | None:
    """The next (previous) block next to ``element``. A table whose every row is pending
    deletion does not count: once the deletion is accepted it is gone, and a table deleted in
    the same call in direct mode is gone already, so both modes place the same paragraphs."""
    node = element.getnext() if forward else element.getprevious()
    while node is not None:
        if node.tag in _BLOCKS and not (node.tag == W_TBL and _pending_deletion(node)):
            return node
        node = node.getnext() if forward else node.getprevious()
    return None


def _pending_deletion(tbl: Any) -> bool:
    rows = list(children(tbl, qn("w:tr")))
    return bool(rows) and all(
        (trpr := tr.find(qn("w:trPr"))) is not None and trpr.find(qn("w:del")) is not None for tr in rows
    )


def _separator(ctx: ApplyContext, tbl: Any, side: str, seed: str) -> Any:
    p = ctx.new_paragraph(None, seed)
    if ctx.tracked:
        mark_paragraph(p, "ins", ctx.revisions)
    if side == "after":
        tbl.addnext(p)
    else:
        tbl.addprevious(p)
    return p


def table_style(ctx: ApplyContext) -> str | None:
    """The document's "Table Grid" table style, when it defines one."""
    styles = ctx.doc.styles
    for style_id in ("TableGrid", "Tabellenraster", "TableGrid1"):
        if styles.style_element("table", style_id) is not None:
            return style_id
    return None


# -- insertTable --------------------------------------------------------------------------------


def _resolve_insert(ctx: ResolveContext, op: Operation, block) -> Plan:
    rows = op.get("rows")
    unstorable_text([(f"rows[{r}][{c}]", text) for r, row in enumerate(rows) for c, text in enumerate(row)])
    return insertion_plan(op, block)


def insert_built_table(ctx: ApplyContext, plan: Plan, content: str, build) -> Applied:
    """Apply an operation that puts a new table next to its anchor: ``build(anchor)`` returns the
    table and the paragraphs to report (their ids) and to span with a comment."""
    block = plan.data["block"]
    anchor = live_paragraph(ctx, block)
    if anchor is None:
        raise Skip("invalidResult", what="the anchor block was removed by another operation of this call")
    tbl, reported = build(anchor)
    position = plan.op.get("position", "after")
    place_table(ctx, anchor, tbl, position, f"{content}:{plan.op.id}")
    return inserted_table_content(ctx, plan.op, block.id, position, content, reported, content_span(reported))


def _apply_insert(ctx: ApplyContext, plan: Plan) -> Applied:
    op = plan.op
    rows = op.get("rows")
    header = bool(op.get("headerRow"))
    columns = max(len(row) for row in rows)

    def build(anchor: Any) -> tuple[Any, list[Any]]:
        widths = column_widths(text_width(ctx, anchor), columns)
        style = table_style(ctx)
        tbl = new_table(ctx, widths, style=style, borders=None if style else "single")
        cell_paragraphs = []
        for r, texts in enumerate(rows):
            tr = tbl.makeelement(qn("w:tr"), {})
            if r == 0 and header:
                row_properties(tr, create=True).append(tr.makeelement(qn("w:tblHeader"), {}))
            if ctx.tracked:
                mark_row(tr, "ins", ctx.revisions)
            for c in range(columns):
                tc = new_cell(None, widths[c])
                text = texts[c] if c < len(texts) else ""
                cell_paragraphs.append(fill_cell(ctx, tc, None, text, f"table:{op.id}:{r}:{c}", bold=header and r == 0))
                tr.append(tc)
            tbl.append(tr)
        return tbl, cell_paragraphs

    return insert_built_table(ctx, plan, "table", build)


# -- deleteTable --------------------------------------------------------------------------------


def _resolve_delete(ctx: ResolveContext, op: Operation, block) -> Plan:
    spot = locate(block)
    tbl = spot.tbl
    grid = spot.grid
    if ctx.tracked and grid.rows and all(row.tracked == "del" for row in grid.rows):
        raise Skip("noopOperation", why="every row of this table is already pending deletion")
    claims = [
        DuplicateClaim(("duplicate", "table", tbl)),
        axis_claim(tbl, "table"),
        *deletion_claims(tbl),
    ]
    return structure_plan(ctx, op, block, spot, -4, claims)


def _apply_delete(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    spot = spot_or_skip(ctx, plan)
    tbl = spot.tbl
    target = {"type": "table", "story": "main", "anchorBlockId": block.id, "effect": "deleted"}
    if ctx.tracked:
        inside = paragraphs(tbl)
        for tr in children(tbl, qn("w:tr")):
            mark_row(tr, "del", ctx.revisions)
        delete_content(tbl, ctx.revisions)
        keep_a_paragraph(ctx, tbl, f"deleted:{plan.op.id}")
        return with_comment(ctx, plan.op, [target], content_span(inside), "del")
    return with_comment(ctx, plan.op, [target], remove_table(ctx, tbl, f"deleted:{plan.op.id}"))


def _neighbours(tbl: Any) -> tuple[Any | None, Any | None]:
    """The paragraphs before and after ``tbl`` in its container (None where there is none)."""
    following = tbl.getnext()
    while following is not None and following.tag != W_P:
        following = following.getnext()
    previous = tbl.getprevious()
    while previous is not None and previous.tag != W_P:
        previous = previous.getprevious()
    return previous, following


def remove_table(ctx: ApplyContext, tbl: Any, seed: str) -> Any:
    """Remove ``tbl`` (direct mode); returns a paragraph next to where it was (for a comment). A
    cell left without a paragraph after it, or a container left without any, gets an empty one:
    a cell must end with a paragraph, and an empty document shows one."""
    parent = tbl.getparent()
    previous, following = _neighbours(tbl)
    if following is None and (parent.tag == W_TC or previous is None):
        filler = ctx.new_paragraph(None, seed)
        tbl.addnext(filler)
        parent.remove(tbl)
        return filler
    parent.remove(tbl)
    return following if following is not None else previous


def keep_a_paragraph(ctx: ApplyContext, tbl: Any, seed: str) -> None:
    """Tracked mode's side of ``remove_table``: when accepting the deletion of ``tbl`` would
    leave its container (not a cell: accepting fills a cell itself) without any paragraph, an
    empty paragraph marked inserted goes after the table, so that accepting gives what direct
    mode gives and rejecting removes it again."""
    previous, following = _neighbours(tbl)
    if following is None and previous is None and tbl.getparent().tag != W_TC:
        filler = ctx.new_paragraph(None, seed)
        mark_paragraph(filler, "ins", ctx.revisions)
        tbl.addnext(filler)


SPECS = (
    OperationSpec(
        name="insertTable",
        summary=(
            "Insert a new table right after (or before) a block, filled with `rows` (cell texts row by row). In a "
            "table cell the new table is nested in that cell."
        ),
        fields=(block_id_field(), ROWS_FIELD, POSITION_FIELD, HEADER_FIELD, COMMENT_FIELD),
        resolve=_resolve_insert,
        apply=_apply_insert,
        comment=False,  # placed by the handler (see table_markup.with_comment)
    ),
    OperationSpec(
        name="deleteTable",
        summary="Delete the whole table a block belongs to (the innermost one, for a nested table).",
        fields=(block_id_field(description="A blockId of any block inside the table to delete."), COMMENT_FIELD),
        resolve=_resolve_delete,
        apply=_apply_delete,
        comment=False,
    ),
)
