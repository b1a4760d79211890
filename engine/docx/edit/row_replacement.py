"""``tableRevisions: "rows"``: tracked column insertions and deletions, merges and splits written
as row replacements instead of cell revisions.

OOXML records those four changes with cell revisions (``w:cellIns``, ``w:cellDel``,
``w:cellMerge``), which Word reads and LibreOffice 7.4 does not. Row revisions (``w:trPr/w:ins``,
``w:trPr/w:del``) are read by both. In rows mode each table row such a change alters appears
twice: first as it was, marked as a deleted row (its text and paragraph marks deleted), then as
it becomes, marked as an inserted row (its text and paragraph marks inserted). Accepting every
change keeps the new rows, which are exactly the direct-mode result; rejecting keeps the old ones.

How it runs, per call:

1. before anything applies (``begin``), every table a replaced operation targets is copied as
   the call found it (``Snapshot``: rows, properties, grid, the ids of its revisions);
2. the operations resolve and apply as in direct mode (``resolve_view`` / ``apply``), so every
   structure direct mode supports is supported (rectangle merges, splits of cells spanning
   columns, columns a merged cell reaches into); the operation's comment becomes a point comment
   in the new rows (see ``table_markup.with_comment``). After each one, the rows changed so far
   are checked for what cannot be duplicated (``_obstacle``): an operation that would need to
   duplicate a comment anchor, a bookmark (Word's ``_GoBack`` edit marker excepted: the copy
   goes without it), a note reference, a permission range, a tracked move or a VML shape, or
   that meets a row or cell carrying a pending row or cell revision, is skipped with
   unsupportedBlock (rolled back like any skipped operation);
3. at the end of the call (``finish``) each changed table gets its old rows back, from the
   first row a replaced operation changed to the last (the whole table when the row count
   changed), before the new ones. The old rows are the rows as the call found them, with fresh
   paragraph, revision, drawing and content-control ids (the new rows keep the ids
   ``read_document`` gave). In the new rows the call's own tracked text changes are taken into
   the row insertion (accepted there: the old row holds the text as it was) and comments other
   operations put there become point comments. The grid becomes the new one with the old kept
   in ``w:tblGridChange``, and changed table properties (a fixed width) are kept in
   ``w:tblPrChange``, so rejecting restores them. When the grid changed, the old rows' cells
   lose their widths (kept in ``w:tcPrChange``) so that editors place them by grid columns:
   LibreOffice places a row that does not fit the grid by its cell widths and then misaligns
   the parts of a vertically merged cell.

Deleting every column of a table is recorded as tracked deleteTable records it: the table as
it was, every row marked deleted (comments earlier operations of the call put in its rows move
to its first paragraph, so they keep an anchor).
"""

from __future__ import annotations

from collections.abc import Callable
from copy import copy, deepcopy
from typing import Any

from ..model.table_layout import W_TBLGRID
from ..model.walk import table_children
from ..review.revisions import resolve_within
from ..wml.ns import (
    NS,
    W14_PARAID,
    W14_TEXTID,
    W_DEL,
    W_ID,
    W_INS,
    W_P,
    W_R,
    W_SDT,
    W_TBL,
    W_TC,
    W_TCPR,
    W_TR,
    W_TRPR,
    W_VAL,
    qn,
)
from ..wml.revisions import MAX_ID, delete_runs, mark_paragraph, mark_row, paragraph_runs, wrap_inserted
from ..wml.table_revisions import W_TBLPR, record_cell_properties, record_grid, record_table_properties
from .spec import Applied, Claim, Plan, Skip
from .table_columns import column_cut
from .table_grid import spot_or_skip
from .table_insert import keep_a_paragraph
from .table_markup import (
    W_TCW,
    content_span,
    delete_content,
    vmerge_state,
    with_comment,
)
from .textmap import Edit

REPLACED_TYPES = frozenset({"insertTableColumn", "deleteTableColumn", "mergeTableCells", "splitTableCell"})

_W_SDTPR = qn("w:sdtPr")
_WP_DOCPR = "{" + NS["wp"] + "}docPr"
_VML = "urn:schemas-microsoft-com:vml"
_W_BOOKMARKSTART = qn("w:bookmarkStart")
_W_BOOKMARKEND = qn("w:bookmarkEnd")
GO_BACK = "_GoBack"
_W_COMMENTREFERENCE = qn("w:commentReference")
_COMMENT_MARKERS = (qn("w:commentRangeStart"), qn("w:commentRangeEnd"), _W_COMMENTREFERENCE)

# Revision records whose w:id only has to be fresh in a copy.
_RENUMBERED = frozenset(
    qn("w:" + name)
    for name in ("ins", "del", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "trPrChange", "tcPrChange",
                 "tblPrExChange", "tblGridChange", "numberingChange")
)  # fmt: skip
# Things anchored once in the document, by the kind named in a skip reason.
_ANCHORED_ONCE = {
    **{qn(f"w:{name}"): "comment" for name in ("commentRangeStart", "commentRangeEnd", "commentReference")},
    **{qn(f"w:{name}"): "bookmark" for name in ("bookmarkStart", "bookmarkEnd")},
    qn("w:footnoteReference"): "footnote reference",
    qn("w:endnoteReference"): "endnote reference",
    **{qn(f"w:{name}"): "permission range" for name in ("permStart", "permEnd")},
    **{qn(f"w:{name}"): "tracked move" for name in ("moveFrom", "moveTo")},
    **{qn(f"w:move{side}Range{end}"): "tracked move" for side in ("From", "To") for end in ("Start", "End")},
}
_CELL_REVISIONS = frozenset(qn("w:" + name) for name in ("cellIns", "cellDel", "cellMerge"))
_ROW_REVISIONS = frozenset({W_INS, W_DEL})


def replaces_rows(ctx: Any, op_type: str) -> bool:
    """Whether operation ``op_type`` is written as a row replacement under ``ctx``."""
    return ctx.tracked and ctx.table_revisions == "rows" and op_type in REPLACED_TYPES


# -- resolving ----------------------------------------------------------------------------------


def resolve_view(ctx: Any) -> Any:
    """The resolve context seen by a replaced operation: direct mode's rules."""
    view = copy(ctx)
    view.mode = "direct"
    view.tracked = False
    return view


class NestingClaim(Claim):
    """One call cannot replace the rows of a table and of a table nested in it: the outer
    table's old rows would be copied after the inner table had already changed. ``start`` holds
    the table."""

    __slots__ = ()

    def conflicts(self, other: Claim) -> bool:
        if not isinstance(other, NestingClaim) or other.start is self.start:
            return False
        if _contains(self.start, other.start) or _contains(other.start, self.start):
            raise Skip(
                "unsupportedBlock",
                what=(
                    "another operation of this call changes the columns or cells of a table nested in this one (or "
                    'of the table around it); with tableRevisions "rows" make the two changes in separate calls, or '
                    'use tableRevisions "cells".'
                ),
            )
        return False


def nesting_claim(plan: Plan) -> NestingClaim:
    return NestingClaim(("row replacement",), plan.data["touches"][0])


def _contains(outer: Any, inner: Any) -> bool:
    return any(node is outer for node in inner.iterancestors(W_TBL))


# -- applying -----------------------------------------------------------------------------------


class Snapshot:
    """A table as the call found it: its rows (the old copies are made from them), properties,
    grid and the ids of the revisions it held; and, once the call's first replaced operation on
    it is about to apply, its rows at that point (``keys``: other operations of the call have
    made their tracked text changes in it by then, and only rows a replaced operation changes
    after that are replaced)."""

    def __init__(self, tbl: Any) -> None:
        self.rows = [deepcopy(tr) for tr in _rows(tbl)]
        self.tblpr = deepcopy(tbl.find(W_TBLPR))
        self.grid = deepcopy(tbl.find(W_TBLGRID))
        self.revision_ids = {element.get(W_ID) for element in tbl.iter() if element.get(W_ID) is not None}
        self.keys: list[bytes] | None = None
        self.applied = False  # a replaced operation did apply to the table

    def start(self, tbl: Any) -> None:
        if self.keys is None:
            self.keys = [_key(tr) for tr in _rows(tbl)]

    def changed_span(self, tbl: Any) -> tuple[int, int, int, int] | None:
        """(first, last) old rows and (first, last) new rows to replace, or None when no row
        changed since ``start``. When the row count changed, the whole table."""
        current = [_key(tr) for tr in _rows(tbl)]
        keys = self.keys or []
        if len(current) != len(keys) or len(keys) != len(self.rows):
            return 0, len(self.rows) - 1, 0, len(current) - 1
        changed = [index for index, (old, new) in enumerate(zip(keys, current, strict=True)) if old != new]
        if not changed:
            return None
        # A vertically merged cell must lie wholly inside or outside the replaced rows: rejecting
        # (or accepting) would otherwise leave the continuing part of a merge whose top is gone,
        # which LibreOffice then shows as cells of their own.
        first, last = changed[0], changed[-1]
        versions = (self.rows, _rows(tbl))
        while first > 0 and any(_continues_merge(rows[first]) for rows in versions):
            first -= 1
        while last + 1 < len(current) and any(_continues_merge(rows[last + 1]) for rows in versions):
            last += 1
        return first, last, first, last

    def is_own(self, element: Any) -> bool:
        """Whether revision ``element`` was made by this call (the table did not hold it)."""
        return element.get(W_ID) not in self.revision_ids


def begin(ctx: Any, plans: list[Plan]) -> None:
    """Before anything of the call applies: a snapshot of every table a replaced operation
    targets."""
    from .table_grid import live_spot

    for plan in plans:
        if not replaces_rows(ctx, plan.op.type):
            continue
        spot = live_spot(ctx, plan.data["block"], plan.data.get("tc"))
        if spot is not None and spot.tbl not in ctx.replacements:
            ctx.replacements[spot.tbl] = Snapshot(spot.tbl)


def _rows(tbl: Any) -> list[Any]:
    return list(table_children(tbl, W_TR))


def _own_text_changes(snapshot: Snapshot) -> Callable[[Any], bool]:
    """The call's own revisions in a new row, row marks aside: a row the call deletes (in a
    nested table inside a row or table the call deletes) is then inserted and deleted, as Word
    writes it, instead of being taken out with the nested table's content."""

    def own(element: Any) -> bool:
        parent = element.getparent()
        return snapshot.is_own(element) and not (parent is not None and parent.tag == W_TRPR)

    return own


def _continues_merge(tr: Any) -> bool:
    """Whether a cell of row ``tr`` continues a vertical merge from the row above."""
    return any(vmerge_state(tc) == "continue" for tc in table_children(tr, W_TC))


def _key(element: Any) -> bytes:
    """The element's content, comparable between a live element and a detached copy (exclusive
    canonical XML: only the namespaces it uses, whatever its ancestors declare)."""
    from lxml import etree

    return etree.tostring(element, method="c14n", exclusive=True, with_comments=True)


def apply(ctx: Any, plan: Plan, spec: Any) -> Applied:
    """Apply a replaced operation as direct mode does, remembering the table as it was."""
    spot = spot_or_skip(ctx, plan)
    tbl = spot.tbl
    if any(tr.getparent() is not tbl for tr in _rows(tbl)):
        raise Skip(
            "unsupportedBlock",
            what=(
                "rows of this table are wrapped in a content control or custom XML, which a row replacement cannot "
                'copy; use tableRevisions "cells".'
            ),
        )
    snapshot = ctx.replacements.get(tbl)
    if snapshot is None:  # not met by ``begin`` (cannot happen: the table was there when the call began)
        snapshot = ctx.replacements[tbl] = Snapshot(tbl)
    snapshot.start(tbl)
    if plan.op.type == "deleteTableColumn" and _empties_table(spot):
        return _delete_table(ctx, plan, tbl, snapshot)
    view = copy(ctx)
    view.edit = Edit(ctx.ids, None)
    view.replacing_rows = True
    result = spec.apply(view, plan)
    span = snapshot.changed_span(tbl)
    if span is not None:
        reason = _obstacle(snapshot.rows[span[0] : span[1] + 1], _rows(tbl)[span[2] : span[3] + 1])
        if reason is not None:
            raise Skip("unsupportedBlock", what=reason)
    snapshot.applied = True
    return result


def _empties_table(spot: Any) -> bool:
    cut = column_cut(spot.grid, spot.region.start, spot.region.end)
    return len(cut.emptied) == len([row for row in spot.grid.rows if row.cells])


def _delete_table(ctx: Any, plan: Plan, tbl: Any, snapshot: Snapshot) -> Applied:
    """Deleting every column: the table as it was when the call began, every row deleted."""
    carried = _new_comment_markers(tbl, snapshot)
    for child in list(tbl):
        tbl.remove(child)
    if snapshot.tblpr is not None:
        tbl.append(deepcopy(snapshot.tblpr))
    if snapshot.grid is not None:
        tbl.append(deepcopy(snapshot.grid))
    tbl.extend(deepcopy(tr) for tr in snapshot.rows)
    del ctx.replacements[tbl]
    inside = list(tbl.iter(W_P))
    for tr in _rows(tbl):
        mark_row(tr, "del", ctx.revisions)
    delete_content(tbl, ctx.revisions)
    # Comments earlier operations of the call put in the rows, now at the table's first paragraph.
    if carried and inside:
        inside[0].extend(carried)
        delete_runs([run for run in carried if run.tag == W_R], ctx.revisions)
    keep_a_paragraph(ctx, tbl, f"deleted:{plan.op.id}")
    block = plan.data["block"]
    target = {"type": "tableColumn", "story": "main", "anchorBlockId": block.id, "effect": "deleted"}
    target["tableDeleted"] = True
    return with_comment(ctx, plan.op, [target], content_span(inside), "del")


def _edit_marks(rows: list[Any]) -> set[str]:
    """The ids of Word's ``_GoBack`` bookmarks in the rows: it only remembers where the last edit
    was (Word moves it on every save), so a copy goes without it rather than duplicating it."""
    return {
        element.get(W_ID, "")
        for tr in rows
        for element in tr.iter(_W_BOOKMARKSTART)
        if element.get(qn("w:name")) == GO_BACK
    }


def _new_comment_markers(tbl: Any, snapshot: Snapshot) -> list[Any]:
    """The comment markers (range ends and reference runs) in ``tbl`` that its snapshot does not
    hold: comments of earlier operations of this call, which must not lose their anchor."""
    old = {e.get(W_ID) for tr in snapshot.rows for e in tr.iter(*_COMMENT_MARKERS)}
    carried = []
    for element in tbl.iter(*_COMMENT_MARKERS):
        if element.get(W_ID) in old:
            continue
        parent = element.getparent()
        carried.append(parent if element.tag == _W_COMMENTREFERENCE and parent.tag == W_R else element)
    return carried


def _anchored(rows: list[Any]) -> dict[tuple[str, str], str]:
    """What the rows hold that may appear only once in a document: {(kind, id): description}."""
    found: dict[tuple[str, str], str] = {}
    skipped = _edit_marks(rows)
    for tr in rows:
        for element in tr.iter():
            tag = element.tag
            if not isinstance(tag, str):
                continue
            kind = _ANCHORED_ONCE.get(tag)
            if kind == "bookmark" and element.get(W_ID) in skipped:
                continue
            if kind is not None:
                value = element.get(W_ID) or ""
                name = element.get(qn("w:name"))
                shown = f"{kind} {name!r}" if kind == "bookmark" and name else f"{kind} {value}"
                found.setdefault((kind, value), shown)  # a bookmark's start (with its name) comes first
            elif tag.startswith("{" + _VML + "}") and element.get("id"):
                found[("VML shape", element.get("id"))] = f"the VML shape {element.get('id')!r}"
    return found


def _obstacle(old_rows: list[Any], new_rows: list[Any]) -> str | None:
    """Why the old rows cannot be copied next to the new ones, or None."""
    for number, tr in enumerate(old_rows, start=1):
        trpr = tr.find(W_TRPR)
        if (trpr is not None and any(child.tag in _ROW_REVISIONS for child in trpr)) or any(
            True for _ in tr.iter(*_CELL_REVISIONS)
        ):
            return (
                f"a row this change rewrites (row {number} of the rows it replaces) carries a pending tracked row or "
                'cell change; accept or reject that change first, or use tableRevisions "cells".'
            )
    old, new = _anchored(old_rows), _anchored(new_rows)
    shared = [old[key] for key in old if key in new]
    if shared:
        return (
            "the table rows this change rewrites hold " + ", ".join(shared[:5]) + (", ..." if len(shared) > 5 else "")
            + ", which a row replacement would have to duplicate (it may be anchored only once); use tableRevisions "
            '"cells", or make the change in direct mode.'
        )  # fmt: skip
    return None


# -- the markup, at the end of the call -----------------------------------------------------------


def finish(ctx: Any) -> None:
    """Write every changed table's old rows before its new ones (see the module docstring)."""
    if not ctx.replacements:
        return
    body = ctx.doc.body
    numbers = _IdSource(body)
    for tbl, snapshot in ctx.replacements.items():
        if not snapshot.applied or not _attached(tbl, body):
            continue
        span = snapshot.changed_span(tbl)
        if span is None:
            continue
        old_first, old_last, new_first, new_last = span
        new_rows = _rows(tbl)[new_first : new_last + 1]
        old_rows = [deepcopy(tr) for tr in snapshot.rows[old_first : old_last + 1]]
        marks = _edit_marks(old_rows)
        grid = tbl.find(W_TBLGRID)
        regridded = grid is not None and snapshot.grid is not None and _key(grid) != _key(snapshot.grid)
        for number, tr in enumerate(old_rows):
            _refresh_ids(ctx, tr, numbers, marks, f"rows:{number}")
            mark_row(tr, "del", ctx.revisions)
            delete_content(tr, ctx.revisions)
            if regridded:
                _lay_out_on_the_grid(tr, ctx.revisions)
        own_text_changes = _own_text_changes(snapshot)
        for tr in new_rows:
            # The call's own text changes in a new row go into its insertion: the old row
            # holds the text as it was, so rejecting gives it back whatever they were.
            resolve_within(tr, "accept", own_text_changes)
            _point_comments(tr, snapshot)
            mark_row(tr, "ins", ctx.revisions)
            insert_content(tr, ctx.revisions)
        for tr in old_rows:
            new_rows[0].addprevious(tr)
        _record_grid(tbl, snapshot, ctx.ids)
        _record_table_properties(tbl, snapshot, ctx.revisions)
    ctx.replacements.clear()


def _lay_out_on_the_grid(tr: Any, revisions: Any) -> None:
    """An old row kept under the new grid, which does not fit it: its cells lose their widths
    (kept in ``w:tcPrChange``, so rejecting restores them), so that editors place them by grid
    columns. LibreOffice places the cells of a row whose columns do not add up to the grid by
    their widths, and then no longer lines up the parts of a vertically merged cell."""
    for tc in table_children(tr, W_TC):
        tcpr = tc.find(W_TCPR)
        if tcpr is None or tcpr.find(W_TCW) is None:
            continue
        record_cell_properties(tc, revisions)
        tcpr.remove(tcpr.find(W_TCW))


def _point_comments(tr: Any, snapshot: Snapshot) -> None:
    """Comments other operations of the call put in a new row become point comments (their
    reference run stays, and is marked inserted with the row): LibreOffice keeps a row holding
    anything untracked, a comment's range included, when the row's insertion is rejected."""
    known = {e.get(W_ID) for row in snapshot.rows for e in row.iter(*_COMMENT_MARKERS)}
    for element in list(tr.iter(*_COMMENT_MARKERS[:2])):
        if element.get(W_ID) not in known:
            _remove_keeping_tail(element)


def _attached(element: Any, body: Any) -> bool:
    return any(node is body for node in element.iterancestors())


def insert_content(tr: Any, revisions: Any) -> None:
    """Mark everything in row ``tr`` inserted: runs not yet inside an insertion (a deletion
    pending in the row is wrapped whole: inserted, then deleted, as Word writes it), paragraph
    marks, and the rows of tables nested in it."""
    for nested in tr.iter(W_TR):
        if nested is not tr:
            mark_row(nested, "ins", revisions)
    for p in tr.iter(W_P):
        targets: list[Any] = []
        for run in paragraph_runs(p):
            wrappers = [node for node in _ancestors_within(run, p) if node.tag in (W_INS, W_DEL)]
            if any(node.tag == W_INS for node in wrappers):
                continue
            target = wrappers[-1] if wrappers else run  # the outermost pending deletion
            if not any(target is seen for seen in targets):
                targets.append(target)
        wrap_inserted(targets, revisions)
        mark_paragraph(p, "ins", revisions)


def _ancestors_within(run: Any, p: Any) -> list[Any]:
    out = []
    node = run.getparent()
    while node is not None and node is not p:
        out.append(node)
        node = node.getparent()
    return out


class _IdSource:
    """Fresh drawing (``wp:docPr``) and content-control (``w:sdtPr/w:id``) ids for copies."""

    def __init__(self, body: Any) -> None:
        self.drawing = max((_number(e.get("id")) for e in body.iter(_WP_DOCPR)), default=0)
        self.control = max(
            (abs(_number(e.get(W_VAL))) for sdt in body.iter(_W_SDTPR) for e in sdt.iter(W_ID)), default=0
        )

    def next_drawing(self) -> str:
        self.drawing += 1
        return str(self.drawing)

    def next_control(self) -> str:
        self.control = self.control + 1 if self.control < MAX_ID else 1
        return str(self.control)


def _number(value: str | None) -> int:
    try:
        return int(value or "0")
    except ValueError:
        return 0


def _refresh_ids(ctx: Any, tr: Any, numbers: _IdSource, marks: set[str], seed: str) -> None:
    """Give the copy ``tr`` its own paragraph and row ids, revision ids, drawing and
    content-control ids; drop the ``_GoBack`` bookmarks ``marks`` names (see ``_edit_marks``)."""
    for element in list(tr.iter(_W_BOOKMARKSTART, _W_BOOKMARKEND)):
        if element.get(W_ID) in marks:
            _remove_keeping_tail(element)
    for element in tr.iter():
        tag = element.tag
        if not isinstance(tag, str):
            continue
        if element.get(W14_PARAID) is not None:
            para_id = ctx.new_para_id(seed)
            element.set(W14_PARAID, para_id)
            element.set(W14_TEXTID, para_id)
        if tag in _RENUMBERED or tag in _CELL_REVISIONS:
            element.set(W_ID, str(ctx.ids.take()))
        elif tag == _WP_DOCPR:
            element.set("id", numbers.next_drawing())
        elif tag == W_SDT:
            sdtpr = element.find(_W_SDTPR)
            identity = sdtpr.find(W_ID) if sdtpr is not None else None
            if identity is not None:
                identity.set(W_VAL, numbers.next_control())


def _remove_keeping_tail(element: Any) -> None:
    parent = element.getparent()
    tail = element.tail
    previous = element.getprevious()
    parent.remove(element)
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


def _record_grid(tbl: Any, snapshot: Snapshot, ids: Any) -> None:
    """The new grid, the old one kept in ``w:tblGridChange`` (an existing record already holds
    the grid rejecting must restore)."""
    grid = tbl.find(W_TBLGRID)
    if grid is not None and snapshot.grid is not None and _key(grid) != _key(snapshot.grid):
        record_grid(grid, ids, source=snapshot.grid)


def _record_table_properties(tbl: Any, snapshot: Snapshot, revisions: Any) -> None:
    """Table properties direct mode changed (a fixed width), the old ones kept in
    ``w:tblPrChange``."""
    tblpr = tbl.find(W_TBLPR)
    if tblpr is not None and snapshot.tblpr is not None and _key(tblpr) != _key(snapshot.tblpr):
        record_table_properties(tbl, revisions, source=snapshot.tblpr)
