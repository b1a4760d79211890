"""Writing what a document shows into its own markup, on a private copy (for compare and redline).

``display`` makes the reader see imported chunks and data-bound values without changing the
file. Comparing two versions and writing a redline work on the markup itself (paragraphs are
aligned, marked inserted or deleted, copied from one package to the other), so on their private
copies ``show_in_place`` turns what is shown into what is stored:

- each data-bound content control whose content the data store's value replaces becomes that
  content, the control itself unwrapped (a control inside a paragraph: one run holding the
  value, with the formatting of the control's first run; a control holding paragraphs: its
  first paragraph holds the value, the others are emptied; a rich-text value: its paragraphs):
  a redline then shows the change as plain tracked text, which a plain-text control could not
  hold, and nothing in it is filled in again from its data store; any other bound control
  loses its ``w:dataBinding`` (it shows its stored content, as it did);
- each readable ``w:altChunk`` becomes the paragraphs read from it (unreadable ones stay, and
  stay reported).

The result reads exactly as the original does through ``display``: the same texts, and the same
block ids (the ids of imported paragraphs are written into them first).
"""

from __future__ import annotations

from copy import deepcopy
from typing import TYPE_CHECKING, Any

from ..wml.edit import is_attached
from ..wml.ns import (
    W_ALTCHUNK,
    W_BODY,
    W_BR,
    W_DATABINDING,
    W_P,
    W_PPR,
    W_R,
    W_RPR,
    W_SDT,
    W_SDTCONTENT,
    W_T,
    W_TBL,
    W_TC,
    W_TR,
    W_TXBXCONTENT,
    qn,
)
from .bindings import Bound, data_binding
from .scan import ScanContext, value_lines
from .stories import story_parts
from .walk import cell_span, cells_of, walk_story

if TYPE_CHECKING:
    from .display import Display
    from .document import DocxDocument

_CONTAINERS = frozenset(
    {W_BODY, W_TC, W_TXBXCONTENT, *(qn(f"w:{name}") for name in ("hdr", "ftr", "footnote", "endnote", "comment"))}
)
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def show_in_place(doc: DocxDocument) -> bool:
    """Write what ``doc`` shows into its markup (see the module docstring). Returns whether
    anything changed; the document is invalidated when it did."""
    package = doc.package
    parts = [part for part in story_parts(doc)
             if next(package.xml(part).iter(W_ALTCHUNK, W_DATABINDING), None) is not None]  # fmt: skip
    if not parts:
        return False
    doc.stamp_minted_ids()  # imported paragraphs carry the ids a reader of the file sees
    display = doc.display
    for part in parts:
        root = package.xml(part)
        _bindings_in_place(root, display, ScanContext(doc.styles))
        _chunks_in_place(root, display, part)
        package.mark_dirty(part)
    doc.invalidate()
    return True


def _bindings_in_place(root: Any, display: Display, plain: ScanContext) -> None:
    """Every bound control and every cell inside one, in document order, as the walk meets them.
    Controls and cells inside content a value replaces show nothing of their own (the walk
    ignores their bindings): they are only unbound."""
    inside_values: set[Any] = set()
    for element in list(root.iter(W_SDT, W_TR)):
        if not is_attached(element, root):
            continue  # inside a control whose content was replaced already
        if element.tag == W_TR:
            _cells_in_place(element, display, plain, inside_values)
            continue
        binding = data_binding(element)
        if binding is None:
            continue
        bound = display.binding(element) if element not in inside_values else None
        if bound is None or (bound.text is None and bound.paragraphs is None):
            binding.getparent().remove(binding)
            continue
        content = element.find(W_SDTCONTENT)
        if content is None:
            content = element.makeelement(W_SDTCONTENT, {})
            element.append(content)
        level = _level(element)
        if level != "table":  # (around cells, each cell marks its own inside)
            inside_values.update(content.iter(W_SDT, W_TC))
        if level == "run":
            content[:] = [_value_run(element, bound.text or "", next(content.iter(W_R), None))]
        elif level == "block" and bound.paragraphs is not None:
            content[:] = display.bound_elements(element, bound)
        elif level == "block":
            _value_in_first_paragraph(content, bound, plain)
        # (around cells, the cells hold the value already; around rows, nothing reads it)
        parent = element.getparent()
        index = parent.index(element)
        parent[index : index + 1] = list(content)


def _cells_in_place(row: Any, display: Display, plain: ScanContext, inside_values: set[Any]) -> None:
    """Cells inside a bound control show its value in their first paragraph (``walk.cells_of``),
    each cell that shows anything of its own (not one continuing a vertical merge)."""
    for tc, control in list(cells_of(row)):
        if control is None or tc in inside_values or cell_span(tc)[1]:
            continue
        bound = display.binding(control)
        if bound is not None and bound.text is not None:
            inside_values.update(tc.iter(W_SDT, W_TC))
            _value_in_first_paragraph(tc, bound, plain)


def _level(sdt: Any) -> str:
    """``run`` for a control inside a paragraph, ``table`` for one around rows or cells, else
    ``block`` (what the reader's walk and scan take it as)."""
    for ancestor in sdt.iterancestors():
        tag = ancestor.tag
        if tag == W_P:
            return "run"
        if tag in (W_TBL, W_TR):
            return "table"
        if tag in _CONTAINERS:
            return "block"
    return "block"


def _value_run(sdt: Any, text: str, first_run: Any | None) -> Any:
    """One run holding ``text`` (line breaks as ``w:br``), formatted as ``first_run`` is."""
    run = sdt.makeelement(W_R, {})
    if first_run is not None and len(first_run) and first_run[0].tag == W_RPR:
        run.append(deepcopy(first_run[0]))
    for index, line in enumerate(value_lines(text)):
        if index:
            run.append(run.makeelement(W_BR, {}))
        if line:
            t = run.makeelement(W_T, {_XML_SPACE: "preserve"})
            t.text = line
            run.append(t)
    return run


def _value_in_first_paragraph(content: Any, bound: Bound, plain: ScanContext) -> None:
    """A control holding paragraphs shows a text value in its first paragraph (the reader's
    order), the others blank; nothing else inside it is shown (chunks go)."""
    paragraphs = [walked.element for walked in walk_story(content, plain) if not walked.in_text_box]
    for chunk in list(content.iter(W_ALTCHUNK)):
        chunk.getparent().remove(chunk)
    for index, p in enumerate(paragraphs):
        first_run = next(p.iter(W_R), None)
        keep = [child for child in p if child.tag == W_PPR]
        if index == 0:
            keep.append(_value_run(p, bound.text or "", first_run))
        p[:] = keep


def _chunks_in_place(root: Any, display: Display, part: str) -> None:
    for element in list(root.iter(W_ALTCHUNK)):
        if not is_attached(element, root):
            continue
        view = display.chunk(part, element)
        if view.elements is None:
            continue  # left unread, and still reported
        parent = element.getparent()
        index = parent.index(element)
        parent[index : index + 1] = view.elements
