"""Keeping LibreOffice from joining two insertions across a paragraph break.

LibreOffice (7.4) merges two insertions by the same author made close in time when one ends a
paragraph and the other starts the next, and the merged insertion then takes the paragraph break
between them along: rejecting it joins the two paragraphs. Word keeps them apart. The second
insertion may be text at the start of the next paragraph or, when that paragraph has no text of
its own, its inserted paragraph mark; the first may likewise be the inserted mark of the
paragraph before an empty one.

``separate_touching_insertions`` finds such pairs (an insertion, a paragraph mark that stays,
another insertion; a paragraph without text counts as nothing but its mark) and leaves the
second insertion's paragraph's revisions without a date (``w:date`` is optional), alternating
with the dated ones, so that no two neighbours can be merged. The redline (whose revisions are
all its own) and tracked ``suggest_changes`` (only the revisions of the call itself) use it.
"""

from __future__ import annotations

from typing import Any

from .ns import W_P, qn
from .properties import mark_properties
from .revisions import paragraph_runs

_WRAPPERS_IN = (qn("w:ins"), qn("w:moveTo"))
_REVISION_TAGS = (qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo"), qn("w:rPrChange"), qn("w:pPrChange"),
                  qn("w:moveFromRangeStart"), qn("w:moveToRangeStart"), qn("w:trPrChange"), qn("w:tcPrChange"),
                  qn("w:tblPrChange"))  # fmt: skip
_EMPTY_TEXT = (qn("w:t"), qn("w:delText"), qn("w:instrText"))
_RPR = qn("w:rPr")
_MARK_REVISIONS = (qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo"))
_AUTHOR, _DATE = qn("w:author"), qn("w:date")


def separate_touching_insertions(root: Any, revisions: Any, *, own_only: bool = False) -> int:
    """Undate, in alternation, the revisions of paragraphs whose first insertion touches an
    earlier insertion across a paragraph break that stays (see the module docstring). The
    document is read as one stream of pieces: each paragraph's runs that show something, then
    its mark; the pattern is an inserted piece, a kept mark, an inserted piece (looked for only
    where an insertion starts a paragraph). ``own_only``:
    consider and change only the revisions of ``revisions``' author and date. Returns the number
    of paragraphs left undated."""

    def ours(element: Any) -> bool:
        return not own_only or (element.get(_AUTHOR) == revisions.author and element.get(_DATE) == revisions.date)

    # Only a paragraph holding one of the insertions can start the second one; the pieces
    # before it come from the paragraph before it (and, when that one shows nothing, the one
    # before that).
    candidates = {next(w.iterancestors(W_P), None) for w in root.iter(*_WRAPPERS_IN) if ours(w)}
    candidates.discard(None)
    if not candidates:
        return 0
    paragraphs = list(root.iter(W_P))
    dated: dict[Any, bool] = {}
    undated = 0
    for index, p in enumerate(paragraphs):
        if p not in candidates or index == 0 or _first_piece(p, ours) != "ins":
            continue
        before = paragraphs[index - 1]
        if _mark_piece(before, ours) != "kept":
            continue
        runs = _content_runs(before)
        if runs:
            owner, touching = before, _inserted_run(runs[-1], before, ours)
        else:
            owner = paragraphs[index - 2] if index > 1 else None
            touching = owner is not None and _mark_piece(owner, ours) == "ins"
        if not touching:
            continue
        dated[p] = not dated.get(owner, True)
        for element in p.iter(*_REVISION_TAGS):
            if next(element.iterancestors(W_P), None) is p and ours(element):
                if dated[p]:
                    element.set(_DATE, revisions.date)
                elif _DATE in element.attrib:
                    del element.attrib[_DATE]
        undated += not dated[p]
    return undated


def _first_piece(p: Any, ours) -> str:
    """ "ins" when ``p`` begins with an insertion: its first text, or its mark when it has none."""
    runs = _content_runs(p)
    if runs:
        return "ins" if _inserted_run(runs[0], p, ours) else "text"
    return _mark_piece(p, ours)


def _content_runs(p: Any) -> list[Any]:
    """The runs of ``p`` that hold something (an empty ``w:t`` shows nothing)."""
    return [
        r for r in paragraph_runs(p)
        if any(c.tag != _RPR and not (c.tag in _EMPTY_TEXT and not c.text) for c in r)
    ]  # fmt: skip


def _inserted_run(run: Any, p: Any, ours) -> bool:
    for ancestor in run.iterancestors():
        if ancestor is p:
            return False
        if ancestor.tag in _WRAPPERS_IN:
            return ours(ancestor)
    return False


def _mark_piece(p: Any, ours) -> str:
    """ "ins" for a mark inserted (by us), "kept" for a mark no revision touches, else "other"."""
    rpr = mark_properties(p)
    marks = [c for c in rpr if c.tag in _MARK_REVISIONS] if rpr is not None else []
    if not marks:
        return "kept"
    return "ins" if any(c.tag in _WRAPPERS_IN and ours(c) for c in marks) else "other"
