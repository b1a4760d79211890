"""The operation types of the suggest_changes contract, in contract order, and where each one's
handler module lives.

A handler module (``edit/<module>.py``) defines ``SPECS``: one ``OperationSpec`` per type
it implements (see ``spec``). Modules are imported when a type is first needed; they must not
import lxml at module level (import it inside functions), because building the tool schema loads
every spec.

A type listed with module ``None`` is part of the contract but not implemented yet: it is left
out of the default ``operationTypes``, refused when a host asks for it, and a call that uses it
fails with a message saying so.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .spec import OperationSpec

# (type, handler module) in the contract's order.
OPERATION_MODULES: tuple[tuple[str, str | None], ...] = (
    ("replaceInBlock", "text_replace"),
    ("replaceRange", "text_replace"),
    ("commentOnRange", "comment_ops"),
    ("formatRange", "format_range"),
    ("insertAfterBlock", "insert_block"),
    ("insertBeforeBlock", "insert_block"),
    ("replaceBlock", "replace_block"),
    ("deleteBlock", "delete_block"),
    ("splitBlock", "split_merge"),
    ("mergeBlockWithNext", "split_merge"),
    ("setBlockParagraphProperties", "paragraph_properties"),
    ("insertTable", "table_insert"),
    ("deleteTable", "table_insert"),
    ("insertTableRow", "table_rows"),
    ("deleteTableRow", "table_rows"),
    ("insertTableColumn", "table_columns"),
    ("deleteTableColumn", "table_columns"),
    ("mergeTableCells", "table_cells"),
    ("splitTableCell", "table_cells"),
    ("commentOnBlock", "comment_ops"),
    ("insertSignatureTable", "table_signature"),
)

CONTRACT_TYPES: tuple[str, ...] = tuple(name for name, _ in OPERATION_MODULES)
_MODULES = dict(OPERATION_MODULES)
_CACHE: dict[str, OperationSpec] = {}


def is_available(name: str) -> bool:
    return _MODULES.get(name) is not None


def available_types() -> tuple[str, ...]:
    return tuple(name for name, module in OPERATION_MODULES if module is not None)


def get_spec(name: str) -> OperationSpec:
    """The spec of an implemented type (KeyError for anything else)."""
    spec = _CACHE.get(name)
    if spec is not None:
        return spec
    module_name = _MODULES.get(name)
    if module_name is None:
        raise KeyError(name)
    module = importlib.import_module(f"{__package__}.{module_name}")
    for found in module.SPECS:
        _CACHE[found.name] = found
    return _CACHE[name]


def default_types() -> tuple[str, ...]:
    """Implemented types a host gets when it does not choose (``default=False`` specs, such as
    commentOnBlock, which add_comment covers, are left out)."""
    return tuple(name for name in available_types() if get_spec(name).default)
