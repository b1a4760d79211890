"""The docx tools: their definitions, the family's entry point and the handlers.

- ``tooldefs``: the tools as data (names, descriptions, schemas, handler names); imports nothing
  heavy, so the CLI lists and explains verbs without loading lxml.
- ``toolset``: ``docx_toolset(path, options) -> ToolSet`` and ``DocxOptions``.
- Handlers: ``read_tools``, ``edit_tools`` (suggest_changes and the comment tools),
  ``change_tools`` (accept_change, reject_change), ``compare_tools`` (compare_versions);
  ``queue_tools`` applies review queues.

The top layer: may import every other one and the engine's tool protocol. Handlers import what
a tool needs when it runs, which keeps the CLI's start-up fast.
"""
