"""Tracked-change markup: the WordprocessingML primitives every writer of revisions uses
(``suggest_changes``, redlines, table operations).

Nothing here knows blocks, operations or files; it works on lxml elements.

**Ids.** ``IdAllocator.scan(roots)`` collects every ``w:id`` used by annotations (revisions,
property changes, cell markers, move and comment ranges, bookmarks, permissions) in the given
part roots, so a new id never collides with any of them across the whole document (pass every
story part: main document, headers, footers, notes, comments). ``take()`` hands out ids above
the largest one in use; they always fit a signed 32-bit integer (OOXML's ``ST_DecimalNumber`` as
Word reads it): when the largest id in use is already at the top of that range, the lowest free
ids are used instead. Anything copied from an existing element (properties for a new paragraph,
half of a split run or wrapper) must not carry the original's ids: ``restamp_copies(copy, ids)``
renews them, ``strip_annotations(copy)`` drops the revision records altogether (a new paragraph
has no history; someone else's revision copied onto it would be attributed to them and resolved
with theirs), and ``has_annotations(element)`` tells whether there is anything to renew.

**Stamping.** ``Revisions(ids, author, date)`` is the context of one batch of edits: every
revision element it makes (``revisions.element("w:ins")``) carries a fresh id, the author and
the date (one ISO-8601 UTC timestamp for the whole batch, ``revision_date()``).

**Runs.** ``run_items(r)`` lists a run's children with the text each contributes, counted as the
block reader counts it (``w:t`` and ``w:delText`` — their outer whitespace only under
``xml:space="preserve"`` —, ``w:sym``, non-breaking and soft hyphens; tabs, breaks, drawings and
field instructions count nothing). ``split_run(r, offset, ids)`` splits a run at a UTF-16 offset
of that text into two sibling runs that both keep the run's properties.

**Revision wrappers.**

- ``delete_runs(runs, revisions)`` wraps runs in ``w:del`` (consecutive siblings share one
  wrapper), rewriting ``w:t`` to ``w:delText`` and ``w:instrText`` to ``w:delInstrText``. A run
  inside someone's pending insertion gets its ``w:del`` inside that ``w:ins``, which is how Word
  records deleting inserted text. Runs already deleted are left alone.
- ``insert_runs(runs, revisions)`` wraps new runs in one ``w:ins``; ``make_run(text, rPr)``
  builds a run (tabs and line breaks in the text become ``w:tab`` and ``w:br``).
- ``mark_paragraph(p, "ins"|"del", revisions)`` marks the paragraph mark itself
  (``w:pPr/w:rPr/w:ins|w:del``): an inserted mark makes the paragraph disappear (joining the
  next one) on reject, a deleted mark on accept.
- ``record_run_properties(r, revisions)`` / ``record_paragraph_properties(p, revisions)`` save
  the current properties into ``w:rPrChange`` / ``w:pPrChange`` *before* the caller changes
  them, so reject restores them. An existing record is kept: it already holds the original
  formatting, which is what rejecting must restore.
- ``mark_row(tr, "ins"|"del", revisions)`` (``w:trPr/w:ins|w:del``) and ``mark_cell(tc,
  "ins"|"del", revisions)`` (``w:tcPr/w:cellIns|w:cellDel``) for table structure.

``paragraph_runs(p)`` lists the runs that belong to a paragraph (through hyperlinks, fields,
content controls and revision wrappers, but not into text boxes, whose paragraphs are separate).

**Boundaries.** ``lift_after(element, ids)`` / ``lift_before(element, ids)`` give the element to
insert next to so that new content (an insertion, a comment marker) sits right after / before
``element`` but outside every revision wrapper around it, splitting a wrapper that continues
past it (the second half gets a fresh id): new text never becomes part of someone else's
revision. ``remove_empty_wrappers(container)`` drops wrappers a direct edit emptied.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from .ns import (
    MC_ALTERNATECONTENT,
    W_AUTHOR,
    W_BDO,
    W_BR,
    W_CUSTOMXML,
    W_DATE,
    W_DEL,
    W_DELINSTRTEXT,
    W_DELTEXT,
    W_DIR,
    W_FLDSIMPLE,
    W_HYPERLINK,
    W_ID,
    W_INS,
    W_INSTRTEXT,
    W_MOVEFROM,
    W_MOVETO,
    W_NOBREAKHYPHEN,
    W_R,
    W_RPR,
    W_SDT,
    W_SDTCONTENT,
    W_SMARTTAG,
    W_SOFTHYPHEN,
    W_SYM,
    W_T,
    W_TAB,
    qn,
)
from .properties import (
    PPR_BASE,
    PPR_ORDER,
    RPR_ORDER,
    TCPR_ORDER,
    TRPR_ORDER,
    cell_properties,
    insert_ordered,
    mark_properties,
    paragraph_properties,
    row_properties,
    run_properties,
)
from .text import XML_SPACE, XML_WHITESPACE, choose_alternate, preserves_space, symbol_char

MAX_ID = 0x7FFFFFFF  # w:id values stay within a signed 32-bit integer

_ANNOTATION_NAMES = (
    "ins del moveFrom moveTo rPrChange pPrChange sectPrChange tblPrChange trPrChange tcPrChange "
    "tblPrExChange tblGridChange numberingChange cellIns cellDel cellMerge moveFromRangeStart "
    "moveFromRangeEnd moveToRangeStart moveToRangeEnd customXmlInsRangeStart customXmlInsRangeEnd "
    "customXmlDelRangeStart customXmlDelRangeEnd customXmlMoveFromRangeStart customXmlMoveFromRangeEnd "
    "customXmlMoveToRangeStart customXmlMoveToRangeEnd commentRangeStart commentRangeEnd commentReference "
    "bookmarkStart bookmarkEnd permStart permEnd"
)
# Every element whose w:id lives in the annotation id space a new revision must avoid.
ANNOTATION_ID_TAGS = tuple(qn("w:" + name) for name in _ANNOTATION_NAMES.split())

W_PPRCHANGE = qn("w:pPrChange")
W_RPRCHANGE = qn("w:rPrChange")
W_CELLINS = qn("w:cellIns")
W_CELLDEL = qn("w:cellDel")

_MARKS = {"ins": W_INS, "del": W_DEL}
_CELL_MARKS = {"ins": W_CELLINS, "del": W_CELLDEL}


# -- ids and stamps --------------------------------------------------------------------------


class IdAllocator:
    """Hands out ``w:id`` values unused in the scanned parts (see the module docstring)."""

    __slots__ = ("_next", "_used")

    def __init__(self, used: Iterable[int] = ()) -> None:
        self._used = {value for value in used if 0 <= value <= MAX_ID}
        self._next = max(self._used, default=0) + 1

    @classmethod
    def scan(cls, roots: Iterable[Any], tags: tuple[str, ...] = ANNOTATION_ID_TAGS) -> IdAllocator:
        """An allocator avoiding every ``w:id`` on ``tags`` elements under ``roots``."""
        used = []
        for root in roots:
            if root is None:
                continue
            for element in root.iter(*tags):
                value = element.get(W_ID)
                if value is not None:
                    try:
                        used.append(int(value.strip()))
                    except ValueError:
                        continue
        return cls(used)

    def reserve(self, value: int) -> None:
        """Record an id someone else wrote, so it is never handed out."""
        if 0 <= value <= MAX_ID:
            self._used.add(value)
            if value >= self._next and value < MAX_ID:
                self._next = value + 1

    def take(self) -> int:
        """A fresh id: above every id in use while that fits, else the lowest free one."""
        if self._next <= MAX_ID:
            value = self._next
            self._next += 1
        else:
            value = 1
            while value in self._used:
                value += 1
            if value > MAX_ID:  # pragma: no cover - 2**31 annotations cannot fit in a document
                raise OverflowError("every revision id is in use")
        self._used.add(value)
        return value


def revision_date(now: datetime | None = None) -> str:
    """An ISO-8601 UTC timestamp to the second, as Word writes ``w:date``."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Revisions:
    """The author, date and id source of one batch of tracked changes."""

    __slots__ = ("author", "date", "ids")

    def __init__(self, ids: IdAllocator, author: str, date: str | None = None) -> None:
        self.ids = ids
        self.author = author or "Unknown"
        self.date = date or revision_date()

    def stamp(self, element: Any) -> Any:
        """Give ``element`` a fresh id, the author and the date; returns it."""
        element.set(W_ID, str(self.ids.take()))
        element.set(W_AUTHOR, self.author)
        element.set(W_DATE, self.date)
        return element

    def element(self, tag: str, parent: Any = None) -> Any:
        """A new stamped revision element (``"w:ins"``, ``"w:del"``, ``"w:rPrChange"``...)."""
        from lxml import etree

        clark = qn(tag) if not tag.startswith("{") else tag
        element = parent.makeelement(clark, {}) if parent is not None else etree.Element(clark)
        return self.stamp(element)


# -- runs ------------------------------------------------------------------------------------


def _element_text(child: Any) -> str:
    """The text one run child contributes (see the module docstring)."""
    tag = child.tag
    if tag in (W_T, W_DELTEXT):
        text = child.text or ""
        if text and (text[0] in XML_WHITESPACE or text[-1] in XML_WHITESPACE) and not preserves_space(child):
            text = text.strip(XML_WHITESPACE)
        return text
    if tag == W_SYM:
        return symbol_char(child)
    if tag == W_NOBREAKHYPHEN:
        return "\u2011"
    if tag == W_SOFTHYPHEN:
        return "\u00ad"
    if tag == MC_ALTERNATECONTENT:
        branch = choose_alternate(child)
        return "".join(_element_text(grand) for grand in branch) if branch is not None else ""
    return ""


def run_items(r: Any) -> list[tuple[Any, str]]:
    """The content children of run ``r`` (its ``w:rPr`` excluded) with the text each counts."""
    return [(child, _element_text(child)) for child in r if child.tag != W_RPR]


def run_text(r: Any) -> str:
    return "".join(text for _, text in run_items(r))


def _utf16_len(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _index_at_utf16(text: str, offset: int) -> int:
    """Code-point index of UTF-16 ``offset`` in ``text`` (inside a surrogate pair: refused)."""
    if text.isascii():
        return offset
    position = 0
    for index, char in enumerate(text):
        if position >= offset:
            if position != offset:
                raise ValueError("the offset falls inside a surrogate pair")
            return index
        position += 2 if ord(char) > 0xFFFF else 1
    if position != offset:
        raise ValueError("the offset falls inside a surrogate pair")
    return len(text)


def _set_text(element: Any, text: str) -> None:
    element.text = text
    if text and (text[0] in XML_WHITESPACE or text[-1] in XML_WHITESPACE):
        element.set(XML_SPACE, "preserve")


def restamp_copies(element: Any, ids: IdAllocator | None) -> None:
    """Give annotation elements inside a copied subtree fresh ids (ids are document-unique)."""
    if ids is None:
        return
    for inner in element.iter(*ANNOTATION_ID_TAGS):
        if inner.get(W_ID) is not None:
            inner.set(W_ID, str(ids.take()))


def has_annotations(element: Any | None) -> bool:
    """Whether ``element`` holds (or is) an element of the annotation id space: a revision
    mark, a property-change record, a range marker."""
    return element is not None and next(element.iter(*ANNOTATION_ID_TAGS), None) is not None


def strip_annotations(element: Any) -> Any:
    """Remove every annotation element below ``element`` (revision marks and property-change
    records that belong to the element it was copied from); returns ``element``."""
    for inner in list(element.iter(*ANNOTATION_ID_TAGS)):
        if inner is not element and inner.getparent() is not None:
            inner.getparent().remove(inner)
    return element


def split_run(r: Any, offset: int, ids: IdAllocator | None, *, zero_width: str = "left") -> tuple[Any, Any]:
    """Split run ``r`` at UTF-16 ``offset`` of its text (``run_text``). Returns ``(left,
    right)``: ``r`` itself keeps what comes before, a copy inserted right after it what comes
    after, both with the run's attributes and properties (a property-change record in the copy
    gets a fresh id from ``ids``). Children that count no text and sit exactly at the offset go
    to the ``zero_width`` side. When one side would be empty nothing is split and that side is
    None. Raises ``ValueError`` for an offset outside the text or inside a surrogate pair."""
    if zero_width not in ("left", "right"):
        raise ValueError("zero_width must be 'left' or 'right'")
    items = run_items(r)
    total = sum(_utf16_len(text) for _, text in items)
    if offset < 0 or offset > total:
        raise ValueError(f"offset {offset} is outside the run's text (0-{total})")
    left: list[Any] = []
    right: list[Any] = []
    cut: tuple[Any, int] | None = None
    position = 0
    for child, text in items:
        length = _utf16_len(text)
        if length == 0:
            (left if position < offset or (position == offset and zero_width == "left") else right).append(child)
        elif position + length <= offset:
            left.append(child)
        elif position >= offset:
            right.append(child)
        else:
            if child.tag not in (W_T, W_DELTEXT):
                raise ValueError("the offset falls inside a character")
            cut = (child, _index_at_utf16(text, offset - position))
            left.append(child)
            right.append(None)  # placeholder for the second half of the cut text
        position += length
    if cut is None and (not right or not left):
        return (r, None) if not right else (None, r)
    twin = _empty_twin(r, ids)
    for child in right:
        if child is None:
            element, index = cut  # type: ignore[misc]
            twin.append(_cut_text(element, _element_text(element), index))
        else:
            twin.append(child)  # moves it out of r
    _place_after(r, twin)
    return r, twin


def _empty_twin(r: Any, ids: IdAllocator | None) -> Any:
    """A new run with the attributes of run ``r`` and a copy of its properties (annotation ids
    inside the copy renewed)."""
    twin = r.makeelement(r.tag, dict(r.attrib))
    rpr = run_properties(r)
    if rpr is not None:
        from copy import deepcopy

        rpr_copy = deepcopy(rpr)
        restamp_copies(rpr_copy, ids)
        twin.append(rpr_copy)
    return twin


def _cut_text(element: Any, text: str, index: int) -> Any:
    """Cut text element ``element`` (whose text is ``text``) at code point ``index``: it keeps
    what comes before, and the returned new element of the same tag holds the rest. Both keep
    their outer whitespace (``xml:space="preserve"``)."""
    second = element.makeelement(element.tag, {})
    _set_text(second, text[index:])
    _set_text(element, text[:index])
    if text[:index] and element.get(XML_SPACE) is None and not preserves_space(element):
        element.set(XML_SPACE, "preserve")
    second.set(XML_SPACE, "preserve")
    return second


def _place_after(r: Any, twin: Any) -> None:
    """Put ``twin`` right after run ``r``, taking over the text that followed ``r``."""
    twin.tail = r.tail
    r.tail = None
    r.addnext(twin)


def split_run_before(r: Any, child: Any, index: int, ids: IdAllocator | None) -> tuple[Any, Any]:
    """Split run ``r`` just before its content child ``child`` or, for a text child (``w:t``,
    ``w:delText``), before code point ``index`` of that child's text. Unlike ``split_run``, which
    cuts at a text offset, this can separate children that count no text (two tabs, a picture
    next to a break). Returns ``(left, right)`` as ``split_run`` does: ``r`` keeps what comes
    before, a twin right after it the rest; a side that would be empty is None and nothing is
    split. Raises ``ValueError`` when ``child`` is not a child of ``r``."""
    if child.getparent() is not r or child.tag == W_RPR:
        raise ValueError("the child to split before is not content of this run")
    text = _element_text(child) if child.tag in (W_T, W_DELTEXT) else ""
    if index < 0 or index > len(text) or (index and child.tag not in (W_T, W_DELTEXT)):
        raise ValueError(f"index {index} is outside the text of the element to split before")
    if index == len(text) and text:
        following = child.getnext()
        if following is None:
            return r, None
        child, index = following, 0
    content = [c for c in r if c.tag != W_RPR]
    if index == 0 and content and content[0] is child:
        return None, r
    twin = _empty_twin(r, ids)
    moving = [child, *child.itersiblings()]
    if index:
        twin.append(_cut_text(child, text, index))
        moving = moving[1:]
    for element in moving:
        twin.append(element)
    _place_after(r, twin)
    return r, twin


def make_run(text: str, rpr: Any = None) -> Any:
    """A new ``w:r`` showing ``text`` with a copy of ``rpr`` (or none). Tabs become ``w:tab``,
    line feeds ``w:br``; everything else goes into ``w:t`` elements with preserved spaces."""
    from copy import deepcopy

    from lxml import etree

    r = etree.Element(W_R)
    if rpr is not None and len(rpr):
        r.append(deepcopy(rpr))
    buffer: list[str] = []

    def flush() -> None:
        if buffer:
            t = etree.SubElement(r, W_T)
            _set_text(t, "".join(buffer))
            buffer.clear()

    for char in text:
        if char == "\t":
            flush()
            etree.SubElement(r, W_TAB)
        elif char == "\n":
            flush()
            etree.SubElement(r, W_BR)
        else:
            buffer.append(char)
    flush()
    return r


def clean_run_properties(rpr: Any) -> Any | None:
    """A copy of run properties fit for new text: without the property-change record (the new
    text has no earlier formatting) and without revision marks. None when nothing remains."""
    if rpr is None:
        return None
    from copy import deepcopy

    copy = deepcopy(rpr)
    for child in list(copy):
        if child.tag in (W_RPRCHANGE, W_INS, W_DEL, W_MOVEFROM, W_MOVETO):
            copy.remove(child)
    if len(copy) == 0:
        return None
    copy.tag = W_RPR
    return copy


# -- wrapping runs in revisions --------------------------------------------------------------


def _to_deleted_text(r: Any) -> None:
    for element in r.iter(W_T, W_INSTRTEXT):
        if element.tag == W_T:
            element.tag = W_DELTEXT
        else:
            element.tag = W_DELINSTRTEXT


def is_deleted(element: Any, stop: Any = None) -> bool:
    """True when ``element`` sits inside a ``w:del`` or ``w:moveFrom`` (below ``stop``)."""
    node = element.getparent()
    while node is not None and node is not stop:
        if node.tag in (W_DEL, W_MOVEFROM):
            return True
        node = node.getparent()
    return False


def _groups(elements: Iterable[Any]) -> list[list[Any]]:
    """Consecutive siblings grouped together (document order kept)."""
    groups: list[list[Any]] = []
    for element in elements:
        if groups and groups[-1][-1].getnext() is element:
            groups[-1].append(element)
        else:
            groups.append([element])
    return groups


def _wrap(group: list[Any], wrapper: Any) -> Any:
    first = group[0]
    first.addprevious(wrapper)
    tail = group[-1].tail
    for element in group:
        wrapper.append(element)
    group[-1].tail = None
    wrapper.tail = tail
    return wrapper


def delete_runs(runs: Iterable[Any], revisions: Revisions) -> list[Any]:
    """Mark ``runs`` deleted (see the module docstring); returns the new ``w:del`` elements."""
    live = [r for r in runs if not is_deleted(r)]
    wrappers = []
    for group in _groups(live):
        for r in group:
            _to_deleted_text(r)
        wrappers.append(_wrap(group, revisions.element("w:del", group[0])))
    return wrappers


def insert_runs(runs: Iterable[Any], revisions: Revisions) -> Any:
    """One new ``w:ins`` holding ``runs`` (not yet placed in a paragraph)."""
    wrapper = revisions.element("w:ins")
    for r in runs:
        wrapper.append(r)
    return wrapper


def wrap_inserted(runs: Iterable[Any], revisions: Revisions) -> list[Any]:
    """Mark runs already placed in a paragraph as inserted (consecutive siblings share one
    ``w:ins``); returns the wrappers."""
    return [_wrap(group, revisions.element("w:ins", group[0])) for group in _groups(list(runs))]


# -- paragraphs ------------------------------------------------------------------------------


def mark_paragraph(p: Any, kind: str, revisions: Revisions) -> Any:
    """Mark the paragraph mark of ``p`` inserted (``"ins"``) or deleted (``"del"``); an existing
    mark of the same kind is kept. Returns the marker."""
    rpr = mark_properties(p, create=True)
    tag = _MARKS[kind]
    existing = rpr.find(tag)
    if existing is not None:
        return existing
    return insert_ordered(rpr, revisions.element(tag, rpr), RPR_ORDER)


def paragraph_mark_state(p: Any) -> set[str]:
    """Which marks the paragraph mark carries: a subset of {"ins", "del", "moveFrom", "moveTo"}."""
    rpr = mark_properties(p)
    if rpr is None:
        return set()
    names = {W_INS: "ins", W_DEL: "del", W_MOVEFROM: "moveFrom", W_MOVETO: "moveTo"}
    return {names[child.tag] for child in rpr if child.tag in names}


def record_run_properties(r: Any, revisions: Revisions) -> Any:
    """Save the current properties of run ``r`` in a ``w:rPrChange`` (unless one exists) so that
    rejecting restores them; returns the run's ``w:rPr`` for the caller to change."""
    from copy import deepcopy

    rpr = run_properties(r, create=True)
    if rpr.find(W_RPRCHANGE) is not None:
        return rpr
    change = revisions.element("w:rPrChange", rpr)
    original = change.makeelement(W_RPR, {})
    for child in rpr:
        if child.tag not in (W_RPRCHANGE, W_INS, W_DEL, W_MOVEFROM, W_MOVETO):
            original.append(deepcopy(child))
    change.append(original)
    insert_ordered(rpr, change, RPR_ORDER)
    return rpr


def record_paragraph_properties(p: Any, revisions: Revisions) -> Any:
    """Save the current paragraph properties of ``p`` (the ``CT_PPrBase`` group: style,
    numbering, alignment, indentation, ...) in a ``w:pPrChange`` (unless one exists); returns the
    ``w:pPr`` for the caller to change."""
    from copy import deepcopy

    ppr = paragraph_properties(p, create=True)
    if ppr.find(W_PPRCHANGE) is not None:
        return ppr
    change = revisions.element("w:pPrChange", ppr)
    original = change.makeelement(qn("w:pPr"), {})
    for child in ppr:
        if child.tag in PPR_BASE:
            original.append(deepcopy(child))
    change.append(original)
    insert_ordered(ppr, change, PPR_ORDER)
    return ppr


_RUN_CONTAINERS = frozenset({W_HYPERLINK, W_SMARTTAG, W_CUSTOMXML, W_FLDSIMPLE, W_DIR, W_BDO, W_INS, W_DEL,
                             W_MOVEFROM, W_MOVETO})  # fmt: skip


def paragraph_runs(p: Any) -> Iterator[Any]:
    """The runs of paragraph ``p`` in order, looking through the inline wrappers runs live in
    (never into text boxes or the unchosen branches of markup-compatibility content)."""
    stack = [iter(p)]
    while stack:
        for child in stack[-1]:
            tag = child.tag
            if tag == W_R:
                yield child
            elif tag in _RUN_CONTAINERS:
                stack.append(iter(child))
                break
            elif tag == W_SDT:
                content = child.find(W_SDTCONTENT)
                if content is not None:
                    stack.append(iter(content))
                    break
        else:
            stack.pop()


def delete_paragraph_text(p: Any, revisions: Revisions) -> list[Any]:
    """Mark every live run of ``p`` deleted (the mark is left to ``mark_paragraph``)."""
    return delete_runs(list(paragraph_runs(p)), revisions)


# -- moves -----------------------------------------------------------------------------------

_MOVES = {"from": W_MOVEFROM, "to": W_MOVETO}


def move_runs(runs: Iterable[Any], kind: str, revisions: Revisions) -> list[Any]:
    """Wrap runs in ``w:moveFrom`` (``kind="from"``, the place text left) or ``w:moveTo``
    (``"to"``, where it arrived); consecutive siblings share one wrapper. Moved text keeps its
    ``w:t`` (unlike deleted text). Returns the wrappers."""
    tag = _MOVES[kind]
    return [_wrap(group, revisions.element(tag, group[0])) for group in _groups(list(runs))]


def mark_paragraph_moved(p: Any, kind: str, revisions: Revisions) -> Any:
    """Mark the paragraph mark of ``p`` moved away (``"from"``) or moved here (``"to"``)."""
    rpr = mark_properties(p, create=True)
    tag = _MOVES[kind]
    existing = rpr.find(tag)
    if existing is not None:
        return existing
    return insert_ordered(rpr, revisions.element(tag, rpr), RPR_ORDER)


def mark_move_range(first: Any, last: Any, kind: str, name: str, revisions: Revisions) -> tuple[Any, Any]:
    """Bracket a move with its range markers: ``w:moveFromRangeStart`` (or ``moveToRangeStart``,
    carrying the move's ``name``, shared by both ends of one move) as the first content of
    paragraph ``first``, the matching ``...RangeEnd`` as the last content of paragraph ``last``.
    Returns ``(start, end)``."""
    prefix = "w:moveFrom" if kind == "from" else "w:moveTo"
    start = revisions.element(prefix + "RangeStart", first)
    start.set(qn("w:name"), name)
    end = last.makeelement(qn(prefix + "RangeEnd"), {W_ID: start.get(W_ID)})
    position = 1 if len(first) and first[0].tag == qn("w:pPr") else 0
    first.insert(position, start)
    last.append(end)
    return start, end


# -- tables ----------------------------------------------------------------------------------


def mark_row(tr: Any, kind: str, revisions: Revisions) -> Any:
    """Mark table row ``tr`` inserted (``"ins"``) or deleted (``"del"``) in its ``w:trPr``."""
    trpr = row_properties(tr, create=True)
    tag = _MARKS[kind]
    existing = trpr.find(tag)
    if existing is not None:
        return existing
    return insert_ordered(trpr, revisions.element(tag, trpr), TRPR_ORDER)


def mark_cell(tc: Any, kind: str, revisions: Revisions) -> Any:
    """Mark table cell ``tc`` inserted (``w:cellIns``) or deleted (``w:cellDel``). A cell holds
    at most one such marker; an existing one of the other kind raises ``ValueError``."""
    tcpr = cell_properties(tc, create=True)
    tag = _CELL_MARKS[kind]
    for child in tcpr:
        if child.tag in (W_CELLINS, W_CELLDEL, qn("w:cellMerge")):
            if child.tag == tag:
                return child
            raise ValueError("the cell already carries a different cell revision")
    return insert_ordered(tcpr, revisions.element(tag, tcpr), TCPR_ORDER)


# -- boundaries outside revision wrappers ------------------------------------------------------

REVISION_WRAPPERS = frozenset({W_INS, W_DEL, W_MOVEFROM, W_MOVETO})


def split_wrapper(wrapper: Any, first: Any, ids: IdAllocator | None) -> Any:
    """Cut inline ``wrapper`` in two before its child ``first``: a twin with the same attributes
    (and a fresh ``w:id`` when it has one and ``ids`` is given) goes right after it and takes
    ``first`` and every child after it. Returns the twin."""
    twin = wrapper.makeelement(wrapper.tag, dict(wrapper.attrib))
    if ids is not None and twin.get(W_ID) is not None:
        twin.set(W_ID, str(ids.take()))
    wrapper.addnext(twin)
    for sibling in [first, *first.itersiblings()]:
        twin.append(sibling)
    return twin


def lift_after(element: Any, ids: IdAllocator | None) -> Any:
    """The element after which to insert so that the insertion directly follows ``element`` but
    sits outside every revision wrapper around it (``w:ins``, ``w:del``, ``w:moveFrom``,
    ``w:moveTo``). A wrapper that continues after ``element`` is split in two, the second half
    with a fresh id, so new content never lands inside someone else's revision."""
    node = element
    parent = node.getparent()
    while parent is not None and parent.tag in REVISION_WRAPPERS:
        following = node.getnext()
        if following is not None:
            split_wrapper(parent, following, ids)
        node = parent
        parent = node.getparent()
    return node


def lift_before(element: Any, ids: IdAllocator | None) -> Any:
    """The element before which to insert so that the insertion directly precedes ``element``
    outside every revision wrapper around it (see ``lift_after``)."""
    node = element
    parent = node.getparent()
    while parent is not None and parent.tag in REVISION_WRAPPERS:
        node = split_wrapper(parent, node, ids) if node.getprevious() is not None else parent
        parent = node.getparent()
    return node


def remove_empty_wrappers(container: Any) -> None:
    """Drop revision wrappers left without content (after direct edits removed their runs)."""
    for wrapper in list(container.iter(*REVISION_WRAPPERS)):
        parent = wrapper.getparent()
        if len(wrapper) == 0 and parent is not None and not str(parent.tag).endswith("Pr"):
            parent.remove(wrapper)
