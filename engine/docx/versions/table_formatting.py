"""Formatting changes of paired tables, rows and cells, for compare and redline.

``changed_table_properties`` and friends name what differs between a table (row, cell) of the
previous version and its counterpart in the current one: ``tableProperties`` (style, width,
borders, layout...), ``tableGrid`` (column widths), ``rowProperties`` (height, header row, cannot
split...) and ``cellProperties`` (width, shading, borders, vertical alignment...).

When the two versions pair a table (or a row, or a cell) whose properties differ, the redline
gives it the current version's properties and keeps the previous ones in the matching property
revision: ``w:tblPrChange``, ``w:tblGridChange``, ``w:trPrChange`` or ``w:tcPrChange``.
Rejecting the revision gives the previous properties back, accepting it keeps the current ones.

Revision marks a properties element may hold (a row's ``w:ins`` / ``w:del``, a cell's
``w:cellIns`` and the like) and revision session ids are not properties and are left as they are.
A copied table style reference brings its style along (``transplant.Importer``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..wml.ns import W_DEL, W_INS, qn
from ..wml.properties import cell_properties, row_properties
from ..wml.table_revisions import record_cell_properties, record_grid, record_row_properties, record_table_properties
from .object_keys import canonical

_TBLPR = qn("w:tblPr")
_TBLGRID = qn("w:tblGrid")
# What each properties element may hold besides properties (revision marks and records).
_NOT_TABLE = frozenset({qn("w:tblPrChange")})
_NOT_ROW = frozenset({W_INS, W_DEL, qn("w:trPrChange")})
_NOT_CELL = frozenset({qn("w:cellIns"), qn("w:cellDel"), qn("w:cellMerge"), qn("w:tcPrChange")})
_NOT_GRID = frozenset({qn("w:tblGridChange")})


def _properties(owner: Any | None, leave: frozenset) -> list[Any]:
    return [] if owner is None else [c for c in owner if isinstance(c.tag, str) and c.tag not in leave]


def _differ(a: Any | None, b: Any | None, leave: frozenset) -> bool:
    return [canonical(c) for c in _properties(a, leave)] != [canonical(c) for c in _properties(b, leave)]


def changed_table_properties(a: Any, b: Any) -> list[str]:
    """What differs between two paired tables' own properties: tableProperties, tableGrid."""
    changed = []
    if _differ(a.find(_TBLPR), b.find(_TBLPR), _NOT_TABLE):
        changed.append("tableProperties")
    if _differ(a.find(_TBLGRID), b.find(_TBLGRID), _NOT_GRID):
        changed.append("tableGrid")
    return changed


def row_properties_differ(a: Any, b: Any) -> bool:
    return _differ(row_properties(a), row_properties(b), _NOT_ROW)


def cell_properties_differ(a: Any, b: Any) -> bool:
    return _differ(cell_properties(a), cell_properties(b), _NOT_CELL)


def _replace(owner: Any, new: Any | None, leave: frozenset, copy: Callable[[Any], Any]) -> None:
    """Give ``owner`` the properties of ``new`` ahead of what it keeps (the schema puts revision
    marks and records after the properties)."""
    for child in _properties(owner, leave):
        owner.remove(child)
    for index, child in enumerate(_properties(new, leave)):
        owner.insert(index, copy(child))


class TablePropertyRedliner:
    """Records property changes between paired elements of the previous version (edited in
    place) and the current one. ``copy`` deep-copies an element of the current version into the
    previous version's package."""

    def __init__(self, revisions: Any, copy: Callable[[Any], Any]) -> None:
        self.revisions = revisions
        self.copy = copy

    def table(self, a: Any, b: Any) -> None:
        changed = changed_table_properties(a, b)
        if "tableProperties" in changed:
            _replace(record_table_properties(a, self.revisions), b.find(_TBLPR), _NOT_TABLE, self.copy)
        grid_a, grid_b = a.find(_TBLGRID), b.find(_TBLGRID)
        if "tableGrid" in changed and grid_a is not None and grid_b is not None:
            record_grid(grid_a, self.revisions.ids)
            _replace(grid_a, grid_b, _NOT_GRID, self.copy)

    def row(self, a: Any, b: Any) -> None:
        if row_properties_differ(a, b):
            _replace(record_row_properties(a, self.revisions), row_properties(b), _NOT_ROW, self.copy)

    def cell(self, a: Any, b: Any) -> None:
        if cell_properties_differ(a, b):
            _replace(record_cell_properties(a, self.revisions), cell_properties(b), _NOT_CELL, self.copy)
