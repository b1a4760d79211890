"""Keeping LibreOffice from joining two insertions across a paragraph break.

LibreOffice (7.4) merges two insertions by the same author made close in time when one ends a
paragraph and the other starts the next, and the merged insertion then takes the paragraph break
between them along: rejecting it joins the two paragraphs. Word keeps them apart. The second
insertion may be text at the start of the next paragraph or, when that paragraph has no text of
its own, its inserted paragraph mark.

``separate_touching_insertions`` finds such pairs (a paragraph whose own mark stays, ending with
inserted text, followed by one starting with an insertion) and leaves the second paragraph's
revisions without a date (``w:date`` is optional), alternating with the dated ones, so that no two
neighbours can be merged. The redline (whose revisions are all its own) and tracked
``suggest_changes`` (only the revisions of the call itself) both use it.
"""

from __future__ import annotations

from typing import Any

from .wml.ns import W_P, qn
from .wml.properties import mark_properties
from .wml.revisions import paragraph_mark_state, paragraph_runs

_WRAPPERS_IN = (qn("w:ins"), qn("w:moveTo"))
_REVISION_TAGS = (qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo"), qn("w:rPrChange"), qn("w:pPrChange"),
                  qn("w:moveFromRangeStart"), qn("w:moveToRangeStart"), qn("w:trPrChange"), qn("w:tcPrChange"),
                  qn("w:tblPrChange"))  # fmt: skip
_EMPTY_TEXT = (qn("w:t"), qn("w:delText"), qn("w:instrText"))
_RPR = qn("w:rPr")
_AUTHOR, _DATE = qn("w:author"), qn("w:date")


def separate_touching_insertions(root: Any, revisions: Any, *, own_only: bool = False) -> int:
    """Undate, in alternation, the revisions of paragraphs whose first insertion touches the
    previous paragraph's last one (see the module docstring). ``own_only``: consider and change
    only the revisions of ``revisions``' author and date. Returns the number of paragraphs left
    undated."""

    def ours(element: Any) -> bool:
        return not own_only or (element.get(_AUTHOR) == revisions.author and element.get(_DATE) == revisions.date)

    inserted = {_owner_paragraph(wrapper) for wrapper in root.iter(*_WRAPPERS_IN) if ours(wrapper)}
    inserted.discard(None)
    if not inserted:
        return 0
    previous = None
    previous_dated = True
    undated = 0
    for p in root.iter(W_P):
        dated = True
        if (
            previous in inserted
            and p in inserted
            and not (paragraph_mark_state(previous) & {"ins", "moveTo"})
            and _ends_inserted(previous, ours)
            and _starts_inserted(p, ours)
        ):
            dated = not previous_dated
            for element in p.iter(*_REVISION_TAGS):
                if _owner_paragraph(element) is p and ours(element):
                    if dated:
                        element.set(_DATE, revisions.date)
                    elif _DATE in element.attrib:
                        del element.attrib[_DATE]
            undated += not dated
        previous, previous_dated = p, dated
    return undated


def _content_runs(p: Any) -> list[Any]:
    """The runs of ``p`` that hold something (an empty ``w:t`` shows nothing)."""
    return [
        r for r in paragraph_runs(p)
        if any(c.tag != _RPR and not (c.tag in _EMPTY_TEXT and not c.text) for c in r)
    ]  # fmt: skip


def _insertion_around(run: Any, p: Any) -> Any | None:
    for ancestor in run.iterancestors():
        if ancestor is p:
            return None
        if ancestor.tag in _WRAPPERS_IN:
            return ancestor
    return None


def _ends_inserted(p: Any, ours) -> bool:
    runs = _content_runs(p)
    wrapper = _insertion_around(runs[-1], p) if runs else None
    return wrapper is not None and ours(wrapper)


def _starts_inserted(p: Any, ours) -> bool:
    """``p`` begins with an insertion: its first text, or its mark when it has no text."""
    runs = _content_runs(p)
    if runs:
        wrapper = _insertion_around(runs[0], p)
        return wrapper is not None and ours(wrapper)
    rpr = mark_properties(p)
    return rpr is not None and any(c.tag in _WRAPPERS_IN and ours(c) for c in rpr)


def _owner_paragraph(element: Any) -> Any:
    node = element.getparent()
    while node is not None and node.tag != W_P:
        node = node.getparent()
    return node
