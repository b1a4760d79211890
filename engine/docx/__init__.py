"""The docx family: reading a .docx as blocks, and proposing edits as tracked changes and comments.

The subpackages are layers; each imports only the ones below it (``README.md`` here has the map
and the path of one ``suggest_changes`` call; ``tests/engine/test_layers.py`` enforces the order):

- ``tools``: the tool definitions, ``docx_toolset`` and the handlers.
- ``edit`` (suggest_changes operations) and ``versions`` (compare, redline): side by side,
  independent of each other.
- ``review``: comments and tracked changes as they stand (reading, writing comments, accepting
  and rejecting).
- ``model``: the document as read: blocks, stories, styles, lists, ``DocxDocument``.
- ``package``: the zip, its parts and relationships, limits, Strict documents, metadata.
- ``wml``: WordprocessingML on lxml elements, and the one hardened parser.

For mutations (tracked changes, comment replies): open a private ``DocxDocument.open(path)``
(never mutate the cached ``load_document`` one), edit ``doc.package.xml(part)`` trees, call
``doc.package.mark_dirty(part)`` and ``doc.invalidate()``, then ``doc.save(path)`` (which also
writes minted paragraph ids) and ``forget_document(path)``. To build a new package (a redline),
start from an existing one with ``DocxPackage.from_bytes`` and ``set_xml`` / ``add_part`` what
differs.

The names below are the family's Python API, importable from here whatever module holds them.
Importing this package loads nothing: each name is imported on first use, so the CLI can read
the tool definitions without lxml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_exports import lazy_exports

# Public name -> the module (inside this package) that defines it, imported on first use.
_EXPORTS = {
    "DocxOptions": "tools.toolset",
    "docx_toolset": "tools.toolset",
    "DocxDocument": "model.document",
    "load_document": "model.document",
    "forget_document": "model.document",
    "Story": "model.stories",
    "list_stories": "model.stories",
    "find_story": "model.stories",
    "DocxPackage": "package.docx_package",
    "resolve_all": "review.revisions",
    "resolve_file": "review.revisions",
    "resolve_changes": "review.revisions",
    "compare_versions": "versions.compare",
    "format_diff_for_llm": "versions.diff_report",
    "redline_files": "versions.redline",
}

__all__ = [
    "DocxDocument",
    "DocxOptions",
    "DocxPackage",
    "Story",
    "compare_versions",
    "docx_toolset",
    "find_story",
    "forget_document",
    "format_diff_for_llm",
    "list_stories",
    "load_document",
    "redline_files",
    "resolve_all",
    "resolve_changes",
    "resolve_file",
]

if TYPE_CHECKING:
    from .model.document import DocxDocument, forget_document, load_document
    from .model.stories import Story, find_story, list_stories
    from .package.docx_package import DocxPackage
    from .review.revisions import resolve_all, resolve_changes, resolve_file
    from .tools.toolset import DocxOptions, docx_toolset
    from .versions.compare import compare_versions
    from .versions.diff_report import format_diff_for_llm
    from .versions.redline import redline_files


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
