"""Comparing two saved versions of a document (``compare_versions``).

Both versions are compared as accepted: tracked changes pending in either file count as applied
(``read_version`` accepts them on a private copy, keeping the block ids ``read_document`` gives
for the file as it is). Stories are compared one by one: the main text, then headers and footers
(paired by section and kind), then footnotes and endnotes (paired by their text, in order).
Within a story the items are aligned by ``alignment`` (equal texts, then similar paragraphs,
tables row by row and cell by cell), and every paragraph becomes one of:

- ``added`` / ``deleted``: present in one version only;
- ``modified``: the text differs, with a word-level diff (``segments``);
- ``formatChanged``: same text, different formatting (``changedProperties``: run formatting such
  as bold or fontSizePt, paragraph properties such as styleId or alignment, ``inlineObjects`` when
  pictures, tabs, breaks or equations differ). When a paired table's, row's or cell's own
  properties differ, ``tableProperties`` / ``tableGrid``, ``rowProperties`` or ``cellProperties``
  (see ``table_formatting``) are named on the entry of the cell's first paragraph, which is
  ``formatChanged`` if its text is the same and ``modified`` (with the names beside its word
  diff) if not;
- ``movedFrom`` / ``movedTo``: an added and a deleted paragraph with the same text of at least
  three words (first in, first out per text), sharing a ``moveGroupId``; an added and a deleted
  paragraph of three words or more that are at least half alike are a move too, the ``movedTo``
  entry carrying the word diff from the old text (``segments``);
- unchanged, which is only counted.

Changes are listed in the current version's order, each deletion in the place it had; ``stories``
lists every pair of secondary stories with its own counts and changes. Every
entry carries the block ids of both sides (``previousBlockId`` / ``currentBlockId``) and, in
tables, the cell of each side; entries of other stories carry the paragraph's number there.
"""

from __future__ import annotations

import contextlib
import os
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

from ... import progress
from ...errors import DeskcheckError
from ..model.display import unread_fields
from ..model.scan import DROP_ACCEPTED, ScanContext
from ..wml.attrs import is_on
from ..wml.ns import (
    RSID_PREFIX,
    W14_PARAID,
    W14_TEXTID,
    W_DEL,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_PPR,
    W_RPR,
    W_SECTPR,
    W_VAL,
    qn,
)
from .alignment import (
    Aligned,
    Cell,
    Para,
    StoryReader,
    Table,
    align_containers,
    paragraphs_of,
    similar_candidates,
)
from .diff_text import COARSE_NOTE, Budget, TextProfile, tokenize, word_diff
from .object_keys import canonical
from .table_formatting import cell_properties_differ, changed_table_properties, row_properties_differ

INCLUDE_SCOPES = ("text", "formatting", "metadata")
DEFAULT_INCLUDE = ("text", "formatting")
MIN_MOVE_WORDS = 3  # shorter paragraphs ("Confidential") recur too often to call a pair a move
MAX_MOVE_CANDIDATES = 10_000  # per text, so a document of identical lines stays linear
MOVED_AND_MODIFIED = 0.5  # an addition and a deletion this alike are one paragraph, moved and changed

RUN_PROPERTIES = ("bold", "italic", "underline", "strike", "fontFamily", "fontSizePt", "color", "highlight",
                  "verticalAlign", "characterStyle")  # fmt: skip
PARAGRAPH_PROPERTIES = ("styleId", "alignment", "indentation", "spacing", "numbering", "paragraphProperties")

_REVISION_TAGS = (W_INS, W_DEL, W_MOVEFROM, W_MOVETO, qn("w:rPrChange"), qn("w:pPrChange"), qn("w:sectPrChange"),
                  qn("w:tblPrChange"), qn("w:trPrChange"), qn("w:tcPrChange"), qn("w:cellIns"), qn("w:cellDel"),
                  qn("w:cellMerge"), qn("w:numberingChange"), qn("w:tblGridChange"), qn("w:tblPrExChange"))  # fmt: skip
_PARAGRAPH_NAMES = {
    qn("w:pStyle"): "styleId",
    qn("w:jc"): "alignment",
    qn("w:ind"): "indentation",
    qn("w:spacing"): "spacing",
    qn("w:numPr"): "numbering",
}
_PPR_IGNORED = frozenset({W_RPR, W_SECTPR, qn("w:pPrChange")})


# -- reading a version ------------------------------------------------------------------------------


class Version:
    """One side of a comparison: the document as accepted, with the ids of the file as it is."""

    def __init__(
        self, doc: Any, label: str, version: str, pending: dict[str, int], unread: list[dict] | None = None
    ) -> None:
        self.doc = doc
        self.label = label
        self.document_version = version
        self.pending = pending  # tracked changes accepted to read it, by kind
        self.unread = unread or []  # content reading it left unread (see model.display)
        self._main: list[Any] | None = None
        self._texts: dict[Any, str] | None = None

    @property
    def blocks(self) -> list[Any]:
        return self.doc.blocks

    def texts(self) -> dict[Any, str]:
        if self._texts is None:
            self._texts = {
                walked.element: "".join([t for t, flags, _ in walked.pieces if not flags & DROP_ACCEPTED])
                for walked in self.doc.walk_main()
            }
        return self._texts

    def main_tree(self, *, with_blocks: bool = True) -> list[Any]:
        """The main story as a tree; its paragraphs carry their blocks unless ``with_blocks`` is
        False (a redline needs only texts, and building blocks costs a pass over the document)."""
        if self._main is None:
            with progress.phase(f"reading {Path(self.label).name}"):
                blocks = {block.element: block for block in self.doc.blocks} if with_blocks else None
                reader = StoryReader(
                    ScanContext(self.doc.styles), self.texts(), blocks, self.doc.package, self.doc.main_part
                )
                self._main = reader.container(self.doc.body)
        return self._main

    def story_tree(self, part: str, container: Any) -> list[Any]:
        from ..model.walk import walk_story

        ctx = ScanContext(self.doc.styles)
        texts = {
            walked.element: "".join([t for t, flags, _ in walked.pieces if not flags & DROP_ACCEPTED])
            for walked in walk_story(container, ctx)
        }
        return StoryReader(ctx, texts, None, self.doc.package, part).container(container)


def has_tracked_changes(doc: Any) -> bool:
    from ..review.revisions import story_parts

    for part in story_parts(doc):
        root = doc.package.xml(part)
        for _ in root.iter(*_REVISION_TAGS):
            return True
    return False


def read_version(source: str | os.PathLike[str] | Any, label: str | None = None) -> Version:
    """Open ``source`` (a path or an opened ``DocxDocument``, which is then edited: pass a private
    copy) and accept its pending tracked changes, keeping the ids of the file as it is."""
    from ..model.document import DocxDocument
    from ..model.shown import show_in_place
    from ..review.revisions import resolve_all

    doc = source if isinstance(source, DocxDocument) else DocxDocument.open(source)
    version = doc.version
    unread = doc.unread()
    # Imported chunks and data-bound values become markup, so that they are compared like text.
    show_in_place(doc)
    pending: dict[str, int] = {}
    if has_tracked_changes(doc):
        with progress.phase(f"accepting the pending changes of {Path(doc.name).name}"):
            doc.stamp_minted_ids()  # ids of the file as it is, before joins and removals
            pending = resolve_all(doc, "accept")
    return Version(doc, label or doc.name, version, pending, unread)


# -- formatting -----------------------------------------------------------------------------------


def _run_props(rpr: Any | None) -> tuple:
    if rpr is None:
        return ()
    props: dict[str, Any] = {}
    for child in rpr:
        tag = child.tag
        local = tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
        if local == "b":
            props["bold"] = is_on(child)
        elif local == "i":
            props["italic"] = is_on(child)
        elif local == "u":
            props["underline"] = (child.get(W_VAL) or "single") != "none"
        elif local in ("strike", "dstrike"):
            props["strike"] = props.get("strike", False) or is_on(child)
        elif local == "rFonts":
            props["fontFamily"] = child.get(qn("w:ascii")) or child.get(qn("w:hAnsi")) or child.get(qn("w:cs"))
        elif local == "sz":
            with contextlib.suppress(ValueError):
                props["fontSizePt"] = int(child.get(W_VAL) or "") / 2
        elif local == "color":
            value = (child.get(W_VAL) or "").upper()
            props["color"] = None if value in ("", "AUTO") else "#" + value
        elif local == "highlight":
            value = child.get(W_VAL)
            props["highlight"] = None if value in (None, "none") else value
        elif local == "vertAlign":
            value = child.get(W_VAL)
            props["verticalAlign"] = None if value in (None, "baseline") else value
        elif local == "rStyle":
            props["characterStyle"] = child.get(W_VAL)
    return tuple(sorted((k, v) for k, v in props.items() if v not in (None, False)))


def format_runs(p: Any) -> list[tuple[int, tuple]]:
    """The paragraph's text as (length, run formatting) spans, equal neighbours merged."""
    from ..wml.revisions import paragraph_runs, run_items

    spans: list[tuple[int, tuple]] = []
    for r in paragraph_runs(p):
        length = sum(len(text) for _, text in run_items(r))
        if not length:
            continue
        props = _run_props(r[0] if len(r) and r[0].tag == W_RPR else None)
        if spans and spans[-1][1] == props:
            spans[-1] = (spans[-1][0] + length, props)
        else:
            spans.append((length, props))
    return spans


def _changed_run_properties(a: list[tuple[int, tuple]], b: list[tuple[int, tuple]]) -> set[str]:
    changed: set[str] = set()
    i = j = 0
    left_a = a[0][0] if a else 0
    left_b = b[0][0] if b else 0
    while i < len(a) and j < len(b):
        pa, pb = dict(a[i][1]), dict(b[j][1])
        for name in set(pa) | set(pb):
            if pa.get(name) != pb.get(name):
                changed.add(name)
        step = min(left_a, left_b)
        left_a -= step
        left_b -= step
        if left_a == 0:
            i += 1
            left_a = a[i][0] if i < len(a) else 0
        if left_b == 0:
            j += 1
            left_b = b[j][0] if j < len(b) else 0
    return changed


def _paragraph_properties(p: Any) -> dict[str, tuple]:
    ppr = p[0] if len(p) and p[0].tag == W_PPR else None
    out: dict[str, tuple] = {}
    if ppr is None:
        return out
    for child in ppr:
        if not isinstance(child.tag, str) or child.tag in _PPR_IGNORED:
            continue
        name = _PARAGRAPH_NAMES.get(child.tag, "paragraphProperties")
        out[name] = (*out.get(name, ()), canonical(child))
    return out


def same_markup(a: Any, b: Any) -> bool:
    """Whether two elements are written the same way (tags, attributes and text throughout; the
    top element's paragraph ids and revision session ids aside): the quick answer for the many
    paragraphs an edit leaves alone."""
    left, right = list(a.iter()), list(b.iter())
    if len(left) != len(right) or a.tag != b.tag:
        return False
    if [k for k in a.items() if not _identity(k[0])] != [k for k in b.items() if not _identity(k[0])]:
        return False
    return [(x.tag, x.text, x.items()) for x in left[1:]] == [(y.tag, y.text, y.items()) for y in right[1:]] and (
        a.text == b.text
    )


def _identity(name: str) -> bool:
    return name.startswith(RSID_PREFIX) or name in (W14_PARAID, W14_TEXTID)


def changed_properties(a: Para, b: Para) -> list[str]:
    """What differs between two paragraphs of equal text (empty: nothing visible)."""
    changed = _changed_run_properties(format_runs(a.element), format_runs(b.element))
    pa, pb = _paragraph_properties(a.element), _paragraph_properties(b.element)
    for name in set(pa) | set(pb):
        if pa.get(name) != pb.get(name):
            changed.add(name)
    if a.key != b.key:
        changed.add("inlineObjects")
    order = (*RUN_PROPERTIES, *PARAGRAPH_PROPERTIES, "inlineObjects")
    return [name for name in order if name in changed]


# -- the diff -------------------------------------------------------------------------------------


class _Entry:
    """One paragraph-level change, before moves are found and JSON is built."""

    __slots__ = ("current", "extra", "move", "previous", "type")

    def __init__(self, type: str, previous: Para | None, current: Para | None, **extra: Any) -> None:
        self.type = type
        self.previous = previous
        self.current = current
        self.extra = extra
        self.move: int | None = None


def _word_count(text: str) -> int:
    return sum(1 for token in tokenize(text) if not token.isspace() and token.strip())


def _first_paragraph(holder: Cell | Table) -> Para | None:
    """The first block paragraph of a cell or table."""
    items = holder.items if isinstance(holder, Cell) else [holder]
    return next((p for item in items for p in paragraphs_of(item) if p.block is not None), None)


def _whole(kind: str, row: Any) -> list[_Entry]:
    """Entries for every paragraph of a row that is only on one side."""
    if row is None:
        return []
    paragraphs = [p for cell in row.cells for item in cell.items for p in paragraphs_of(item) if p.block is not None]
    if kind == "deleted":
        return [_Entry(kind, p, None) for p in paragraphs]
    return [_Entry(kind, None, p) for p in paragraphs]


class Comparison:
    """One comparison: the budget shared by its stories and the move counter."""

    def __init__(self, include: tuple[str, ...] = DEFAULT_INCLUDE) -> None:
        self._carried: dict[int, list[str]] = {}  # id(previous Para) -> its holders' changes
        self.include = include
        self.budget = Budget()
        self.next_move = 1
        self.unchanged = 0

    def story(self, previous: list[Any], current: list[Any]) -> tuple[list[_Entry], int]:
        """Entries and the unchanged count of one pair of story trees."""
        entries: list[_Entry] = []
        with progress.phase("aligning paragraphs"):
            events = align_containers(previous, current, self.budget)
        with progress.phase("comparing paragraphs", total=len(events)) as step:
            unchanged = self._walk(events, entries, step)
        if "text" not in self.include:
            return [entry for entry in entries if entry.type == "formatChanged"], unchanged
        with progress.phase("finding moved paragraphs"):
            self._find_moves(entries)
        return entries, unchanged

    def _walk(self, events: list[Aligned], out: list[_Entry], step: progress.Phase | None = None) -> int:
        unchanged = 0
        for event in events:
            if step is not None:
                step.advance()
            a, b = event.previous, event.current
            if a is None:
                out.extend(_Entry("added", None, p) for p in paragraphs_of(b) if p.block is not None)
            elif b is None:
                out.extend(_Entry("deleted", p, None) for p in paragraphs_of(a) if p.block is not None)
            elif isinstance(a, Table):
                unchanged += self._table(event, out)
            else:
                unchanged += self._paragraph_pair(a, b, out)
                if event.boxes is not None:
                    for box in event.boxes:
                        unchanged += self._walk(box, out)
                else:
                    out.extend(_Entry("deleted", p, None) for box in a.boxes for i in box for p in paragraphs_of(i)
                               if p.block is not None)  # fmt: skip
                    out.extend(_Entry("added", None, p) for box in b.boxes for i in box for p in paragraphs_of(i)
                               if p.block is not None)  # fmt: skip
        return unchanged

    def _table(self, event: Aligned, out: list[_Entry]) -> int:
        """A paired table: rows on one side only, then each paired cell's content. What changed
        in the table's, a row's or a cell's own properties goes with the cell's first paragraph
        (``_carried``): the table's and a row's with their first paired cell."""
        unchanged = 0
        formatting = "formatting" in self.include
        waiting = changed_table_properties(event.previous.element, event.current.element) if formatting else []
        for row in event.rows or ():
            if row.cells is None:
                out.extend(_whole("deleted", row.previous))
                out.extend(_whole("added", row.current))
                continue
            if formatting and row_properties_differ(row.previous.element, row.current.element):
                waiting.append("rowProperties")
            for cell_a, cell_b, inner in row.cells:
                if formatting and cell_properties_differ(cell_a.element, cell_b.element):
                    waiting.append("cellProperties")
                first = _first_paragraph(cell_a), _first_paragraph(cell_b)
                if waiting and None not in first:
                    self._carried[id(first[0])] = waiting
                    waiting = []
                unchanged += self._walk(inner, out)
                left = self._carried.pop(id(first[0]), None)
                if left:  # the first paragraph was not paired: the change stands on its own
                    out.append(_Entry("formatChanged", *first, changedProperties=left))
        if waiting:  # no paired cell with a paragraph on both sides came after the change
            first = _first_paragraph(event.previous), _first_paragraph(event.current)
            if None not in first:
                out.append(_Entry("formatChanged", *first, changedProperties=waiting))
        return unchanged

    def _paragraph_pair(self, a: Para, b: Para, out: list[_Entry]) -> int:
        if a.block is None and b.block is None:
            return 0
        if a.block is None:
            out.append(_Entry("added", None, b))
            return 0
        if b.block is None:
            out.append(_Entry("deleted", a, None))
            return 0
        carried = self._carried.pop(id(a), [])  # its table's, row's or cell's own changes
        if a.text != b.text:
            if "text" in self.include:
                extra = {"changedProperties": carried} if carried else {}
                out.append(_Entry("modified", a, b, segments=word_diff(a.text, b.text, self.budget), **extra))
            elif carried:
                out.append(_Entry("formatChanged", a, b, changedProperties=carried))
            return 0
        changed = list(carried)
        if "formatting" in self.include and not same_markup(a.element, b.element):
            changed += changed_properties(a, b)
        if changed:
            out.append(_Entry("formatChanged", a, b, changedProperties=changed))
            return 0
        return 1

    def _find_moves(self, entries: list[_Entry]) -> None:
        """Exact moves first (equal texts, first in first out), then paragraphs that moved and
        changed (an addition and a deletion at least ``MOVED_AND_MODIFIED`` alike)."""
        deleted: dict[str, deque[_Entry]] = defaultdict(deque)
        for entry in entries:
            if entry.type == "deleted" and _word_count(entry.previous.text) >= MIN_MOVE_WORDS:
                queue = deleted[entry.previous.text]
                if len(queue) < MAX_MOVE_CANDIDATES:
                    queue.append(entry)
        for entry in entries:
            if entry.type != "added":
                continue
            queue = deleted.get(entry.current.text)
            if queue:
                self._move(queue.popleft(), entry)
        gone = [e for e in entries if e.type == "deleted" and _word_count(e.previous.text) >= MIN_MOVE_WORDS]
        new = [e for e in entries if e.type == "added" and _word_count(e.current.text) >= MIN_MOVE_WORDS]
        if not gone or not new:
            return
        found = similar_candidates([e.previous for e in gone], [e.current for e in new], MOVED_AND_MODIFIED)
        for i, j, _ in sorted(found, key=lambda c: (-c[2], c[0], c[1])):
            source, target = gone[i], new[j]
            if source.type == "deleted" and target.type == "added":
                target.extra["segments"] = word_diff(source.previous.text, target.current.text, self.budget)
                self._move(source, target)

    def _move(self, source: _Entry, target: _Entry) -> None:
        source.type, target.type = "movedFrom", "movedTo"
        source.move = target.move = self.next_move
        self.next_move += 1


# -- JSON -----------------------------------------------------------------------------------------


def _side(para: Para | None, prefix: str, out: dict[str, Any]) -> None:
    if para is None:
        return
    ident = para.block
    if isinstance(ident, int):
        out[prefix + "Paragraph"] = ident
        return
    out[prefix + "BlockId"] = ident.id
    if ident.cell is not None:
        table, row, column = ident.cell
        out[prefix + "Table"] = {"index": table, "row": row, "column": column}
    if ident.in_text_box:
        out[prefix + "InTextBox"] = True


def _kind(para: Para) -> str:
    ident = para.block
    return "paragraph" if isinstance(ident, int) else ident.kind


def entry_json(entry: _Entry) -> dict[str, Any]:
    a, b = entry.previous, entry.current
    main = b if b is not None and entry.type != "movedFrom" else a
    out: dict[str, Any] = {"type": entry.type}
    ident = main.block
    if isinstance(ident, int):
        out["paragraph"] = ident
    else:
        out["blockId"] = ident.id
    out["kind"] = _kind(main)
    _side(a, "previous", out)
    _side(b, "current", out)
    if entry.type == "modified":
        out["segments"] = [{"type": kind, "text": text} for kind, text in entry.extra["segments"]]
    else:
        out["text"] = main.text
        if entry.type == "movedTo" and "segments" in entry.extra:
            out["segments"] = [{"type": kind, "text": text} for kind, text in entry.extra["segments"]]
    if "changedProperties" in entry.extra:
        out["changedProperties"] = entry.extra["changedProperties"]
    if entry.move is not None:
        out["moveGroupId"] = entry.move
    return out


def _counts(entries: list[_Entry], unchanged: int) -> dict[str, int]:
    counts = {"added": 0, "deleted": 0, "modified": 0, "formatChanged": 0, "moved": 0, "unchanged": unchanged}
    for entry in entries:
        if entry.type == "movedTo":
            counts["moved"] += 1
        elif entry.type != "movedFrom":
            counts[entry.type] += 1
    return counts


# -- stories --------------------------------------------------------------------------------------


def section_references(doc: Any) -> list[tuple[tuple, str, str]]:
    """``((section, kind, type), relationshipId, part)`` for every header and footer reference of
    every section, in document order."""
    out = []
    package = doc.package
    for index, sectpr in enumerate(doc.body.iter(W_SECTPR)):
        for child in sectpr:
            tag = child.tag
            if tag in (qn("w:headerReference"), qn("w:footerReference")):
                kind = "header" if tag == qn("w:headerReference") else "footer"
                rel_id = child.get(qn("r:id"))
                part = package.resolve_target(doc.main_part, rel_id) if rel_id else None
                if part and package.has_part(part):
                    out.append(((index, kind, child.get(qn("w:type")) or "default"), rel_id, part))
    return out


class StoryPair:
    """Two corresponding secondary stories (either side may be missing)."""

    def __init__(self, previous: dict | None, current: dict | None, prev_tree, cur_tree, prev_part, cur_part,
                 prev_container=None, cur_container=None) -> None:  # fmt: skip
        self.previous = previous
        self.current = current
        self.previous_tree = prev_tree or []
        self.current_tree = cur_tree or []
        self.previous_part = prev_part
        self.current_part = cur_part
        self.previous_container = prev_container
        self.current_container = cur_container


def pair_header_footer_stories(previous: Version, current: Version) -> list[StoryPair]:
    prev_refs = section_references(previous.doc)
    cur_refs = section_references(current.doc)
    cur_by_key = {key: (rel, part) for key, rel, part in cur_refs}
    pairs: list[StoryPair] = []
    seen: set[tuple[str | None, str | None]] = set()
    used_prev: set[str] = set()
    used_cur: set[str] = set()

    def story(kind: str, rel: str) -> dict:
        return {"type": kind, "relationshipId": rel}

    for key, rel, part in prev_refs:
        match = cur_by_key.get(key)
        cur_rel, cur_part = match if match else (None, None)
        if (part, cur_part) in seen:
            continue
        if part in used_prev or (cur_part is not None and cur_part in used_cur):
            continue  # one part serving several sections: compared once, with its first partner
        seen.add((part, cur_part))
        used_prev.add(part)
        if cur_part is not None:
            used_cur.add(cur_part)
        prev_root = previous.doc.package.xml(part)
        cur_root = current.doc.package.xml(cur_part) if cur_part else None
        pairs.append(
            StoryPair(
                story(key[1], rel),
                story(key[1], cur_rel) if cur_rel else None,
                previous.story_tree(part, prev_root),
                current.story_tree(cur_part, cur_root) if cur_root is not None else None,
                part,
                cur_part,
                prev_root,
                cur_root,
            )
        )
    for key, rel, part in cur_refs:
        if part in used_cur:
            continue
        used_cur.add(part)
        root = current.doc.package.xml(part)
        pairs.append(StoryPair(None, story(key[1], rel), None, current.story_tree(part, root), None, part, None, root))
    return pairs


class _Note:
    __slots__ = ("boxes", "container", "handle", "key", "part", "profile", "text", "tree")

    def __init__(self, handle: dict, part: str, container: Any, tree: list[Any]) -> None:
        self.handle = handle
        self.part = part
        self.container = container
        self.tree = tree
        self.text = " ".join(p.text for item in tree for p in paragraphs_of(item))
        self.key = self.text
        self.profile: TextProfile | None = None
        self.boxes: list = []


def _notes(version: Version, kind: str) -> list[_Note]:
    from ..model.stories import list_stories

    return [
        _Note(story.handle, story.part, story.container, version.story_tree(story.part, story.container))
        for story in list_stories(version.doc)
        if story.handle["type"] == kind
    ]


def pair_note_stories(previous: Version, current: Version, budget: Budget) -> list[StoryPair]:
    pairs: list[StoryPair] = []
    for kind in ("footnote", "endnote"):
        prev_notes, cur_notes = _notes(previous, kind), _notes(current, kind)
        for event in align_containers(prev_notes, cur_notes, budget):
            a, b = event.previous, event.current
            pairs.append(
                StoryPair(
                    a.handle if a else None,
                    b.handle if b else None,
                    a.tree if a else None,
                    b.tree if b else None,
                    a.part if a else None,
                    b.part if b else None,
                    a.container if a else None,
                    b.container if b else None,
                )
            )
    return pairs


# -- metadata -------------------------------------------------------------------------------------


def _metadata_changes(previous: Version, current: Version) -> list[dict[str, Any]]:
    from ..package.privacy import CORE_PROPERTIES, core_properties

    a, b = core_properties(previous.doc.package), core_properties(current.doc.package)
    return [
        {"property": name, "previousValue": a.get(name), "currentValue": b.get(name)}
        for name in CORE_PROPERTIES
        if a.get(name) != b.get(name)
    ]


# -- entry points ---------------------------------------------------------------------------------


def check_include(include: Any) -> tuple[str, ...]:
    if include is None:
        return DEFAULT_INCLUDE
    if not isinstance(include, (list, tuple)) or not include:
        raise DeskcheckError(
            f"include must be a non-empty list of {', '.join(INCLUDE_SCOPES)}.", code="invalidArguments"
        )
    unknown = [scope for scope in include if scope not in INCLUDE_SCOPES]
    if unknown:
        raise DeskcheckError(
            f"include has {', '.join(map(repr, unknown))}; use any of {', '.join(INCLUDE_SCOPES)}.",
            code="invalidArguments",
        )
    return tuple(scope for scope in INCLUDE_SCOPES if scope in include)


def compare_documents(
    previous: Version, current: Version, include: tuple[str, ...] = DEFAULT_INCLUDE
) -> dict[str, Any]:
    """The comparison of two read versions as JSON (see the module docstring)."""
    comparison = Comparison(include)
    entries, unchanged = comparison.story(previous.main_tree(), current.main_tree())
    totals = _counts(entries, unchanged)
    stories_json = []
    for pair in [
        *pair_header_footer_stories(previous, current),
        *pair_note_stories(previous, current, comparison.budget),
    ]:
        story_entries, story_unchanged = comparison.story(pair.previous_tree, pair.current_tree)
        counts = _counts(story_entries, story_unchanged)
        for name, value in counts.items():
            totals[name] += value
        stories_json.append(
            {
                "previousStory": pair.previous,
                "currentStory": pair.current,
                "summaryCounts": counts,
                "changes": [entry_json(entry) for entry in story_entries],
            }
        )
    result: dict[str, Any] = {
        "previous": _version_json(previous),
        "current": _version_json(current),
        "include": list(include),
        "summaryCounts": totals,
        "changes": [entry_json(entry) for entry in entries],
        "stories": stories_json,
    }
    if "metadata" in include:
        result["metadataChanges"] = _metadata_changes(previous, current)
        totals["metadataChanged"] = len(result["metadataChanges"])
    if comparison.budget.coarse:
        result["approximate"] = COARSE_NOTE
    changed_unread = unread_changes(previous, current)
    if changed_unread:
        result["unreadChanges"] = changed_unread
    return result


def _version_json(version: Version) -> dict[str, Any]:
    out: dict[str, Any] = {
        "file": version.label,
        "documentVersion": version.document_version,
        "blocks": len(version.blocks),
    }
    if version.pending:
        out["acceptedPendingChanges"] = sum(version.pending.values())
    out.update(unread_fields(version.unread))
    return out


def unread_changes(previous: Version, current: Version) -> list[dict[str, Any]]:
    """Content left unread in either version that is not the same in both (by part and content
    hash): a change there is a change nobody compared."""

    def key(entry: dict) -> tuple:
        return entry.get("part"), entry.get("contentHash")

    before = {key(entry): entry for entry in previous.unread}
    after = {key(entry): entry for entry in current.unread}
    changes = []
    for part in dict.fromkeys(entry.get("part") for entry in [*previous.unread, *current.unread]):
        old = [k[1] for k in before if k[0] == part]
        new = [k[1] for k in after if k[0] == part]
        if sorted(map(str, old)) != sorted(map(str, new)):
            changes.append({"part": part, "previousContentHashes": old, "currentContentHashes": new})
    return changes


def compare_versions(
    previous: str | os.PathLike[str], current: str | os.PathLike[str], include: Any = None
) -> dict[str, Any]:
    """Compare two .docx files (see the module docstring). Raises ``InputError`` for a file that
    cannot be read."""
    scopes = check_include(include)
    return compare_documents(read_version(Path(previous)), read_version(Path(current)), scopes)
