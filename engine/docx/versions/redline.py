"""A redline: a new .docx whose tracked changes turn the previous version into the current one.

``redline_files(previous, current, output, author=..., privacy=...)`` builds it:

1. Both versions are read as accepted (pending tracked changes applied, on private copies); the
   previous one is the starting package, so its styles, settings and untouched parts are kept.
2. Each story is aligned with its counterpart (``alignment``) and edited in place: paired
   paragraphs get word-level changes (``redline_paragraph``), paragraphs only in the previous
   version are marked deleted, paragraphs only in the current one are copied in as inserted (with
   their pictures, hyperlinks, styles and numbering, see ``transplant``), tables row by row
   (rows marked inserted or deleted, cells paired by position; a paired table, row or cell whose
   properties differ gets a property revision, see ``table_formatting``), text boxes inside paired
   paragraphs like stories of their own. A paragraph deleted in one place and inserted in another
   with the same text of at least three words is marked moved (``w:moveFrom`` / ``w:moveTo`` with
   their range markers).
3. Paragraph marks follow Word's model: a mark directly before a table or at the end of a story
   or cell cannot come or go (Word keeps that paragraph), so when the last paragraph of such a
   stretch is inserted or deleted, the mark of the nearest surviving paragraph before it is the
   one marked, and its paragraph properties move with it (``w:pPrChange``); failing that, the
   last deleted and inserted paragraphs of the stretch are paired instead. Between two kept items,
   deletions and insertions are ordered so that no paragraph that comes or goes stands right
   before a table when that can be helped (``order_gaps``). A paragraph holding a section break is
   never marked: removing it would merge two sections (a section break only in the current version
   is left out of the copied paragraph). Where LibreOffice would merge two insertions across a
   paragraph break and lose the break on reject, the second paragraph's revisions go undated
   (``separate_touching_insertions``).
4. Headers and footers are paired by section and kind; footnotes and endnotes follow their
   references (a kept reference pairs the two notes, an inserted one copies its note in as
   inserted, a deleted one marks its note's text deleted). Stories that exist in one version
   only are listed in ``unmatchedStories`` and left as the previous version has them.
5. Package metadata is reported, and removed when asked (``privacy``).

Accepting every change of the result gives the current version's text, rejecting every change
the previous version's (``tests/docx/test_redline*.py`` check both with our own accept/reject and
with LibreOffice).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ... import progress
from ...errors import DeskcheckError
from ..wml.ns import NS, W_P, W_PPR, W_SECTPR, W_TBL, W_TC, W_TR, qn
from ..wml.properties import PPR_BASE, PPR_ORDER, insert_ordered
from ..wml.revisions import (
    IdAllocator,
    Revisions,
    mark_paragraph,
    mark_row,
    paragraph_mark_state,
    record_paragraph_properties,
)
from ..wml.touching_insertions import separate_touching_insertions
from .alignment import Aligned, Para, Table, align_containers, event_kind, paragraphs_of
from .compare import same_markup
from .diff_text import COARSE_NOTE, Budget, tokenize
from .table_formatting import TablePropertyRedliner

DEFAULT_AUTHOR = "deskcheck compare"
MIN_MOVE_WORDS = 3
_MARK_TAGS = {"ins": qn("w:ins"), "del": qn("w:del"), "moveFrom": qn("w:moveFrom"), "moveTo": qn("w:moveTo")}
_TBLPR = qn("w:tblPr")
_TBLPREX = qn("w:tblPrEx")


# -- plan ---------------------------------------------------------------------------------------------


class Step:
    """One event of a container, with what is nested in it (rows of a table pair, text boxes of a
    paragraph pair) and, for a paragraph, the move it belongs to."""

    __slots__ = ("boxes", "current", "move", "previous", "rows")

    def __init__(self, previous: Any, current: Any, rows=None, boxes=None) -> None:
        self.previous = previous
        self.current = current
        self.rows = rows
        self.boxes = boxes
        self.move: tuple[int, str] | None = None  # (move number, "from" | "to")

    @property
    def kind(self) -> str:
        return event_kind(self.previous, self.current)


class RowStep:
    __slots__ = ("cells", "current", "previous")

    def __init__(self, previous: Any, current: Any, cells) -> None:
        self.previous = previous
        self.current = current
        self.cells = cells  # [(previous cell, current cell, [Step])] for paired rows


def _is_para(item: Any) -> bool:
    return isinstance(item, Para)


def _item(step: Step) -> Any:
    return step.previous if step.previous is not None else step.current


def _holds_section(item: Any) -> bool:
    """A paragraph of the previous version whose mark holds a section break: it is never marked
    inserted or deleted (accepting or rejecting would have to merge two sections)."""
    if not _is_para(item):
        return False
    p = item.element
    return len(p) > 0 and p[0].tag == W_PPR and p[0].find(W_SECTPR) is not None


def _stretch_end(step: Step) -> bool:
    return step.previous is not None and _holds_section(step.previous)


def settle_runs(steps: list[Step]) -> list[Step]:
    """Make the last paragraph of every stretch of paragraphs (before a table, at the end, or a
    paragraph holding a section break) one whose mark survives both accept and reject (see the
    module docstring). When it is an insertion (a deletion), the nearest deletion (insertion)
    before it, with only insertions (deletions) between them, tables included, is paired with it
    instead; otherwise a paired paragraph of the same stretch lends it its mark when the plan is
    applied."""
    out = list(steps)
    index = len(out) - 1
    while index >= 0:
        step = out[index]
        if not _is_para(_item(step)):
            index -= 1
            continue
        if step.kind != "paired":
            partner = "deleted" if step.kind == "added" else "added"
            j = index - 1
            while j >= 0:
                other = out[j]
                if _stretch_end(other):
                    break
                if other.kind == step.kind:
                    j -= 1
                    continue
                if other.kind == partner and _is_para(_item(other)):
                    a = other.previous if partner == "deleted" else step.previous
                    b = step.current if partner == "deleted" else other.current
                    out[index] = Step(a, b, boxes=_box_steps(a, b))
                    del out[j]
                    index -= 1
                elif other.kind == "paired" and _is_para(_item(other)) and _lending_breaks(other):
                    # Shift the pairing down to the stretch's last paragraph instead of borrowing
                    # the mark of a paragraph whose picture changed (see ``_lending_breaks``).
                    if step.kind == "deleted":
                        out[index] = Step(step.previous, other.current, boxes=_box_steps(step.previous, other.current))
                        out[j] = Step(other.previous, None)
                    else:
                        out[index] = Step(other.previous, step.current, boxes=_box_steps(other.previous, step.current))
                        out[j] = Step(None, other.current)
                break
        index -= 1
        while index >= 0 and _is_para(_item(out[index])) and not _stretch_end(out[index]):
            index -= 1
    return out


def _lending_breaks(step: Step) -> bool:
    """Whether a paired paragraph should not lend its mark: its pictures or other objects changed,
    and LibreOffice loses a paragraph mark marked deleted right after an inserted picture."""
    a, b = step.previous, step.current
    return a.key != b.key and ("\x02" in a.key or "\x02" in b.key)


def _box_steps(a: Para, b: Para) -> list[list[Step]] | None:
    """Steps for the text boxes of two paragraphs paired late (by ``settle_runs``)."""
    if (a.boxes or b.boxes) and len(a.boxes) == len(b.boxes):
        return [plan_container(x, y, Budget()) for x, y in zip(a.boxes, b.boxes, strict=True)]
    return None


def plan_container(
    previous: list[Any], current: list[Any], budget: Budget | None = None, *, positional: bool = False
) -> list[Step]:
    """The steps turning one container's items into the other's (see ``alignment``)."""
    budget = budget if budget is not None else Budget()
    return _steps(align_containers(previous, current, budget, positional=positional))


def _steps(events: list[Aligned]) -> list[Step]:
    return settle_runs(order_gaps([_plan_event(event) for event in events]))


# Gaps with more deleted x inserted items than this keep the plain order (deletions first).
MAX_GAP_ORDERING = 10_000


def order_gaps(steps: list[Step]) -> list[Step]:
    """Interleave the deletions and insertions between two paired items so that, where it can be
    helped, no paragraph that comes or goes stands right before a table: its mark could not join
    across it (see the module docstring). Deletions keep their order, insertions theirs; among
    equally good orders, deletions come first."""
    out: list[Step] = []
    gap: list[Step] = []
    for step in [*steps, None]:
        if step is None or step.kind == "paired":
            if gap:
                following = _item(step) if step is not None else None
                out.extend(_ordered_gap(gap, following))
                gap = []
            if step is not None:
                out.append(step)
        else:
            gap.append(step)
    return out


def _ordered_gap(gap: list[Step], following: Any) -> list[Step]:
    deleted = [step for step in gap if step.kind == "deleted"]
    added = [step for step in gap if step.kind == "added"]
    n, m = len(deleted), len(added)
    if not n or not m or n * m > MAX_GAP_ORDERING:
        return deleted + added
    # best[flag][i][j]: fewest paragraphs right before a table when deleted[i:] and added[j:] are
    # still to place and the last one placed is a paragraph (flag 1) or not (flag 0).
    table_next = following is not None and not _is_para(following)
    inf = n + m + 2
    best = [[[inf] * (m + 1) for _ in range(n + 1)] for _ in range(2)]
    take = [[[0] * (m + 1) for _ in range(n + 1)] for _ in range(2)]
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            for flag in (0, 1):
                if i == n and j == m:
                    best[flag][i][j] = int(flag and table_next)
                    continue
                options = []
                for side, steps, k in ((0, deleted, i), (1, added, j)):
                    if k < len(steps):
                        paragraph = _is_para(_item(steps[k]))
                        rest = best[int(paragraph)][i + (side == 0)][j + (side == 1)]
                        options.append((int(flag and not paragraph) + rest, side))
                best[flag][i][j], take[flag][i][j] = min(options)
    ordered: list[Step] = []
    i = j = flag = 0
    while i < n or j < m:
        if take[flag][i][j] == 0:
            step, i = deleted[i], i + 1
        else:
            step, j = added[j], j + 1
        ordered.append(step)
        flag = int(_is_para(_item(step)))
    return ordered


def _plan_event(event: Aligned) -> Step:
    a, b = event.previous, event.current
    if a is None or b is None:
        return Step(a, b)
    if isinstance(a, Table):
        rows = [
            RowStep(
                row.previous,
                row.current,
                None if row.cells is None else [(x, y, _steps(inner)) for x, y, inner in row.cells],
            )
            for row in event.rows or ()
        ]
        return Step(a, b, rows=rows)
    if event.boxes is not None:
        return Step(a, b, boxes=[_steps(box) for box in event.boxes])
    return Step(a, b)


def _all_steps(steps: list[Step]):
    for step in steps:
        yield step
        for row in step.rows or ():
            for _, _, inner in row.cells or ():
                yield from _all_steps(inner)
        for box in step.boxes or ():
            yield from _all_steps(box)


def find_moves(steps: list[Step], first: int = 1) -> int:
    """Mark deleted and added paragraphs of equal text (three words or more) as a move, first in
    first out per text. Returns the next move number."""
    from collections import defaultdict, deque

    deleted: dict[str, deque[Step]] = defaultdict(deque)
    flat = list(_all_steps(steps))
    for step in flat:
        if (
            step.kind == "deleted"
            and _is_para(step.previous)
            and not step.previous.boxes
            and _words(step.previous.text) >= MIN_MOVE_WORDS
        ):
            deleted[step.previous.text].append(step)
    number = first
    for step in flat:
        if step.kind == "added" and _is_para(step.current) and not step.current.boxes:
            queue = deleted.get(step.current.text)
            if queue:
                source = queue.popleft()
                source.move = (number, "from")
                step.move = (number, "to")
                number += 1
    return number


def _words(text: str) -> int:
    return sum(1 for token in tokenize(text) if token.strip())


# -- applying -------------------------------------------------------------------------------------------


class StoryRedliner:
    """Applies the plan of one story to the previous version's XML."""

    def __init__(self, paragraphs: Any, revisions: Revisions, counts: dict[str, int]) -> None:
        self.paragraphs = paragraphs  # a redline_paragraph.ParagraphRedliner
        self.revisions = revisions
        self.counts = counts
        self.properties = TablePropertyRedliner(
            revisions, lambda element: paragraphs.importer.copy(element, paragraphs.source_part, paragraphs.target_part)
        )

    def container(self, steps: list[Step], container: Any) -> None:
        output: list[tuple[Any, Step]] = []  # (element placed, step) in output order
        first_base = next((s.previous.element for s in steps if s.previous is not None), None)
        last = None
        for index, step in enumerate(steps):
            a, b = step.previous, step.current
            if a is not None and b is not None and self._split_pair(step, steps, index):
                # Replaced whole: deleted here, the current paragraph inserted right after.
                self.paragraphs.delete(a.element)
                copy = self.paragraphs.insert_copy(b.element)
                a.element.addnext(copy)
                copy.tail = None
                self.counts["modified"] += 1
                output.append((a.element, Step(a, None)))
                output.append((copy, Step(None, b)))
                last = copy
                continue
            if a is not None and b is not None:
                if isinstance(a, Table):
                    self.table(step)
                else:
                    self.paragraph_pair(step)
                element = a.element
            elif a is not None:
                element = a.element
                if isinstance(a, Table):
                    self.delete_table(element)
                else:
                    self._delete_paragraph(step)
                self._count(a, "deleted" if step.move is None else "moved")
            else:
                element = self._insert(step, last, first_base, container)
                if step.move is None:
                    self._count(b, "added")
            last = element
            output.append((element, step))
        self._settle_marks(output)

    def _split_pair(self, step: Step, steps: list[Step], index: int) -> bool:
        """A paired paragraph followed by another paragraph whose ending object changed (see
        ``ParagraphRedliner.object_change_at_end``)."""
        a, b = step.previous, step.current
        if not _is_para(a) or a.boxes or b.boxes or index + 1 >= len(steps):
            return False
        if not _is_para(_item(steps[index + 1])) or a.key == b.key:
            return False
        return self.paragraphs.object_change_at_end(a.element, b.element)

    def _count(self, item: Any, kind: str) -> None:
        self.counts[kind] += sum(1 for _ in paragraphs_of(item)) if kind != "moved" else 1

    def paragraph_pair(self, step: Step) -> None:
        a, b = step.previous, step.current
        boxes = _text_boxes(a.element) if step.boxes is not None else []
        if a.key == b.key and not boxes and same_markup(a.element, b.element):
            # The common case, decided without reading the runs; its notes still pair up.
            self.counts["unchanged"] += 1
            notes = (qn("w:footnoteReference"), qn("w:endnoteReference"))
            self.paragraphs.kept_notes.extend(zip(a.element.iter(*notes), b.element.iter(*notes), strict=False))
            return
        if self.paragraphs.pair(a.element, b.element):
            self.counts["modified" if a.text != b.text else "formatChanged"] += 1
        else:
            self.counts["unchanged"] += 1
        # Text boxes whose shape stayed are redlined like stories of their own; a shape that was
        # replaced went out (and in) whole with the paragraph's other objects.
        for box_steps, box in zip(step.boxes or (), boxes, strict=False):
            if not _inside_revision(box):
                self.container(box_steps, box)
                _sync_fallback(box)

    def _delete_paragraph(self, step: Step) -> None:
        if _holds_section(step.previous):
            self.paragraphs.delete(step.previous.element, mark=False)  # see _holds_section
        elif step.move is not None:
            self.paragraphs.move_out(step.previous.element, step.move[0])
        else:
            self.paragraphs.delete(step.previous.element)

    def _insert(self, step: Step, last: Any, first_base: Any, container: Any) -> Any:
        b = step.current
        if isinstance(b, Table):
            copy = self.paragraphs.insert_copy(b.element)
            self._mark_rows(copy, "ins")
            self._mark_cell_paragraphs(copy, "ins")
        elif step.move is not None:
            copy = self.paragraphs.move_in(b.element, step.move[0])
        else:
            copy = self.paragraphs.insert_copy(b.element)
        _drop_section(copy)
        if last is not None:
            _outside_content_control(last, after=True).addnext(copy)
        elif first_base is not None:
            _outside_content_control(first_base, after=False).addprevious(copy)
        else:
            _append_to_container(container, copy)
        copy.tail = None
        return copy

    # -- tables -------------------------------------------------------------------------------------

    def delete_table(self, tbl: Any) -> None:
        self._mark_rows(tbl, "del")
        self.paragraphs.delete_content(tbl)
        self._mark_cell_paragraphs(tbl, "del")

    def _mark_rows(self, element: Any, kind: str) -> None:
        """Mark the rows of a table or row that comes or goes, nested tables' rows included (as
        Word marks them, so that an editor resolving rows one by one takes them along)."""
        for tr in element.iter(W_TR):
            mark_row(tr, kind, self.revisions)

    def _mark_cell_paragraphs(self, element: Any, kind: str) -> None:
        """Mark the paragraph marks of a row or table that comes or goes, all but each cell's last
        (a cell keeps one paragraph): LibreOffice removes or restores a tracked row only when
        everything in it is tracked."""
        for tc in element.iter(W_TC):
            paragraphs = [child for child in tc if child.tag == W_P]
            for p in paragraphs[:-1]:
                mark_paragraph(p, kind, self.revisions)

    def table(self, step: Step) -> None:
        a = step.previous
        self.properties.table(a.element, step.current.element)
        last_row = None
        first_row = a.rows[0].element if a.rows else None
        for row in step.rows or ():
            if row.previous is not None and row.current is not None and row.cells is not None:
                self.properties.row(row.previous.element, row.current.element)
                for cell_a, cell_b, inner in row.cells:
                    self.properties.cell(cell_a.element, cell_b.element)
                    self.container(inner, cell_a.element)
                last_row = row.previous.element
            elif row.previous is not None:
                self._mark_rows(row.previous.element, "del")
                self.paragraphs.delete_content(row.previous.element)
                self._mark_cell_paragraphs(row.previous.element, "del")
                self.counts["deleted"] += sum(1 for c in row.previous.cells for i in c.items for _ in paragraphs_of(i))
                last_row = row.previous.element
            else:
                copy = self.paragraphs.insert_copy(row.current.element)
                self._mark_rows(copy, "ins")
                self._mark_cell_paragraphs(copy, "ins")
                self.counts["added"] += sum(1 for c in row.current.cells for i in c.items for _ in paragraphs_of(i))
                if last_row is not None:
                    last_row.addnext(copy)
                elif first_row is not None:
                    first_row.addprevious(copy)
                else:
                    a.element.append(copy)
                copy.tail = None
                last_row = copy

    # -- paragraph marks at the end of a stretch ----------------------------------------------------

    def _settle_marks(self, output: list[tuple[Any, Step]]) -> None:
        """See ``settle_runs``: lend a paired paragraph's mark to the last paragraph of a stretch."""
        index = len(output) - 1
        while index >= 0:
            element, _ = output[index]
            if element.tag != W_P:
                index -= 1
                continue
            start = index
            while start > 0 and output[start - 1][0].tag == W_P and not _holds_section_element(output[start - 1][0]):
                start -= 1
            states = paragraph_mark_state(element)
            if states:
                self._lend_mark(output, start, index, states)
            index = start - 1

    def _lend_mark(self, output, start: int, index: int, states: set[str]) -> None:
        last, _ = output[index]
        inserted = bool(states & {"ins", "moveTo"})
        for j in range(index - 1, start - 1, -1):
            element, _step = output[j]
            marks = paragraph_mark_state(element)
            if marks:
                continue  # only a paragraph whose mark survives both views can lend it
            old = paragraph_base_props(element, rejected=inserted)
            _remove_marks(last)
            if inserted:
                # Rejecting joins the lender into ``last``, whose properties must then be the
                # lender's original ones.
                mark_paragraph(element, "ins", self.revisions)
                _set_rejected_properties(last, old, self.revisions)
            else:
                # Accepting joins the lender into ``last``, which must then look like the lender.
                mark_paragraph(element, "del", self.revisions)
                ppr = record_paragraph_properties(last, self.revisions)
                _replace_base(ppr, old)
            return


def paragraph_base_props(p: Any, *, rejected: bool) -> list[Any]:
    """Copies of the paragraph properties ``p`` has once changes are accepted (or rejected)."""
    from copy import deepcopy

    ppr = p[0] if len(p) and p[0].tag == W_PPR else None
    if ppr is None:
        return []
    if rejected:
        change = ppr.find(qn("w:pPrChange"))
        if change is not None:
            old = change.find(qn("w:pPr"))
            return [deepcopy(child) for child in old] if old is not None else []
    return [deepcopy(child) for child in ppr if child.tag in PPR_BASE]


def _replace_base(ppr: Any, children: list[Any]) -> None:
    for child in list(ppr):
        if child.tag in PPR_BASE:
            ppr.remove(child)
    for child in children:
        insert_ordered(ppr, child, PPR_ORDER)


def _set_rejected_properties(p: Any, old: list[Any], revisions: Revisions) -> None:
    """Make ``p`` (an inserted paragraph, so without a pPrChange) read ``old`` when rejected."""
    from .compare import canonical

    current = paragraph_base_props(p, rejected=False)
    if sorted(map(canonical, current)) == sorted(map(canonical, old)):
        return
    ppr = record_paragraph_properties(p, revisions)
    change = ppr.find(qn("w:pPrChange"))
    recorded = change.find(qn("w:pPr"))
    for child in list(recorded):
        recorded.remove(child)
    for child in old:
        insert_ordered(recorded, child, PPR_ORDER)


def _remove_marks(p: Any) -> None:
    ppr = p[0] if len(p) and p[0].tag == W_PPR else None
    rpr = ppr.find(qn("w:rPr")) if ppr is not None else None
    if rpr is None:
        return
    for child in list(rpr):
        if child.tag in _MARK_TAGS.values():
            rpr.remove(child)


def _text_boxes(p: Any) -> list[Any]:
    from ..model.scan import find_text_boxes

    found: list[Any] = []
    find_text_boxes(p, found)
    return found


def _outside_content_control(element: Any, *, after: bool) -> Any:
    """Where to put a new block next to ``element``: content controls (and custom XML) that
    ``element`` ends (``after``) or starts are stepped out of, so that what is added after the
    last paragraph of a control does not land inside it."""
    from ..model.walk import next_block_sibling

    wrappers = (qn("w:sdtContent"), qn("w:customXml"))
    node = element
    while node.getparent() is not None and node.getparent().tag in wrappers:
        if after and next_block_sibling(node) is not None:
            break
        if not after and any(s.tag in (W_P, W_TBL) for s in node.itersiblings(preceding=True)):
            break
        parent = node.getparent()
        node = parent.getparent() if parent.tag == qn("w:sdtContent") else parent
    return node


def _drop_section(p: Any) -> None:
    """Section breaks are not redlined (see ``_holds_section``): a copied paragraph leaves its
    behind."""
    if p.tag == W_P and len(p) and p[0].tag == W_PPR:
        for sectpr in p[0].findall(W_SECTPR):
            p[0].remove(sectpr)


def _holds_section_element(p: Any) -> bool:
    return p.tag == W_P and len(p) > 0 and p[0].tag == W_PPR and p[0].find(W_SECTPR) is not None


def _inside_revision(element: Any) -> bool:
    return any(a.tag in (qn("w:del"), qn("w:moveFrom")) for a in element.iterancestors())


def _sync_fallback(box: Any) -> None:
    """Give the legacy (VML) copy of a text box the redlined content of the one Word reads."""
    from copy import deepcopy

    from ..wml.ns import MC_ALTERNATECONTENT, MC_CHOICE, MC_FALLBACK, W_TXBXCONTENT

    choice = next((a for a in box.iterancestors() if a.tag == MC_CHOICE), None)
    if choice is None or choice.getparent() is None or choice.getparent().tag != MC_ALTERNATECONTENT:
        return
    fallback = choice.getparent().find(MC_FALLBACK)
    target = next(fallback.iter(W_TXBXCONTENT), None) if fallback is not None else None
    if target is None:
        return
    for child in list(target):
        target.remove(child)
    for child in box:
        target.append(deepcopy(child))


def _append_to_container(container: Any, element: Any) -> None:
    """Put ``element`` at the end of a container's blocks (before a body's final sectPr)."""
    children = list(container)
    if children and children[-1].tag == W_SECTPR:
        children[-1].addprevious(element)
    else:
        container.append(element)


# -- the whole document ---------------------------------------------------------------------------------


def _counts() -> dict[str, int]:
    return {"added": 0, "deleted": 0, "modified": 0, "formatChanged": 0, "moved": 0, "unchanged": 0}


def build_redline(previous: Any, current: Any, *, author: str = DEFAULT_AUTHOR, date: str | None = None) -> dict:
    """Edit ``previous`` (an opened ``DocxDocument``, accepted) in place into the redline towards
    ``current`` (accepted too). Returns the report (counts, unmatched stories)."""
    from ..review.revisions import story_parts
    from .compare import Version, pair_header_footer_stories
    from .redline_paragraph import ParagraphRedliner
    from .transplant import Importer

    package = previous.package
    ids = IdAllocator.scan([package.xml(part) for part in story_parts(previous)])
    revisions = Revisions(ids, author, date)
    importer = Importer(current, previous)
    counts = _counts()
    budget = Budget()
    version_a = Version(previous, previous.name, previous.version, {})
    version_b = Version(current, current.name, current.version, {})
    tree_a = version_a.main_tree(with_blocks=False)
    tree_b = version_b.main_tree(with_blocks=False)
    with progress.phase("aligning paragraphs"):
        main_steps = plan_container(tree_a, tree_b, budget)
        next_move = find_moves(main_steps)
    main = ParagraphRedliner(revisions, importer, current.main_part, previous.main_part, budget)
    with progress.phase("writing tracked changes"):
        StoryRedliner(main, revisions, counts).container(main_steps, previous.body)
    touched = {previous.main_part}
    unmatched: list[dict[str, Any]] = []
    redliners = [main]
    for pair in pair_header_footer_stories(version_a, version_b):
        if pair.previous is None or pair.current is None:
            unmatched.append(_unmatched(pair.previous, pair.current))
            continue
        steps = plan_container(pair.previous_tree, pair.current_tree, budget)
        next_move = find_moves(steps, next_move)
        story = ParagraphRedliner(revisions, importer, pair.current_part, pair.previous_part, budget)
        StoryRedliner(story, revisions, counts).container(steps, pair.previous_container)
        redliners.append(story)
        touched.add(pair.previous_part)
    _notes(previous, current, version_a, version_b, redliners, revisions, importer, counts, budget, touched)
    for part in touched:
        separate_touching_insertions(package.xml(part), revisions)
        package.mark_dirty(part)
    previous.invalidate()
    report: dict[str, Any] = {"summaryCounts": counts, "unmatchedStories": unmatched}
    if budget.coarse:
        report["approximate"] = COARSE_NOTE
    return report


def _unmatched(previous: dict | None, current: dict | None) -> dict[str, Any]:
    reason = "missing-current-story" if current is None else "missing-previous-story"
    return {"previousStory": previous, "currentStory": current, "reason": reason}


def _note_kind(reference: Any) -> str:
    return "footnote" if reference.tag == qn("w:footnoteReference") else "endnote"


def _notes(previous, current, version_a, version_b, redliners, revisions, importer, counts, budget, touched) -> None:
    """Footnotes and endnotes, driven by what happened to their references."""
    from ..package.docx_package import RT
    from ..wml.ns import W_ID
    from .redline_paragraph import ParagraphRedliner

    def notes_of(doc, kind):
        rel = RT.FOOTNOTES if kind == "footnote" else RT.ENDNOTES
        part = doc.package.related_part(doc.main_part, rel)
        if part is None:
            return None, {}
        root = doc.package.xml(part)
        return part, {note.get(W_ID): note for note in root.iter(qn(f"w:{kind}"))}

    parts = {}
    for kind in ("footnote", "endnote"):
        parts[kind] = (notes_of(previous, kind), notes_of(current, kind))
    for redliner in redliners:
        for old_ref, new_ref in redliner.kept_notes:
            kind = _note_kind(old_ref)
            (part_a, notes_a), (part_b, notes_b) = parts[kind]
            note_a = notes_a.get(old_ref.get(W_ID))
            note_b = notes_b.get(new_ref.get(W_ID))
            if note_a is None or note_b is None:
                continue
            tree_a = version_a.story_tree(part_a, note_a)
            tree_b = version_b.story_tree(part_b, note_b)
            steps = plan_container(tree_a, tree_b, budget)
            story = ParagraphRedliner(revisions, importer, part_b, part_a, budget)
            StoryRedliner(story, revisions, counts).container(steps, note_a)
            touched.add(part_a)
        for old_ref in redliner.deleted_notes:
            kind = _note_kind(old_ref)
            (part_a, notes_a), _ = parts[kind]
            note_a = notes_a.get(old_ref.get(W_ID))
            if note_a is not None:
                story = ParagraphRedliner(revisions, importer, part_a, part_a, budget)
                story.delete_content(note_a)
                touched.add(part_a)
        for new_ref in redliner.copied_notes:
            kind = _note_kind(new_ref)
            (part_a, notes_a), (part_b, notes_b) = parts[kind]
            note_b = notes_b.get(new_ref.get(W_ID))
            if note_b is None:
                continue
            if part_a is None:
                part_a = _create_notes_part(previous, current, kind, part_b)
                notes_a = {}
                parts[kind] = ((part_a, notes_a), (part_b, notes_b))
            story = ParagraphRedliner(revisions, importer, part_b, part_a, budget)
            copy = importer.copy(note_b, part_b, part_a)
            story.mark_inserted_content(copy)
            used = {int(k) for k in notes_a if k and k.lstrip("-").isdigit()}
            new_id = str(max(used, default=0) + 1)
            copy.set(W_ID, new_id)
            previous.package.xml(part_a).append(copy)
            notes_a[new_id] = copy
            new_ref.set(W_ID, new_id)
            touched.add(part_a)
    for kind, ((part_a, _), _) in parts.items():
        if part_a is not None:
            _order_notes(previous, kind, part_a)


def _order_notes(previous: Any, kind: str, part: str) -> None:
    """Put the notes in the order of their references (copied notes were appended at the end)."""
    from ..wml.ns import W_ID

    position: dict[str, int] = {}
    for reference in previous.body.iter(qn(f"w:{kind}Reference")):
        position.setdefault(reference.get(W_ID), len(position))
    root = previous.package.xml(part)
    notes = [note for note in root if note.tag == qn(f"w:{kind}") and (note.get(qn("w:type")) or "normal") == "normal"]
    ordered = sorted(notes, key=lambda note: position.get(note.get(W_ID), len(position)))
    if ordered != notes:
        for note in notes:
            root.remove(note)
        root.extend(ordered)


def _create_notes_part(previous: Any, current: Any, kind: str, source_part: str) -> str:
    """A notes part for the previous package, holding the current one's separators."""
    from copy import deepcopy

    from ..package.docx_package import RT

    root = deepcopy(current.package.xml(source_part))
    for note in list(root):
        if (note.get(qn("w:type")) or "normal") == "normal":
            root.remove(note)
    name = f"word/{kind}s.xml"
    content_type = current.package.content_type(source_part) or (
        f"application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}s+xml"
    )
    rel = RT.FOOTNOTES if kind == "footnote" else RT.ENDNOTES
    previous.package.add_part(name, content_type, root=root, source=previous.main_part, rel_type=rel)
    return name


# -- files ----------------------------------------------------------------------------------------------


def read_accepted(path: str | os.PathLike[str], *, keep_ids: bool = False) -> tuple[Any, list[dict[str, Any]]]:
    """The document at ``path`` with its pending tracked changes accepted (a private copy), and
    what reading it leaves unread (``DocxDocument.unread``), which the redline cannot show. With
    ``keep_ids``, paragraphs of a file that declares the w14 namespace (as Word writes them) first
    get the ids ``read_document`` gives them in the file as it is (written as ``w14:paraId``), so
    the redline's unchanged paragraphs keep those ids."""
    from ..model.document import DocxDocument
    from ..model.shown import show_in_place
    from ..review.revisions import resolve_all
    from .compare import has_tracked_changes

    doc = DocxDocument.open(path)
    unread = doc.unread()
    # Imported chunks and data-bound values become markup: the redline shows their changes, and
    # its controls show what it says rather than what its data store holds.
    show_in_place(doc)
    if keep_ids and doc.package.xml(doc.main_part).nsmap.get("w14") == NS["w14"]:
        # Word files declare w14; for others, adding the declaration would rebuild the whole
        # tree (seconds on long documents), so their minted ids are left to be minted again.
        doc.stamp_minted_ids()
    if has_tracked_changes(doc):
        with progress.phase(f"accepting the pending changes of {Path(path).name}"):
            resolve_all(doc, "accept")
    return doc, unread


def redline_files(
    previous: str | os.PathLike[str],
    current: str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    author: str | None = None,
    privacy: Any = None,
    date: str | None = None,
) -> dict[str, Any]:
    """Write the redline of ``previous`` -> ``current`` to ``output`` (atomically) and return
    the report: counts of changed paragraphs, unmatched stories, the privacy report. Raises
    ``InputError`` for an unreadable input or an unusable output path."""
    from ...errors import InputError
    from ..package.privacy import check_transforms, metadata_report, scrub_metadata
    from ..package.strict_ooxml import refuse_writing
    from ..wml.text import check_author

    check_author(author)
    transforms = check_transforms(privacy)
    target = Path(output)
    # Checked before the work (the atomic save checks again): a typo in -o should not cost a redline.
    if not (target.parent if str(target.parent) else Path(".")).is_dir():
        raise InputError(f"cannot write {target}: the folder {target.parent} does not exist.", code="badOutput")
    if target.is_dir():
        raise InputError(f"cannot write {target}: it is a directory.", code="badOutput")
    for source in (previous, current):
        if Path(source).exists() and target.exists() and Path(source).resolve() == target.resolve():
            raise DeskcheckError(
                f"the output {target} is one of the inputs; write the redline to a new file.", code="badOutput"
            )
    base, unread_before = read_accepted(previous, keep_ids=True)
    refuse_writing(base.package, "a redline, which is written in the previous version's form, cannot start from it")
    other, unread_after = read_accepted(current)
    report = build_redline(base, other, author=author or DEFAULT_AUTHOR, date=date)
    privacy_report = scrub_metadata(base.package, transforms) if transforms else metadata_report(base.package)
    base.package.save(target)  # ids were written when reading; new paragraphs bring their own or none
    return {
        "output": str(target),
        "author": author or DEFAULT_AUTHOR,
        "previous": str(previous),
        "current": str(current),
        **report,
        "privacyReport": privacy_report,
        "documentVersion": base.version,
        **_unread_report(unread_before, unread_after),
    }


def _unread_report(previous: list[dict[str, Any]], current: list[dict[str, Any]]) -> dict[str, Any]:
    """What neither the comparison nor the redline could show: content left unread in either
    version (see ``DocxDocument.unread``)."""
    from ..model.display import unread_fields

    sides = {name: unread_fields(entries) for name, entries in (("previous", previous), ("current", current))}
    report: dict[str, Any] = {}
    unread = {name: fields["unread"] for name, fields in sides.items() if fields}
    if unread:
        report["unread"] = unread
    totals = {name: fields["totalUnread"] for name, fields in sides.items() if "totalUnread" in fields}
    if totals:
        report["totalUnread"] = totals
    return report
