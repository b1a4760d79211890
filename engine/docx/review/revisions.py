"""Accepting or rejecting every tracked change (optionally only one author's).

``resolve_all(doc, "accept" | "reject", author=None)`` edits the parts of ``doc`` in place (main
document, headers, footers, footnotes, endnotes, comments), marks them dirty and returns counts
by kind. Accepting keeps insertions and drops deletions; rejecting does the opposite and restores
the formatting and properties recorded in ``w:*PrChange`` elements.

- text: ``w:ins`` / ``w:moveTo`` are unwrapped on accept and removed on reject; ``w:del`` /
  ``w:moveFrom`` are removed on accept and unwrapped on reject (``w:delText`` becoming ``w:t``);
- paragraph marks: a deleted mark (accept) or an inserted mark (reject) joins the paragraph to
  the next one, which keeps its own properties; a paragraph left with nothing is removed when its
  container can do without it;
- table rows and cells: a deleted row or cell (accept) or an inserted one (reject) is removed, a
  table left without rows goes with it, and a grid column left without cells leaves ``w:tblGrid``
  (so an accepted column deletion reads as the same deletion made directly);
- property changes: accept drops the record, reject puts the recorded properties back;
- block ids: minted ids are written into their paragraphs first, so blocks keep their ids.

``resolve_changes(doc, ids, mode, story=None)`` does the same for chosen changes of one story (the
main text, or a header, footer or note), by the ids ``read_changes`` reports (a Word reviewer's
"accept this change").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.stories import story_parts as parts_of
from ..model.walk import next_block_sibling
from ..wml.edit import is_attached
from ..wml.ns import (
    W_DEL,
    W_DELINSTRTEXT,
    W_DELTEXT,
    W_ID,
    W_INS,
    W_INSTRTEXT,
    W_MOVEFROM,
    W_MOVETO,
    W_P,
    W_PPR,
    W_RPR,
    W_SECTPR,
    W_T,
    W_TBL,
    W_TC,
    W_TR,
    W_TRPR,
    W_VMERGE,
    qn,
)

if TYPE_CHECKING:
    from ..model.document import DocxDocument
    from ..model.stories import Story

_RANGE_MARKERS = frozenset(
    qn(f"w:{name}")
    for name in (
        "moveFromRangeStart",
        "moveFromRangeEnd",
        "moveToRangeStart",
        "moveToRangeEnd",
        "customXmlInsRangeStart",
        "customXmlInsRangeEnd",
        "customXmlDelRangeStart",
        "customXmlDelRangeEnd",
        "customXmlMoveFromRangeStart",
        "customXmlMoveFromRangeEnd",
        "customXmlMoveToRangeStart",
        "customXmlMoveToRangeEnd",
    )
)
_PR_CHANGES = {
    qn("w:rPrChange"): qn("w:rPr"),
    qn("w:pPrChange"): qn("w:pPr"),
    qn("w:sectPrChange"): qn("w:sectPr"),
    qn("w:tblPrChange"): qn("w:tblPr"),
    qn("w:trPrChange"): qn("w:trPr"),
    qn("w:tcPrChange"): qn("w:tcPr"),
    qn("w:tblPrExChange"): qn("w:tblPrEx"),
    qn("w:tblGridChange"): qn("w:tblGrid"),
}
_CELL_MARKERS = {qn("w:cellIns"): "cellInserted", qn("w:cellDel"): "cellDeleted", qn("w:cellMerge"): "cellMerged"}
_REVISIONS = (W_INS, W_DEL, W_MOVEFROM, W_MOVETO)
_MARKER_TAGS = frozenset({W_INS, W_DEL, W_MOVEFROM, W_MOVETO})
_KEEP_ON_RESTORE = {
    qn("w:pPr"): (W_RPR, W_SECTPR),
    qn("w:sectPr"): (qn("w:headerReference"), qn("w:footerReference")),
}
_HEADER_REFERENCES = (qn("w:headerReference"), qn("w:footerReference"))
_RESOLVED_TAGS = (*_REVISIONS, *_RANGE_MARKERS, *_PR_CHANGES, *_CELL_MARKERS, qn("w:numberingChange"))
_VMERGE_ATTR = qn("w:vMerge")
_VMERGE_ORIG_ATTR = qn("w:vMergeOrig")


def story_parts(doc: DocxDocument) -> list[str]:
    """Every part that can hold tracked changes."""
    return parts_of(doc, comments=True)


def resolve_all(doc: DocxDocument, mode: str, author: str | None = None, *, keep_ids: bool = True) -> dict[str, int]:
    """Accept (``mode="accept"``) or reject every tracked change, or only ``author``'s.

    With ``keep_ids`` (the default), when the main text has a change to resolve, block ids minted
    for paragraphs without a stored id are first written into them (as ``resolve_changes``
    does): resolving changes the text and the position those ids are minted from, and every block
    that survives keeps the id a read of the document reported. A caller that never shows ids
    (and would rather not pay for declaring the w14 namespace on a long file) passes False."""
    if mode not in ("accept", "reject"):
        raise ValueError("mode must be accept or reject")
    counts: Counter[str] = Counter()

    def select(element: Any) -> bool:
        return _by(element, author)

    if keep_ids and any(select(element) for element in doc.body.iter(*_RESOLVED_TAGS)):
        doc.stamp_minted_ids()
    for part in story_parts(doc):
        root = doc.package.xml(part)
        if _resolve_tree(root, mode, select, counts):
            doc.package.mark_dirty(part)
    doc.invalidate()
    return dict(sorted(counts.items()))


def resolve_changes(
    doc: DocxDocument, change_ids: Iterable[str], mode: str, story: Story | None = None
) -> dict[str, int]:
    """Accept or reject the tracked changes whose ids are ``change_ids`` (the ``id`` of
    ``read_changes`` entries) in the main text, or in ``story`` (a header, footer or note) when
    given, leaving every other change pending. Every element of that story carrying one of the
    ids is resolved: a revision Word split over several runs, or kept twice (a text box's
    alternate content), goes as one. Returns counts by kind (empty when no id matched; the caller
    checks the ids against ``read_changes`` first).

    In the main text, block ids minted for paragraphs without a stored id are written into them
    first, so the blocks keep the ids a read of this document reported (resolving changes their
    text, which would otherwise mint different ids). Other stories have no block ids."""
    if mode not in ("accept", "reject"):
        raise ValueError("mode must be accept or reject")
    wanted = {str(change_id) for change_id in change_ids}
    counts: Counter[str] = Counter()
    container, part = (doc.body, doc.main_part) if story is None else (story.container, story.part)
    if not any(element.get(W_ID) in wanted for element in container.iter(*_RESOLVED_TAGS)):
        return {}
    if story is None:
        doc.stamp_minted_ids()
    if _resolve_tree(container, mode, lambda element: element.get(W_ID) in wanted, counts):
        doc.package.mark_dirty(part)
    doc.invalidate()
    return dict(sorted(counts.items()))


def resolve_within(element: Any, mode: str, select: Callable[[Any], bool]) -> dict[str, int]:
    """Accept or reject the tracked changes inside ``element`` that ``select`` picks, as
    ``resolve_all`` does for a whole story (for an edit that rewrites part of a document: a row
    replacement takes the call's own changes into the rows it inserts). Returns counts by kind."""
    if mode not in ("accept", "reject"):
        raise ValueError("mode must be accept or reject")
    counts: Counter[str] = Counter()
    _resolve_tree(element, mode, select, counts)
    return dict(sorted(counts.items()))


def _by(element: Any, author: str | None) -> bool:
    return author is None or element.get(qn("w:author")) == author


def _resolve_tree(root: Any, mode: str, select: Callable[[Any], bool], counts: Counter) -> bool:
    """Resolve the revision elements under ``root`` that ``select`` picks."""
    accept = mode == "accept"
    found = list(root.iter(*_RESOLVED_TAGS))
    select = _with_range_ends(found, select)
    changed = False
    joins: list[Any] = []
    cut_cells: list[Any] = []  # cells the resolution takes away, removed together at the end
    for element in found:
        if not is_attached(element, root) or not select(element):
            continue
        tag = element.tag
        parent = element.getparent()
        if tag in _RANGE_MARKERS:
            parent.remove(element)
            changed = True
            continue
        if tag in _PR_CHANGES:
            _resolve_property_change(element, accept)
            counts["propertyChange"] += 1
            changed = True
            continue
        if tag in _CELL_MARKERS:
            _resolve_cell_marker(element, accept, counts, cut_cells)
            changed = True
            continue
        if tag == qn("w:numberingChange"):
            parent.remove(element)
            changed = True
            continue
        # w:ins / w:del / w:moveFrom / w:moveTo
        keeps = tag in (W_INS, W_MOVETO) if accept else tag in (W_DEL, W_MOVEFROM)
        parent_tag = parent.tag if parent is not None else None
        if parent_tag == W_RPR and parent.getparent() is not None and parent.getparent().tag == W_PPR:
            parent.remove(element)
            counts["paragraphMark"] += 1
            if not keeps:
                joins.append(parent.getparent().getparent())
        elif parent_tag == W_TRPR:
            parent.remove(element)
            counts["row"] += 1
            if not keeps:
                _remove_row(parent.getparent())
        elif parent_tag is not None and str(parent_tag).endswith("Pr"):
            # A marker on some other property group (numbering, run properties): the marker
            # goes; on reject an inserted property group goes with it.
            parent.remove(element)
            if not keeps and parent_tag == qn("w:numPr"):
                parent.getparent().remove(parent)
            counts["propertyChange"] += 1
        else:
            counts["insertion" if tag in (W_INS, W_MOVETO) else "deletion"] += 1
            if keeps:
                _unwrap(element)
            else:
                _remove_keeping_anchors(element)
        changed = True
    _remove_cells(cut_cells)
    for p in joins:
        if is_attached(p, root):
            _join_with_next(p)
    return changed


def _with_range_ends(found: list[Any], select: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """``select``, also picking the end marker of every range whose start it picks: an end
    (``w:moveToRangeEnd``...) carries only the id, not the author a selection by author reads."""
    starts = {
        (_RANGE_FAMILY[element.tag], element.get(W_ID))
        for element in found
        if element.tag in _RANGE_STARTS and select(element)
    }
    if not starts:
        return select

    def with_ends(element: Any) -> bool:
        if element.tag in _RANGE_ENDS:
            return (_RANGE_FAMILY[element.tag], element.get(W_ID)) in starts or select(element)
        return select(element)

    return with_ends


_RANGE_FAMILY = {tag: tag.rsplit("Range", 1)[0] for tag in _RANGE_MARKERS}
_RANGE_STARTS = frozenset(tag for tag in _RANGE_MARKERS if tag.endswith("Start"))
_RANGE_ENDS = frozenset(tag for tag in _RANGE_MARKERS if tag.endswith("End"))

_ANCHORS = tuple(
    qn(f"w:{name}")
    for name in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "permStart", "permEnd")
)


def _remove_keeping_anchors(element: Any) -> None:
    """Remove a dropped revision, but keep the bookmark, comment and permission range markers
    inside it where it stood: a bookmark whose end went with deleted text would otherwise be
    left unbalanced and every cross-reference to it broken."""
    parent = element.getparent()
    index = parent.index(element)
    for offset, anchor in enumerate(list(element.iter(*_ANCHORS))):
        tail = anchor.tail
        parent.insert(index + offset, anchor)
        anchor.tail = tail
    parent.remove(element)


def _unwrap(element: Any) -> None:
    """Replace ``element`` by its children; deleted text becomes text again."""
    for text in element.iter(W_DELTEXT, W_DELINSTRTEXT):
        text.tag = W_T if text.tag == W_DELTEXT else W_INSTRTEXT
    parent = element.getparent()
    index = parent.index(element)
    for offset, child in enumerate(list(element)):
        parent.insert(index + offset, child)
    tail = element.tail
    parent.remove(element)
    if tail and tail.strip():
        # Only whitespace normally sits between WordprocessingML elements; keep anything else.
        previous = parent[index - 1] if index > 0 else None
        if previous is not None:
            previous.tail = (previous.tail or "") + tail


def _resolve_property_change(change: Any, accept: bool) -> None:
    owner = change.getparent()
    if accept:
        owner.remove(change)
        return
    old = change.find(_PR_CHANGES[change.tag])
    owner.remove(change)
    if change.tag == qn("w:tblGridChange"):
        if old is not None:
            for child in list(owner):
                owner.remove(child)
            owner.extend(list(old))
        return
    kept_front: list[Any] = []
    kept_back: list[Any] = []
    for child in list(owner):
        tag = child.tag
        if tag in _MARKER_TAGS or tag in _CELL_MARKERS:
            (kept_front if owner.tag == W_RPR else kept_back).append(child)
        elif tag in _HEADER_REFERENCES and owner.tag == W_SECTPR:
            kept_front.append(child)
        elif owner.tag == W_PPR and tag in (W_RPR, W_SECTPR):
            kept_back.append(child)
        owner.remove(child)
    owner.extend(kept_front)
    if old is not None:
        owner.extend(list(old))
    owner.extend(kept_back)


def _resolve_cell_marker(marker: Any, accept: bool, counts: Counter, cut_cells: list[Any]) -> None:
    tcpr = marker.getparent()
    cell = tcpr.getparent() if tcpr is not None else None
    kind = _CELL_MARKERS[marker.tag]
    counts[kind] += 1
    tcpr.remove(marker)
    if kind == "cellMerged":
        value = marker.get(_VMERGE_ATTR if accept else _VMERGE_ORIG_ATTR)
        existing = tcpr.find(W_VMERGE)
        if value in ("cont", "rest"):
            if existing is None:
                existing = tcpr.makeelement(W_VMERGE, {})
                tcpr.append(existing)
            if value == "rest":
                existing.set(qn("w:val"), "restart")
            elif qn("w:val") in existing.attrib:
                del existing.attrib[qn("w:val")]
        elif existing is not None:
            tcpr.remove(existing)
        return
    removes = (kind == "cellDeleted") if accept else (kind == "cellInserted")
    if removes and cell is not None and cell.tag == W_TC:
        cut_cells.append(cell)


def _remove_cells(cells: list[Any]) -> None:
    """Remove the cells a resolution takes away (deleted cells accepted, inserted ones rejected),
    a row left without cells, and the grid columns they leave unused: a grid column goes when
    every row that reaches it covers it with a removed cell (a tracked column deletion accepted,
    or a column insertion rejected that recorded no earlier grid), and a table of fixed width
    narrows by its width. The grid is only kept up to date when it lists the table's columns
    (and not when a rejected ``w:tblGridChange`` already put the earlier grid back)."""
    by_table: dict[Any, list[Any]] = {}
    for tc in cells:
        by_table.setdefault(_enclosing_table(tc), []).append(tc)
    for tbl, gone in by_table.items():
        vacated = _vacated_columns(tbl, set(gone)) if tbl is not None else []
        for tc in gone:
            row = tc.getparent()
            if row is None:
                continue
            row.remove(tc)
            if row.tag == W_TR and row.find(W_TC) is None:
                _remove_row(row)
        if vacated and tbl.getparent() is not None and tbl.find(W_TR) is not None:
            _drop_grid_columns(tbl, vacated)


def _enclosing_table(tc: Any) -> Any | None:
    node = tc.getparent()
    while node is not None and node.tag != W_TBL:
        node = node.getparent()
    return node


def _vacated_columns(tbl: Any, gone: set[Any]) -> list[int]:
    """The grid columns of ``tbl`` that only cells in ``gone`` cover (before they are removed)."""
    from ..model.table_layout import Grid

    grid = Grid(tbl)
    if not grid.grid_matches():
        return []
    vacated = []
    for column in range(grid.width):
        covered_by_gone = False
        for row in grid.rows:
            cell = row.cell_covering(column)
            if cell is None:
                if column < row.before or row.end <= column < row.end + row.after:
                    break  # empty grid space this row keeps
                continue  # the row does not reach this column
            if cell.tc not in gone:
                break
            covered_by_gone = True
        else:
            if covered_by_gone:
                vacated.append(column)
    return vacated


def _drop_grid_columns(tbl: Any, columns: list[int]) -> None:
    from ..model.table_layout import W_GRIDCOL, W_TBLGRID
    from ..wml.attrs import int_attr

    grid = tbl.find(W_TBLGRID)
    cols = grid.findall(W_GRIDCOL)
    removed_width = sum(max(int_attr(cols[index], qn("w:w"), 0) or 0, 0) for index in columns)
    for index in columns:
        grid.remove(cols[index])
    tblpr = tbl.find(qn("w:tblPr"))
    width = tblpr.find(qn("w:tblW")) if tblpr is not None else None
    if width is None or width.get(qn("w:type")) != "dxa" or not removed_width:
        return
    current = int_attr(width, qn("w:w"), 0) or 0
    if current > 0:
        width.set(qn("w:w"), str(max(current - removed_width, 0)))


def _remove_row(row: Any) -> None:
    table = row.getparent()
    if table is None:
        return
    table.remove(row)
    if table.tag == W_TBL and table.find(W_TR) is None:
        container = table.getparent()
        if container is None:
            return
        index = container.index(table)
        container.remove(table)
        if container.tag == W_TC and container.find(W_P) is None:
            # A cell must end with a paragraph.
            container.insert(index, container.makeelement(W_P, {}))


def _has_content(p: Any) -> bool:
    return any(child.tag != W_PPR for child in p)


def _join_with_next(p: Any) -> None:
    """Join paragraph ``p`` (whose mark is going away) with the paragraph after it."""
    parent = p.getparent()
    if parent is None:
        return
    ppr = p[0] if len(p) and p[0].tag == W_PPR else None
    carries_section = ppr is not None and ppr.find(W_SECTPR) is not None
    following = next_block_sibling(p)
    if following is not None and following.tag == W_P and not carries_section:
        position = 1 if len(following) and following[0].tag == W_PPR else 0
        for child in [c for c in p if c.tag != W_PPR]:
            following.insert(position, child)
            position += 1
        parent.remove(p)
        return
    if _has_content(p) or carries_section:
        return
    siblings = [c for c in parent if c.tag == W_P]
    if parent.tag == W_TC and len(siblings) <= 1:
        return
    parent.remove(p)


def resolve_file(
    path: str | Path,
    mode: str,
    *,
    author: str | None = None,
    output: str | Path | None = None,
    dry_run: bool = False,
) -> dict[str, Any]:
    """Accept or reject every tracked change of the .docx at ``path`` (only ``author``'s when
    given) and write the result atomically to ``output`` (default: in place). With ``dry_run``
    nothing is written. Raises ``InputError`` for an unusable input or output path."""
    from ..wml.text import check_author

    check_author(author)
    source = Path(path)
    if dry_run or output is not None:
        return _resolve(source, mode, author, output, dry_run)
    from ...file_lock import updating

    with updating(source):
        return _resolve(source, mode, author, output, dry_run)


def _resolve(source: Path, mode: str, author: str | None, output: str | Path | None, dry_run: bool) -> dict[str, Any]:
    from ..model.document import DocxDocument, forget_document
    from ..package.strict_ooxml import refuse_writing

    doc = DocxDocument.open(source)  # a private copy: the per-process cache stays untouched
    refuse_writing(doc.package)
    counts = resolve_all(doc, mode, author)
    total = sum(counts.values())
    target = Path(output) if output is not None else source
    written = None
    if total:
        doc.stamp_minted_ids()  # so that documentVersion is the version of what is (or would be) written
    if not dry_run and (total or output is not None):
        doc.save(target)
        forget_document(target)
        written = str(target)
    return {
        "mode": mode,
        "author": author,
        "resolved": total,
        "byKind": counts,
        "output": written,
        "dryRun": dry_run,
        "documentVersion": doc.version,
    }
