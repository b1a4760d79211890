"""The document as the tools read it: blocks, stories, styles, lists, text offsets and hashes.

- ``scan`` (one paragraph's pieces with their tracked-change flags), ``walk`` (a story's
  paragraphs in document order, with table coordinates), ``table_layout`` (a table's grid).
- ``styles``, ``numbering`` / ``numfmt``: paragraph style resolution and list labels.
- ``blocks`` (the block model and its ids), ``hashing`` (normalisation, blockTextHash, minted
  ids), ``para_ids`` (fresh ``w14:paraId`` values), ``offsets`` (UTF-16 offsets).
- ``stories``: headers, footers and notes, with the handles the tools hand out.
- ``document``: ``DocxDocument`` (package + blocks + stories) and ``load_document``, cached per
  process.

May import ``package`` and ``wml``; nothing that reviews, edits or compares.
"""
