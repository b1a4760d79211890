"""Tracked changes of table properties, shared by the table operations and redlines.

``record_table_properties``, ``record_row_properties`` and ``record_cell_properties`` save a
table's, row's or cell's properties in a ``w:tblPrChange`` / ``w:trPrChange`` / ``w:tcPrChange``
before the caller changes them (an existing record is kept: it already holds the original), so
rejecting restores them; ``record_grid`` saves the column grid in a ``w:tblGridChange``.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from .ns import W_DEL, W_INS, W_TCPR, W_TRPR, qn
from .properties import TCPR_ORDER, TRPR_ORDER, cell_properties, insert_ordered, row_properties
from .revisions import W_CELLDEL, W_CELLINS

W_TBLPR = qn("w:tblPr")
W_CELLMERGE = qn("w:cellMerge")
W_TCPRCHANGE = qn("w:tcPrChange")
W_TRPRCHANGE = qn("w:trPrChange")
W_TBLPRCHANGE = qn("w:tblPrChange")
W_TBLGRIDCHANGE = qn("w:tblGridChange")

_NAMES_TBLPR = (
    "tblStyle tblpPr tblOverlap bidiVisual tblStyleRowBandSize tblStyleColBandSize tblW jc tblCellSpacing tblInd "
    "tblBorders shd tblLayout tblCellMar tblLook tblCaption tblDescription tblPrChange"
)
TBLPR_ORDER = {qn("w:" + name): rank for rank, name in enumerate(_NAMES_TBLPR.split())}
# A cell's revision markers: part of its history, not of the properties a record saves.
CELL_MARKERS = frozenset({W_CELLINS, W_CELLDEL, W_CELLMERGE})


def _record(
    owner: Any, change_tag: str, inner_tag: str, order: dict[str, int], skip: frozenset, revisions, source: Any = None
) -> Any:
    """Save ``owner``'s children (or ``source``'s: the element as it was earlier) in a change
    record, unless one exists."""
    if owner.find(change_tag) is not None:
        return owner
    change = revisions.element(change_tag, owner)
    original = change.makeelement(inner_tag, {})
    for child in owner if source is None else source:
        if child.tag not in skip and child.tag != change_tag:
            original.append(deepcopy(child))
    change.append(original)
    insert_ordered(owner, change, order)
    return owner


def record_cell_properties(tc: Any, revisions: Any) -> Any:
    """Save the cell's properties in a ``w:tcPrChange`` (unless one exists); returns its
    ``w:tcPr`` for the caller to change."""
    tcpr = cell_properties(tc, create=True)
    return _record(tcpr, W_TCPRCHANGE, W_TCPR, TCPR_ORDER, CELL_MARKERS, revisions)


def record_row_properties(tr: Any, revisions: Any) -> Any:
    """Save the row's properties in a ``w:trPrChange``; returns its ``w:trPr``."""
    trpr = row_properties(tr, create=True)
    return _record(trpr, W_TRPRCHANGE, W_TRPR, TRPR_ORDER, frozenset({W_INS, W_DEL}), revisions)


def table_properties(tbl: Any) -> Any:
    found = tbl.find(W_TBLPR)
    if found is None:
        found = tbl.makeelement(W_TBLPR, {})
        tbl.insert(0, found)
    return found


def record_table_properties(tbl: Any, revisions: Any, source: Any = None) -> Any:
    """Save the table's properties (or ``source``, its ``w:tblPr`` as it was earlier) in a
    ``w:tblPrChange``; returns its ``w:tblPr``."""
    return _record(table_properties(tbl), W_TBLPRCHANGE, W_TBLPR, TBLPR_ORDER, frozenset(), revisions, source)


def record_grid(grid: Any, ids: Any, source: Any = None) -> None:
    """Save the column grid (``w:tblGrid``, or ``source``, the grid as it was earlier) in a
    ``w:tblGridChange`` unless one exists. The record carries only an id: the schema gives it no
    author or date."""
    if grid.find(W_TBLGRIDCHANGE) is not None:
        return
    change = grid.makeelement(W_TBLGRIDCHANGE, {qn("w:id"): str(ids.take())})
    original = change.makeelement(qn("w:tblGrid"), {})
    for child in grid if source is None else source:
        if child.tag != W_TBLGRIDCHANGE:
            original.append(deepcopy(child))
    change.append(original)
    grid.append(change)
