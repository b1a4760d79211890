"""The XML layer of the docx family: WordprocessingML on lxml elements. Nothing here knows about
zip files, blocks, operations or tools.

- ``ns``: namespace URIs, ``qn("w:p")`` Clark names, and the Clark-name constants the walkers use.
- ``parser``: ``parse_xml(data)`` with entity expansion, DTD loading, network access and huge
  trees all off; ``serialize_xml(root)``.
- ``attrs``: WordprocessingML value helpers (``w:val`` on/off semantics, integer attributes).
- ``text``: how run text is spelled (``xml:space``, tabs, breaks, symbols).
- ``properties``: property containers (``w:pPr``, ``w:rPr``, ...) in schema order.
- ``edit``: small structural edits (``ensure_root_namespaces``).
- ``revisions``, ``table_revisions``: tracked-change markup every writer uses;
  ``touching_insertions``: keeping LibreOffice from joining insertions across paragraphs.

The bottom layer: imports nothing else of the family (of the engine, only its errors).
"""
