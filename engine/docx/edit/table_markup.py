"""Building blocks the table operations share: new rows, cells and cell paragraphs, tracked
markup for table content and table properties, and the claims that keep table operations of one
call from colliding.

**New content.** ``new_row(like)`` copies a row's properties (not its header flag, hidden flag or
revision marks); ``new_cell(like, width)`` a cell's look (borders, shading, margins, vertical
alignment) with its own width; ``fill_cell(ctx, tc, like_p, text, seed)`` adds the one paragraph
a cell needs, formatted like ``like_p`` and, in tracked mode, with its text and paragraph mark
marked inserted.

**Tracked markup.** ``delete_content(element, revisions)`` marks every run and paragraph mark
inside a row, cell or table deleted; recording property changes is ``wml.table_revisions``'.

**Comments.** A table operation places its own comment (``with_comment``): a row or table that
Word and LibreOffice are to accept or reject as a whole must hold nothing untracked, so on
tracked rows, cells and tables the comment is a point comment whose reference run joins the
operation's insertion or deletion.

**Claims.** Besides the claims every operation makes on paragraphs (``deletion_claims``), table
operations of one call are kept apart by three kinds of claim with their own rule (see
``spec.Claim``; the framework compares claims with equal keys only): ``DuplicateClaim`` turns a
second identical request (the same row deleted twice) into noopOperation; ``AxisClaim`` lets row
operations share a table with row operations and column operations with column operations, but
not with each other or with merges (the cells a row or column operation builds depend on the
merges); ``RectClaim`` keeps merges and splits from overlapping. A claim of these kinds only ever
compares with its own kind.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from ..wml.ns import W14_PARAID, W_P, W_PPR, W_R, W_TCPR, W_TRPR, W_VAL, W_VMERGE, qn
from ..wml.properties import (
    TCPR_ORDER,
    TRPR_ORDER,
    cell_properties,
    get_or_add,
    insert_ordered,
    paragraph_properties,
    remove_child,
    row_properties,
)
from ..wml.revisions import (
    clean_run_properties,
    delete_paragraph_text,
    delete_runs,
    insert_runs,
    make_run,
    mark_paragraph,
    paragraph_runs,
    run_properties,
    wrap_inserted,
)
from ..wml.table_revisions import CELL_MARKERS, W_TBLPR, record_table_properties
from .spec import Applied, Claim, Skip

W_TCW = qn("w:tcW")
W_TYPE = qn("w:type")
W_W = qn("w:w")

# Cell properties a new cell takes from its neighbour: its look, not its place or history.
_CELL_LOOK = tuple(qn(f"w:{name}") for name in ("tcBorders", "shd", "noWrap", "tcMar", "textDirection", "vAlign"))
# Row properties a new row does not take from the row it copies.
_ROW_NOT_COPIED = frozenset(
    qn(f"w:{name}") for name in ("tblHeader", "hidden", "ins", "del", "trPrChange", "cnfStyle", "divId")
)


# -- new rows, cells and paragraphs ------------------------------------------------------------


def new_row(like: Any | None) -> Any:
    """An empty ``w:tr`` with a copy of ``like``'s row properties (see the module docstring)."""
    from lxml import etree

    tr = like.makeelement(qn("w:tr"), {}) if like is not None else etree.Element(qn("w:tr"))
    source = like.find(W_TRPR) if like is not None else None
    if source is not None:
        trpr = tr.makeelement(W_TRPR, {})
        for child in source:
            if child.tag not in _ROW_NOT_COPIED:
                trpr.append(deepcopy(child))
        if len(trpr):
            tr.append(trpr)
    return tr


def new_cell(like: Any | None, width: int | None, *, span: int = 1, merge: str | None = None) -> Any:
    """An empty ``w:tc`` (no paragraph yet) looking like ``like``, ``width`` twips wide, covering
    ``span`` grid columns, with ``w:vMerge`` ``merge`` ("restart", "continue" or None)."""
    from lxml import etree

    tc = like.makeelement(qn("w:tc"), {}) if like is not None else etree.Element(qn("w:tc"))
    tcpr = tc.makeelement(W_TCPR, {})
    source = like.find(W_TCPR) if like is not None else None
    if source is not None:
        for tag in _CELL_LOOK:
            found = source.find(tag)
            if found is not None:
                tcpr.append(deepcopy(found))
    if width is not None:
        set_width(tcpr, width)
    set_span(tcpr, span)
    set_merge(tcpr, merge)
    tc.append(tcpr)
    return tc


def first_paragraph(element: Any | None) -> Any | None:
    """The first paragraph of a cell (or row, table): one of its own before one nested deeper."""
    if element is None:
        return None
    own = next((child for child in element if child.tag == W_P), None)
    return own if own is not None else next(element.iter(W_P), None)


def text_properties(p: Any | None) -> Any | None:
    """Run properties for new text in a cell like ``p``: those of its first run (without
    revision records), or None."""
    if p is None:
        return None
    for run in paragraph_runs(p):
        return clean_run_properties(run_properties(run))
    return None


def fill_cell(ctx: Any, tc: Any, like_p: Any | None, text: str, seed: str, *, bold: bool = False) -> Any:
    """Append to ``tc`` one paragraph holding ``text`` (formatted like ``like_p``), marked
    inserted in tracked mode. Returns the paragraph."""
    p = ctx.new_paragraph(like_p, seed)
    rpr = text_properties(like_p)
    if bold:
        from lxml import etree

        rpr = rpr if rpr is not None else etree.Element(qn("w:rPr"))
        get_or_add(rpr, "w:b")
        get_or_add(rpr, "w:bCs")
    runs = [make_run(text, rpr)] if text else []
    if ctx.tracked:
        if runs:
            p.append(insert_runs(runs, ctx.revisions))
        mark_paragraph(p, "ins", ctx.revisions)
    else:
        p.extend(runs)
    tc.append(p)
    return p


def mark_inserted_paragraph(ctx: Any, p: Any) -> None:
    """In tracked mode, mark a new, empty paragraph's mark inserted."""
    if ctx.tracked:
        mark_paragraph(p, "ins", ctx.revisions)


def delete_content(element: Any, revisions: Any) -> list[Any]:
    """Mark every run and every paragraph mark inside ``element`` deleted, and every row of the
    tables nested in it (a row holding an unmarked nested row does not go as a whole); returns
    the new ``w:del`` wrappers."""
    from ..wml.revisions import mark_row

    for tr in element.iter(qn("w:tr")):
        if tr is not element:
            mark_row(tr, "del", revisions)
    wrappers: list[Any] = []
    for p in element.iter(W_P):
        wrappers += delete_paragraph_text(p, revisions)
        mark_paragraph(p, "del", revisions)
    return wrappers


def content_span(ps: list[Any]) -> tuple[Any, Any] | Any | None:
    """What a comment on new or deleted paragraphs spans: from their first to their last
    content (runs or revision wrappers), or the first paragraph when none has content."""
    content = [child for p in ps for child in p if child.tag != W_PPR]
    if content:
        return content[0], content[-1]
    return ps[0] if ps else None


# -- cell and row properties -----------------------------------------------------------------


def set_width(tcpr: Any, width: int) -> None:
    tcw = get_or_add(tcpr, "w:tcW", TCPR_ORDER)
    tcw.attrib.clear()
    tcw.set(W_W, str(max(int(width), 0)))
    tcw.set(W_TYPE, "dxa")


def set_span(tcpr: Any, span: int) -> None:
    if span > 1:
        get_or_add(tcpr, "w:gridSpan", TCPR_ORDER).set(W_VAL, str(span))
    else:
        remove_child(tcpr, "w:gridSpan")


def set_merge(tcpr: Any, merge: str | None) -> None:
    """Set ``w:vMerge`` to "restart" or "continue" (written without a value), or remove it."""
    if merge is None:
        remove_child(tcpr, "w:vMerge")
        return
    vmerge = get_or_add(tcpr, "w:vMerge", TCPR_ORDER)
    if merge == "restart":
        vmerge.set(W_VAL, "restart")
    elif W_VAL in vmerge.attrib:
        del vmerge.attrib[W_VAL]


def set_grid_count(tr: Any, tag: str, count: int) -> None:
    """Set a row's ``w:gridBefore`` or ``w:gridAfter`` (``tag``) to ``count`` (0 removes it)."""
    if count > 0:
        trpr = row_properties(tr, create=True)
        get_or_add(trpr, tag, TRPR_ORDER).set(W_VAL, str(count))
    else:
        trpr = row_properties(tr)
        if trpr is not None:
            remove_child(trpr, tag)
            if len(trpr) == 0:
                tr.remove(trpr)


def cell_marker(tc: Any) -> str | None:
    """The cell revision a cell already carries ("cellIns", "cellDel", "cellMerge") or None."""
    tcpr = cell_properties(tc)
    if tcpr is None:
        return None
    for child in tcpr:
        if child.tag in CELL_MARKERS:
            return child.tag.rsplit("}", 1)[1]
    return None


def change_table_width(tbl: Any, delta: int, revisions: Any | None) -> None:
    """Widen (or narrow) a table whose ``w:tblW`` is a fixed width in twips by ``delta``."""
    tblpr = tbl.find(W_TBLPR)
    width = tblpr.find(qn("w:tblW")) if tblpr is not None else None
    if width is None or width.get(W_TYPE) != "dxa" or delta == 0:
        return
    try:
        current = int(width.get(W_W, "0"))
    except ValueError:
        return
    if current <= 0:
        return
    if revisions is not None:
        record_table_properties(tbl, revisions)
        width = tblpr.find(qn("w:tblW"))
    width.set(W_W, str(max(current + delta, 0)))


def vmerge_state(tc: Any) -> str | None:
    tcpr = cell_properties(tc)
    vmerge = tcpr.find(W_VMERGE) if tcpr is not None else None
    if vmerge is None:
        return None
    return "restart" if vmerge.get(W_VAL) == "restart" else "continue"


def has_content_runs(element: Any) -> bool:
    return any(len([c for c in run if c.tag != qn("w:rPr")]) for run in element.iter(W_R))


# -- claims --------------------------------------------------------------------------------------

_DUPLICATE_WHY = {
    "row": "an earlier operation of this call already deletes this table row",
    "column": "an earlier operation of this call already deletes this table column",
    "table": "an earlier operation of this call already deletes this table",
    "merge": "an earlier operation of this call already merges exactly these cells",
    "split": "an earlier operation of this call already splits this cell",
}


class DuplicateClaim(Claim):
    """A request that, made twice in one call, is one request: the second is skipped as
    noopOperation (not overlappingOperation). ``key`` is ``("duplicate", kind, target...)``;
    put this claim first in a plan so it is compared before the others."""

    __slots__ = ()

    def conflicts(self, other: Claim) -> bool:
        if isinstance(other, DuplicateClaim) and other.key == self.key:
            raise Skip("noopOperation", why=_DUPLICATE_WHY.get(self.key[1], "an earlier operation asks the same"))
        return False


class AxisClaim(Claim):
    """The kind of change an operation makes to a table's shape. Built by ``axis_claim(tbl,
    kind)``: ``key`` is ``("axis", tbl)`` (claims are only compared when their keys are equal)
    and ``start`` holds the kind, "rows", "columns", "cells" (merge, split) or "table" (delete
    it). Two claims on one table conflict unless both are "rows", both "columns" or both
    "cells"; merges and splits sharing a table are then sorted out by their rectangles
    (``RectClaim``)."""

    __slots__ = ()

    def conflicts(self, other: Claim) -> bool:
        if not isinstance(other, AxisClaim) or other.key != self.key:
            return False
        return not (self.start == other.start and self.start in ("rows", "columns", "cells"))


def axis_claim(tbl: Any, kind: str) -> AxisClaim:
    return AxisClaim(("axis", tbl), kind)


class RectClaim(Claim):
    """Merges and splits, built by ``rect_claim(tbl, top, bottom, start, end)``: ``key`` is
    ``("rect", tbl)`` and ``start`` holds the rectangle (rows inclusive, columns exclusive); two
    conflict when their rectangles share a grid position."""

    __slots__ = ()

    def conflicts(self, other: Claim) -> bool:
        if not isinstance(other, RectClaim) or other.key != self.key:
            return False
        top, bottom, start, end = self.start
        other_top, other_bottom, other_start, other_end = other.start
        return top <= other_bottom and other_top <= bottom and start < other_end and other_start < end


def rect_claim(tbl: Any, top: int, bottom: int, start: int, end: int) -> RectClaim:
    return RectClaim(("rect", tbl), (top, bottom, start, end))


def deletion_claims(element: Any) -> list[Claim]:
    """Exclusive claims on every paragraph inside ``element``: nothing else of the same call may
    rewrite, format, comment on or insert next to what this operation deletes."""
    claims = []
    for p in element.iter(W_P):
        claims += [
            Claim(("text", p)),
            Claim(("para", p)),
            Claim(("props", p)),
            Claim(("gap", p, "after")),
            Claim(("gap", p, "before")),
        ]
    return claims


def has_paragraph_properties(p: Any) -> bool:
    return paragraph_properties(p) is not None


def too_many_texts(texts: list[str], fillable: int, what: str, why: str = "") -> Skip:
    """payloadDoesNotFit for ``cellTexts`` longer than the new cells, naming the texts left over."""
    extra = texts[fillable:]
    shown = ", ".join(repr(text[:60]) for text in extra[:10]) + (", ..." if len(extra) > 10 else "")
    return Skip(
        "payloadDoesNotFit",
        what=(
            f"cellTexts gives {len(texts)} texts but {what} has {fillable} cells to fill{why}; the texts that do "
            f"not fit: {shown}"
        ),
    )


def mark_cell_merge(revisions: Any, tcpr: Any, merged: str | None, original: str | None) -> Any:
    """Record a vertical merge change on a cell: ``w:cellMerge`` with the merge state after
    (``merged``) and before (``original``) the change, each "cont", "rest" or None."""
    marker = revisions.element("w:cellMerge", tcpr)
    if merged is not None:
        marker.set(qn("w:vMerge"), merged)
    if original is not None:
        marker.set(qn("w:vMergeOrig"), original)
    return insert_ordered(tcpr, marker, TCPR_ORDER)


def inserted_table_content(
    ctx: Any, op: Any, block_id: str, position: str, content: str, reported: list[Any], span: Any
) -> Applied:
    """The result of inserting a table, row or column (``content``) next to block ``block_id``:
    the insertion target listing the ids of the ``reported`` paragraphs, and the operation's
    comment over ``span`` (see ``with_comment``)."""
    target = {
        "type": "insertion",
        "story": "main",
        "anchorBlockId": block_id,
        "position": position,
        "content": content,
        "blockIds": [p.get(W14_PARAID) for p in reported],
    }
    return with_comment(ctx, op, [target], span, "ins")


def with_comment(ctx: Any, op: Any, targets: list[dict[str, Any]], span: Any, revision: str | None = None) -> Applied:
    """The operation's result, with its comment (if it has one) spanning ``span`` (first and
    last element, or a paragraph for a point comment).

    In tracked mode, for content inserted or deleted as a whole (``revision`` "ins" or "del"),
    the comment is a point comment at the end of the first paragraph whose reference run is
    marked like the content: LibreOffice keeps a row that holds anything untracked, a comment's
    range included, when the row's insertion is rejected or its deletion accepted. Rows written
    as row replacements (``ctx.replacing_rows``, see ``row_replacement``) get a point comment
    too; its reference run is marked inserted with the rest of the new row."""
    text = op.get("comment")
    if text is None or span is None:
        return Applied(targets)
    if (ctx.tracked and revision is not None) or ctx.replacing_rows:
        first = span[0] if isinstance(span, tuple) else span
        p = first if first.tag == W_P else next(first.iterancestors(W_P))
        comment_id = ctx.comments.add_at_end(text, p)
        run = p[-1]
        if run.tag == W_R and ctx.tracked and revision is not None:
            if revision == "ins":
                wrap_inserted([run], ctx.revisions)
            else:
                delete_runs([run], ctx.revisions)
    elif isinstance(span, tuple):
        comment_id = ctx.comments.add(text, *span)
    else:
        comment_id = ctx.comments.add_at_end(text, span)
    return Applied([*targets, {"type": "comment", "commentId": comment_id}])
