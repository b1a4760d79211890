"""One paragraph of the previous version turned into its current version as tracked changes.

A paragraph is read as a line of *pieces* (``linearize``): text (``w:t``, symbols, special
hyphens), and objects that show something without being text (tabs, breaks, pictures, shapes,
field characters and instructions, note references, equations). Pieces occupy positions: a text
piece one per character, an object one. The paragraph's tokens are its words, the whitespace
between them and its objects; the two versions' tokens are diffed (``diff_text.token_ops``), a
change of words with only whitespace between them counting as one change.

``ParagraphRedliner.pair(a, b)`` then edits the previous paragraph ``a`` in place:

1. its runs are split at every boundary of a change (``wml.revisions.split_run_before``);
2. runs of equal text whose formatting differs get the current formatting, the old one kept in
   ``w:rPrChange`` (``record_run_properties``);
3. deleted runs are wrapped in ``w:del`` (``delete_runs``), deleted equations too;
4. inserted text is rebuilt from the current paragraph's runs (their formatting, pictures and
   fields copied through the ``transplant.Importer``) and placed in ``w:ins`` after the piece
   before it (inside a copy of the current hyperlink when it came from one);
5. paragraph properties that differ are replaced, the old ones kept in ``w:pPrChange``.

``insert_copy`` copies a whole current paragraph as inserted, ``delete`` marks a whole previous
paragraph deleted. Footnote and endnote references are reported to the caller (``notes``): pairs
of references kept, references deleted, references copied (the caller copies their notes).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import Any

from ..wml.ns import (
    NS,
    W_BDO,
    W_CUSTOMXML,
    W_DEL,
    W_DIR,
    W_ENDNOTEREFERENCE,
    W_FLDSIMPLE,
    W_FOOTNOTEREFERENCE,
    W_HYPERLINK,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_NOBREAKHYPHEN,
    W_P,
    W_PPR,
    W_R,
    W_RPR,
    W_SDT,
    W_SDTCONTENT,
    W_SMARTTAG,
    W_SOFTHYPHEN,
    W_SYM,
    W_T,
    qn,
)
from ..wml.properties import PPR_BASE, PPR_ORDER, insert_ordered
from ..wml.revisions import (
    Revisions,
    delete_runs,
    insert_runs,
    mark_move_range,
    mark_paragraph,
    mark_paragraph_moved,
    move_runs,
    record_paragraph_properties,
    record_run_properties,
    run_items,
    split_run_before,
    wrap_inserted,
)
from .diff_text import Budget, is_space, token_ops, tokenize
from .object_keys import ObjectKeys, canonical

_M = "{" + NS["m"] + "}"
_MATH = frozenset({_M + "oMath", _M + "oMathPara"})
_CONTAINERS = frozenset({W_HYPERLINK, W_SMARTTAG, W_CUSTOMXML, W_FLDSIMPLE, W_DIR, W_BDO, W_INS, W_DEL, W_MOVEFROM,
                         W_MOVETO})  # fmt: skip
_TEXT = frozenset({W_T, W_SYM, W_NOBREAKHYPHEN, W_SOFTHYPHEN})
# Run children that show nothing and need not be compared (they ride along with their run).
_SILENT = frozenset({qn("w:lastRenderedPageBreak"), qn("w:commentReference"), qn("w:annotationRef"), W_RPR})
_NOTE_REFERENCES = (W_FOOTNOTEREFERENCE, W_ENDNOTEREFERENCE)
# Run properties that change nothing a reader sees: a difference in them is not a formatting change.
_INVISIBLE = frozenset({qn("w:lang"), qn("w:noProof"), qn("w:webHidden"), qn("w:specVanish"), qn("w:rPrChange"),
                        W_INS, W_DEL, W_MOVEFROM, W_MOVETO})  # fmt: skip
_RSID = "{" + NS["w"] + "}rsid"


class Piece:
    """A stretch of a paragraph: ``text`` for text pieces (``key`` None), ``key`` for objects."""

    __slots__ = ("child", "container", "end", "key", "run", "start", "text")

    def __init__(self, run: Any, child: Any, start: int, text: str | None, key: str | None, container: Any) -> None:
        self.run = run  # the w:r (for an equation: the m:oMath itself)
        self.child = child
        self.start = start
        self.end = start + (len(text) if text is not None else 1)
        self.text = text
        self.key = key
        self.container = container  # the innermost hyperlink (or other inline wrapper) around it


def linearize(p: Any, keys: Any) -> list[Piece]:
    """The pieces of paragraph ``p``; ``keys`` gives objects their comparison key."""
    pieces: list[Piece] = []
    _walk(p, None, pieces, keys)
    return pieces


def _walk(parent: Any, container: Any, out: list[Piece], keys: Any) -> None:
    for child in parent:
        tag = child.tag
        if tag == W_R:
            _run(child, container, out, keys)
        elif tag in _CONTAINERS:
            _walk(child, child if tag in (W_HYPERLINK, W_FLDSIMPLE, W_SMARTTAG) else container, out, keys)
        elif tag == W_SDT:
            content = child.find(W_SDTCONTENT)
            if content is not None:
                _walk(content, container, out, keys)
        elif tag in _MATH:
            start = out[-1].end if out else 0
            out.append(Piece(child, child, start, None, keys(child), container))


def _run(r: Any, container: Any, out: list[Piece], keys: Any) -> None:
    for child, text in run_items(r):
        tag = child.tag
        if tag in _SILENT or not isinstance(tag, str):
            continue
        start = out[-1].end if out else 0
        if tag in _TEXT:
            if text:
                out.append(Piece(r, child, start, text, None, container))
        elif tag == qn("w:delText") or tag == qn("w:delInstrText"):
            continue
        else:
            out.append(Piece(r, child, start, None, keys(child), container))


class Line:
    """The pieces of a paragraph with their start and end positions, for finding the pieces of a
    range by bisection: a paragraph of 250,000 runs has as many pieces, and scanning them all for
    each changed range made a redline quadratic."""

    __slots__ = ("ends", "pieces", "starts")

    def __init__(self, pieces: list[Piece]) -> None:
        self.pieces = pieces
        self.starts = [piece.start for piece in pieces]
        self.ends = [piece.end for piece in pieces]
        # ``linearize`` starts each piece where the previous one ends, and no piece is empty:
        # starts and ends both increase, which is what bisection needs.
        for index, piece in enumerate(pieces):
            if piece.end <= piece.start or (index and piece.start != pieces[index - 1].end):
                raise ValueError("the pieces of a paragraph must follow one another")

    def first_ending_after(self, position: int) -> int:
        """The index of the first piece ending after ``position`` (``len`` if none)."""
        return bisect_right(self.ends, position)

    def starting_at(self, position: int) -> Piece:
        """The piece that starts at ``position`` (one does: a token starts with a piece)."""
        index = bisect_left(self.starts, position)
        if index == len(self.starts) or self.starts[index] != position:
            raise LookupError(f"no piece starts at {position}")
        return self.pieces[index]

    def within(self, start: int, end: int) -> list[Piece]:
        """The pieces lying wholly in [start, end)."""
        return self.pieces[bisect_left(self.starts, start) : bisect_right(self.ends, end)]

    def starting_in(self, start: int, end: int) -> list[Piece]:
        """The pieces starting in [start, end)."""
        return self.pieces[bisect_left(self.starts, start) : bisect_left(self.starts, end)]

    def overlapping(self, start: int, end: int) -> list[Piece]:
        """The pieces sharing at least one position with [start, end)."""
        return self.pieces[bisect_right(self.ends, start) : bisect_left(self.starts, end)]


class Tokens:
    """A paragraph's tokens (words, whitespace, and one per object), as three parallel lists:
    a paragraph of a million words makes no object per word (that cost 1 us a token)."""

    __slots__ = ("ends", "keys", "objects", "starts")

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.objects: list[int] = []  # the indices of the objects' tokens, in order

    def add_text(self, text: str, start: int) -> None:
        words = tokenize(text)
        positions = list(accumulate(map(len, words), initial=start))
        self.keys += words
        self.starts += positions[:-1]
        self.ends += positions[1:]


def tokens_of(pieces: list[Piece]) -> Tokens:
    tokens = Tokens()
    buffer: list[str] = []
    buffer_start = 0
    for piece in pieces:
        if piece.text is not None:
            if not buffer:
                buffer_start = piece.start
            buffer.append(piece.text)
            continue
        if buffer:
            tokens.add_text("".join(buffer), buffer_start)
            buffer.clear()
        tokens.objects.append(len(tokens.keys))
        tokens.keys.append(piece.key or "")
        tokens.starts.append(piece.start)
        tokens.ends.append(piece.end)
    if buffer:
        tokens.add_text("".join(buffer), buffer_start)
    return tokens


def _is_space_key(key: str) -> bool:
    return not key.startswith("\x00") and is_space(key)


def folded_ops(a: Tokens, b: Tokens, budget: Budget | None = None) -> list[tuple[str, int, int, int, int]]:
    """Token opcodes, with whitespace-only equal stretches between two changes folded into them.

    One pass, left to right: a fold turns three opcodes into one change, which can make the next
    equal stretch foldable but never one already passed (rescanning from the start after each
    fold cost opcodes x folds)."""
    ops = token_ops(a.keys, b.keys, budget)
    out: list[tuple[str, int, int, int, int]] = []
    index = 0
    while index < len(ops):
        kind, i1, i2, _, _ = ops[index]
        if (
            kind == "equal"
            and out
            and out[-1][0] != "equal"
            and index + 1 < len(ops)
            and ops[index + 1][0] != "equal"
            and all(_is_space_key(key) for key in a.keys[i1:i2])
        ):
            before, after = out[-1], ops[index + 1]
            out[-1] = ("replace", before[1], after[2], before[3], after[4])
            index += 2
            continue
        out.append(ops[index])
        index += 1
    return out


def visible_properties(rpr: Any | None) -> tuple:
    """A comparable form of run properties, leaving out what changes nothing on the page."""
    if rpr is None:
        return ()
    return tuple(
        sorted(canonical(child) for child in rpr if isinstance(child.tag, str) and child.tag not in _INVISIBLE)
    )


def paragraph_base_properties(p: Any) -> list[Any]:
    """The ``w:pPr`` children a ``w:pPrChange`` records (style, numbering, alignment, ...)."""
    ppr = p[0] if len(p) and p[0].tag == W_PPR else None
    return [] if ppr is None else [child for child in ppr if child.tag in PPR_BASE]


def _run_properties(r: Any) -> Any | None:
    return r[0] if len(r) and r[0].tag == W_RPR else None


class Insertion:
    __slots__ = ("anchor", "pieces", "position")

    def __init__(self, position: int, pieces: list[Piece]) -> None:
        self.position = position
        self.pieces = pieces
        self.anchor: tuple[Any, str] | None = None


class ParagraphRedliner:
    """Paragraph-level tracked changes within one story (see the module docstring)."""

    def __init__(
        self, revisions: Revisions, importer: Any, source_part: str, target_part: str, budget: Budget | None = None
    ) -> None:
        self.revisions = revisions
        self.budget = budget  # the redline's, shared with its other stories
        self.importer = importer
        self.source_part = source_part
        self.target_part = target_part
        self.keys_previous = ObjectKeys(importer.target.package, target_part)
        self.keys_current = ObjectKeys(importer.source.package, source_part)
        self.kept_notes: list[tuple[Any, Any]] = []  # (previous reference, current reference)
        self.deleted_notes: list[Any] = []  # previous references now deleted
        self.copied_notes: list[Any] = []  # references inside copied content (still the current ids)
        self.changed = 0

    # -- whole paragraphs ---------------------------------------------------------------------------

    def delete(self, p: Any, *, mark: bool = True) -> None:
        """Mark the whole previous paragraph ``p`` deleted (its mark too unless ``mark`` is False)."""
        self.delete_content(p)
        if mark:
            mark_paragraph(p, "del", self.revisions)

    def delete_content(self, element: Any) -> None:
        """Mark every run and equation inside ``element`` deleted."""
        pieces_runs = [r for r in element.iter(W_R) if not _inside_math(r)]
        delete_runs(pieces_runs, self.revisions)
        for math in _outer_math(element):
            self._wrap_math(math, "w:del")
        self.deleted_notes.extend(element.iter(*_NOTE_REFERENCES))
        self.changed += 1

    def move_out(self, p: Any, number: int) -> None:
        """Mark the whole previous paragraph ``p`` moved away (move ``number``)."""
        runs = [r for r in p.iter(W_R) if not _inside_math(r)]
        move_runs(runs, "from", self.revisions)
        for math in _outer_math(p):
            self._wrap_math(math, "w:del")
        mark_paragraph_moved(p, "from", self.revisions)
        mark_move_range(p, p, "from", f"move{number}", self.revisions)
        self.deleted_notes.extend(p.iter(*_NOTE_REFERENCES))
        self.changed += 1

    def move_in(self, q: Any, number: int) -> Any:
        """A copy of current paragraph ``q`` marked moved here (move ``number``)."""
        copy = self.importer.copy(q, self.source_part, self.target_part)
        runs = [r for r in copy.iter(W_R) if not _inside_math(r)]
        move_runs(runs, "to", self.revisions)
        for math in _outer_math(copy):
            self._wrap_math(math, "w:ins")
        mark_paragraph_moved(copy, "to", self.revisions)
        mark_move_range(copy, copy, "to", f"move{number}", self.revisions)
        self.copied_notes.extend(copy.iter(*_NOTE_REFERENCES))
        self.changed += 1
        return copy

    def insert_copy(self, q: Any, *, mark: bool = True) -> Any:
        """A copy of the current paragraph (or table) ``q`` with all its content marked inserted
        (and, for a paragraph, its mark too unless ``mark`` is False)."""
        copy = self.importer.copy(q, self.source_part, self.target_part)
        self.mark_inserted_content(copy)
        if mark and copy.tag == W_P:
            mark_paragraph(copy, "ins", self.revisions)
        return copy

    def mark_inserted_content(self, element: Any) -> None:
        runs = [r for r in element.iter(W_R) if not _inside_math(r)]
        wrap_inserted(runs, self.revisions)
        for math in _outer_math(element):
            self._wrap_math(math, "w:ins")
        self.copied_notes.extend(element.iter(*_NOTE_REFERENCES))
        self.changed += 1

    # -- equations ----------------------------------------------------------------------------------

    def _wrap_math(self, math: Any, tag: str) -> None:
        """Mark an equation's content inserted or deleted. The equation element itself stays:
        Word records equation changes inside ``m:oMath`` (LibreOffice drops a paragraph whose
        whole equation sits in a revision wrapper)."""
        for o_math in _math_bodies(math):
            content = [child for child in o_math if isinstance(child.tag, str)]
            if content and not (len(content) == 1 and content[0].tag in (W_INS, W_DEL)):
                wrapper = self.revisions.element(tag, o_math)
                for child in content:
                    wrapper.append(child)
                o_math.append(wrapper)

    def _replace_math(self, old: Any, new: Any) -> None:
        """Turn equation ``old`` into a copy of ``new``: old content deleted, new inserted, in
        the same ``m:oMath`` (paired one by one inside display equations)."""
        old_bodies, new_bodies = _math_bodies(old), _math_bodies(new)
        for index, o_math in enumerate(old_bodies):
            self._wrap_math(o_math, "w:del")
            if index < len(new_bodies):
                wrapper = self.revisions.element("w:ins", o_math)
                for child in new_bodies[index]:
                    if isinstance(child.tag, str):
                        wrapper.append(self.importer.copy(child, self.source_part, self.target_part))
                o_math.append(wrapper)
        for extra in new_bodies[len(old_bodies) :]:
            copy = self.importer.copy(extra, self.source_part, self.target_part)
            self._wrap_math(copy, "w:ins")
            (old if old.tag == _M + "oMathPara" else old.getparent()).append(copy)

    # -- a pair -------------------------------------------------------------------------------------

    def object_change_at_end(self, p: Any, q: Any) -> bool:
        """Whether the two paragraphs end differently with an object (a picture, a shape, an
        equation...): tracked at the very end of a paragraph, such a change takes the paragraph
        mark with it in LibreOffice, so the caller replaces the whole paragraph instead."""
        before = linearize(p, self.keys_previous)
        after = linearize(q, self.keys_current)
        last_a = before[-1] if before else None
        last_b = after[-1] if after else None
        if (
            last_a is not None
            and last_b is not None
            and last_a.key == last_b.key
            and (last_a.key is not None or last_a.text[-1:] == last_b.text[-1:])
        ):
            return False
        return any(piece is not None and piece.key is not None for piece in (last_a, last_b))

    def pair(self, p: Any, q: Any) -> bool:
        """Turn previous paragraph ``p`` into current paragraph ``q`` in place; True if anything
        changed."""
        before = Line(linearize(p, self.keys_previous))
        after = Line(linearize(q, self.keys_current))
        ta, tb = tokens_of(before.pieces), tokens_of(after.pieces)
        ops = folded_ops(ta, tb, self.budget)
        deleted: list[tuple[int, int]] = []
        insertions: list[Insertion] = []
        formats: list[tuple[int, int, Any]] = []
        end_a = before.ends[-1] if before.ends else 0
        for kind, i1, i2, j1, j2 in ops:
            if kind == "equal":
                self._compare_formatting(before, after, ta.starts[i1], ta.ends[i2 - 1], tb.starts[j1], formats)
                for i in ta.objects[bisect_left(ta.objects, i1) : bisect_left(ta.objects, i2)]:
                    if ta.keys[i].startswith("\x00note:"):
                        j = j1 + i - i1
                        self._keep_note(before.starting_at(ta.starts[i]), after.starting_at(tb.starts[j]))
                continue
            start = ta.starts[i1] if i1 < len(ta.keys) else end_a
            end = ta.ends[i2 - 1] if i2 > i1 else start
            if i2 > i1:
                deleted.append((start, end))
            if j2 > j1:
                insertions.append(Insertion(end, _slice(after, tb.starts[j1], tb.ends[j2 - 1])))
        properties_changed = self._paragraph_properties(p, q)
        if not deleted and not insertions and not formats:
            return properties_changed
        cuts = {s for s, _ in deleted} | {e for _, e in deleted} | {i.position for i in insertions}
        cuts |= {s for s, _, _ in formats} | {e for _, e, _ in formats}
        _split(before.pieces, cuts, self.revisions)
        pieces = Line(linearize(p, self.keys_previous))
        waiting: dict[int, list[Insertion]] = {}  # insertions by position, in order
        for insertion in insertions:
            insertion.anchor = _anchor(pieces, insertion.position, p)
            waiting.setdefault(insertion.position, []).append(insertion)
        for start, end, rpr in formats:
            for run in _runs_in(pieces, start, end):
                self._reformat(run, rpr)
        edited_in_place: set[int] = set()
        for start, end in deleted:
            runs = _runs_in(pieces, start, end)
            delete_runs([r for r in runs if r.tag == W_R], self.revisions)
            old_math = [r for r in runs if r.tag in _MATH]
            insertion = waiting[end][0] if waiting.get(end) else None
            new_math = [q.run for q in insertion.pieces] if insertion is not None else []
            if old_math and len(old_math) == len(new_math) == len(runs) and all(m.tag in _MATH for m in new_math):
                # Equations edited in place: keep each equation, change its content.
                for old, new in zip(old_math, new_math, strict=True):
                    self._replace_math(old, new)
                waiting[end].pop(0)
                edited_in_place.add(id(insertion))
                continue
            for math in old_math:
                self._wrap_math(math, "w:del")
            self.deleted_notes.extend(
                piece.child for piece in pieces.starting_in(start, end) if piece.child.tag in _NOTE_REFERENCES
            )
        for insertion in insertions:
            if id(insertion) not in edited_in_place:
                self._place(insertion, p)
        self.changed += 1
        return True

    def _keep_note(self, a: Piece, b: Piece) -> None:
        if a.child.tag == b.child.tag:
            self.kept_notes.append((a.child, b.child))

    def _compare_formatting(self, before: Line, after: Line, sa: int, ea: int, sb: int, out: list) -> None:
        """Sub-ranges of an equal stretch whose visible run formatting differs."""
        offset = sb - sa
        ia = before.first_ending_after(sa)
        ib = after.first_ending_after(sb)
        position = sa
        while position < ea and ia < len(before.pieces) and ib < len(after.pieces):
            pa, pb = before.pieces[ia], after.pieces[ib]
            stop = min(pa.end, pb.end - offset, ea)
            if pa.run.tag == W_R and pb.run.tag == W_R:
                ra, rb = _run_properties(pa.run), _run_properties(pb.run)
                if visible_properties(ra) != visible_properties(self._mapped(rb)):
                    if out and out[-1][1] == position and out[-1][2] is rb:
                        out[-1] = (out[-1][0], stop, rb)
                    else:
                        out.append((position, stop, rb))
            position = stop
            if pa.end <= position:
                ia += 1
            if pb.end - offset <= position:
                ib += 1

    def _mapped(self, rpr: Any | None) -> Any | None:
        """Current run properties as they read in the previous package (style and ids mapped)."""
        if rpr is None:
            return None
        return self.importer.copy(rpr, self.source_part, self.target_part)

    def _reformat(self, run: Any, rpr: Any | None) -> None:
        if run.tag != W_R:
            return
        target = record_run_properties(run, self.revisions)
        for child in list(target):
            if child.tag != qn("w:rPrChange") and child.tag not in (W_INS, W_DEL, W_MOVEFROM, W_MOVETO):
                target.remove(child)
        if rpr is not None:
            from ..wml.properties import RPR_ORDER

            for child in self._mapped(rpr):
                if isinstance(child.tag, str) and child.tag not in _INVISIBLE:
                    insert_ordered(target, child, RPR_ORDER)

    def _paragraph_properties(self, p: Any, q: Any) -> bool:
        old = paragraph_base_properties(p)
        new = [self.importer.copy(child, self.source_part, self.target_part) for child in paragraph_base_properties(q)]
        if sorted(map(canonical, old)) == sorted(map(canonical, new)):
            return False
        ppr = record_paragraph_properties(p, self.revisions)
        for child in list(ppr):
            if child.tag in PPR_BASE:
                ppr.remove(child)
        for child in new:
            insert_ordered(ppr, child, PPR_ORDER)
        self.changed += 1
        return True

    def _place(self, insertion: Insertion, p: Any) -> None:
        """Put the new content after (or before) its anchor, outside the revision wrappers there.
        Next to a hyperlink (or field, smart tag) of the previous version, new text goes inside it
        when it falls within it or came from such a wrapper itself, and outside otherwise; new text
        that came from a hyperlink and lands outside any gets a copy of that hyperlink."""
        anchor, side = insertion.anchor or (p, "append")
        groups = [(container, runs) for container, runs in self._build(insertion.pieces, p) if runs]
        node = anchor
        host = _inline_host(anchor, p) if side != "append" else None
        plain = all(container is None or container is _MATH_GROUP for container, _ in groups)
        if host is not None and plain and _at_edge(anchor, host, side):
            node, host = host, None  # plain text beside a link stays out of the link
        elements = []
        # The wrappers are placed empty and filled once in the paragraph: lxml moves a large new
        # subtree into a document in quadratic time (500,000 new runs took a minute), runs one
        # by one in linear time.
        fills = []
        for container, runs in groups:
            if container is _MATH_GROUP:
                elements.extend(runs)
                continue
            wrapper = insert_runs((), self.revisions)
            fills.append((wrapper, runs))
            if container is not None and host is None:
                shell = self.importer.copy(_shallow(container), self.source_part, self.target_part)
                shell.append(wrapper)
                elements.append(shell)
            else:
                elements.append(wrapper)
        if side == "append":
            p.extend(elements)
        else:
            while node.getparent() is not None and node.getparent().tag in (W_DEL, W_INS, W_MOVEFROM, W_MOVETO):
                node = node.getparent()
            if side == "after":
                for element in reversed(elements):
                    node.addnext(element)
            else:
                for element in elements:
                    node.addprevious(element)
        for wrapper, runs in fills:
            wrapper.extend(runs)

    def _build(self, pieces: list[Piece], p: Any) -> list[tuple[Any, list[Any]]]:
        """New runs (and equations) showing ``pieces`` of the current paragraph, grouped by the
        hyperlink or field they sit in. The runs are made in ``p``'s document (``makeelement``):
        a run made on its own is a document of its own, 2 KB each."""
        from lxml import etree

        groups: list[tuple[Any, list[Any]]] = []
        current_run = None
        new_run = None
        for piece in pieces:
            if groups and groups[-1][0] is piece.container:
                runs = groups[-1][1]
            else:
                runs = []
                groups.append((piece.container, runs))
                current_run = None
            if piece.run.tag in _MATH:
                copy = self.importer.copy(piece.run, self.source_part, self.target_part)
                self._wrap_math(copy, "w:ins")
                groups.append((_MATH_GROUP, [copy]))
                current_run = None
                continue
            if piece.run is not current_run:
                current_run = piece.run
                new_run = p.makeelement(W_R)
                rpr = _run_properties(piece.run)
                if rpr is not None:
                    clean = self.importer.copy(rpr, self.source_part, self.target_part)
                    for child in list(clean):
                        if child.tag in (qn("w:rPrChange"), W_INS, W_DEL, W_MOVEFROM, W_MOVETO):
                            clean.remove(child)
                    if len(clean):
                        new_run.append(clean)
                runs.append(new_run)
            if piece.child.tag == W_T:
                t = etree.SubElement(new_run, W_T)
                t.text = piece.text
                t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            else:
                copy = self.importer.copy(piece.child, self.source_part, self.target_part)
                new_run.append(copy)
                if copy.tag in _NOTE_REFERENCES:
                    self.copied_notes.append(copy)
        return groups


# -- helpers ------------------------------------------------------------------------------------------


_MATH_GROUP = object()  # marks an equation among the groups of new content (it is not wrapped)


def _math_bodies(math: Any) -> list[Any]:
    """The ``m:oMath`` elements of an equation (itself, or those of a display equation)."""
    if math.tag == _M + "oMath":
        return [math]
    return [child for child in math if child.tag == _M + "oMath"]


def _outer_math(element: Any) -> list[Any]:
    """Equations inside ``element`` (or ``element`` itself), outermost only."""
    return [m for m in element.iter(*_MATH) if not any(a.tag in _MATH for a in m.iterancestors())]


def _inside_math(element: Any) -> bool:
    return any(ancestor.tag in _MATH for ancestor in element.iterancestors())


def _shallow(element: Any) -> Any:
    return element.makeelement(element.tag, dict(element.attrib))


_HOSTS = frozenset({W_HYPERLINK, W_FLDSIMPLE, W_SMARTTAG})


def _inline_host(element: Any, p: Any) -> Any | None:
    """The hyperlink, simple field or smart tag (inside ``p``) that holds ``element``, if any."""
    for ancestor in element.iterancestors():
        if ancestor is p:
            return None
        if ancestor.tag in _HOSTS:
            return ancestor
    return None


def _at_edge(element: Any, host: Any, side: str) -> bool:
    """Whether ``element`` is the last (``side="after"``) or first run of ``host``. Only the
    neighbours up to the first one holding a run are looked at: listing all the runs of a long
    hyperlink for each insertion in it made a redline quadratic."""
    if element.tag != W_R:
        return False
    after = side == "after"
    if after and next(element.iterdescendants(W_R), None) is not None:
        return False
    node = element
    while node is not host:
        if not after and node is not element and node.tag == W_R:
            return False
        for sibling in node.itersiblings(preceding=not after):
            if next(sibling.iter(W_R), None) is not None:
                return False
        node = node.getparent()
    return True


def _slice(line: Line, start: int, end: int) -> list[Piece]:
    """Pieces covering [start, end), text pieces trimmed to it."""
    out = []
    for piece in line.overlapping(start, end):
        if piece.text is not None and (piece.start < start or piece.end > end):
            low, high = max(start, piece.start), min(end, piece.end)
            trimmed = Piece(piece.run, piece.child, low, piece.text[low - piece.start : high - piece.start], None,
                            piece.container)  # fmt: skip
            out.append(trimmed)
        else:
            out.append(piece)
    return out


def _split(pieces: list[Piece], cuts: set[int], revisions: Revisions) -> None:
    """Split the runs of ``pieces`` so that every position in ``cuts`` falls between two runs."""
    per_run: dict[Any, list[tuple[int, Any, int]]] = {}
    order: list[Any] = []
    first_of_run: dict[Any, Piece] = {}
    ordered = sorted(cuts)
    for piece in pieces:
        if piece.run.tag != W_R:
            continue
        if piece.run not in first_of_run:
            first_of_run[piece.run] = piece
            order.append(piece.run)
        if piece.text is not None:
            inside = ordered[bisect_right(ordered, piece.start) : bisect_left(ordered, piece.end)]
            for cut in inside:
                per_run.setdefault(piece.run, []).append((cut, piece.child, cut - piece.start))
        if piece.start in cuts and first_of_run[piece.run] is not piece:
            per_run.setdefault(piece.run, []).append((piece.start, piece.child, 0))
    for run in order:
        for _, child, offset in sorted(per_run.get(run, ()), key=lambda item: item[0], reverse=True):
            split_run_before(run, child, offset, revisions.ids)


def _runs_in(line: Line, start: int, end: int) -> list[Any]:
    """The runs (and equations) of the pieces lying wholly in [start, end), in order."""
    return list(dict.fromkeys(piece.run for piece in line.within(start, end)))


def _anchor(line: Line, position: int, p: Any) -> tuple[Any, str]:
    """What new content at ``position`` goes next to: the piece ending there, else the first
    piece starting after it, else the last piece (or the empty paragraph)."""
    index = bisect_right(line.ends, position) - 1
    if index >= 0 and line.ends[index] == position:
        return line.pieces[index].run, "after"
    if line.pieces:
        index = bisect_left(line.starts, position)
        if index < len(line.pieces):
            return line.pieces[index].run, "before"
        return line.pieces[-1].run, "after"
    return p, "append"
