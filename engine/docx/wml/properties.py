"""Property containers (``w:pPr``, ``w:rPr``, ``w:trPr``, ``w:tcPr``) and the child order the
OOXML schema requires in each of them.

Word refuses (or silently repairs) a document whose ``w:pPr`` lists ``w:jc`` before ``w:ind``;
every writer therefore inserts property elements through ``insert_ordered``, which places a new
child after every sibling the schema puts before it. Elements a table does not know (extensions
from later Word versions) are left where they are and never used as anchors.
"""

from __future__ import annotations

from typing import Any

from .ns import W_PPR, W_RPR, W_TCPR, W_TRPR, qn

_NAMES_PPR = (
    "pStyle keepNext keepLines pageBreakBefore framePr widowControl numPr suppressLineNumbers pBdr shd tabs "
    "suppressAutoHyphens kinsoku wordWrap overflowPunct topLinePunct autoSpaceDE autoSpaceDN bidi adjustRightInd "
    "snapToGrid spacing ind contextualSpacing mirrorIndents suppressOverlap jc textDirection textAlignment "
    "textboxTightWrap outlineLvl divId cnfStyle rPr sectPr pPrChange"
)
_NAMES_RPR = (
    "ins del moveFrom moveTo rStyle rFonts b bCs i iCs caps smallCaps strike dstrike outline shadow emboss imprint "
    "noProof snapToGrid vanish webHidden color spacing w kern position sz szCs highlight u effect bdr shd fitText "
    "vertAlign rtl cs em lang eastAsianLayout specVanish oMath rPrChange"
)
_NAMES_TRPR = (
    "cnfStyle divId gridBefore gridAfter wBefore wAfter cantSplit trHeight tblHeader tblCellSpacing jc hidden "
    "ins del trPrChange"
)
_NAMES_TCPR = (
    "cnfStyle tcW gridSpan hMerge vMerge tcBorders shd noWrap tcMar textDirection tcFitText vAlign hideMark headers "
    "cellIns cellDel cellMerge tcPrChange"
)


def _order(names: str) -> dict[str, int]:
    return {qn("w:" + name): rank for rank, name in enumerate(names.split())}


PPR_ORDER = _order(_NAMES_PPR)
RPR_ORDER = _order(_NAMES_RPR)
TRPR_ORDER = _order(_NAMES_TRPR)
TCPR_ORDER = _order(_NAMES_TCPR)
# The paragraph-property group a w:pPrChange records (everything but the mark's run
# properties, the section and the change itself).
PPR_BASE = frozenset(tag for tag in PPR_ORDER if tag not in (W_RPR, qn("w:sectPr"), qn("w:pPrChange")))

ORDERS = {W_PPR: PPR_ORDER, W_RPR: RPR_ORDER, W_TRPR: TRPR_ORDER, W_TCPR: TCPR_ORDER}


def insert_ordered(parent: Any, child: Any, order: dict[str, int] | None = None) -> Any:
    """Insert ``child`` into ``parent`` at the place ``order`` (default: the order of the
    parent's own tag) gives it: after the last sibling that ranks before it. Returns ``child``."""
    order = order if order is not None else ORDERS[parent.tag]
    rank = order.get(child.tag)
    if rank is None:
        parent.append(child)
        return child
    position = 0
    for index, sibling in enumerate(parent):
        sibling_rank = order.get(sibling.tag)
        if sibling_rank is not None and sibling_rank <= rank:
            position = index + 1
    parent.insert(position, child)
    return child


def get_or_add(parent: Any, tag: str, order: dict[str, int] | None = None) -> Any:
    """The ``tag`` child of ``parent`` (``"w:jc"``), created in schema order when missing."""
    clark = qn(tag) if ":" in tag and not tag.startswith("{") else tag
    found = parent.find(clark)
    if found is not None:
        return found
    return insert_ordered(parent, parent.makeelement(clark, {}), order)


def remove_child(parent: Any, tag: str) -> bool:
    """Remove every ``tag`` child of ``parent``; True when something was removed."""
    clark = qn(tag) if not tag.startswith("{") else tag
    found = parent.findall(clark)
    for child in found:
        parent.remove(child)
    return bool(found)


def paragraph_properties(p: Any, *, create: bool = False) -> Any | None:
    """The ``w:pPr`` of paragraph ``p`` (always its first child), created when asked."""
    if len(p) and p[0].tag == W_PPR:
        return p[0]
    if not create:
        return None
    ppr = p.makeelement(W_PPR, {})
    p.insert(0, ppr)
    return ppr


def run_properties(r: Any, *, create: bool = False) -> Any | None:
    """The ``w:rPr`` of run ``r`` (always its first child), created when asked."""
    if len(r) and r[0].tag == W_RPR:
        return r[0]
    if not create:
        return None
    rpr = r.makeelement(W_RPR, {})
    r.insert(0, rpr)
    return rpr


def mark_properties(p: Any, *, create: bool = False) -> Any | None:
    """The run properties of the paragraph mark (``w:pPr/w:rPr``), created when asked."""
    ppr = paragraph_properties(p, create=create)
    if ppr is None:
        return None
    rpr = ppr.find(W_RPR)
    if rpr is None and create:
        rpr = insert_ordered(ppr, ppr.makeelement(W_RPR, {}), PPR_ORDER)
    return rpr


def row_properties(tr: Any, *, create: bool = False) -> Any | None:
    """The ``w:trPr`` of a row (after an optional ``w:tblPrEx``), created when asked."""
    found = tr.find(W_TRPR)
    if found is not None or not create:
        return found
    trpr = tr.makeelement(W_TRPR, {})
    position = 1 if len(tr) and tr[0].tag == qn("w:tblPrEx") else 0
    tr.insert(position, trpr)
    return trpr


def cell_properties(tc: Any, *, create: bool = False) -> Any | None:
    """The ``w:tcPr`` of a cell (its first child), created when asked."""
    if len(tc) and tc[0].tag == W_TCPR:
        return tc[0]
    if not create:
        return None
    tcpr = tc.makeelement(W_TCPR, {})
    tc.insert(0, tcpr)
    return tcpr


def _canonical(element: Any) -> tuple:
    children = tuple(_canonical(child) for child in element if isinstance(child.tag, str))
    return (element.tag, tuple(sorted(element.attrib.items())), (element.text or "").strip(), children)


def same_paragraph_properties(current: Any | None, proposed: Any | None) -> bool:
    """Equal paragraph properties (the recorded group), whatever the order or namespaces."""

    def canonical(ppr: Any | None) -> list[tuple]:
        if ppr is None:
            return []
        return sorted(_canonical(child) for child in ppr if child.tag in PPR_BASE)

    return canonical(current) == canonical(proposed)
