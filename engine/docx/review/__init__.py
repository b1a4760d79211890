"""Comments and tracked changes as a document holds them.

- ``comments``: reading comment threads (comments.xml and the Word 2013+ companion parts).
- ``changes``: reading pending tracked changes of every story.
- ``comment_edits``: writing comments, replies, resolving and reopening.
- ``revisions``: accepting or rejecting every change (``resolve_all``, ``resolve_file``) or
  chosen ones (``resolve_changes``).

May import ``model``, ``package`` and ``wml``; ``edit`` and ``versions`` build on this layer.
"""
