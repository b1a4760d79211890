"""The .docx as a package: the zip archive and its Open Packaging Conventions, not Word.

- ``docx_package``: ``DocxPackage``, parts parsed lazily, edited in place, added with their
  content type and relationship, saved atomically (untouched parts keep their bytes), and the
  ``version`` token.
- ``limits``: size and cost limits for untrusted packages, with the reasoning behind each.
- ``strict_ooxml``: Strict Open XML read through the transitional names (and not written).
- ``integrity``: refusing a package with a damaged part, whichever tool opens it.
- ``privacy``: the metadata a package carries about people and machines, reported and scrubbed.

May import ``wml`` and the engine's shared modules (errors, files, progress); nothing above.
"""
