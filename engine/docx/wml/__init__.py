"""The XML layer of the docx family: namespaces, the one hardened parser, and small helpers that
read WordprocessingML attributes. Nothing here knows about zip files, blocks or tools.

- ``ns``: namespace URIs, ``qn("w:p")`` Clark names, and the Clark-name constants the walkers use.
- ``parser``: ``parse_xml(data)`` with entity expansion, DTD loading, network access and huge
  trees all off; ``serialize_xml(root)``.
- ``attrs``: WordprocessingML value helpers (``w:val`` on/off semantics, integer attributes).
"""
