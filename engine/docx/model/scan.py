"""Reading the text of one paragraph, with the tracked-change state of every piece.

``scan_paragraph`` walks a ``w:p`` through runs and the wrappers runs live in (hyperlinks,
smart tags, custom XML, content controls, simple fields, bidi wrappers, markup-compatibility
choices, and the revision wrappers ``w:ins``, ``w:del``, ``w:moveFrom``, ``w:moveTo``). It
returns *pieces*: ``(text, flags, element)`` where ``flags`` says whether the text is inserted,
deleted, moved or hidden and ``element`` is the innermost revision wrapper (or the marker
element for comment ranges and comment/note references, kept only when the scan asks for
markers). Views are filters over the pieces:

- as-accepted: drop deleted, moved-away and hidden text;
- original (reject-all): drop inserted, moved-here and hidden text;
- raw: every text node, deleted ones included (the seed of minted paragraph ids).

Tabs, breaks, drawings and field instructions contribute no text (as in the reference system;
text spelled as ``w:t`` inside a complex field's instructions is hidden text, as Word does not
show it: see ``wml.text.FieldCodes``);
a non-breaking hyphen is U+2011, a soft hyphen U+00AD, and a ``w:sym`` its character unless it is
a symbol-font glyph (private use area). Unless ``xml:space="preserve"`` is in force (on the
``w:t`` or any ancestor), a ``w:t``'s leading and trailing whitespace is not text (as Word and
LibreOffice read it). Text boxes found in the
paragraph's runs are collected, not read: their paragraphs are blocks of their own.
"""

from __future__ import annotations

import re
from typing import Any

from ..wml.attrs import is_on
from ..wml.ns import (
    MC_ALTERNATECONTENT,
    W_BDO,
    W_COMMENTRANGEEND,
    W_COMMENTRANGESTART,
    W_COMMENTREFERENCE,
    W_CUSTOMXML,
    W_DATABINDING,
    W_DEL,
    W_DELTEXT,
    W_DIR,
    W_ENDNOTEREFERENCE,
    W_FLDCHAR,
    W_FLDSIMPLE,
    W_FOOTNOTEREFERENCE,
    W_HYPERLINK,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_NOBREAKHYPHEN,
    W_P,
    W_R,
    W_RPR,
    W_RSTYLE,
    W_RUBY,
    W_RUBYBASE,
    W_SDT,
    W_SDTCONTENT,
    W_SMARTTAG,
    W_SOFTHYPHEN,
    W_SUBDOC,
    W_SYM,
    W_T,
    W_TXBXCONTENT,
    W_VAL,
    W_VANISH,
    qn,
)
from ..wml.text import XML_WHITESPACE, FieldCodes, choose_alternate, preserves_space, symbol_char
from .styles import Styles

INS = 1
DEL = 2
MOVE_FROM = 4
MOVE_TO = 8
HIDDEN = 16
MARK = 32
# Text an empty content control shows in place of content (its placeholder, see
# ``shows_placeholder``): kept in every view, as word processors show it, but not content.
PLACEHOLDER = 64
# Text of a data-bound content control (see ``bindings``): the data store's value (BOUND), or
# the control's stored text when the binding finds nothing (BOUND_CACHED). Shown, but not
# editable here.
BOUND = 128
BOUND_CACHED = 256

DROP_ACCEPTED = DEL | MOVE_FROM | HIDDEN | MARK
DROP_ORIGINAL = INS | MOVE_TO | HIDDEN | MARK

_REVISION_FLAGS = {W_INS: INS, W_DEL: DEL, W_MOVEFROM: MOVE_FROM, W_MOVETO: MOVE_TO}
_TRANSPARENT = frozenset({W_HYPERLINK, W_SMARTTAG, W_CUSTOMXML, W_FLDSIMPLE, W_DIR, W_BDO})
_OBJECTS = frozenset({qn("w:drawing"), qn("w:pict"), qn("w:object")})
_MARKERS = frozenset({W_COMMENTRANGESTART, W_COMMENTRANGEEND})
_RUN_MARKERS = frozenset({W_COMMENTREFERENCE, W_FOOTNOTEREFERENCE, W_ENDNOTEREFERENCE})

Piece = tuple[str, int, Any]

_SHOWING_PLACEHOLDER = qn("w:showingPlcHdr")
_SDTPR = qn("w:sdtPr")

# Anything that makes a paragraph more than plain runs of w:t.
_NOT_PLAIN = frozenset({
    W_INS, W_DEL, W_MOVEFROM, W_MOVETO, W_DELTEXT, W_VANISH, MC_ALTERNATECONTENT, qn("w:drawing"), qn("w:pict"),
    qn("w:object"), W_SYM, W_NOBREAKHYPHEN, W_SOFTHYPHEN, W_RUBY, W_TXBXCONTENT, qn("w:p"), _SHOWING_PLACEHOLDER,
    W_DATABINDING, W_SUBDOC,
})  # fmt: skip


def shows_placeholder(sdt: Any) -> bool:
    """Whether content control ``sdt`` is empty and shows its placeholder text instead
    (``w:sdtPr/w:showingPlcHdr``, as Word marks it): what its content holds is that prompt
    ("Click or tap here to enter text.", "Choose an item."), not document text."""
    sdtpr = sdt.find(_SDTPR)
    if sdtpr is None:
        return False
    flag = sdtpr.find(_SHOWING_PLACEHOLDER)
    return flag is not None and is_on(flag)


class ScanContext:
    """Per-story settings of a scan: styles (for hidden text), whether to keep markers, and what
    the document shows beyond its runs (``display``, a ``display.Display``, with ``part``, the
    story's part): data-bound values here, imported chunks in the walk, which lists what it left
    unread in ``unread``. Without a display, stored text is read as it is."""

    __slots__ = ("display", "fields", "markers", "part", "simple_runs", "styles", "unread")

    def __init__(self, styles: Styles, *, markers: bool = False, display: Any = None, part: str = "") -> None:
        self.styles = styles
        self.markers = markers
        self.display = display
        self.part = part
        self.unread: list = []
        self.fields = FieldCodes()  # of the paragraph being scanned
        # Without markers or hidden character styles, a paragraph free of the elements in
        # _NOT_PLAIN can be read with the fast path.
        self.simple_runs = not markers and not styles.has_hidden_character_style


def scan_paragraph(p: Any, ctx: ScanContext, paragraph_hidden: bool = False) -> tuple[list[Piece], list[Any]]:
    """The pieces of paragraph ``p`` and the text boxes (``w:txbxContent``) inside its runs.
    ``paragraph_hidden`` is the hidden flag inherited from the paragraph style."""
    pieces: list[Piece] = []
    boxes: list[Any] = []
    if ctx.simple_runs:
        # Most paragraphs are plain runs of w:t: read them in one pass, falling back to the full
        # walk at the first element that needs it.
        flags = HIDDEN if paragraph_hidden else 0
        fields = None
        for element in p.iterdescendants():
            tag = element.tag
            if tag == W_T:
                text = element.text
                if text:
                    if (text[0] in XML_WHITESPACE or text[-1] in XML_WHITESPACE) and not preserves_space(element):
                        text = text.strip(XML_WHITESPACE)
                        if not text:
                            continue
                    pieces.append((text, flags | HIDDEN if fields is not None and fields.hiding else flags, None))
            elif tag == W_FLDCHAR:
                if fields is None:
                    fields = FieldCodes()
                fields.feed(element)
            elif tag in _NOT_PLAIN:
                pieces.clear()
                break
        else:
            return pieces, boxes
    ctx.fields = FieldCodes()
    _scan_children(p, 0, None, pieces, boxes, ctx, paragraph_hidden)
    return pieces, boxes


def _scan_children(
    parent: Any, flags: int, rev: Any, out: list[Piece], boxes: list[Any], ctx: ScanContext, style_hidden: bool
) -> None:
    for child in parent:
        tag = child.tag
        if tag == W_R:
            _scan_run(child, flags, rev, out, boxes, ctx, style_hidden)
        elif tag in _REVISION_FLAGS:
            _scan_children(child, flags | _REVISION_FLAGS[tag], child, out, boxes, ctx, style_hidden)
        elif tag in _TRANSPARENT:
            _scan_children(child, flags, rev, out, boxes, ctx, style_hidden)
        elif tag == W_SDT:
            content = child.find(W_SDTCONTENT)
            bound = ctx.display.binding(child) if ctx.display is not None else None
            unread = ctx.display.binding_unread(child, bound) if ctx.display is not None else None
            if unread is not None:
                ctx.unread.append(unread)
            if bound is not None and bound.text is not None:
                # Word shows the data store's value in place of the stored runs.
                hidden = bound_value_hidden(content, ctx.styles, style_hidden)
                text = "".join(value_lines(bound.text))
                if text:
                    out.append((text, flags | bound.flag | (HIDDEN if hidden else 0), rev))
            elif content is not None:
                inner = flags | PLACEHOLDER if shows_placeholder(child) else flags
                if bound is not None:
                    inner |= bound.flag
                _scan_children(content, inner, rev, out, boxes, ctx, style_hidden)
        elif tag == MC_ALTERNATECONTENT:
            branch = choose_alternate(child)
            if branch is not None:
                _scan_children(branch, flags, rev, out, boxes, ctx, style_hidden)
        elif tag == W_RUBY:
            base = child.find(W_RUBYBASE)
            if base is not None:
                _scan_children(base, flags, rev, out, boxes, ctx, style_hidden)
        elif tag == W_SUBDOC and ctx.display is not None:
            # A master document's link to another file, whose content Word shows in its place.
            paragraph = next(child.iterancestors(W_P), None)
            ctx.unread.append(ctx.display.subdocument(ctx.part, child, paragraph))
        elif ctx.markers and tag in _MARKERS:
            out.append(("", flags | MARK, child))


def _scan_run(
    run: Any, flags: int, rev: Any, out: list[Piece], boxes: list[Any], ctx: ScanContext, style_hidden: bool
) -> None:
    hidden = _run_hidden(run, ctx.styles, style_hidden)
    if hidden:
        flags |= HIDDEN
    _scan_run_content(run, flags, rev, out, boxes, ctx)


def _scan_run_content(run: Any, run_flags: int, rev: Any, out: list[Piece], boxes: list[Any], ctx: ScanContext) -> None:
    fields = ctx.fields
    for child in run:
        tag = child.tag
        if tag == W_FLDCHAR:
            fields.feed(child)
            continue
        flags = run_flags | HIDDEN if fields.hiding else run_flags  # a field's instructions: not shown
        if tag in (W_T, W_DELTEXT):
            text = child.text
            if text:
                if (text[0] in XML_WHITESPACE or text[-1] in XML_WHITESPACE) and not preserves_space(child):
                    # Without xml:space="preserve", leading and trailing whitespace is not text.
                    text = text.strip(XML_WHITESPACE)
                    if not text:
                        continue
                out.append((text, flags, rev))
        elif tag == W_SYM:
            char = symbol_char(child)
            if char:
                out.append((char, flags, rev))
        elif tag == W_NOBREAKHYPHEN:
            out.append(("\u2011", flags, rev))
        elif tag == W_SOFTHYPHEN:
            out.append(("\u00ad", flags, rev))
        elif tag == MC_ALTERNATECONTENT:
            branch = choose_alternate(child)
            if branch is not None:
                _scan_run_content(branch, flags, rev, out, boxes, ctx)
        elif tag in _OBJECTS:
            find_text_boxes(child, boxes)
        elif ctx.markers and tag in _RUN_MARKERS:
            out.append(("", flags | MARK, child))


def _run_hidden(run: Any, styles: Styles, style_hidden: bool) -> bool:
    """Hidden text: the run's own ``w:vanish``, else its character style's, else the paragraph
    style's (passed in), else the document default."""
    if not len(run):
        return style_hidden
    rpr = run[0]
    if rpr.tag != W_RPR:
        return style_hidden
    # The first w:vanish, else the first w:rStyle: a loop over the few children of w:rPr costs a
    # quarter of two ``find`` calls (lxml's find goes through its Python path parser), and this
    # runs for every run of every edited paragraph.
    rstyle = None
    for child in rpr:
        tag = child.tag
        if tag == W_VANISH:
            return is_on(child)
        if tag == W_RSTYLE and rstyle is None:
            rstyle = child
    if rstyle is not None:
        style_id = rstyle.get(W_VAL)
        hidden = styles.character_hidden(style_id) if style_id else None
        if hidden is not None:
            return hidden
    return style_hidden


def value_lines(text: str) -> list[str]:
    """A bound value's lines: a reader joins them (as it reads ``w:br`` as no text), a redline
    writes them with breaks between."""
    return _LINE_BREAKS.split(text)


_LINE_BREAKS = re.compile(r"\r\n|\r|\n")


def bound_value_hidden(content: Any | None, styles: Styles, style_hidden: bool) -> bool:
    """Whether a bound value is hidden text: it takes the formatting of the first run the
    control holds (``content``, its ``w:sdtContent``), hidden or not, as Word fills it in."""
    first = next(content.iter(W_R), None) if content is not None else None
    return _run_hidden(first, styles, style_hidden) if first is not None else style_hidden


def find_text_boxes(element: Any, boxes: list[Any]) -> None:
    """Collect the outermost ``w:txbxContent`` elements under ``element``, reading only the
    chosen branch of markup-compatibility alternatives (the fallback repeats the same text)."""
    for child in element:
        tag = child.tag
        if tag == W_TXBXCONTENT:
            boxes.append(child)
        elif tag == MC_ALTERNATECONTENT:
            branch = choose_alternate(child)
            if branch is not None:
                find_text_boxes(branch, boxes)
        elif isinstance(tag, str):
            find_text_boxes(child, boxes)


def marker_flags(properties: Any | None, flags_by_tag: dict[str, int]) -> int:
    """The flags of the revision markers among the children of a property group (a paragraph
    mark's ``w:rPr``, a cell's ``w:tcPr``), ``flags_by_tag`` saying which marker means what."""
    flags = 0
    if properties is not None:
        for child in properties:
            flags |= flags_by_tag.get(child.tag, 0)
    return flags


def accepted_text(pieces: list[Piece]) -> str:
    return "".join([text for text, flags, _ in pieces if not flags & DROP_ACCEPTED])


def original_text(pieces: list[Piece]) -> str:
    return "".join([text for text, flags, _ in pieces if not flags & DROP_ORIGINAL])


def raw_text(pieces: list[Piece]) -> str:
    return "".join([text for text, flags, _ in pieces if not flags & MARK])
