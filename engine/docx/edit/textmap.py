"""Editing one paragraph's as-accepted text by UTF-16 offsets.

``ParagraphText(p, styles)`` reads a paragraph the way the block reader does (``scan``) but keeps,
for every run, the offsets its visible text covers. Visible means what the as-accepted view
shows: not inside ``w:del`` / ``w:moveFrom`` and not hidden. The edits:

- ``replace(start, end, text, edit)``: the visible text in ``[start, end)`` is deleted (tracked:
  wrapped in ``w:del``; direct: removed) and ``text`` inserted right after it (tracked: in a
  ``w:ins``) with the formatting of the first replaced character (for a pure insertion, of the
  character before, else after). Hidden and already-deleted text inside the range is left alone.
- ``runs_in(start, end)``: split runs at both offsets and return the visible runs covering the
  range, for formatting and comment anchors.

Offsets refer to the paragraph's current state; callers editing several places of one paragraph
go from the end to the start, so that earlier offsets stay valid.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..model.scan import DEL, MOVE_FROM, _run_hidden, bound_value_hidden, value_lines
from ..model.styles import Styles
from ..wml.edit import remove_keeping_tail
from ..wml.ns import (
    MC_ALTERNATECONTENT,
    W_BDO,
    W_CUSTOMXML,
    W_DEL,
    W_DIR,
    W_FLDCHAR,
    W_FLDSIMPLE,
    W_HYPERLINK,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_PPR,
    W_PSTYLE,
    W_R,
    W_RUBY,
    W_RUBYBASE,
    W_SDT,
    W_SDTCONTENT,
    W_SMARTTAG,
    W_VAL,
    qn,
)
from ..wml.properties import run_properties
from ..wml.revisions import (
    IdAllocator,
    Revisions,
    clean_run_properties,
    delete_runs,
    insert_runs,
    lift_after,
    lift_before,
    make_run,
    remove_empty_wrappers,
    run_items,
    split_run,
)
from ..wml.text import FieldCodes, choose_alternate

_TRANSPARENT = frozenset({W_HYPERLINK, W_SMARTTAG, W_CUSTOMXML, W_FLDSIMPLE, W_DIR, W_BDO})
_FLAGS = {W_INS: 0, W_DEL: DEL, W_MOVEFROM: MOVE_FROM, W_MOVETO: 0}


class RunSpan(NamedTuple):
    run: Any
    start: int  # UTF-16 offsets in the as-accepted text (equal for invisible runs)
    end: int
    visible: bool
    splittable: bool


def _utf16(text: str) -> int:
    return len(text) if text.isascii() else len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


class Edit:
    """How edits are written: tracked (with ``revisions``) or direct, and the id source for
    copies of property-change records."""

    __slots__ = ("ids", "revisions")

    def __init__(self, ids: IdAllocator, revisions: Revisions | None) -> None:
        self.ids = ids
        self.revisions = revisions

    @property
    def tracked(self) -> bool:
        return self.revisions is not None


class ParagraphText:
    def __init__(self, p: Any, styles: Styles, hidden_by_style: dict | None = None, display: Any = None) -> None:
        self.p = p
        self.styles = styles
        # What data-bound controls show (``model.display``): their text counts as the reader
        # counts it, as one span that cannot be split (edits never start or end inside it).
        self.display = display
        self._style_hidden = _paragraph_style_hidden(p, styles, hidden_by_style)
        self.refresh()

    def refresh(self) -> None:
        self.spans: list[RunSpan] = []
        parts: list[str] = []
        self._position = 0
        self._fields = FieldCodes()
        self._walk(self.p, 0, parts)
        self.text = "".join(parts)
        self.length = self._position

    def _walk(self, parent: Any, flags: int, parts: list[str]) -> None:
        for child in parent:
            tag = child.tag
            if tag == W_R:
                hidden = _run_hidden(child, self.styles, self._style_hidden)
                visible = not (flags & (DEL | MOVE_FROM)) and not hidden
                items = run_items(child)
                shown, in_code = [], False
                for element, item_text in items:
                    if element.tag == W_FLDCHAR:
                        self._fields.feed(element)
                    elif self._fields.hiding:  # a field's instructions, as the reader skips them
                        in_code = in_code or bool(item_text)
                    else:
                        shown.append(item_text)
                text = "".join(shown)
                splittable = not in_code and not any(e.tag == MC_ALTERNATECONTENT and t for e, t in items)
                start = self._position
                if visible:
                    parts.append(text)
                    self._position += _utf16(text)
                self.spans.append(RunSpan(child, start, self._position, visible, splittable))
            elif tag in _FLAGS:
                self._walk(child, flags | _FLAGS[tag], parts)
            elif tag in _TRANSPARENT:
                self._walk(child, flags, parts)
            elif tag == W_SDT:
                content = child.find(W_SDTCONTENT)
                bound = self.display.binding(child) if self.display is not None else None
                if bound is not None and bound.text is not None:
                    text = "".join(value_lines(bound.text))
                    hidden = bound_value_hidden(content, self.styles, self._style_hidden)
                    visible = not (flags & (DEL | MOVE_FROM)) and not hidden
                    start = self._position
                    if visible:
                        parts.append(text)
                        self._position += _utf16(text)
                    self.spans.append(RunSpan(child, start, self._position, visible, False))
                elif content is not None:
                    self._walk(content, flags, parts)
            elif tag == MC_ALTERNATECONTENT:
                branch = choose_alternate(child)
                if branch is not None:
                    self._walk(branch, flags, parts)
            elif tag == W_RUBY:
                base = child.find(W_RUBYBASE)
                if base is not None:
                    self._walk(base, flags, parts)

    # -- positions ---------------------------------------------------------------------------

    def _split_at(self, offset: int, zero_width: str, ids: IdAllocator) -> None:
        """Make ``offset`` fall between runs (splitting the visible run that contains it)."""
        for span in self.spans:
            if span.visible and span.start < offset < span.end:
                if not span.splittable:
                    raise ValueError("the offset falls inside content deskcheck cannot split")
                split_run(span.run, offset - span.start, ids, zero_width=zero_width)
                self.refresh()
                return

    def runs_in(self, start: int, end: int, ids: IdAllocator) -> list[Any]:
        """The visible runs covering ``[start, end)`` after splitting at both ends: from the
        first run with text at ``start`` to the last with text ending at ``end``, with any
        visible run without text between them."""
        self._split_at(end, "right", ids)
        self._split_at(start, "left", ids)
        inside = [s for s in self.spans if s.visible and start <= s.start and s.end <= end]
        with_text = [i for i, s in enumerate(inside) if s.end > s.start]
        if not with_text:
            return []
        return [s.run for s in inside[with_text[0] : with_text[-1] + 1]]

    def _neighbour(self, offset: int) -> tuple[Any | None, Any | None]:
        """The visible text-bearing run ending at ``offset`` and the one starting there."""
        before = after = None
        for span in self.spans:
            if not span.visible or span.end == span.start:
                continue
            if span.end == offset:
                before = span.run
            if span.start == offset and after is None:
                after = span.run
        return before, after

    # -- edits -------------------------------------------------------------------------------

    def replace(self, start: int, end: int, text: str, edit: Edit) -> tuple[Any, Any] | None:
        """Replace the visible text in ``[start, end)`` by ``text`` (see the module docstring).
        Returns the first and last element written (for a comment anchor), or None when
        nothing was written."""
        runs = self.runs_in(start, end, edit.ids) if end > start else []
        if end > start and not runs:
            raise ValueError("no text to replace in that range")
        if not fields_balanced(runs):
            raise ValueError("the text crosses the edge of a field; change the field's text or all of it")
        if runs:
            source = runs[0]
        else:
            self._split_at(start, "left", edit.ids)
            before, after = self._neighbour(start)
            source = before if before is not None else after
        rpr = clean_run_properties(run_properties(source)) if source is not None else None
        new_runs = [make_run(text, rpr)] if text else []
        first = last = None
        if edit.tracked:
            wrappers = delete_runs(runs, edit.revisions) if runs else []
            if wrappers:
                first, last = wrappers[0], wrappers[-1]
            if new_runs:
                ins = insert_runs(new_runs, edit.revisions)
                self._place(ins, last, start, edit)
                first = first if first is not None else ins
                last = ins
        else:
            if new_runs:
                anchor = lift_before(runs[0], edit.ids) if runs else None
                if anchor is not None:
                    anchor.addprevious(new_runs[0])
                else:
                    self._place(new_runs[0], None, start, edit)
                first = last = new_runs[0]
            for run in runs:
                remove_keeping_tail(run)
            remove_empty_wrappers(self.p)
        self.refresh()
        return (first, last) if first is not None else None

    def _place(self, element: Any, after: Any | None, offset: int, edit: Edit) -> None:
        """Put new content right after ``after`` (outside revision wrappers) or, for a pure
        insertion, at ``offset``."""
        if after is not None:
            lift_after(after, edit.ids).addnext(element)
            return
        before, following = self._neighbour(offset)
        if before is not None:
            lift_after(before, edit.ids).addnext(element)
        elif following is not None:
            lift_before(following, edit.ids).addprevious(element)
        else:
            self.append(element)

    def append(self, element: Any) -> None:
        """Add content at the end of the paragraph (after its last child)."""
        self.p.append(element)

    def visible_runs(self) -> list[Any]:
        return [s.run for s in self.spans if s.visible]


_FLDCHARTYPE = qn("w:fldCharType")


def fields_balanced(runs: list[Any]) -> bool:
    """True when every complex field (``w:fldChar`` begin ... end) that starts among ``runs``
    also ends among them, and none ends there that started before: deleting such runs removes
    whole fields or none, never one end of a field."""
    depth = 0
    for r in runs:
        for marker in r.iter(W_FLDCHAR):
            kind = marker.get(_FLDCHARTYPE)
            if kind == "begin":
                depth += 1
            elif kind == "end":
                depth -= 1
                if depth < 0:
                    return False
    return depth == 0


def _paragraph_style_hidden(p: Any, styles: Styles, cache: dict | None = None) -> bool:
    """Whether the paragraph's style hides its text (``cache``: results by style id)."""
    style_id = None
    if len(p) and p[0].tag == W_PPR:
        style = p[0].find(W_PSTYLE)
        if style is not None:
            style_id = style.get(W_VAL)
    if cache is not None and style_id in cache:
        return cache[style_id]
    effective = style_id or styles.default_paragraph
    flag = styles.paragraph(effective).hidden if effective else None
    hidden = flag if flag is not None else styles.default_hidden
    if cache is not None:
        cache[style_id] = hidden
    return hidden
