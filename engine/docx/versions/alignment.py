"""Two versions of a story side by side: which paragraphs, tables, rows and cells correspond.

A story (the body, a header, a note, a cell, a text box) is read as a tree (``read_container``):

- ``Para``: one paragraph, with its as-accepted text, its alignment ``key`` (the text, plus the
  ``object_keys`` of its inline objects — pictures, tabs, breaks, equations — when it has any, so
  that a replaced picture does not count as equal) and the text boxes drawn from it;
- ``Table``: its rows, each row its cells (grid column and span), each cell a container again.

Content controls, custom XML and markup-compatibility wrappers around blocks are looked through.

``align_containers(previous, current)`` pairs the items of two containers in three steps:

1. equal keys, aligned patience-style (``diff_text.align``: unique keys anchor, the gaps are
   aligned recursively, a bounded LCS where nothing is unique);
2. in each gap between those anchors, paragraphs pair with paragraphs and tables with tables by
   text similarity (``diff_text.pair_by_similarity``), or positionally when the gap is one item
   on each side;
3. whatever is left is deleted (previous only) or added (current only).

Paired tables are aligned row by row the same way (rows keyed by their cells' texts); paired rows
with the same number of cells pair their cells positionally and align each cell's content. Rows
whose cell structure differs are a deleted row and an added row. The result lists ``Aligned``
items in the current version's order, each deletion in the slot where it stood.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..model.scan import DROP_ACCEPTED, ScanContext, find_text_boxes, scan_paragraph
from ..model.walk import cell_span, grid_before, table_children
from ..wml.attrs import is_on
from ..wml.ns import (
    MC_ALTERNATECONTENT,
    NS,
    W_BR,
    W_CR,
    W_CUSTOMXML,
    W_ENDNOTEREFERENCE,
    W_FOOTNOTEREFERENCE,
    W_HIDDEN,
    W_P,
    W_SDT,
    W_SDTCONTENT,
    W_TAB,
    W_TBL,
    W_TC,
    W_TR,
    W_TRPR,
    W_TXBXCONTENT,
    qn,
)
from ..wml.text import choose_alternate
from .diff_text import PAIR_THRESHOLD, Budget, TextProfile, align, heaviest_increasing, pair_by_similarity
from .object_keys import ObjectKeys

_M = "{" + NS["m"] + "}"
_OBJECT_TAGS = (
    W_TAB, W_BR, W_CR, qn("w:drawing"), qn("w:pict"), qn("w:object"), _M + "oMath", W_FOOTNOTEREFERENCE,
    W_ENDNOTEREFERENCE, qn("w:ptab"),
)  # fmt: skip
_WRAPPERS = frozenset({W_CUSTOMXML, qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo")})


class Para:
    """One paragraph. ``block`` is what identifies it to a reader: its ``Block`` in the main story,
    its 1-based number among the story's paragraphs elsewhere, None when readers never see it
    (hidden rows, cells continuing a vertical merge)."""

    __slots__ = ("block", "boxes", "element", "key", "profile", "text")

    def __init__(self, element: Any, text: str, key: str, block: Any, boxes: list[list[Any]]) -> None:
        self.element = element
        self.text = text
        self.key = key
        self.block = block
        self.boxes = boxes
        self.profile: TextProfile | None = None


class Cell:
    __slots__ = ("column", "element", "items", "merged", "span")

    def __init__(self, element: Any, items: list[Any], column: int, span: int, merged: bool) -> None:
        self.element = element
        self.items = items
        self.column = column
        self.span = span
        self.merged = merged  # continues a vertical merge: shows nothing of its own


class Row:
    __slots__ = ("cells", "element", "key", "profile", "text")

    def __init__(self, element: Any, cells: list[Cell]) -> None:
        self.element = element
        self.cells = cells
        self.key = "\x1e".join(_container_key(cell.items) for cell in cells) + f"\x1d{_shape(cells)}"
        self.text = " ".join(_container_text(cell.items) for cell in cells)
        self.profile: TextProfile | None = None


class Table:
    __slots__ = ("element", "key", "profile", "rows", "text")

    def __init__(self, element: Any, rows: list[Row]) -> None:
        self.element = element
        self.rows = rows
        self.key = "\x01" + "\x1f".join(row.key for row in rows)
        self.text = " ".join(row.text for row in rows)
        self.profile: TextProfile | None = None


def _shape(cells: list[Cell]) -> str:
    return ",".join(f"{cell.column}:{cell.span}{'m' if cell.merged else ''}" for cell in cells)


def _container_key(items: list[Any]) -> str:
    return "\x1c".join(item.key for item in items)


def _container_text(items: list[Any]) -> str:
    return " ".join(item.text for item in items if item.text)


def profile_of(item: Any) -> TextProfile:
    if item.profile is None:
        item.profile = TextProfile(item.text)
    return item.profile


# -- reading a story as a tree ----------------------------------------------------------------------


class StoryReader:
    """Builds the tree of one story. ``texts`` maps paragraphs to their as-accepted text (from a
    walk already made); ``blocks`` maps the main story's paragraphs to their blocks (None for
    other stories, whose paragraphs are numbered instead). ``package`` and ``part`` let pictures
    be recognised by their bytes."""

    def __init__(self, ctx: ScanContext, texts: dict[Any, str], blocks: dict[Any, Any] | None,
                 package: Any = None, part: str | None = None) -> None:  # fmt: skip
        self.ctx = ctx
        self.texts = texts
        self.blocks = blocks
        self.package = package
        self.part = part
        self.keys = ObjectKeys(package, part)
        self._ordinal = 0
        self._with_objects: set[Any] | None = None

    def container(self, parent: Any, counted: bool = True) -> list[Any]:
        if self._with_objects is None:
            # One pass over the story finds the few paragraphs with objects; the others skip
            # the search for them.
            self._with_objects = set()
            for found in parent.iter(*_OBJECT_TAGS):
                owner = next(found.iterancestors(W_P), None)
                if owner is not None:
                    self._with_objects.add(owner)
        items: list[Any] = []
        self._fill(parent, items, counted)
        return items

    def _fill(self, parent: Any, items: list[Any], counted: bool) -> None:
        for child in parent:
            tag = child.tag
            if tag == W_P:
                items.append(self.paragraph(child, counted))
            elif tag == W_TBL:
                items.append(self.table(child, counted))
            elif tag == W_SDT:
                content = child.find(W_SDTCONTENT)
                if content is not None:
                    self._fill(content, items, counted)
            elif tag in _WRAPPERS:
                self._fill(child, items, counted)
            elif tag == MC_ALTERNATECONTENT:
                branch = choose_alternate(child)
                if branch is not None:
                    self._fill(branch, items, counted)

    def paragraph(self, p: Any, counted: bool = True) -> Para:
        if self.blocks is not None:
            ident = self.blocks.get(p)
        elif counted:
            self._ordinal += 1
            ident = self._ordinal
        else:
            ident = None
        text = self.texts.get(p)
        if text is None:
            pieces, _ = scan_paragraph(p, self.ctx)
            text = "".join([t for t, flags, _ in pieces if not flags & DROP_ACCEPTED])
        boxes: list[list[Any]] = []
        key = text
        objects = list(p.iter(*_OBJECT_TAGS)) if p in self._with_objects else ()
        if objects:
            has_boxes = p.find(f".//{W_TXBXCONTENT}") is not None
            if has_boxes:
                found: list[Any] = []
                find_text_boxes(p, found)
                boxes = [self.container(box, counted) for box in found]
                objects = [o for o in objects if not any(a.tag == W_TXBXCONTENT for a in o.iterancestors())]
            key = text + "\x02" + "".join(self.keys(o) for o in objects)
        return Para(p, text, key, ident, boxes)

    def table(self, tbl: Any, counted: bool = True) -> Table:
        rows = []
        for tr in table_children(tbl, W_TR):
            trpr = tr.find(W_TRPR)
            column = grid_before(trpr)
            row_counted = counted and not (trpr is not None and is_on(trpr.find(W_HIDDEN)))
            cells = []
            for tc in table_children(tr, W_TC):
                span, merged = cell_span(tc)
                cells.append(Cell(tc, self.container(tc, row_counted and not merged), column, span, merged))
                column += span
            rows.append(Row(tr, cells))
        return Table(tbl, rows)


# -- alignment ----------------------------------------------------------------------------------


class AlignedRow(NamedTuple):
    previous: Row | None
    current: Row | None
    cells: list[tuple[Cell, Cell, list[Aligned]]] | None  # paired rows only


class Aligned(NamedTuple):
    """One event: a pair (both sides), a deletion (``current`` None) or an addition."""

    previous: Any | None
    current: Any | None
    rows: list[AlignedRow] | None = None  # paired tables
    boxes: list[list[Aligned]] | None = None  # paired paragraphs whose text boxes were aligned

    @property
    def kind(self) -> str:
        return event_kind(self.previous, self.current)


def event_kind(previous: Any | None, current: Any | None) -> str:
    """``"added"`` (only the current version has it), ``"deleted"`` (only the previous one) or
    ``"paired"``."""
    if previous is None:
        return "added"
    if current is None:
        return "deleted"
    return "paired"


def _pair_score(left: Any, right: Any) -> float:
    if type(left) is not type(right):
        return 0.0
    return profile_of(left).similarity(profile_of(right))


def _merge_events(previous: list[Any], current: list[Any], pairs: list[tuple[int, int]], make_pair) -> list[Aligned]:
    """Events in current order, each deletion placed before the item that followed it."""
    events: list[Aligned] = []
    i = j = 0
    for pi, pj in [*pairs, (len(previous), len(current))]:
        while i < pi:
            events.append(Aligned(previous[i], None))
            i += 1
        while j < pj:
            events.append(Aligned(None, current[j]))
            j += 1
        if pi < len(previous) and pj < len(current):
            events.append(make_pair(previous[pi], current[pj]))
        i, j = pi + 1, pj + 1
    return events


# A gap of one paragraph on each side pairs them (the paragraph was rewritten) unless they have
# less than this in common; in a table cell the one paragraph on each side always pairs.
REWRITE_THRESHOLD = 0.2


def _replaces(a: Any, b: Any, positional: bool) -> bool:
    if type(a) is not type(b):
        return False
    if positional or isinstance(a, (Table, Row)) or not a.text.strip() or not b.text.strip():
        return True
    return _pair_score(a, b) >= REWRITE_THRESHOLD


def _gap_pairs(
    previous: list[Any], current: list[Any], equal: list[tuple[int, int]], budget: Budget, positional: bool = False
) -> list[tuple[int, int]]:
    """Anchors plus similarity pairs found in the gaps between them."""
    out: list[tuple[int, int]] = []
    i0 = j0 = 0
    for ai, aj in [*equal, (len(previous), len(current))]:
        left, right = ai - i0, aj - j0
        if left and right:
            if left == 1 and right == 1:
                if _replaces(previous[i0], current[j0], positional):
                    out.append((i0, j0))
            else:
                base_i, base_j = i0, j0
                found = pair_by_similarity(
                    left,
                    right,
                    lambda i, j, bi=base_i, bj=base_j: _pair_score(previous[bi + i], current[bj + j]),
                    budget=budget,
                )
                out.extend((base_i + i, base_j + j) for i, j in found)
        if ai < len(previous):
            out.append((ai, aj))
        i0, j0 = ai + 1, aj + 1
    return out


# Re-anchoring looks for similar partners through words shared by at most this many paragraphs
# (common words say nothing), and scores at most this many candidates per paragraph.
RARE_WORD_LIMIT = 16
CANDIDATES_PER_PARAGRAPH = 4


def similar_candidates(
    left: list[Para], right: list[Para], threshold: float = PAIR_THRESHOLD
) -> list[tuple[int, int, float]]:
    """``(i, j, similarity)`` for paragraphs of ``left`` and ``right`` at least ``threshold``
    alike, found through the words few of them share (each ``left`` paragraph scores its
    ``CANDIDATES_PER_PARAGRAPH`` best-sharing partners), so that long lists stay cheap."""
    index: dict[str, list[int]] = {}
    for j, item in enumerate(right):
        for word in profile_of(item).words:
            index.setdefault(word, []).append(j)
    out: list[tuple[int, int, float]] = []
    for i, item in enumerate(left):
        shared: dict[int, int] = {}
        for word in profile_of(item).words:
            holders = index.get(word, ())
            if len(holders) <= RARE_WORD_LIMIT:
                for j in holders:
                    shared[j] = shared.get(j, 0) + 1
        for j in sorted(shared, key=lambda j: (-shared[j], j))[:CANDIDATES_PER_PARAGRAPH]:
            score = _pair_score(item, right[j])
            if score >= threshold:
                out.append((i, j, score))
    return out


def _reanchor(
    previous: list[Any], current: list[Any], equal: list[tuple[int, int]], budget: Budget
) -> list[tuple[int, int]]:
    """Anchors that keep as much as possible, similar paragraphs included.

    The equal-text alignment may keep one paragraph where keeping another would also let a
    rewritten neighbour pair with its new version (A B C -> C A B' keeps C, and B' lands in
    another gap than B). Candidates are the equal pairs (weight 1), equal texts left unpaired, and
    similar paragraphs left unpaired (weight: their similarity); the heaviest chain increasing in
    both versions becomes the anchors, and what it left out is aligned in the gaps as usual."""
    paired_a = {i for i, _ in equal}
    paired_b = {j for _, j in equal}
    free_a = [i for i in range(len(previous)) if i not in paired_a]
    free_b = [j for j in range(len(current)) if j not in paired_b]
    if not free_a or not free_b:
        return equal
    # The equal-text anchors weigh a little more, so that only a strictly better chain replaces them.
    candidates: list[tuple[int, int, float]] = [(i, j, 1.0 + 1e-6) for i, j in equal]
    taken = _same_key_candidates(previous, current, free_a, free_b, candidates, budget)
    left = [i for i in free_a if i not in taken and isinstance(previous[i], Para)]
    right = [j for j in free_b if isinstance(current[j], Para)]
    for a, b, score in similar_candidates([previous[i] for i in left], [current[j] for j in right]):
        candidates.append((left[a], right[b], score))
    if len(candidates) == len(equal) or all(_same_gap(equal, i, j) for i, j, _ in candidates[len(equal) :]):
        return equal  # every extra pair already falls in one gap: the usual alignment finds it
    return heaviest_increasing(candidates)


# Unpaired paragraphs of one text (blanks, repeated captions) are all paired with each other
# while that makes at most this many candidates; past it each one is offered only its
# SAME_KEY_PARTNERS nearest partners in order, so that blanks x blanks stays linear.
SAME_KEY_PAIRS = 4_096
SAME_KEY_PARTNERS = 4


def _same_key_candidates(
    previous: list[Any],
    current: list[Any],
    free_a: list[int],
    free_b: list[int],
    candidates: list[tuple[int, int, float]],
    budget: Budget,
) -> set[int]:
    """Adds to ``candidates`` the pairs of unpaired items with equal keys; returns the ``free_a``
    items given at least one."""
    by_key: dict[str, list[int]] = {}
    for j in free_b:
        by_key.setdefault(current[j].key, []).append(j)
    of_a: dict[str, list[int]] = {}
    for i in free_a:
        if previous[i].key in by_key:
            of_a.setdefault(previous[i].key, []).append(i)
    taken: set[int] = set()
    for key, left in of_a.items():
        right = by_key[key]
        taken.update(left)
        if len(left) * len(right) <= SAME_KEY_PAIRS:
            candidates.extend((i, j, 1.0) for i in left for j in right)
            continue
        budget.coarse = True
        ratio = len(right) / len(left)
        half = SAME_KEY_PARTNERS // 2
        for rank, i in enumerate(left):
            centre = int(rank * ratio)
            for j in right[max(0, centre - half) : centre + half]:
                candidates.append((i, j, 1.0))
    return taken


def _same_gap(anchors: list[tuple[int, int]], i: int, j: int) -> bool:
    """Whether ``previous[i]`` and ``current[j]`` lie between the same two anchors."""
    from bisect import bisect_left

    low = bisect_left(anchors, (i, -1))
    high = bisect_left(anchors, (j, -1), key=lambda pair: (pair[1], -1))
    return low == high


def align_containers(
    previous: list[Any], current: list[Any], budget: Budget | None = None, *, positional: bool = False
) -> list[Aligned]:
    """See the module docstring; ``positional`` for a table cell's content."""
    budget = budget if budget is not None else Budget()
    equal = align([item.key for item in previous], [item.key for item in current], budget)
    if not positional and len(equal) < min(len(previous), len(current)):
        equal = _reanchor(previous, current, equal, budget)
    pairs = _gap_pairs(previous, current, equal, budget, positional)
    return _merge_events(previous, current, pairs, lambda a, b: _pair_items(a, b, budget))


def _pair_items(a: Any, b: Any, budget: Budget) -> Aligned:
    if isinstance(a, Table):
        return Aligned(a, b, rows=align_rows(a, b, budget))
    if a.boxes or b.boxes:
        if len(a.boxes) == len(b.boxes):
            return Aligned(a, b, boxes=[align_containers(x, y, budget) for x, y in zip(a.boxes, b.boxes, strict=True)])
        return Aligned(a, b, boxes=None)
    return Aligned(a, b)


def rows_compatible(a: Row, b: Row) -> bool:
    """Rows whose cells can be paired one to one (same count, same grid positions)."""
    return len(a.cells) == len(b.cells) and _shape(a.cells) == _shape(b.cells)


def align_rows(a: Table, b: Table, budget: Budget) -> list[AlignedRow]:
    equal = align([row.key for row in a.rows], [row.key for row in b.rows], budget)
    pairs = _gap_pairs(a.rows, b.rows, equal, budget)
    out: list[AlignedRow] = []
    for event in _merge_events(a.rows, b.rows, pairs, lambda x, y: Aligned(x, y)):
        prev_row, cur_row = event.previous, event.current
        if prev_row is not None and cur_row is not None:
            if rows_compatible(prev_row, cur_row):
                cells = [
                    (x, y, align_containers(x.items, y.items, budget, positional=True))
                    for x, y in zip(prev_row.cells, cur_row.cells, strict=True)
                ]
                out.append(AlignedRow(prev_row, cur_row, cells))
            else:
                out.append(AlignedRow(prev_row, None, None))
                out.append(AlignedRow(None, cur_row, None))
        else:
            out.append(AlignedRow(prev_row, cur_row, None))
    return out


def paragraphs_of(item: Any) -> list[Para]:
    """Every paragraph inside an item, in reading order (text-box paragraphs after their anchor)."""
    out: list[Para] = []
    stack = [item]
    while stack:
        node = stack.pop()
        if isinstance(node, Para):
            out.append(node)
            for box in reversed(node.boxes):
                stack.extend(reversed(box))
        elif isinstance(node, Table):
            for row in reversed(node.rows):
                for cell in reversed(row.cells):
                    stack.extend(reversed(cell.items))
    return out
