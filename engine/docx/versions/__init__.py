"""Two saved versions of a document: comparing them and writing a redline.

- ``diff_text`` (sequence alignment and word diffs), ``alignment`` (two stories side by side:
  paragraphs, tables, rows, cells), ``object_keys`` (comparison keys of pictures, fields, ...),
  ``table_formatting`` (what changed in a table's, row's or cell's properties).
- ``compare`` (``compare_versions``) and ``diff_report`` (``format_diff_for_llm``).
- ``transplant`` (copying content between packages), ``redline_paragraph`` and ``redline``
  (``redline_files``).

May import ``review``, ``model``, ``package`` and ``wml``. Independent of ``edit``: neither
imports the other.
"""
