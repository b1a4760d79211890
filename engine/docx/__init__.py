"""The docx family: reading a .docx as blocks, and (in later modules) proposing edits as tracked
changes and comments.

Layers, each talking only to the one below (importing this package loads nothing heavy):

- ``wml/``: XML only. ``ns`` (namespaces, ``qn("w:p")``, Clark-name constants), ``parser``
  (the one hardened lxml parser: no entities, no DTD, no network, ``huge_tree`` off),
  ``attrs`` (on/off and integer attribute values), ``edit`` (``ensure_root_namespaces``).
- ``package``: the zip and Open Packaging Conventions, with the size limits of ``limits``.
  ``DocxPackage.open(path)`` refuses anything that is not a usable .docx with ``InputError``;
  parts are parsed lazily (``xml(name)``), edited in place, marked (``mark_dirty``), added with
  their content type and relationship (``add_part``, ``add_relationship``) and saved atomically
  (``save``); untouched parts keep their exact bytes; ``version`` is the documentVersion token.
- ``styles``, ``numbering`` / ``numfmt``: paragraph style resolution, list labels.
- ``scan`` (one paragraph's pieces with their tracked-change flags), ``walk`` (a story's
  paragraphs in order, with table coordinates), ``blocks`` (the block model and ids),
  ``hashing`` (normalisation, blockTextHash, minted ids), ``offsets`` (UTF-16 offsets).
- ``document``: ``DocxDocument`` = package + blocks + stories; ``load_document(path)`` caches
  one parsed document per file per process and reloads it when the file changes.
- ``stories``, ``comments``, ``changes``: the readers behind the read tools; ``revisions``:
  accept-all / reject-all (``resolve_all`` on a document, ``resolve_file`` on a path) and chosen
  changes by their ``read_changes`` id (``resolve_changes``; tools in ``change_tools``).
- Versions: ``diff_text`` (word diffs, patience/Myers alignment, similarity), ``alignment`` (two
  stories side by side: paragraphs, tables, rows, cells), ``object_keys``, ``compare``
  (``compare_versions``), ``diff_report`` (``format_diff_for_llm``), ``transplant`` (copying
  content between packages), ``redline_paragraph`` and ``redline`` (``redline_files``), ``privacy``
  (package metadata report and scrubbing).
- ``tooldefs`` (static tool definitions, lxml-free), ``read_tools`` (handlers), ``toolset``
  (``docx_toolset(path, options) -> ToolSet``, the family's entry point).

For mutations (tracked changes, comment replies): open a private ``DocxDocument.open(path)``
(never mutate the cached ``load_document`` one), edit ``doc.package.xml(part)`` trees, call
``doc.package.mark_dirty(part)`` and ``doc.invalidate()``, then ``doc.save(path)`` (which also
writes minted paragraph ids) and ``document.forget_document(path)``. To build a new package
(a redline), start from an existing one with ``DocxPackage.from_bytes`` and ``set_xml`` /
``add_part`` what differs.
"""
